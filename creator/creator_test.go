package creator

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The handler replaces the boot script's `{}`; it must find exactly one.
func TestIndexHasOneBootScript(t *testing.T) {
	const boot = `<script id="kiln-boot" type="application/json">{}</script>`
	if n := bytes.Count(Index, []byte(boot)); n != 1 {
		t.Fatalf("Index holds %d kiln-boot scripts, want 1", n)
	}
}

// Every file the page names under /creator/static/ is in Static.
func TestIndexReferencesExist(t *testing.T) {
	for _, name := range []string{"creator.js", "creator.css", "three/build/three.module.min.js"} {
		if !bytes.Contains(Index, []byte("/creator/static/"+name)) {
			t.Errorf("Index does not load %s", name)
		}
		if _, err := fs.Stat(Static, name); err != nil {
			t.Errorf("Static lacks %s: %v", name, err)
		}
	}
}

// The vendored three.js is the pinned package's, byte for byte
// (tools/creator/vendor.sh copies it); checked where node_modules is
// installed.
func TestVendoredThreeMatchesPackage(t *testing.T) {
	pkg := "../tools/browser-test/node_modules/three"
	if _, err := os.Stat(pkg); err != nil {
		t.Skip("no node_modules in tools/browser-test (npm ci there)")
	}
	n := 0
	err := fs.WalkDir(Static, "three", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel := strings.TrimPrefix(p, "three/")
		if a, ok := strings.CutPrefix(rel, "addons/"); ok {
			rel = "examples/jsm/" + a
		}
		got, _ := fs.ReadFile(Static, p)
		want, err := os.ReadFile(filepath.Join(pkg, rel))
		if err != nil {
			return err
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from the package's %s: run tools/creator/vendor.sh", p, rel)
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 7 {
		t.Errorf("%d vendored files, want the build, four addons and the licence", n)
	}
}
