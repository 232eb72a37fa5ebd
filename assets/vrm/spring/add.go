package spring

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/xform"
	"github.com/qmuntal/gltf"
)

// region is a hanging part of a mesh that gets chains: vertices below Top
// (world height) move with chains parented to Attach, arranged in Sectors
// around the vertical axis through the attachment joint.
type region struct {
	kind    string // "hair" or "skirt": names and settings
	mesh    int
	attach  int     // node index of the joint the chains hang from
	axis    vec3    // a point of the vertical axis the sectors turn about
	top     float64 // height where the chains begin
	fall    float64 // distance under top over which vertices pass to the chains
	sectors int
	links   int // joints per chain, tip included
}

// Settings of each kind of chain: hair a little stiffer than a skirt so
// it keeps its shape, both with a light gravity so they settle, not sag.
// The hair's joints have a 3.5 cm hit radius: with 2 cm, hanging hair
// between two joints dipped up to 12.5 mm into the shoulders' and back's
// colliders when the head turned in three-vrm (1 mm with 3.5 cm).
var settings = map[string]Spring{
	"hair":  {Stiffness: 1.0, Gravity: 0.15, Drag: 0.4, HitRadius: 0.035},
	"skirt": {Stiffness: 1.0, Gravity: 0.1, Drag: 0.5, HitRadius: 0.025},
}

// Add puts spring chains into a Kiln avatar scene (after the caller's
// pose and facing normalisation; call it on the scene that is written,
// once per VRM version if they differ): long hair, ponytails and skirts
// get chains of new joint nodes, appended to the mesh's skin with their
// inverse bind matrices, and their hanging vertices are re-skinned to
// them with weights that grow from nothing at the attachment, so the
// mesh at rest is exactly where it was (no vertex position changes). It
// adds colliders on the head, neck, chest, upper arms (and thighs for a
// skirt). A scene with nothing that hangs (short hair, trousers) gets
// nothing: nil, nil.
func Add(s *scene.Scene) (*Chains, error) {
	j := jointsOf(s)
	if j == nil {
		return nil, nil
	}
	var regions []region
	if r, ok := hairRegion(s, j); ok {
		regions = append(regions, r)
	}
	if r, ok := skirtRegion(s, j); ok {
		regions = append(regions, r)
	}
	if len(regions) == 0 {
		return nil, nil
	}
	c := &Chains{}
	cols := colliders(s, j, regions)
	var moving []vec3
	for _, r := range regions {
		made, mv, err := chain(s, j, r)
		if err != nil {
			return nil, err
		}
		for i := range made {
			made[i].Groups = groupsFor(r.kind)
		}
		c.Springs = append(c.Springs, made...)
		moving = append(moving, mv...)
	}
	if len(c.Springs) == 0 {
		return nil, nil
	}
	var tips []ball
	for _, sp := range c.Springs {
		for _, n := range sp.Joints {
			tips = append(tips, ball{j.world[n].Translation(), sp.HitRadius})
		}
	}
	c.place(j, cols, moving, tips)
	return c, nil
}

// joints are the named joints of the avatar, world matrices of every
// node, and the skinned mesh nodes.
type joints struct {
	node  map[string]int
	world []xform.Mat4
}

func jointsOf(s *scene.Scene) *joints {
	j := &joints{node: map[string]int{}, world: xform.Worlds(s, s.Parents(), nil)}
	for i, n := range s.Nodes {
		if _, dup := j.node[n.Name]; !dup && n.Name != "" {
			j.node[n.Name] = i
		}
	}
	for _, need := range []string{"Hips", "Spine2", "Neck", "Head"} {
		if _, ok := j.node[need]; !ok {
			return nil
		}
	}
	return j
}

func (j *joints) pos(name string) (vec3, bool) {
	i, ok := j.node[name]
	if !ok {
		return vec3{}, false
	}
	return j.world[i].Translation(), true
}

