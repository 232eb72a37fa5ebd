package simplify_test

import (
	"errors"
	"runtime"
	"slices"
	"testing"

	"github.com/kilnhq/kiln/assets/simplify"
	"github.com/kilnhq/kiln/assets/simplify/simplifytest"
)

// TestSimplifyAll checks that SimplifyAll answers, mesh by mesh and in
// order, what Simplify answers for each (the meshes run in parallel,
// largest first, so order and scheduling must not show), and that a bad
// mesh or a length mismatch fails the whole call.
func TestSimplifyAll(t *testing.T) {
	sphere := generated(simplifytest.UVSphere(48, 24), normalUVWeights)
	cube := generated(simplifytest.HardCube(6), normalWeights)
	terrain := simplify.Mesh{Indices: simplifytest.Terrain(60).Indices, Positions: simplifytest.Terrain(60).Positions}
	bad := simplify.Mesh{Indices: []uint32{0, 1, 7}, Positions: make([]float32, 9)}
	tests := []struct {
		name    string
		meshes  []simplify.Mesh
		opts    []simplify.Options
		wantErr bool
	}{
		{"empty", nil, nil, false},
		{"one", []simplify.Mesh{sphere}, []simplify.Options{{TargetRatio: 0.5}}, false},
		{"many, small before large", []simplify.Mesh{cube, terrain, sphere, cube, terrain},
			[]simplify.Options{{TargetRatio: 0.5}, {TargetRatio: 0.25}, {TargetRatio: 0.3}, {TargetRatio: 0.5, Permissive: true}, {TargetRatio: 0.1, MaxError: 1e-3}}, false},
		{"a bad mesh", []simplify.Mesh{sphere, bad}, []simplify.Options{{TargetRatio: 0.5}, {TargetRatio: 0.5}}, true},
		{"options missing", []simplify.Mesh{sphere, cube}, []simplify.Options{{TargetRatio: 0.5}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := simplify.SimplifyAll(tt.meshes, tt.opts)
			if tt.wantErr {
				if !errors.Is(err, simplify.ErrInvalidMesh) {
					t.Fatalf("error %v, want ErrInvalidMesh", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.meshes) {
				t.Fatalf("%d results for %d meshes", len(got), len(tt.meshes))
			}
			for i, m := range tt.meshes {
				want, err := simplify.Simplify(m, tt.opts[i])
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got[i].Indices, want.Indices) || got[i].Error != want.Error {
					t.Errorf("mesh %d: %d indices (error %g), Simplify alone gives %d (%g)",
						i, len(got[i].Indices), got[i].Error, len(want.Indices), want.Error)
				}
				if len(want.Indices) >= len(m.Indices) {
					t.Errorf("mesh %d: %d of %d indices, nothing simplified", i, len(want.Indices), len(m.Indices))
				}
			}
		})
	}
}

// TestParallelSameResult simplifies meshes large enough for the parallel
// phases (attribute records beside position quadrics, ranking in chunks)
// on one core and on four: the indices and the error must be the same to
// the bit, since the parallel parts write disjoint arrays in the same order.
func TestParallelSameResult(t *testing.T) {
	tests := []struct {
		name string
		mesh simplify.Mesh
		opt  simplify.Options
	}{
		{"sphere with normals and UVs", generated(simplifytest.UVSphere(160, 80), normalUVWeights), simplify.Options{TargetRatio: 0.25}},
		{"hard cube with normals", generated(simplifytest.HardCube(40), normalWeights), simplify.Options{TargetRatio: 0.3, Permissive: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if n := len(tt.mesh.Indices) / 3; n < 8192 {
				t.Fatalf("%d triangles: too few for the parallel phases", n)
			}
			prev := runtime.GOMAXPROCS(1)
			one, err := simplify.Simplify(tt.mesh, tt.opt)
			runtime.GOMAXPROCS(4)
			four, err4 := simplify.Simplify(tt.mesh, tt.opt)
			runtime.GOMAXPROCS(prev)
			if err != nil || err4 != nil {
				t.Fatal(err, err4)
			}
			if !slices.Equal(one.Indices, four.Indices) || one.Error != four.Error {
				t.Errorf("one core: %d indices, error %g; four: %d, %g", len(one.Indices), one.Error, len(four.Indices), four.Error)
			}
			if len(one.Indices) >= len(tt.mesh.Indices)/2 {
				t.Errorf("%d of %d indices left", len(one.Indices), len(tt.mesh.Indices))
			}
		})
	}
}
