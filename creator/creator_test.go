package creator

import (
	"bytes"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
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
		t.Errorf("%d vendored files, want the build, five addons and the licence", n)
	}
}

// Every module the vendored addons import by a relative path is vendored
// too: the browser fetches it, and a missing one stops the whole page
// (three.js 0.183's GLTFLoader imports utils/SkeletonUtils.js).
func TestVendoredImportsResolve(t *testing.T) {
	imports := regexp.MustCompile(`(?m)^import [^;]*? from '(\.[^']+)'`)
	err := fs.WalkDir(Static, "three/addons", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		src, _ := fs.ReadFile(Static, p)
		for _, m := range imports.FindAllSubmatch(src, -1) {
			dep := path.Join(path.Dir(p), string(m[1]))
			if _, err := fs.Stat(Static, dep); err != nil {
				t.Errorf("%s imports %s, which is not vendored: add it to tools/creator/vendor.sh", p, dep)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
