// Package spring gives a Kiln avatar VRM spring bones: joint chains in
// the long hair, ponytails and skirts, with the hanging vertices re-skinned
// to them, and colliders on the head, neck, chest, arms and legs, written
// as VRMC_springBone (VRM 1.0) or secondaryAnimation (VRM 0.x).
//
// Kiln's hair and garments are meshes skinned to the body's joints (package
// avatar): long hair follows the spine, a skirt the thighs. VRM apps move
// hair and cloth with spring bones only, so without chains a Kiln VRM's
// hair is a rigid helmet. The chains exist only in the VRM output: the
// avatar GLB keeps the leader's 67-joint tree.
//
// Everything is read from the scene itself (mesh names, joint names,
// vertex positions), never from the configuration, so it works on any
// Kiln avatar scene whatever pose and facing the caller normalised it to.
package spring

import (
	"math"
)

// Chains are the spring bones and colliders Add put into a scene. Node
// indices refer to that scene.
type Chains struct {
	Springs   []Spring
	Colliders []Collider
	// Groups are the collider groups, in the order the extensions list
	// them; a spring names the groups it collides with by index.
	Groups []Group
}

// Spring is one chain: its joint nodes from the attachment down to the
// tip (the tip's own settings are unused, as in VRM 1.0), and how it
// moves.
type Spring struct {
	Name   string
	Joints []int
	// Stiffness pulls a joint back to its rest direction, Gravity pulls it
	// down (world -Y), Drag damps its speed; HitRadius is the joint's
	// sphere against the colliders (metres).
	Stiffness, Gravity, Drag, HitRadius float64
	Groups                              []int
}

// Collider is a sphere (Tail unused) or a capsule from Offset to Tail,
// both in the node's local space.
type Collider struct {
	Node         int
	Offset, Tail [3]float64
	Radius       float64
	Capsule      bool
}

// Group is a named set of colliders (indices into Colliders).
type Group struct {
	Name      string
	Colliders []int
}

// V1 is the VRMC_springBone extension object of VRM 1.0 (specVersion
// 1.0): colliders (sphere or capsule shapes), collider groups and
// springs whose joints carry the motion settings.
func (c *Chains) V1() map[string]any {
	if c == nil {
		return nil
	}
	colliders := make([]any, len(c.Colliders))
	for i, col := range c.Colliders {
		var shape map[string]any
		if col.Capsule {
			shape = map[string]any{"capsule": map[string]any{"offset": arr(col.Offset), "radius": round(col.Radius), "tail": arr(col.Tail)}}
		} else {
			shape = map[string]any{"sphere": map[string]any{"offset": arr(col.Offset), "radius": round(col.Radius)}}
		}
		colliders[i] = map[string]any{"node": col.Node, "shape": shape}
	}
	groups := make([]any, len(c.Groups))
	for i, g := range c.Groups {
		groups[i] = map[string]any{"name": g.Name, "colliders": ints(g.Colliders)}
	}
	springs := make([]any, len(c.Springs))
	for i, s := range c.Springs {
		joints := make([]any, len(s.Joints))
		for k, n := range s.Joints {
			joints[k] = map[string]any{
				"node":         n,
				"hitRadius":    round(s.HitRadius),
				"stiffness":    round(s.Stiffness),
				"gravityPower": round(s.Gravity),
				"gravityDir":   []any{0.0, -1.0, 0.0},
				"dragForce":    round(s.Drag),
			}
		}
		sp := map[string]any{"name": s.Name, "joints": joints}
		if len(s.Groups) > 0 {
			sp["colliderGroups"] = ints(s.Groups)
		}
		springs[i] = sp
	}
	out := map[string]any{"specVersion": "1.0", "springs": springs}
	if len(colliders) > 0 {
		out["colliders"] = colliders
		out["colliderGroups"] = groups
	}
	return out
}

// V0 is VRM 0.x's secondaryAnimation object: one bone group per spring
// (its root bone; 0.x moves every descendant of a listed bone) and
// collider groups of spheres per node, a capsule becoming spheres along
// its axis because 0.x has no capsules. VRM 0.x stores collider offsets
// in Unity's axes, whose Z is glTF's -Z (three-vrm and UniVRM negate it
// on import), so Z is negated here.
func (c *Chains) V0() map[string]any {
	if c == nil {
		return nil
	}
	// One 0.x collider group per (group, node) pair.
	type key struct{ group, node int }
	var order []key
	spheres := map[key][]any{}
	groupsOf := map[int][]int{} // group -> 0.x collider group indices
	for gi, g := range c.Groups {
		for _, ci := range g.Colliders {
			col := c.Colliders[ci]
			k := key{gi, col.Node}
			if _, ok := spheres[k]; !ok {
				order = append(order, k)
				groupsOf[gi] = append(groupsOf[gi], len(order)-1)
			}
			for _, p := range col.spheres() {
				spheres[k] = append(spheres[k], map[string]any{
					"offset": map[string]any{"x": round(p[0]), "y": round(p[1]), "z": round(-p[2])},
					"radius": round(col.Radius),
				})
			}
		}
	}
	colliderGroups := make([]any, len(order))
	for i, k := range order {
		colliderGroups[i] = map[string]any{"node": k.node, "colliders": spheres[k]}
	}
	boneGroups := make([]any, len(c.Springs))
	for i, s := range c.Springs {
		var cg []int
		for _, g := range s.Groups {
			cg = append(cg, groupsOf[g]...)
		}
		boneGroups[i] = map[string]any{
			"comment":        s.Name,
			"stiffiness":     round(s.Stiffness), // sic: the 0.x schema's spelling
			"gravityPower":   round(s.Gravity),
			"gravityDir":     map[string]any{"x": 0.0, "y": -1.0, "z": 0.0},
			"dragForce":      round(s.Drag),
			"center":         -1,
			"hitRadius":      round(s.HitRadius),
			"bones":          []any{s.Joints[0]},
			"colliderGroups": ints(cg),
		}
	}
	return map[string]any{"boneGroups": boneGroups, "colliderGroups": colliderGroups}
}

// spheres are the centres of the spheres that stand for a collider in
// VRM 0.x: a capsule's ends and enough between them that the gaps are
// under half a radius.
func (c Collider) spheres() [][3]float64 {
	if !c.Capsule {
		return [][3]float64{c.Offset}
	}
	d := dist(c.Offset, c.Tail)
	n := 1 + int(math.Ceil(d/(c.Radius*0.5)))
	out := make([][3]float64, 0, n+1)
	for i := 0; i <= n; i++ {
		out = append(out, lerp(c.Offset, c.Tail, float64(i)/float64(n)))
	}
	return out
}

func arr(v [3]float64) []any { return []any{round(v[0]), round(v[1]), round(v[2])} }

func ints(v []int) []any {
	out := make([]any, len(v))
	for i, x := range v {
		out[i] = x
	}
	return out
}

// round keeps a tenth of a millimetre: the JSON stays short and the same
// scene always gives the same bytes.
func round(x float64) float64 { return math.Round(x*1e5) / 1e5 }
