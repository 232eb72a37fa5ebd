package quantize

import (
	"math"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln/assets/scene"
)

// grid maps integer positions q to o + q·step.
type grid struct {
	o    [3]float64
	step float64
}

// positions puts every mesh it can on an integer grid of bits bits. A
// mesh drawn without a skin gets its own grid, folded into the nodes
// that draw it; all skinned meshes share one grid, folded into the
// inverse bind matrices of their skins (a skinned mesh's node transform
// is ignored by glTF). A mesh drawn both ways, or by a node whose
// transform cannot take the grid (see fold), stays float.
func positions(s *scene.Scene, bits int) {
	skinned := map[int]bool{}
	plain := map[int][]int{} // mesh → nodes that draw it without a skin
	for i, n := range s.Nodes {
		if n == nil || n.Mesh == nil || *n.Mesh < 0 || *n.Mesh >= len(s.Meshes) {
			continue
		}
		if n.Skin != nil {
			skinned[*n.Mesh] = true
		} else {
			plain[*n.Mesh] = append(plain[*n.Mesh], i)
		}
	}
	steps := float64(int(1)<<bits - 1)
	var skinMeshes []*scene.Mesh
	for m := range skinned {
		if len(plain[m]) > 0 {
			return // a mesh drawn both ways: leave every skinned mesh float
		}
		skinMeshes = append(skinMeshes, s.Meshes[m])
	}
	if g, ok := makeGrid(skinMeshes, steps); ok && len(skinMeshes) > 0 {
		for _, m := range skinMeshes {
			apply(m, g)
		}
		for _, sk := range usedSkins(s) {
			foldIBM(sk, g)
		}
	}
	for m, nodes := range plain {
		g, ok := makeGrid([]*scene.Mesh{s.Meshes[m]}, steps)
		if !ok || !foldable(s, nodes) {
			continue
		}
		apply(s.Meshes[m], g)
		for _, n := range nodes {
			fold(s, n, g)
		}
	}
}

