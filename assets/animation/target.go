package animation

import (
	"math"
	"strings"

	"github.com/kilnhq/kiln/assets/avatar"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/qmuntal/gltf"
)

// target is a skeleton a clip is baked against: a Kiln rig or the joints
// of an avatar scene found by name. Clips never see local joint frames;
// they are baked through the target's rest pose, so that any skeleton of
// the same names plays them whatever its joints' axes or rest angles.
type target struct {
	names  []string
	index  map[string]int
	parent []int // -1 when the parent is not a joint
	order  []int // parents before children
	t      []vec // rest local translation
	r      []quat
	s      []float64 // rest local scale, taken as uniform
	// base is the world transform of a root joint's parent node (the
	// Armature), so that clips authored in the body frame stay upright
	// under an Armature that turns or scales the skeleton.
	baseR []quat
	baseP []vec
	baseS []float64

	// Rest pose in the body (world) frame.
	wr []quat
	wp []vec
	ws []float64
	// dir is each joint's bone direction in its local frame: toward its
	// main child, +Y for an end joint (Mixamo's convention).
	dir []vec
	// unit is the rest height of the Hips above the lowest foot joint:
	// clips give distances in these units, so that a stride or a hip sway
	// scales with the legs that make it.
	unit float64
	// palm is the rest palm normal of each finger joint (zero elsewhere),
	// for curls that bend toward the palm whatever the hand's axes.
	palm []vec
	// soles are the points of the feet that must stay on or above the
	// floor, carried by their joints: see soles and meshSoles. The Hips'
	// height follows their soft minimum (within soft of the lowest),
	// taken relative to its value at rest (restLow).
	soles   []contact
	soft    float64
	restLow float64
}

// contact is a point carried by joints as a skinned vertex is: its offset
// in each joint's frame, blended by weight (one joint of weight 1 for a
// point fixed to a joint). rest is its height above the floor at rest.
type contact struct {
	inf  []influence
	rest float64
}

type influence struct {
	joint int
	off   vec
	w     float64
}

// at is where the point is when the joints are at wr, wp, ws.
func (c contact) at(wr []quat, wp []vec, ws []float64) vec {
	var out vec
	for _, f := range c.inf {
		out = out.add(wp[f.joint].add(wr[f.joint].rotate(f.off.scale(ws[f.joint]))).scale(f.w))
	}
	return out
}

// setSoles sets the contacts and the soft minimum of their rest heights.
func (k *target) setSoles(c []contact, soft float64) {
	k.soles, k.soft = c, soft
	rest := make([]float64, len(c))
	for i, x := range c {
		rest[i] = x.rest
	}
	k.restLow = 0
	if len(rest) > 0 {
		k.restLow = softMin(rest, soft)
	}
}

// mainChildren names the child a bone points at where a joint has
// several.
var mainChildren = map[string]string{
	"Hips":   "Spine",
	"Spine2": "Neck",
	"Head":   "HeadTop_End",
}

func newTarget(names []string, parent []int, t []vec, r []quat, s []float64, baseR []quat, baseP []vec, baseS []float64) *target {
	k := &target{names: names, parent: parent, t: t, r: r, s: s, baseR: baseR, baseP: baseP, baseS: baseS}
	n := len(names)
	k.index = make(map[string]int, n)
	for i, name := range names {
		k.index[name] = i
	}
	// Order: a depth-first walk from the roots.
	children := make([][]int, n)
	for i, p := range parent {
		if p >= 0 {
			children[p] = append(children[p], i)
		}
	}
	var walk func(int)
	walk = func(i int) {
		k.order = append(k.order, i)
		for _, c := range children[i] {
			walk(c)
		}
	}
	for i, p := range parent {
		if p < 0 {
			walk(i)
		}
	}
	k.dir = make([]vec, n)
	for i, name := range names {
		main := -1
		if want, ok := mainChildren[name]; ok {
			main = k.index[want]
		} else if strings.HasSuffix(name, "Hand") {
			if c, ok := k.index[name+"Middle1"]; ok {
				main = c
			}
		}
		if main < 0 || parent[main] != i {
			main = -1
			if len(children[i]) > 0 {
				main = children[i][0]
			}
		}
		k.dir[i] = vec{0, 1, 0}
		if main >= 0 && t[main].length() > 1e-9 {
			k.dir[i] = t[main].unit()
		}
	}
	local := make([]quat, n)
	copy(local, r)
	k.wr, k.wp, k.ws = k.fk(local, nil)
	k.unit = 1
	if h, ok := k.index["Hips"]; ok {
		low := math.Inf(1)
		for _, f := range feet {
			for _, j := range f {
				if i, ok := k.index[j]; ok {
					low = math.Min(low, k.wp[i][1])
				}
			}
		}
		if u := k.wp[h][1] - low; !math.IsInf(low, 0) && u > 1e-3 {
			k.unit = u
		}
	}
	k.setSoles(soles(k), 0.003*k.unit)
	k.palm = make([]vec, n)
	for _, side := range []string{"Left", "Right"} {
		hand, ok1 := k.index[side+"Hand"]
		mid, ok2 := k.index[side+"HandMiddle1"]
		ind, ok3 := k.index[side+"HandIndex1"]
		pin, ok4 := k.index[side+"HandPinky1"]
		if !ok1 || !ok2 || !ok3 || !ok4 {
			continue
		}
		f := k.wp[mid].sub(k.wp[hand]).unit()
		across := k.wp[pin].sub(k.wp[ind])
		across = across.sub(f.scale(across.dot(f))).unit()
		// With the fingers along f and the index-to-pinky line across,
		// the palm is on the thumb's side of the hand: f × across points
		// out of the back of a left hand and out of the palm of a right
		// one (a mirror image).
		n := f.cross(across)
		if side == "Left" {
			n = n.scale(-1)
		}
		for i, name := range names {
			if strings.HasPrefix(name, side+"Hand") {
				k.palm[i] = n
			}
		}
	}
	return k
}

