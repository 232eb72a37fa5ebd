package simplify

import (
	"slices"
	"testing"

	"github.com/kilnhq/kiln/assets/simplify/simplifytest"
)

// TestPrepareWhenRanked checks that filling the quadrics only when a pass
// first ranks an edge (prepare) gives the same triangles and error, to the
// bit, as filling them up front, as Simplify did before: on meshes that
// collapse (with attributes, an error bound, locks, locked borders, the
// permissive stages) and on one where no edge can collapse, which must then
// skip the quadrics altogether (the saving on flat-shaded primitives).
func TestPrepareWhenRanked(t *testing.T) {
	normals := []float32{0.5, 0.5, 0.5}
	normalsUVs := []float32{0.5, 0.5, 0.5, 1, 1}
	mesh := func(g simplifytest.Mesh, w []float32) Mesh {
		return Mesh{Indices: g.Indices, Positions: g.Positions, Attributes: g.Attributes, AttrStride: g.AttrStride, AttrWeights: w}
	}
	locked := mesh(simplifytest.UVSphere(24, 12), normalsUVs)
	locked.Locked = make([]bool, len(locked.Positions)/3)
	for v := range locked.Locked {
		locked.Locked[v] = v%7 == 0
	}
	faceted := simplifytest.FacetedSphere(2)
	tests := []struct {
		name     string
		mesh     Mesh
		opt      Options
		prepared bool // whether the call needs its quadrics at all
	}{
		{"sphere, normals and UVs, 25%", mesh(simplifytest.UVSphere(32, 16), normalsUVs), Options{TargetRatio: 0.25}, true},
		{"terrain, positions, error bound", mesh(simplifytest.Terrain(24), nil), Options{MaxError: 1e-2}, true},
		{"sphere with locked vertices", locked, Options{TargetRatio: 0.3}, true},
		{"hard cube, locked borders", mesh(simplifytest.HardCube(6), normals), Options{TargetRatio: 0.5, LockBorder: true}, true},
		{"hard cube, permissive", mesh(simplifytest.HardCube(6), normals), Options{TargetRatio: 0.1, Permissive: true}, true},
		{"faceted sphere with normals, permissive (seams relaxed first)", mesh(faceted, normals), Options{TargetRatio: 0.5, Permissive: true}, true},
		{"faceted sphere with normals, no edge can collapse", mesh(faceted, normals), Options{TargetRatio: 0.5}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := validate(&tt.mesh, &tt.opt); err != nil {
				t.Fatal(err)
			}
			run := func(upFront bool) (Result, bool) {
				s := newSimplifier(&tt.mesh, tt.opt)
				defer s.release()
				if upFront {
					s.prepare()
				}
				s.run(tt.opt, len(tt.mesh.Indices)/3)
				return s.result(), s.prepared
			}
			before, _ := run(true)
			after, prepared := run(false)
			if !slices.Equal(before.Indices, after.Indices) || before.Error != after.Error {
				t.Errorf("up front: %d indices, error %g; when ranked: %d, %g",
					len(before.Indices), before.Error, len(after.Indices), after.Error)
			}
			if prepared != tt.prepared {
				t.Errorf("quadrics filled: %v, want %v", prepared, tt.prepared)
			}
			if tt.prepared && len(after.Indices) >= len(tt.mesh.Indices) {
				t.Errorf("%d of %d indices left: nothing collapsed, the case tests nothing", len(after.Indices), len(tt.mesh.Indices))
			}
		})
	}
}