// meshNode is the node that draws the named skinned mesh, -1 if none.
func meshNode(s *scene.Scene, name string) int {
	for i, n := range s.Nodes {
		if n.Mesh != nil && n.Skin != nil && *n.Mesh < len(s.Meshes) && s.Meshes[*n.Mesh].Name == name && *n.Skin < len(s.Skins) {
			return i
		}
	}
	return -1
}

// hairRegion finds hair that hangs: Wolf3D_Hair reaching at least 6 cm
// under the neck joint (long hair, a ponytail), not short hair, a bun or
// curls that end at the nape.
func hairRegion(s *scene.Scene, j *joints) (region, bool) {
	n := meshNode(s, "Wolf3D_Hair")
	if n < 0 {
		return region{}, false
	}
	head, _ := j.pos("Head")
	neck, _ := j.pos("Neck")
	low := math.Inf(1)
	for _, p := range s.Meshes[*s.Nodes[n].Mesh].Primitives {
		for _, v := range p.Positions {
			low = min(low, float64(v[1]))
		}
	}
	if low > neck[1]-0.06 {
		return region{}, false
	}
	top := neck[1] + 0.5*(head[1]-neck[1])
	// Long hair passes from the head to its chains over 14 cm (over 8 cm
	// it showed a kink at the shoulders when the head turned); a ponytail
	// over a shorter run.
	fall := math.Min(0.14, 0.4*(top-low))
	return region{kind: "hair", mesh: n, attach: j.node["Head"], axis: head, top: top, fall: fall, sectors: 10, links: 4}, true
}

// skirtRegion finds a skirt: a Wolf3D_Outfit_Bottom with cloth on the
// body's midline, in front of or behind the legs, between the crotch and
// the knees. Trousers and shorts part there into two legs: the few
// vertices they have near the midline are inner thighs, level with the
// legs' centres.
func skirtRegion(s *scene.Scene, j *joints) (region, bool) {
	n := meshNode(s, "Wolf3D_Outfit_Bottom")
	l, okL := j.pos("LeftUpLeg")
	r, okR := j.pos("RightUpLeg")
	knee, okK := j.pos("LeftLeg")
	if n < 0 || !okL || !okR || !okK {
		return region{}, false
	}
	hips, _ := j.pos("Hips")
	mid := (l[0] + r[0]) / 2
	half := math.Abs(l[0]-r[0]) / 2
	top := (l[1] + r[1]) / 2
	depth := (l[2] + r[2]) / 2
	near, across := 0, 0
	for _, p := range s.Meshes[*s.Nodes[n].Mesh].Primitives {
		for _, v := range p.Positions {
			if math.Abs(float64(v[0])-mid) < 0.25*half && float64(v[1]) < top-0.15 {
				near++
				if float64(v[1]) > knee[1] && math.Abs(float64(v[2])-depth) > 0.06 {
					across++
				}
			}
		}
	}
	if across < 5 || 2*across <= near {
		return region{}, false
	}
	return region{kind: "skirt", mesh: n, attach: j.node["Hips"], axis: vec3{mid, hips[1], hips[2]}, top: top, fall: 0.06, sectors: 8, links: 4}, true
}

// hanging is one vertex of a region: where it is, its angle about the
// axis and its primitive and index.
type hanging struct {
	prim, v int
	p       vec3
	angle   float64
}

