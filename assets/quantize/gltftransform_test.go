package quantize_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln/assets/avatar"
	"github.com/kilnhq/kiln/assets/quantize"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/internal/gltfcheck"
)

// gltfTransform finds node and tools/meshopt/read.mjs with its packages
// (glTF-Transform and meshoptimizer's decoder). It skips the test when one
// is missing, except in CI, where .ci/run runs npm ci in tools/meshopt.
func gltfTransform(t *testing.T) (node, script string) {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "tools", "meshopt")
	missing := func(what string) {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is missing; .ci/run installs it", what)
		}
		t.Skipf("%s is missing (npm ci in tools/meshopt)", what)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node")
	}
	for _, pkg := range []string{"@gltf-transform/core", "@gltf-transform/extensions", "meshoptimizer"} {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", pkg)); err != nil {
			missing(pkg)
		}
	}
	return node, filepath.Join(dir, "read.mjs")
}

// transformed is what read.mjs prints.
type transformed struct {
	ExtensionsUsed []string `json:"extensionsUsed"`
	Primitives     []struct {
		Mesh       int        `json:"mesh"`
		Primitive  int        `json:"primitive"`
		Mode       int        `json:"mode"`
		Vertices   int        `json:"vertices"`
		IndexCount int        `json:"indexCount"`
		Indices    []uint32   `json:"indices"`
		Min        [3]float64 `json:"min"`
		Max        [3]float64 `json:"max"`
	} `json:"primitives"`
}

// TestGLTFTransformReadsCompressed: Kiln's quantized, EXT_meshopt_compression
// output (an avatar, and DamagedHelmet when ../shared is there) read by
// glTF-Transform with meshoptimizer's decoder has, primitive by primitive,
// the vertex count, the index buffer and the position bounds that Kiln's
// own decoder reads from the same bytes: the triangles are the same ones,
// and the bounds agree within the position grid's step.
func TestGLTFTransformReadsCompressed(t *testing.T) {
	node, script := gltfTransform(t)
	sources := map[string]func(t *testing.T) *scene.Scene{
		"avatar": func(t *testing.T) *scene.Scene {
			s, err := avatar.Generate(avatar.Default(avatar.Masculine))
			if err != nil {
				t.Fatal(err)
			}
			return s
		},
		"DamagedHelmet": func(t *testing.T) *scene.Scene {
			data, err := os.ReadFile(filepath.Join(shared, "DamagedHelmet.glb"))
			if err != nil {
				t.Skipf("../shared absent: %v", err)
			}
			return read(t, data)
		},
	}
	for name, source := range sources {
		t.Run(name, func(t *testing.T) {
			s := source(t)
			quantize.Apply(s, quantize.Options{})
			if err := s.Weld(); err != nil {
				t.Fatal(err)
			}
			s.OptimizeOrder()
			glb, err := scene.WriteWith(s, scene.WriteOptions{Meshopt: true})
			if err != nil {
				t.Fatal(err)
			}
			gltfcheck.RequireValid(t, glb)
			file := filepath.Join(t.TempDir(), name+".glb")
			if err := os.WriteFile(file, glb, 0o644); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			out, err := exec.CommandContext(ctx, node, script, file).Output()
			if err != nil {
				if ee, ok := err.(*exec.ExitError); ok {
					t.Fatalf("read.mjs: %v: %s", err, ee.Stderr)
				}
				t.Fatal(err)
			}
			var got transformed
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatalf("read.mjs printed %.200s: %v", out, err)
			}
			if !slices.Contains(got.ExtensionsUsed, "EXT_meshopt_compression") {
				t.Errorf("glTF-Transform saw extensions %v, no EXT_meshopt_compression", got.ExtensionsUsed)
			}
			kiln := read(t, glb)
			var prims []*scene.Primitive
			for _, m := range kiln.Meshes {
				prims = append(prims, m.Primitives...)
			}
			if len(got.Primitives) != len(prims) {
				t.Fatalf("glTF-Transform read %d primitives, Kiln %d", len(got.Primitives), len(prims))
			}
			var triangles int
			for i, p := range prims {
				g := got.Primitives[i]
				where := func() string { return kiln.Meshes[g.Mesh].Name }
				if g.Mode != glTFMode[p.Mode] {
					t.Errorf("%s/%d: mode %d, Kiln %d", where(), g.Primitive, g.Mode, p.Mode)
				}
				if g.Vertices != p.VertexCount() {
					t.Errorf("%s/%d: %d vertices, Kiln %d", where(), g.Primitive, g.Vertices, p.VertexCount())
				}
				if g.IndexCount != len(p.Indices) || !slices.Equal(g.Indices, p.Indices) {
					t.Errorf("%s/%d: glTF-Transform's %d indices differ from Kiln's %d", where(), g.Primitive, g.IndexCount, len(p.Indices))
				}
				triangles += g.IndexCount / 3
				lo, hi := bounds(p.Positions)
				// One step of the 14-bit position grid over the primitive's
				// extent: how far two correct decodes may differ.
				var extent float64
				for k := range 3 {
					extent = max(extent, hi[k]-lo[k])
				}
				tol := extent/16383 + 1e-9
				for k := range 3 {
					if abs(g.Min[k]-lo[k]) > tol || abs(g.Max[k]-hi[k]) > tol {
						t.Errorf("%s/%d axis %d: glTF-Transform bounds %.6g..%.6g, Kiln %.6g..%.6g (tolerance %.2g)",
							where(), g.Primitive, k, g.Min[k], g.Max[k], lo[k], hi[k], tol)
					}
				}
			}
			if want := kiln.Stats().Triangles; triangles != want || want == 0 {
				t.Errorf("glTF-Transform read %d triangles, Kiln %d", triangles, want)
			}
			t.Logf("%d bytes, %d primitives, %d triangles: glTF-Transform and Kiln agree", len(glb), len(prims), triangles)
		})
	}
}

// glTFMode is the number glTF (and glTF-Transform) gives each of
// qmuntal/gltf's primitive modes, whose zero value is triangles.
var glTFMode = map[gltf.PrimitiveMode]int{
	gltf.PrimitivePoints: 0, gltf.PrimitiveLines: 1, gltf.PrimitiveLineLoop: 2, gltf.PrimitiveLineStrip: 3,
	gltf.PrimitiveTriangles: 4, gltf.PrimitiveTriangleStrip: 5, gltf.PrimitiveTriangleFan: 6,
}

// bounds is the box of the decoded positions, as the accessor stores
// them (no node transform).
func bounds(v [][3]float32) (lo, hi [3]float64) {
	lo, hi = [3]float64{1e30, 1e30, 1e30}, [3]float64{-1e30, -1e30, -1e30}
	for _, p := range v {
		for k := range 3 {
			lo[k], hi[k] = min(lo[k], float64(p[k])), max(hi[k], float64(p[k]))
		}
	}
	return lo, hi
}