// feet are the joints whose lowest rest-relative height is a foot's
// contact with the floor: the heel (ankle) at heel strike, the ball at
// push-off, the toe tip at toe-off.
var feet = [2][3]string{
	{"LeftFoot", "LeftToeBase", "LeftToe_End"},
	{"RightFoot", "RightToeBase", "RightToe_End"},
}

// soles places each foot's floor contacts in the rest pose: on the floor
// (the lowest foot joint's height less the sole below it, y = 0 for
// avatars standing on the origin as Kiln's and the leader's do) under
// the ankle, the ball and the toe tip, and at the back of the heel,
// behind the ankle by a third of the ankle-to-ball length. Foot joints
// sit inside the foot, centimetres above the sole: when a foot pitches,
// the heel or the toe tip of the sole goes lower than any joint, so
// clips that kept only the joints above their rest height pushed the
// soles through the floor.
func soles(k *target) []contact {
	floor := 0.0
	for _, f := range feet {
		for _, j := range f {
			if i, ok := k.index[j]; ok {
				floor = math.Min(floor, k.wp[i][1])
			}
		}
	}
	var out []contact
	for _, f := range feet {
		ankle, ok1 := k.index[f[0]]
		ball, ok2 := k.index[f[1]]
		if !ok1 || !ok2 {
			continue
		}
		pin := func(j int, p vec) {
			p[1] = floor
			off := k.wr[j].conj().rotate(p.sub(k.wp[j])).scale(1 / k.ws[j])
			out = append(out, contact{inf: []influence{{j, off, 1}}})
		}
		back := k.wp[ankle].sub(k.wp[ball].sub(k.wp[ankle]).scale(1.0 / 3))
		pin(ankle, k.wp[ankle])
		pin(ankle, back)
		pin(ball, k.wp[ball])
		if tip, ok := k.index[f[2]]; ok {
			pin(tip, k.wp[tip])
		}
	}
	return out
}

// fk composes local rotations and translations (the rest ones when
// trans is nil) into world rotations, positions and scales.
func (k *target) fk(local []quat, trans []vec) (wr []quat, wp []vec, ws []float64) {
	n := len(k.names)
	wr, wp, ws = make([]quat, n), make([]vec, n), make([]float64, n)
	for _, i := range k.order {
		t := k.t[i]
		if trans != nil {
			t = trans[i]
		}
		pr, pp, ps := k.baseR[i], k.baseP[i], k.baseS[i]
		if p := k.parent[i]; p >= 0 {
			pr, pp, ps = wr[p], wp[p], ws[p]
		}
		wr[i] = pr.mul(local[i]).norm()
		wp[i] = pp.add(pr.rotate(t.scale(ps)))
		ws[i] = ps * k.s[i]
	}
	return wr, wp, ws
}

