package leaderimport

import (
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/xform"
)

// bound is a mesh primitive at its bind pose, in the scene's world: the
// leader's files and Kiln's may place the same skeleton under different
// node transforms, so the face is compared where it is drawn.
type bound struct {
	prim  *scene.Primitive
	names []string     // the mesh's target names
	pos   [][3]float64 // world positions
	lin   []xform.Mat4 // each vertex's skinning matrix (mesh to world)
	inv   []xform.Mat4 // its inverse, to carry world offsets back
}

// bind places the primitives of node n's mesh at their bind pose: by
// linear blend skinning with the node's skin (whose own transform glTF
// ignores), or by the node's world matrix when it has none.
func bind(s *scene.Scene, world []xform.Mat4, n int) []bound {
	node := s.Nodes[n]
	if node.Mesh == nil {
		return nil
	}
	var joint []xform.Mat4
	if node.Skin != nil {
		sk := s.Skins[*node.Skin]
		joint = make([]xform.Mat4, len(sk.Joints))
		for i, j := range sk.Joints {
			m := world[j]
			if sk.InverseBindMatrices != nil {
				m = m.Mul(xform.FromFloat32(sk.InverseBindMatrices[i]))
			}
			joint[i] = m
		}
	}
	var out []bound
	for _, p := range s.Meshes[*node.Mesh].Primitives {
		b := bound{prim: p, names: s.Meshes[*node.Mesh].TargetNames(), pos: make([][3]float64, len(p.Positions)), lin: make([]xform.Mat4, len(p.Positions)), inv: make([]xform.Mat4, len(p.Positions))}
		for v, q := range p.Positions {
			m := world[n]
			if joint != nil && len(p.Joints) > 0 && len(p.Weights) > 0 {
				m = xform.Mat4{}
				sum := 0.0
				for k := range 4 {
					w := float64(p.Weights[0][v][k])
					if j := int(p.Joints[0][v][k]); w > 0 && j < len(joint) {
						m = m.AddScaled(joint[j], w)
						sum += w
					}
				}
				if sum == 0 {
					m = world[n]
				}
			}
			inv, ok := m.Inverse()
			if !ok {
				inv = xform.Identity
			}
			b.pos[v], b.lin[v], b.inv[v] = m.Point(xform.F64(q)), m, inv
		}
		out = append(out, b)
	}
	return out
}
