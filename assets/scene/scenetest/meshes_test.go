package scenetest_test

import (
	"maps"
	"math"
	"slices"
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/scene/scenetest"
	"github.com/kilnhq/kiln/internal/gltfcheck"
)

// TestMeshes checks that every large fixture is valid glTF as built,
// decodes to what it was built as, and survives scene.Write: a fixture
// the validator or the reader rejects would make the level-of-detail
// tests that use it fail for the wrong reason.
func TestMeshes(t *testing.T) {
	tests := []struct {
		name  string
		want  scene.Stats
		check func(t *testing.T, s *scene.Scene)
	}{
		{
			name: "skinned-tube",
			want: scene.Stats{Triangles: scenetest.SkinnedTubeTriangles, Vertices: 1272, Meshes: 1, Primitives: 1, Materials: 1, Textures: 1, Images: 1,
				Skins: 1, Joints: 3, Animations: 1, MorphTargets: 2, DrawCalls: 1},
			check: func(t *testing.T, s *scene.Scene) {
				m := s.Meshes[0]
				if got := m.TargetNames(); !slices.Equal(got, []string{"bulge", "squash"}) {
					t.Errorf("target names %v", got)
				}
				p := m.Primitives[0]
				blended := 0
				for i, w := range p.Weights[0] {
					if sum := w[0] + w[1] + w[2] + w[3]; math.Abs(float64(sum)-1) > 1e-6 {
						t.Fatalf("vertex %d weights sum to %v", i, sum)
					}
					if w[1] > 0 {
						blended++
					}
					for _, j := range p.Joints[0][i] {
						if j > 2 {
							t.Fatalf("vertex %d uses joint %d of 3", i, j)
						}
					}
				}
				if blended == 0 {
					t.Errorf("no vertex blends two joints")
				}
				for ti, tg := range p.Targets {
					if len(tg.Positions) != len(p.Positions) || len(tg.Normals) != len(p.Normals) {
						t.Errorf("morph target %d lacks POSITION or NORMAL deltas", ti)
					}
				}
				if len(s.Skins[0].InverseBindMatrices) != 3 || s.Skins[0].InverseBindMatrices[2][13] != -2 {
					t.Errorf("inverse bind matrices %v", s.Skins[0].InverseBindMatrices)
				}
				a := s.Animations[0]
				if len(a.Channels) != 1 || s.Nodes[*a.Channels[0].Node].Name != "Middle" {
					t.Errorf("the clip does not drive the middle joint: %+v", a.Channels)
				}
			},
		},
		{
			name: "quantized-grid",
			want: scene.Stats{Triangles: scenetest.QuantizedGridTriangles, Vertices: 65 * 65, Meshes: 1, Primitives: 1, Materials: 1, DrawCalls: 1},
			check: func(t *testing.T, s *scene.Scene) {
				p := s.Meshes[0].Primitives[0]
				for i, v := range p.Positions {
					if v[0] < -1 || v[0] > 1 || v[2] < -1 || v[2] > 1 || math.Abs(float64(v[1])) > 0.13 {
						t.Fatalf("normalized SHORT position %d read as %v", i, v)
					}
				}
				if p.Positions[0] != [3]float32{-1, 0, -1} {
					t.Errorf("first position %v, want the corner (-1, 0, -1)", p.Positions[0])
				}
				for i, n := range p.Normals {
					if l := math.Sqrt(float64(n[0]*n[0] + n[1]*n[1] + n[2]*n[2])); math.Abs(l-1) > 0.005 || n[1] <= 0 {
						t.Fatalf("normalized BYTE normal %d read as %v (length %v)", i, n, l)
					}
				}
				if uv := p.TexCoords[0][len(p.TexCoords[0])-1]; uv != [2]float32{1, 1} {
					t.Errorf("last texture coordinate %v", uv)
				}
				if s.Nodes[0].Scale != [3]float64{2, 2, 2} {
					t.Errorf("the dequantizing node scale was lost: %v", s.Nodes[0].Scale)
				}
			},
		},
		{
			name: "sparse-morph",
			want: scene.Stats{Triangles: scenetest.SparseMorphTriangles, Vertices: 2 + 31*32, Meshes: 1, Primitives: 1, Materials: 1, MorphTargets: 1, DrawCalls: 1},
			check: func(t *testing.T, s *scene.Scene) {
				p := s.Meshes[0].Primitives[0]
				last := len(p.Positions) - 1
				if p.Positions[last] != [3]float32{0, -0.85, 0} || p.Positions[0] != [3]float32{0, 1, 0} {
					t.Errorf("sparse substitution over the buffer view: poles %v %v", p.Positions[0], p.Positions[last])
				}
				d := p.Targets[0].Positions
				if d[0] != [3]float32{0, 0.25, 0} || d[last] != [3]float32{} {
					t.Errorf("sparse morph target without a buffer view: %v %v", d[0], d[last])
				}
				moved := 0
				for _, v := range d {
					if v != [3]float32{} {
						moved++
					}
				}
				if moved == 0 || moved > len(d)/2 {
					t.Errorf("the morph target moves %d of %d vertices", moved, len(d))
				}
			},
		},
		{
			name: "faceted-rock",
			want: scene.Stats{Triangles: scenetest.FacetedRockTriangles, Vertices: 3 * scenetest.FacetedRockTriangles, Meshes: 1, Primitives: 1, Materials: 1, DrawCalls: 1},
			check: func(t *testing.T, s *scene.Scene) {
				p := s.Meshes[0].Primitives[0]
				if p.Indices != nil || len(p.Normals) != len(p.Positions) {
					t.Errorf("want per-corner vertices with normals, got indices %d normals %d", len(p.Indices), len(p.Normals))
				}
			},
		},
	}
	all := scenetest.Meshes()
	var names []string
	for _, tt := range tests {
		names = append(names, tt.name)
	}
	if got := slices.Sorted(maps.Keys(all)); !slices.Equal(got, slices.Sorted(slices.Values(names))) {
		t.Fatalf("Meshes() holds %v, the table %v", got, names)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			glb := all[tt.name]
			report := gltfcheck.RequireValid(t, glb)
			if tri, ok := report.Info["totalTriangleCount"].(float64); !report.Skipped && (!ok || int(tri) != tt.want.Triangles) {
				t.Errorf("validator counts %v triangles, want %d", report.Info["totalTriangleCount"], tt.want.Triangles)
			}
			if report.NumWarnings != 0 {
				t.Errorf("validator: %d warnings", report.NumWarnings)
			}
			before, err := scene.Read(glb, scene.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			out, err := scene.Write(before)
			if err != nil {
				t.Fatal(err)
			}
			gltfcheck.RequireValid(t, out)
			after, err := scene.Read(out, scene.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range []*scene.Scene{before, after} {
				if got := s.Stats(); got != tt.want {
					t.Errorf("stats:\n got  %+v\n want %+v", got, tt.want)
				}
				facesOutward(t, s)
				tt.check(t, s)
			}
		})
	}
}

// facesOutward checks the winding: every triangle's geometric normal
// agrees with its vertices' normals, so that a simplifier or renderer
// that trusts the winding sees the surface the normals describe.
func facesOutward(t *testing.T, s *scene.Scene) {
	t.Helper()
	for _, m := range s.Meshes {
		for _, p := range m.Primitives {
			for k := 0; k+2 < len(p.Indices); k += 3 {
				a, b, c := p.Positions[p.Indices[k]], p.Positions[p.Indices[k+1]], p.Positions[p.Indices[k+2]]
				var e1, e2 [3]float64
				for i := range 3 {
					e1[i], e2[i] = float64(b[i]-a[i]), float64(c[i]-a[i])
				}
				face := [3]float64{e1[1]*e2[2] - e1[2]*e2[1], e1[2]*e2[0] - e1[0]*e2[2], e1[0]*e2[1] - e1[1]*e2[0]}
				var dot float64
				for _, v := range p.Indices[k : k+3] {
					n := p.Normals[v]
					dot += face[0]*float64(n[0]) + face[1]*float64(n[1]) + face[2]*float64(n[2])
				}
				if dot <= 0 {
					t.Fatalf("mesh %s triangle %d faces inward", m.Name, k/3)
				}
			}
		}
	}
}
