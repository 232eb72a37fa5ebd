package morph

import (
	"slices"
	"testing"
)

// TestSetWeight sets a shape on every mesh that has it or on one mesh by
// name, on the mesh's weights and on its node's, which a viewer reads
// first; a name or mesh that is not there changes nothing.
func TestSetWeight(t *testing.T) {
	tests := []struct {
		mesh, name string
		set        int
		m0, m1     []float64 // the meshes' weights after
		n0, n1     []float64 // the nodes'
	}{
		{"", "b", 2, []float64{0.1, 0.7, 0.3}, []float64{0.7}, []float64{1, 0.7, 3}, []float64{0.7}},
		{"second", "b", 1, []float64{0.1, 0.2, 0.3}, []float64{0.7}, []float64{1, 2, 3}, []float64{0.7}},
		{"", "c", 1, []float64{0.1, 0.2, 0.7}, nil, []float64{1, 2, 0.7}, []float64{0.5}},
		{"", "z", 0, []float64{0.1, 0.2, 0.3}, nil, []float64{1, 2, 3}, []float64{0.5}},
		{"nowhere", "b", 0, []float64{0.1, 0.2, 0.3}, nil, []float64{1, 2, 3}, []float64{0.5}},
	}
	for _, tt := range tests {
		s := twoMeshes()
		s.Meshes[1].Name = "second"
		if n := SetWeight(s, tt.mesh, tt.name, 0.7); n != tt.set {
			t.Errorf("%s/%s: set on %d meshes, want %d", tt.mesh, tt.name, n, tt.set)
		}
		if !slices.Equal(s.Meshes[0].Weights, tt.m0) || !slices.Equal(s.Meshes[1].Weights, tt.m1) ||
			!slices.Equal(s.Nodes[0].Weights, tt.n0) || !slices.Equal(s.Nodes[1].Weights, tt.n1) {
			t.Errorf("%s/%s: meshes %v %v, nodes %v %v", tt.mesh, tt.name, s.Meshes[0].Weights, s.Meshes[1].Weights, s.Nodes[0].Weights, s.Nodes[1].Weights)
		}
	}
}
