package worker

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestBlenderScriptErrors runs Kiln's scripts with the real Blender on
// inputs they refuse: the failure must come back as a renderError (no
// retry) carrying the script's own message, not Blender's log.
func TestBlenderScriptErrors(t *testing.T) {
	blender, err := exec.LookPath("blender")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("CI is set but blender is not installed: .ci/run installs it")
		}
		t.Skip("blender is not installed")
	}
	dir := t.TempDir()
	if err := writeScripts(dir); err != nil {
		t.Fatal(err)
	}
	notGLB := filepath.Join(dir, "model.glb")
	if err := os.WriteFile(notGLB, []byte("not a glb"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, script string
		args         []string
		want         string
	}{
		{"unknown setup", "make_setups.py", []string{"studio-pink", filepath.Join(dir, "x.blend")}, "kiln make_setups.py: unknown setup"},
		{"not a GLB", "render.py", []string{notGLB, filepath.Join(dir, "out.png"), "8", "8", "1", "0", "0", "0", "0", "PNG"}, "kiln render.py: cannot import"},
		{"bad format", "render.py", []string{notGLB, filepath.Join(dir, "out.png"), "8", "8", "1", "0", "0", "0", "0", "TIFF"}, "kiln render.py: format"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := runBlender(context.Background(), blender, dir, "", c.script, c.args...)
			var re *renderError
			if !errors.As(err, &re) || re.code != codeRenderFailed || !strings.Contains(re.msg, c.want) {
				t.Fatalf("got %v, want a renderError with %q", err, c.want)
			}
		})
	}
}

// TestTailKeepsTheEnd checks the bounded buffer of Blender's output.
func TestTailKeepsTheEnd(t *testing.T) {
	var b tail
	for range 5000 {
		b.Write([]byte("Fra:1 Sample 1/64\n"))
	}
	b.Write([]byte("kiln render.py: the end\n"))
	if s := b.String(); len(s) > 16<<10 || !strings.HasSuffix(s, "the end\n") {
		t.Fatalf("tail kept %d bytes ending %q", len(s), s[len(s)-20:])
	}
	if got := scriptMessage(b.String()); got != "kiln render.py: the end" {
		t.Fatalf("scriptMessage: %q", got)
	}
}
