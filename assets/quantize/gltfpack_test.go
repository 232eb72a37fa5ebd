package quantize_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
)

// TestReadGltfpackOutput: Kiln's decoder reads what the reference
// encoder (gltfpack -cc, meshoptimizer's own codecs and filters) writes:
// the source's triangles (less the degenerate ones gltfpack drops), and
// the same picture as the source.
func TestReadGltfpackOutput(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	cli := filepath.Join(filepath.Dir(file), "..", "..", "tools", "meshopt", "node_modules", "gltfpack", "cli.js")
	node, err := exec.LookPath("node")
	if _, serr := os.Stat(cli); err != nil || serr != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("node or gltfpack is missing: npm ci in tools/meshopt")
		}
		t.Skip("node or gltfpack is missing (npm ci in tools/meshopt)")
	}
	for _, name := range []string{"RobotExpressive", "rpm-avatar-office", "DamagedHelmet"} {
		t.Run(name, func(t *testing.T) {
			in := filepath.Join(shared, name+".glb")
			src, err := os.ReadFile(in)
			if err != nil {
				t.Skipf("../shared absent: %v", err)
			}
			out := filepath.Join(t.TempDir(), "packed.glb")
			if b, err := exec.Command(node, cli, "-cc", "-i", in, "-o", out).CombinedOutput(); err != nil {
				t.Fatalf("gltfpack: %v: %s", err, b)
			}
			packed, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			got, err := scene.Read(packed, scene.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			want := read(t, src)
			// gltfpack drops degenerate triangles (3 of RobotExpressive's).
			if g, w := got.Stats().Triangles, want.Stats().Triangles; g > w || float64(g) < 0.998*float64(w) {
				t.Errorf("%d triangles decoded, the source has %d", g, w)
			}
			pictures(t, want, got)
		})
	}
}
