package lod

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/scene/scenetest"
	"github.com/kilnhq/kiln/internal/gltfcheck"
)

const testdata = "../../../shared/testdata"

// models returns the generated fixtures and, when present, the shared
// real models. The small fixtures test the encodings, the larger
// generated meshes (scenetest.Meshes) the bounds, even where the shared
// models are absent.
func models(t *testing.T) map[string][]byte {
	out := map[string][]byte{}
	for name, data := range scenetest.Fixtures() {
		out["fixture/"+name] = data
	}
	for name, data := range scenetest.Meshes() {
		out["fixture/"+name] = data
	}
	files, _ := filepath.Glob(filepath.Join(testdata, "*.glb"))
	if len(files) == 0 {
		t.Log("../shared/testdata absent: fixtures only")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = data
	}
	return out
}

// TestChainEveryModel builds lod 0, 1 and 2 of every model: each level
// validates, stays within its bound, and keeps skins, joints, morph
// targets and animations, with weights still normalized.
func TestChainEveryModel(t *testing.T) {
	for name, data := range models(t) {
		t.Run(name, func(t *testing.T) {
			s, err := scene.Read(data, scene.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			src := s.Stats()
			names := targetNames(s)
			err = Chain(context.Background(), s, Max, func(l Level, s *scene.Scene) error {
				st := s.Stats()
				if l.Triangles != st.Triangles {
					t.Errorf("lod %d reports %d triangles, has %d", l.Level, l.Triangles, st.Triangles)
				}
				// The bounds speak of meshes, not of the 4-triangle fixtures
				// that exercise the reader's encodings.
				if src.Triangles >= 24 && float64(st.Triangles) > Bound(l.Level)*float64(src.Triangles) {
					t.Errorf("lod %d keeps %d of %d triangles (%.0f%%), bound %.0f%%", l.Level, st.Triangles, src.Triangles,
						100*float64(st.Triangles)/float64(src.Triangles), 100*Bound(l.Level))
				}
				if st.Skins != src.Skins || st.Joints != src.Joints || st.MorphTargets != src.MorphTargets ||
					st.Animations != src.Animations || st.Meshes != src.Meshes || st.Materials != src.Materials {
					t.Errorf("lod %d stats %+v, source %+v", l.Level, st, src)
				}
				if got := targetNames(s); !slices.Equal(got, names) {
					t.Errorf("lod %d morph target names changed", l.Level)
				}
				checkWeights(t, l.Level, s)
				glb, err := scene.Write(s)
				if err != nil {
					return err
				}
				gltfcheck.RequireValid(t, glb)
				t.Logf("lod %d: %d triangles (%.1f%%), error %.2g", l.Level, st.Triangles, 100*l.Ratio, l.Error)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}

func targetNames(s *scene.Scene) []string {
	var names []string
	for _, m := range s.Meshes {
		names = append(names, m.Name+":"+strings.Join(m.TargetNames(), ","))
	}
	return names
}

// checkWeights asserts every skinned vertex has at most 4 influences that
// sum to 1.
func checkWeights(t *testing.T, level int, s *scene.Scene) {
	t.Helper()
	for _, m := range s.Meshes {
		for _, p := range m.Primitives {
			if len(p.Weights) > 1 {
				t.Errorf("lod %d: mesh %s has %d weight sets (more than 4 influences)", level, m.Name, len(p.Weights))
			}
			for _, ws := range p.Weights {
				for i, w := range ws {
					sum := w[0] + w[1] + w[2] + w[3]
					if math.Abs(float64(sum)-1) > 2e-3 {
						t.Fatalf("lod %d: mesh %s vertex %d weights sum to %v", level, m.Name, i, sum)
					}
				}
			}
		}
	}
}

func TestChainRejectsBadLevel(t *testing.T) {
	s, err := scene.Read(scenetest.Fixtures()["skinned"], scene.ReadOptions{})
	if err != nil {
		t.Skip("no skinned fixture:", err)
	}
	for _, l := range []int{-1, 3} {
		if err := Chain(context.Background(), s, l, func(Level, *scene.Scene) error { return nil }); err == nil {
			t.Errorf("lod %d accepted", l)
		}
	}
}

// TestFlatShadedModelsReachTheirLevels: models whose vertices are split
// per face or per side of a hard edge (a generated faceted rock, and from
// the shared data a CAD-like shape collection and a voxel character) land
// in each level's band, not below it, where treating every split as a
// seam left them.
func TestFlatShadedModelsReachTheirLevels(t *testing.T) {
	files := map[string][]byte{"faceted-rock": scenetest.FacetedRock()}
	for _, name := range []string{"ShapeCollection.glb", "chr_knight.glb"} {
		data, err := os.ReadFile(filepath.Join(testdata, name))
		if err != nil {
			t.Logf("%s absent: %v", name, err)
			continue
		}
		files[name] = data
	}
	band := [][2]float64{1: {0.40, 0.55}, 2: {0.20, 0.30}}
	for name, data := range files {
		s, err := scene.Read(data, scene.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		err = Chain(context.Background(), s, Max, func(l Level, s *scene.Scene) error {
			if l.Level > 0 && (l.Ratio < band[l.Level][0] || l.Ratio > band[l.Level][1]) {
				t.Errorf("%s lod %d: %.1f%% of the triangles, want %.0f-%.0f%%", name, l.Level, 100*l.Ratio, 100*band[l.Level][0], 100*band[l.Level][1])
			}
			t.Logf("%s lod %d: %d triangles (%.1f%%), error %.3g", name, l.Level, l.Triangles, 100*l.Ratio, l.Error)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
