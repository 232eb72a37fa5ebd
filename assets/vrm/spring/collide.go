package spring

import (
	"math"
	"sort"

	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/xform"
)

type vec3 = [3]float64

// ball is a sphere in world space: a chain joint and its hit radius.
type ball struct {
	c vec3
	r float64
}

// shape is a collider in world space while it is being fitted.
type shape struct {
	group  string
	node   int
	a, b   vec3 // a == b for a sphere
	radius float64
}

// The collider groups, in the order they are written, and which groups
// each kind of chain collides with.
var groupNames = []string{"head", "body", "arms", "legs"}

func groupsFor(kind string) []int {
	if kind == "skirt" {
		return []int{1, 3}
	}
	return []int{0, 1, 2}
}

// colliders measures the body around the joints: a sphere in the skull, a
// capsule along the neck, capsules across the chest and back (Spine,
// Spine1, Spine2, and the hips for a skirt), along the upper arms (and the
// thighs for a skirt). Each radius is the quarter quantile of the
// distances to the segment of the body's vertices that the joint moves
// most, so the collider stays inside the body and clothing.
func colliders(s *scene.Scene, j *joints, regions []region) []shape {
	skirt := false
	for _, r := range regions {
		skirt = skirt || r.kind == "skirt"
	}
	body := map[int][]vec3{} // by dominant joint node
	for _, name := range []string{"Wolf3D_Body", "Wolf3D_Head", "Wolf3D_Outfit_Top", "Wolf3D_Outfit_Bottom"} {
		if name == "Wolf3D_Outfit_Bottom" && skirt {
			continue
		}
		n := meshNode(s, name)
		if n < 0 {
			continue
		}
		sk := s.Skins[*s.Nodes[n].Skin]
		for _, p := range s.Meshes[*s.Nodes[n].Mesh].Primitives {
			if len(p.Joints) == 0 || len(p.Weights) == 0 {
				continue
			}
			for v, q := range p.Positions {
				best := 0
				for k := 1; k < 4; k++ {
					if p.Weights[0][v][k] > p.Weights[0][v][best] {
						best = k
					}
				}
				if ji := int(p.Joints[0][v][best]); ji < len(sk.Joints) {
					body[sk.Joints[ji]] = append(body[sk.Joints[ji]], xform.F64(q))
				}
			}
		}
	}
	var out []shape
	fit := func(group, joint string, a, b vec3) {
		n, ok := j.node[joint]
		if !ok {
			return
		}
		var d []float64
		for _, p := range body[n] {
			if t := along(p, a, b); t > 0.05 && t < 0.95 || a == b {
				d = append(d, segDist(p, a, b))
			}
		}
		if len(d) < 8 {
			return
		}
		sort.Float64s(d)
		out = append(out, shape{group, n, a, b, d[len(d)/4]})
	}
	pos := func(name string) (vec3, bool) { return j.pos(name) }
	head, _ := pos("Head")
	neck, _ := pos("Neck")
	if top, ok := pos("HeadTop_End"); ok {
		c := lerp(head, top, 0.5)
		fit("head", "Head", c, c)
	}
	fit("head", "Neck", neck, head)
	la, okL := pos("LeftArm")
	ra, okR := pos("RightArm")
	if okL && okR {
		half := scale(sub(la, ra), 0.3)
		spines := []string{"Spine", "Spine1", "Spine2"}
		if skirt {
			spines = append(spines, "Hips")
		}
		for _, sp := range spines {
			if c, ok := pos(sp); ok {
				fit("body", sp, sub(c, half), add(c, half))
			}
		}
	}
	for _, side := range []string{"Left", "Right"} {
		if a, ok := pos(side + "Arm"); ok {
			if b, ok := pos(side + "ForeArm"); ok {
				fit("arms", side+"Arm", a, b)
			}
		}
		if skirt {
			if a, ok := pos(side + "UpLeg"); ok {
				if b, ok := pos(side + "Leg"); ok {
					fit("legs", side+"UpLeg", a, b)
				}
			}
		}
	}
	return out
}

// place shrinks each collider until the vertices that follow the chains
// and the chains' joint spheres are outside it at rest (a collider that
// starts inside the hair would throw it off at the first frame), drops
// the ones that shrink under a centimetre, and writes the rest in their
// nodes' local space.
func (c *Chains) place(j *joints, shapes []shape, moving []vec3, tips []ball) {
	byGroup := map[string][]int{}
	for _, sh := range shapes {
		r := sh.radius
		for _, p := range moving {
			r = math.Min(r, segDist(p, sh.a, sh.b)-0.002)
		}
		for _, t := range tips {
			r = math.Min(r, segDist(t.c, sh.a, sh.b)-t.r-0.002)
		}
		if r < 0.01 {
			continue
		}
		inv, ok := j.world[sh.node].Inverse()
		if !ok {
			continue
		}
		col := Collider{Node: sh.node, Offset: inv.Point(sh.a), Tail: inv.Point(sh.b), Radius: r, Capsule: sh.a != sh.b}
		byGroup[sh.group] = append(byGroup[sh.group], len(c.Colliders))
		c.Colliders = append(c.Colliders, col)
	}
	// Keep only the groups that have colliders; renumber the springs'.
	index := map[int]int{}
	for gi, name := range groupNames {
		if cols := byGroup[name]; len(cols) > 0 {
			index[gi] = len(c.Groups)
			c.Groups = append(c.Groups, Group{Name: name, Colliders: cols})
		}
	}
	for i := range c.Springs {
		var gs []int
		for _, g := range c.Springs[i].Groups {
			if k, ok := index[g]; ok {
				gs = append(gs, k)
			}
		}
		c.Springs[i].Groups = gs
	}
}

// along is where the projection of p falls on segment a-b (0 at a, 1 at b).
func along(p, a, b vec3) float64 {
	ab := sub(b, a)
	l := dot(ab, ab)
	if l == 0 {
		return 0
	}
	return dot(sub(p, a), ab) / l
}

// segDist is the distance from p to segment a-b.
func segDist(p, a, b vec3) float64 {
	t := math.Max(0, math.Min(1, along(p, a, b)))
	return dist(p, lerp(a, b, t))
}

func add(a, b vec3) vec3           { return vec3{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }
func sub(a, b vec3) vec3           { return vec3{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
func scale(a vec3, f float64) vec3 { return vec3{a[0] * f, a[1] * f, a[2] * f} }
func dot(a, b vec3) float64        { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
func dist(a, b vec3) float64       { return math.Sqrt(dot(sub(a, b), sub(a, b))) }
func lerp(a, b vec3, t float64) vec3 {
	return vec3{a[0] + (b[0]-a[0])*t, a[1] + (b[1]-a[1])*t, a[2] + (b[2]-a[2])*t}
}
