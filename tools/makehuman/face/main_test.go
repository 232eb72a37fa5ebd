package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// The committed data is what the converter makes from the MakeHuman data
// (when ../shared is there to make it from).
func TestCommittedDataIsUpToDate(t *testing.T) {
	src := filepath.Join("..", "..", "..", "..", "shared", "makehuman")
	if _, err := os.Stat(filepath.Join(src, "data", "poseunits")); err != nil {
		t.Skip("no MakeHuman data:", err)
	}
	out := t.TempDir()
	if err := run(src, out, false); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"data/shapes.bin.gz", "testdata/rest.bin.gz"} {
		got, err := os.ReadFile(filepath.Join(out, f))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join("..", "..", "..", "assets", "avatar", "face", f))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from a fresh conversion: run go run ./tools/makehuman/face", f)
		}
	}
}