// rigTarget is the target of a Kiln rig (under an identity Armature).
func rigTarget(rig avatar.Rig) *target {
	n := len(rig.Names)
	t, r, s := make([]vec, n), make([]quat, n), make([]float64, n)
	baseR, baseP, baseS := make([]quat, n), make([]vec, n), make([]float64, n)
	for i, tr := range rig.Rest {
		t[i] = vec{float64(tr.Translation[0]), float64(tr.Translation[1]), float64(tr.Translation[2])}
		r[i] = quat{float64(tr.Rotation[0]), float64(tr.Rotation[1]), float64(tr.Rotation[2]), float64(tr.Rotation[3])}.norm()
		s[i] = float64(tr.Scale[0]+tr.Scale[1]+tr.Scale[2]) / 3
		baseR[i], baseS[i] = identity, 1
	}
	return newTarget(rig.Names, rig.Parent, t, r, s, baseR, baseP, baseS)
}

// sceneTarget finds the joints of an avatar scene: the joints of its
// skins, or every named node when it has none (a bare skeleton). It also
// returns the node of each joint.
func sceneTarget(s *scene.Scene) (*target, []int) {
	isJoint := make([]bool, len(s.Nodes))
	hasSkin := false
	for _, sk := range s.Skins {
		for _, j := range sk.Joints {
			if j >= 0 && j < len(s.Nodes) {
				isJoint[j] = true
				hasSkin = true
			}
		}
	}
	if !hasSkin {
		for i, n := range s.Nodes {
			isJoint[i] = n != nil && n.Name != ""
		}
	}
	parentNode := make([]int, len(s.Nodes))
	for i := range parentNode {
		parentNode[i] = -1
	}
	for i, n := range s.Nodes {
		if n == nil {
			continue
		}
		for _, c := range n.Children {
			if c >= 0 && c < len(s.Nodes) {
				parentNode[c] = i
			}
		}
	}
	var nodes []int
	seen := map[string]bool{}
	for i, n := range s.Nodes {
		if isJoint[i] && !seen[n.Name] {
			seen[n.Name] = true
			nodes = append(nodes, i)
		}
	}
	jointOf := make(map[int]int, len(nodes))
	for j, i := range nodes {
		jointOf[i] = j
	}
	m := len(nodes)
	names, parent := make([]string, m), make([]int, m)
	t, r, sc := make([]vec, m), make([]quat, m), make([]float64, m)
	baseR, baseP, baseS := make([]quat, m), make([]vec, m), make([]float64, m)
	for j, i := range nodes {
		n := s.Nodes[i]
		names[j] = n.Name
		tt, rr, ss := nodeTRS(n)
		t[j], r[j], sc[j] = tt, rr, ss
		parent[j] = -1
		if p, ok := jointOf[parentNode[i]]; ok {
			parent[j] = p
			continue
		}
		// The base: every ancestor's transform, composed.
		br, bp, bs := identity, vec{}, 1.0
		for a := parentNode[i]; a >= 0; a = parentNode[a] {
			at, ar, as := nodeTRS(s.Nodes[a])
			// base = ancestor * base
			bp = at.add(ar.rotate(bp.scale(as)))
			br = ar.mul(br).norm()
			bs *= as
		}
		baseR[j], baseP[j], baseS[j] = br, bp, bs
	}
	k := newTarget(names, parent, t, r, sc, baseR, baseP, baseS)
	if c := meshSoles(k, s, jointOf); len(c) > 0 {
		k.setSoles(c, meshSoft)
	}
	return k, nodes
}

// meshSoft is the softness of the minimum over an avatar's own sole
// vertices: the lowest of them is within meshSoft·ln(count) of the floor,
// about 4 mm for the thousand or so an avatar has.
const meshSoft = 0.0005

// soleBand is how high above the lowest vertex at rest a vertex may be
// and still be one the floor can catch: the soles, the heels' backs, the
// toe caps, a trouser hem.
const soleBand = 0.05