// chain builds the chains of one region and re-skins its vertices.
// The vertices that follow the chains by half or more come back, so that
// the colliders can be kept off them at rest.
func chain(s *scene.Scene, j *joints, r region) ([]Spring, []vec3, error) {
	node := s.Nodes[r.mesh]
	mesh := s.Meshes[*node.Mesh]
	skin := s.Skins[*node.Skin]
	var verts []hanging
	for pi, p := range mesh.Primitives {
		if len(p.Joints) == 0 || len(p.Weights) == 0 {
			return nil, nil, fmt.Errorf("spring: mesh %q is not skinned", mesh.Name)
		}
		for v, q := range p.Positions {
			pos := vec3{float64(q[0]), float64(q[1]), float64(q[2])}
			if pos[1] < r.top {
				verts = append(verts, hanging{pi, v, pos, math.Atan2(pos[0]-r.axis[0], pos[2]-r.axis[2])})
			}
		}
	}
	width := 2 * math.Pi / float64(r.sectors)
	sector := func(a float64) int {
		return int(math.Floor((a+math.Pi)/width)) % r.sectors
	}
	// A sector gets a chain when enough of its vertices hang well under
	// the top.
	bySector := make([][]hanging, r.sectors)
	for _, h := range verts {
		k := sector(h.angle)
		bySector[k] = append(bySector[k], h)
	}
	type built struct {
		angle  float64
		levels []float64
		nodes  []int
	}
	var chains []built
	var springs []Spring
	attachWorld := j.world[r.attach]
	attachIBM := skinIBM(skin, r.attach)
	bindOfAttach := attachWorld.Mul(attachIBM)
	for k, vs := range bySector {
		low, deep := math.Inf(1), 0
		for _, h := range vs {
			low = min(low, h.p[1])
			if h.p[1] < r.top-r.fall {
				deep++
			}
		}
		if deep < 12 || r.top-low < 0.1 {
			continue
		}
		// Joints at even heights from the top to the lowest vertex, each
		// at the centre of the sector's vertices around that height.
		centre := -math.Pi + (float64(k)+0.5)*width
		b := built{angle: centre}
		parent, parentWorld := r.attach, attachWorld
		slab := (r.top - low) / float64(r.links-1) / 2
		var prev vec3
		for l := 0; l < r.links; l++ {
			y := r.top - (r.top-low)*float64(l)/float64(r.links-1)
			var sum vec3
			n := 0
			for _, h := range vs {
				if math.Abs(h.p[1]-y) <= slab {
					sum = add(sum, h.p)
					n++
				}
			}
			p := prev
			if n > 0 {
				p = scale(sum, 1/float64(n))
			}
			p[1] = y
			prev = p
			inv, ok := parentWorld.Inverse()
			if !ok {
				return nil, nil, fmt.Errorf("spring: joint %q has a singular transform", s.Nodes[parent].Name)
			}
			idx := len(s.Nodes)
			s.Nodes = append(s.Nodes, &gltf.Node{
				Name:        fmt.Sprintf("Kiln_%s_%d_%d", r.kind, len(chains), l),
				Translation: inv.Point(p),
			})
			s.Nodes[parent].Children = append(s.Nodes[parent].Children, idx)
			w := parentWorld.Mul(xform.TRS(inv.Point(p), [4]float64{0, 0, 0, 1}, [3]float64{1, 1, 1}))
			j.world = append(j.world, w)
			wi, _ := w.Inverse()
			// The joint's bind matrix carries the attachment's bind
			// offset, so at rest it moves its vertices exactly as the
			// attachment did.
			ibm := wi.Mul(bindOfAttach)
			skin.Joints = append(skin.Joints, idx)
			skin.InverseBindMatrices = append(fullIBMs(skin), ibm.Float32())
			b.levels = append(b.levels, y)
			b.nodes = append(b.nodes, idx)
			parent, parentWorld = idx, w
		}
		chains = append(chains, b)
		sp := settings[r.kind]
		sp.Name = fmt.Sprintf("%s.%d", r.kind, len(springs))
		sp.Joints = b.nodes
		springs = append(springs, sp)
	}
	if len(chains) == 0 {
		return nil, nil, nil
	}
	var moving []vec3
	slot := map[int]int{}
	for i, n := range skin.Joints {
		if _, ok := slot[n]; !ok {
			slot[n] = i
		}
	}
	if len(skin.Joints) > math.MaxUint16 {
		return nil, nil, fmt.Errorf("spring: skin has %d joints", len(skin.Joints))
	}
	// Each vertex goes to the chains on either side of its angle (only
	// the nearest when the other side has none within a sector and a
	// half), between the two joints whose heights bracket it, by a share
	// that grows smoothly from 0 at the top to 1 at top-fall.
	for _, h := range verts {
		f := smooth((r.top - h.p[1]) / r.fall)
		if f <= 0 {
			continue
		}
		type pick struct {
			c int
			w float64
		}
		var picks []pick
		for ci, c := range chains {
			d := math.Abs(angleDiff(h.angle, c.angle))
			if d < width {
				picks = append(picks, pick{ci, 1 - d/width})
			}
		}
		if len(picks) == 0 {
			best, bd := -1, 1.5*width
			for ci, c := range chains {
				if d := math.Abs(angleDiff(h.angle, c.angle)); d < bd {
					best, bd = ci, d
				}
			}
			if best < 0 {
				continue
			}
			picks = []pick{{best, 1}}
		}
		if f >= 0.5 {
			moving = append(moving, h.p)
		}
		var tot float64
		for _, p := range picks {
			tot += p.w
		}
		inf := map[int]float64{}
		for _, p := range picks {
			c := chains[p.c]
			share := f * p.w / tot
			last := len(c.levels) - 1
			seg := 0
			for seg < last-1 && h.p[1] < c.levels[seg+1] {
				seg++
			}
			t := (c.levels[seg] - h.p[1]) / (c.levels[seg] - c.levels[seg+1])
			t = math.Max(0, math.Min(1, t))
			inf[slot[c.nodes[seg]]] += share * (1 - t)
			inf[slot[c.nodes[seg+1]]] += share * t
		}
		p := mesh.Primitives[h.prim]
		old, oldW := p.Joints[0][h.v], p.Weights[0][h.v]
		for k := 0; k < 4; k++ {
			if oldW[k] > 0 {
				inf[int(old[k])] += float64(oldW[k]) * (1 - f)
			}
		}
		p.Joints[0][h.v], p.Weights[0][h.v] = top4(inf)
	}
	return springs, moving, nil
}

