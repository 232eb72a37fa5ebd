package creator

import (
	"bytes"
	"io/fs"
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
	for _, name := range []string{"creator.js", "creator.css"} {
		if !bytes.Contains(Index, []byte("/creator/static/"+name)) {
			t.Errorf("Index does not load %s", name)
		}
		if _, err := fs.Stat(Static, name); err != nil {
			t.Errorf("Static lacks %s: %v", name, err)
		}
	}
}