// makeGrid covers the meshes' positions with steps steps along their
// longest side; morph deltas must fit a 16-bit integer of that step.
func makeGrid(meshes []*scene.Mesh, steps float64) (grid, bool) {
	lo := [3]float64{math.Inf(1), math.Inf(1), math.Inf(1)}
	hi := [3]float64{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
	for _, m := range meshes {
		for _, p := range m.Primitives {
			for _, v := range p.Positions {
				for k := 0; k < 3; k++ {
					lo[k] = math.Min(lo[k], float64(v[k]))
					hi[k] = math.Max(hi[k], float64(v[k]))
				}
			}
		}
	}
	extent := math.Max(hi[0]-lo[0], math.Max(hi[1]-lo[1], hi[2]-lo[2]))
	if math.IsInf(extent, 0) || extent <= 0 {
		return grid{}, false
	}
	g := grid{o: lo, step: extent / steps}
	for _, m := range meshes {
		for _, p := range m.Primitives {
			for _, t := range p.Targets {
				for _, d := range t.Positions {
					for k := 0; k < 3; k++ {
						if math.Abs(float64(d[k]))/g.step > 32767 {
							return grid{}, false
						}
					}
				}
			}
		}
	}
	return g, true
}

func apply(m *scene.Mesh, g grid) {
	for _, p := range m.Primitives {
		pos := make([][3]float32, len(p.Positions))
		for i, v := range p.Positions {
			for k := 0; k < 3; k++ {
				pos[i][k] = float32(math.Round((float64(v[k]) - g.o[k]) / g.step))
			}
		}
		p.Positions = pos
		for ti := range p.Targets {
			t := &p.Targets[ti]
			if t.Positions == nil {
				continue
			}
			d := make([][3]float32, len(t.Positions))
			for i, v := range t.Positions {
				for k := 0; k < 3; k++ {
					d[i][k] = float32(math.Round(float64(v[k]) / g.step))
				}
			}
			t.Positions = d
		}
	}
}

// animatedTRS reports whether an animation moves the node's translation,
// rotation or scale, which would overwrite a folded transform.
func animatedTRS(s *scene.Scene, node int) bool {
	for _, a := range s.Animations {
		for _, c := range a.Channels {
			if c.Node != nil && *c.Node == node && c.Path != gltf.TRSWeights {
				return true
			}
		}
	}
	return false
}

func animatedWeights(s *scene.Scene, node int) bool {
	for _, a := range s.Animations {
		for _, c := range a.Channels {
			if c.Node != nil && *c.Node == node && c.Path == gltf.TRSWeights {
				return true
			}
		}
	}
	return false
}

// foldable: each node can take the grid, in its own transform (no
// children, not moved by an animation) or in a new child node that takes
// the mesh over (impossible when its morph weights are animated: the
// channel names the node).
func foldable(s *scene.Scene, nodes []int) bool {
	for _, i := range nodes {
		n := s.Nodes[i]
		if (len(n.Children) > 0 || animatedTRS(s, i)) && animatedWeights(s, i) {
			return false
		}
	}
	return true
}

// fold makes node i draw its mesh through the grid: M' = M·T(o)·S(step).
func fold(s *scene.Scene, i int, g grid) {
	n := s.Nodes[i]
	if len(n.Children) > 0 || animatedTRS(s, i) {
		child := &gltf.Node{
			Name: n.Name, Mesh: n.Mesh, Weights: n.Weights,
			Translation: [3]float64{g.o[0], g.o[1], g.o[2]},
			Rotation:    [4]float64{0, 0, 0, 1},
			Scale:       [3]float64{g.step, g.step, g.step},
		}
		n.Mesh, n.Weights = nil, nil
		s.Nodes = append(s.Nodes, child)
		n.Children = append(n.Children, len(s.Nodes)-1)
		return
	}
	if n.Matrix != [16]float64{} && n.Matrix != identity {
		n.Matrix = mul(n.Matrix, gridMatrix(g))
		return
	}
	// T·R·S·T(o)·S(step) = T(t + R(S∘o))·R·S(S·step).
	sc := n.ScaleOrDefault()
	r := n.RotationOrDefault()
	o := rotate(r, [3]float64{sc[0] * g.o[0], sc[1] * g.o[1], sc[2] * g.o[2]})
	t := n.TranslationOrDefault()
	n.Translation = [3]float64{t[0] + o[0], t[1] + o[1], t[2] + o[2]}
	n.Scale = [3]float64{sc[0] * g.step, sc[1] * g.step, sc[2] * g.step}
	n.Rotation = r
	n.Matrix = [16]float64{}
}

var identity = [16]float64{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}

// gridMatrix is T(o)·S(step), column-major.
func gridMatrix(g grid) [16]float64 {
	return [16]float64{g.step, 0, 0, 0, 0, g.step, 0, 0, 0, 0, g.step, 0, g.o[0], g.o[1], g.o[2], 1}
}

func mul(a, b [16]float64) [16]float64 {
	var out [16]float64
	for c := 0; c < 4; c++ {
		for r := 0; r < 4; r++ {
			var v float64
			for k := 0; k < 4; k++ {
				v += a[k*4+r] * b[c*4+k]
			}
			out[c*4+r] = v
		}
	}
	return out
}

func rotate(q [4]float64, v [3]float64) [3]float64 {
	// v + 2w(u×v) + 2u×(u×v), u = q.xyz
	u := [3]float64{q[0], q[1], q[2]}
	cross := func(a, b [3]float64) [3]float64 {
		return [3]float64{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
	}
	uv := cross(u, v)
	uuv := cross(u, uv)
	return [3]float64{v[0] + 2*(q[3]*uv[0]+uuv[0]), v[1] + 2*(q[3]*uv[1]+uuv[1]), v[2] + 2*(q[3]*uv[2]+uuv[2])}
}

func usedSkins(s *scene.Scene) []*scene.Skin {
	seen := map[int]bool{}
	var out []*scene.Skin
	for _, n := range s.Nodes {
		if n != nil && n.Skin != nil && n.Mesh != nil && *n.Skin >= 0 && *n.Skin < len(s.Skins) && !seen[*n.Skin] {
			seen[*n.Skin] = true
			out = append(out, s.Skins[*n.Skin])
		}
	}
	return out
}

// foldIBM makes a skin take grid positions: IBM' = IBM·T(o)·S(step).
func foldIBM(sk *scene.Skin, g grid) {
	gm := gridMatrix(g)
	if sk.InverseBindMatrices == nil {
		sk.InverseBindMatrices = make([][16]float32, len(sk.Joints))
		for i := range sk.InverseBindMatrices {
			for k := range identity {
				sk.InverseBindMatrices[i][k] = float32(identity[k])
			}
		}
	}
	for i, m := range sk.InverseBindMatrices {
		var a [16]float64
		for k := range m {
			a[k] = float64(m[k])
		}
		r := mul(a, gm)
		for k := range r {
			sk.InverseBindMatrices[i][k] = float32(r[k])
		}
	}
}
