package morph

import "github.com/kilnhq/kiln/assets/scene"

// SetWeight sets the default weight of the morph target called name on
// the mesh called mesh, or on every mesh that has it when mesh is "",
// and reports how many meshes took it. The weight is what a picture
// draws (assets/render) and what a viewer shows before any animation;
// a node's own weights, which glTF lets override its mesh's, take it
// too.
func SetWeight(s *scene.Scene, mesh, name string, w float64) int {
	set := 0
	for mi, m := range s.Meshes {
		if mesh != "" && m.Name != mesh {
			continue
		}
		count := 0
		if len(m.Primitives) > 0 {
			count = len(m.Primitives[0].Targets)
		}
		names := m.TargetNames()
		i := -1
		for k, n := range names {
			if n == name && k < count {
				i = k
				break
			}
		}
		if i < 0 {
			continue
		}
		if len(m.Weights) != count {
			m.Weights = make([]float64, count)
		}
		m.Weights[i] = w
		for _, n := range s.Nodes {
			if n.Mesh != nil && *n.Mesh == mi && len(n.Weights) == count {
				n.Weights[i] = w
			}
		}
		set++
	}
	return set
}
