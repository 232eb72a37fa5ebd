package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// BrowserTools finds what the browser tests run: node, Debian's chromium
// (or $CHROMIUM) and tools/browser-test with its packages (playwright-core
// and three.js, and the packages a test names in more, such as a client
// it runs), whose folder it answers with node. It skips the test when one
// is missing, except in CI, where .ci/run installs them all and a missing
// one is a failure.
func BrowserTools(t *testing.T, more ...string) (node, dir string) {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	dir = filepath.Join(filepath.Dir(file), "..", "..", "tools", "browser-test")
	missing := func(what string) {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is missing; .ci/run installs it", what)
		}
		t.Skipf("%s is missing (bash .ci/run installs it)", what)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node")
	}
	chromium := os.Getenv("CHROMIUM")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	if _, err := os.Stat(chromium); err != nil {
		missing("chromium")
	}
	for _, pkg := range append([]string{"playwright-core", "three"}, more...) {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", pkg)); err != nil {
			missing(pkg + " (npm ci in tools/browser-test)")
		}
	}
	return node, dir
}