// meshSoles finds the points of an avatar's own feet that must stay above
// the floor: every skinned vertex within soleBand of the lowest at rest
// (shoes, bare feet, hems), carried by its joints as a player skins it
// (linear blend skinning, the file's inverse bind matrices). Solving the
// Hips' height against them rather than against points fixed to the
// foot joints keeps every vertex out of the floor whatever the shoe's
// shape and weights: a heel that partly follows the shank swings below
// the sole at a heel strike. Nil when the scene has no skinned feet.
func meshSoles(k *target, s *scene.Scene, jointOf map[int]int) []contact {
	foot := map[int]bool{}
	for _, f := range feet {
		for _, name := range f {
			if j, ok := k.index[name]; ok {
				foot[j] = true
			}
		}
	}
	var pts []contact
	var heights []float64
	hasFoot := false
	for _, n := range s.Nodes {
		if n == nil || n.Mesh == nil || n.Skin == nil || *n.Mesh >= len(s.Meshes) || *n.Skin >= len(s.Skins) {
			continue
		}
		sk := s.Skins[*n.Skin]
		for _, p := range s.Meshes[*n.Mesh].Primitives {
			if len(p.Joints) == 0 || len(p.Weights) == 0 {
				continue
			}
			for v, pos := range p.Positions {
				var c contact
				var at vec
				sum := 0.0
				for i := 0; i < 4; i++ {
					w := float64(p.Weights[0][v][i])
					ji := int(p.Joints[0][v][i])
					if w <= 0 || ji >= len(sk.Joints) {
						continue
					}
					j, ok := jointOf[sk.Joints[ji]]
					if !ok {
						continue
					}
					// The vertex in the joint's bind frame.
					local := vec{float64(pos[0]), float64(pos[1]), float64(pos[2])}
					if ji < len(sk.InverseBindMatrices) {
						m := sk.InverseBindMatrices[ji]
						x, y, z := local[0], local[1], local[2]
						local = vec{
							float64(m[0])*x + float64(m[4])*y + float64(m[8])*z + float64(m[12]),
							float64(m[1])*x + float64(m[5])*y + float64(m[9])*z + float64(m[13]),
							float64(m[2])*x + float64(m[6])*y + float64(m[10])*z + float64(m[14]),
						}
					}
					c.inf = append(c.inf, influence{j, local.scale(1 / k.ws[j]), w})
					at = at.add(k.wp[j].add(k.wr[j].rotate(local)).scale(w))
					sum += w
					if foot[j] && w >= 0.5 {
						hasFoot = true
					}
				}
				if sum < 1e-6 {
					continue
				}
				for i := range c.inf {
					c.inf[i].w /= sum
				}
				c.rest = at[1] / sum
				pts = append(pts, c)
				heights = append(heights, c.rest)
			}
		}
	}
	if !hasFoot {
		return nil
	}
	low := math.Inf(1)
	for _, h := range heights {
		low = math.Min(low, h)
	}
	var out []contact
	for _, c := range pts {
		if c.rest <= low+soleBand {
			c.rest -= low
			out = append(out, c)
		}
	}
	return out
}

// nodeTRS reads a node's transform, decomposing a matrix when the node
// has one (without shear, as glTF requires of animated nodes).
func nodeTRS(n *gltf.Node) (vec, quat, float64) {
	if m := n.MatrixOrDefault(); m != gltf.DefaultMatrix {
		t := vec{m[12], m[13], m[14]}
		cols := [3]vec{{m[0], m[1], m[2]}, {m[4], m[5], m[6]}, {m[8], m[9], m[10]}}
		sx, sy, sz := cols[0].length(), cols[1].length(), cols[2].length()
		x, y, z := cols[0].scale(1/sx), cols[1].scale(1/sy), cols[2].scale(1/sz)
		return t, matQuat(x, y, z), (sx + sy + sz) / 3
	}
	tt, rr, ss := n.TranslationOrDefault(), n.RotationOrDefault(), n.ScaleOrDefault()
	return vec(tt), quat(rr).norm(), (ss[0] + ss[1] + ss[2]) / 3
}

// matQuat is the rotation whose matrix has columns x, y, z.
func matQuat(x, y, z vec) quat {
	tr := x[0] + y[1] + z[2]
	switch {
	case tr > 0:
		s := math.Sqrt(tr+1) * 2
		return quat{(y[2] - z[1]) / s, (z[0] - x[2]) / s, (x[1] - y[0]) / s, s / 4}.norm()
	case x[0] > y[1] && x[0] > z[2]:
		s := math.Sqrt(1+x[0]-y[1]-z[2]) * 2
		return quat{s / 4, (y[0] + x[1]) / s, (z[0] + x[2]) / s, (y[2] - z[1]) / s}.norm()
	case y[1] > z[2]:
		s := math.Sqrt(1+y[1]-x[0]-z[2]) * 2
		return quat{(y[0] + x[1]) / s, s / 4, (z[1] + y[2]) / s, (z[0] - x[2]) / s}.norm()
	default:
		s := math.Sqrt(1+z[2]-x[0]-y[1]) * 2
		return quat{(z[0] + x[2]) / s, (z[1] + y[2]) / s, s / 4, (x[1] - y[0]) / s}.norm()
	}
}
