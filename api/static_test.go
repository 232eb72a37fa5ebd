package api

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestStaticMatchesPinnedPackages checks that the files tools/web/build.sh
// copies into web/static are the bytes of the package versions
// tools/web/package.json pins, read from an installed copy of those
// packages (tools/web's own, or tools/browser-test's, which CI installs):
// a version bump without a rebuild, or a hand edit, fails here.
func TestStaticMatchesPinnedPackages(t *testing.T) {
	var pins struct{ Dependencies map[string]string }
	raw, err := os.ReadFile("../tools/web/package.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &pins); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ pkg, from, to string }{
		{"@google/model-viewer", "dist/model-viewer.min.js", "model-viewer.min.js"},
		{"meshoptimizer", "meshopt_decoder.cjs", "meshopt_decoder.js"},
		{"three", "examples/jsm/libs/draco/gltf/draco_wasm_wrapper.js", "draco/draco_wasm_wrapper.js"},
		{"three", "examples/jsm/libs/draco/gltf/draco_decoder.wasm", "draco/draco_decoder.wasm"},
	} {
		t.Run(c.to, func(t *testing.T) {
			want := pins.Dependencies[c.pkg]
			if want == "" {
				t.Fatalf("tools/web/package.json pins no %s", c.pkg)
			}
			dir := installed(c.pkg, want)
			if dir == "" {
				t.Skipf("%s %s is not installed (npm ci in tools/web or tools/browser-test)", c.pkg, want)
			}
			pkgFile, err := os.ReadFile(filepath.Join(dir, c.from))
			if err != nil {
				t.Fatal(err)
			}
			served, err := web.ReadFile("web/static/" + c.to)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(pkgFile, served) {
				t.Errorf("web/static/%s (%d bytes) is not %s %s's %s (%d bytes): run tools/web/build.sh", c.to, len(served), c.pkg, want, c.from, len(pkgFile))
			}
		})
	}
}

// installed is the folder of an installed package at that version, or "".
func installed(pkg, version string) string {
	for _, root := range []string{"../tools/web/node_modules", "../tools/browser-test/node_modules"} {
		dir := filepath.Join(root, pkg)
		raw, err := os.ReadFile(filepath.Join(dir, "package.json"))
		if err != nil {
			continue
		}
		var p struct{ Version string }
		if json.Unmarshal(raw, &p) == nil && p.Version == version {
			return dir
		}
	}
	return ""
}
