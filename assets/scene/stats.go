package scene

import "github.com/qmuntal/gltf"

// Stats counts what a scene holds: what the API reports for a model and
// what tests compare before and after a pass.
type Stats struct {
	Triangles    int `json:"triangles"`
	Vertices     int `json:"vertices"`
	Meshes       int `json:"meshes"`
	Primitives   int `json:"primitives"`
	Materials    int `json:"materials"`
	Textures     int `json:"textures"`
	Images       int `json:"images"`
	Skins        int `json:"skins"`
	Joints       int `json:"joints"` // distinct joint nodes over all skins
	Animations   int `json:"animations"`
	MorphTargets int `json:"morphTargets"` // over all meshes
	// DrawCalls counts a draw per primitive per node that instantiates
	// its mesh in the default scene (the first, or every node when the
	// file has no scenes): what a renderer issues. The glTF validator's
	// drawCallCount counts each mesh once: that is Primitives.
	DrawCalls int `json:"drawCalls"`
}

// Stats counts the scene's contents. Triangles and vertices are counted
// per mesh, not per instance.
func (s *Scene) Stats() Stats {
	st := Stats{
		Meshes:     len(s.Meshes),
		Materials:  len(s.Materials),
		Textures:   len(s.Textures),
		Images:     len(s.Images),
		Skins:      len(s.Skins),
		Animations: len(s.Animations),
	}
	for _, m := range s.Meshes {
		st.Primitives += len(m.Primitives)
		if len(m.Primitives) > 0 {
			st.MorphTargets += len(m.Primitives[0].Targets)
		}
		for _, p := range m.Primitives {
			st.Vertices += p.VertexCount()
			st.Triangles += p.Triangles()
		}
	}
	joints := map[int]bool{}
	for _, sk := range s.Skins {
		for _, j := range sk.Joints {
			joints[j] = true
		}
	}
	st.Joints = len(joints)
	for _, n := range s.drawnNodes() {
		if m := s.Nodes[n].Mesh; m != nil && *m >= 0 && *m < len(s.Meshes) {
			st.DrawCalls += len(s.Meshes[*m].Primitives)
		}
	}
	return st
}

// Triangles is the number of triangles the primitive draws.
func (p *Primitive) Triangles() int {
	n := len(p.Indices)
	if p.Indices == nil {
		n = len(p.Positions)
	}
	switch p.Mode {
	case gltf.PrimitiveTriangles:
		return n / 3
	case gltf.PrimitiveTriangleStrip, gltf.PrimitiveTriangleFan:
		return max(n-2, 0)
	}
	return 0
}

// drawnNodes lists the nodes of the default scene's trees.
func (s *Scene) drawnNodes() []int {
	var roots []int
	switch {
	case len(s.Scenes) == 0:
		out := make([]int, len(s.Nodes))
		for i := range out {
			out[i] = i
		}
		return out
	case s.DefaultScene != nil && *s.DefaultScene >= 0 && *s.DefaultScene < len(s.Scenes):
		roots = s.Scenes[*s.DefaultScene].Nodes
	default:
		roots = s.Scenes[0].Nodes
	}
	var out []int
	seen := make([]bool, len(s.Nodes))
	stack := append([]int(nil), roots...)
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n < 0 || n >= len(s.Nodes) || seen[n] {
			continue
		}
		seen[n] = true
		out = append(out, n)
		stack = append(stack, s.Nodes[n].Children...)
	}
	return out
}
