// Package dracotest decodes Draco streams with Google's decoder (the
// draco3d build that three.js ships for DRACOLoader, run by
// tools/browser-test/dracodecode.mjs under node), so tests check Kiln's
// encoder against the reference rather than against a decoder of its own.
package dracotest

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// Mesh is one decoded stream: faces as index triples, attributes by
// unique id with their values as floats. Error is the decoder's message
// when it refused the stream.
type Mesh struct {
	Error      string
	Faces      int
	Points     int
	Indices    []uint32
	Attributes []Attribute
}

// Attribute is one decoded attribute: Draco's type, its width and its
// values for all points.
type Attribute struct {
	Type       int
	Components int
	Values     []float32
}

// Decode runs Google's decoder over the streams, in one node process. It
// skips the test without node and three.js, except in CI, where .ci/run
// installs tools/browser-test and their absence is a failure.
func Decode(t testing.TB, streams ...[]byte) []Mesh {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "..", "tools", "browser-test")
	node, err := exec.LookPath("node")
	if _, statErr := os.Stat(filepath.Join(dir, "node_modules", "three")); err != nil || statErr != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("node or three.js is missing: npm ci in tools/browser-test")
		}
		t.Skip("node or three.js is missing (npm ci in tools/browser-test)")
	}
	args := []string{filepath.Join(dir, "dracodecode.mjs")}
	tmp := t.TempDir()
	for i, s := range streams {
		p := filepath.Join(tmp, fmt.Sprintf("%d.drc", i))
		if err := os.WriteFile(p, s, 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, p)
	}
	cmd := exec.Command(node, args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("Draco decoder: %v", err)
	}
	var res []Mesh
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("Draco decoder output: %v", err)
	}
	if len(res) != len(streams) {
		t.Fatalf("Draco decoder: %d results for %d streams", len(res), len(streams))
	}
	return res
}

// SameTriangles reports whether got holds want's triangles in the same
// order, each with the same winding but maybe starting at another corner
// (the encoder rotates corners to shrink index deltas).
func SameTriangles(got, want []uint32) bool {
	if len(got) != len(want) || len(got)%3 != 0 {
		return false
	}
	for i := 0; i < len(got); i += 3 {
		ok := false
		for r := 0; r < 3 && !ok; r++ {
			ok = got[i] == want[i+r] && got[i+1] == want[i+(r+1)%3] && got[i+2] == want[i+(r+2)%3]
		}
		if !ok {
			return false
		}
	}
	return true
}