// top4 keeps the four largest influences, normalised to sum to one in
// float32 (the remainder on the largest), in descending order.
func top4(m map[int]float64) ([4]uint16, [4]float32) {
	keys := make([]int, 0, len(m))
	for k, w := range m {
		if w > 1e-6 {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(a, b int) bool {
		if m[keys[a]] != m[keys[b]] {
			return m[keys[a]] > m[keys[b]]
		}
		return keys[a] < keys[b]
	})
	if len(keys) > 4 {
		keys = keys[:4]
	}
	var tot float64
	for _, k := range keys {
		tot += m[k]
	}
	var js [4]uint16
	var ws [4]float32
	var sum float32
	for i, k := range keys {
		js[i] = uint16(k)
		ws[i] = float32(m[k] / tot)
		sum += ws[i]
	}
	ws[0] += 1 - sum
	return js, ws
}

// skinIBM is the inverse bind matrix of a node in a skin (identity when
// the skin has none or the node is not one of its joints).
func skinIBM(sk *scene.Skin, node int) xform.Mat4 {
	i := slices.Index(sk.Joints, node)
	if i < 0 || i >= len(sk.InverseBindMatrices) {
		return xform.Identity
	}
	return xform.FromFloat32(sk.InverseBindMatrices[i])
}

// fullIBMs are a skin's inverse bind matrices with the identities glTF
// lets a skin leave out written in, one per joint but the one being
// appended.
func fullIBMs(sk *scene.Skin) [][16]float32 {
	out := sk.InverseBindMatrices
	for len(out) < len(sk.Joints)-1 {
		out = append(out, xform.Identity.Float32())
	}
	return out
}

// smooth is smoothstep on [0,1].
func smooth(t float64) float64 {
	t = math.Max(0, math.Min(1, t))
	return t * t * (3 - 2*t)
}

func angleDiff(a, b float64) float64 {
	d := math.Mod(a-b+3*math.Pi, 2*math.Pi) - math.Pi
	return d
}
