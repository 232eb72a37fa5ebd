package xform

import "github.com/kilnhq/kiln/assets/scene"

// Worlds is each node's world transform: its local transform (local[i],
// or the node's own when local is nil; the identity for a nil node)
// under its parents' (parent from scene.Parents). Poses, rigs and
// exports all need every joint's world matrix at once; each is computed
// once, parents first. The depth bound only guards a cycle in a scene
// built in code: Read refuses them.
func Worlds(s *scene.Scene, parent []int, local []Mat4) []Mat4 {
	out := make([]Mat4, len(s.Nodes))
	done := make([]bool, len(s.Nodes))
	var world func(i, depth int) Mat4
	world = func(i, depth int) Mat4 {
		if done[i] || depth > len(s.Nodes) {
			return out[i]
		}
		m := Identity
		switch {
		case local != nil:
			m = local[i]
		case s.Nodes[i] != nil:
			m = Local(s.Nodes[i])
		}
		if p := parent[i]; p >= 0 {
			m = world(p, depth+1).Mul(m)
		}
		out[i], done[i] = m, true
		return m
	}
	for i := range s.Nodes {
		world(i, 0)
	}
	return out
}
