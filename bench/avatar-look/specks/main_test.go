package main

import (
	"image"
	"image/color"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/kilnhq/kiln/bench/internal/pngfile"
)

// TestIsolated: a dot one pixel wide is a speck, dark or light; a faint
// one, a dot two pixels wide, a line and an edge are not.
func TestIsolated(t *testing.T) {
	for _, c := range []struct {
		name  string
		paint func(x, y int) uint8
		want  int
	}{
		{"dark dot", func(x, y int) uint8 { return pick(x == 10 && y == 10, 150, 200) }, 1},
		{"light dot", func(x, y int) uint8 { return pick(x == 10 && y == 10, 240, 200) }, 1},
		{"faint dot", func(x, y int) uint8 { return pick(x == 10 && y == 10, 190, 200) }, 0},
		{"two-pixel dot", func(x, y int) uint8 { return pick((x == 10 || x == 11) && (y == 10 || y == 11), 150, 200) }, 0},
		{"line", func(x, y int) uint8 { return pick(y == 10, 150, 200) }, 0},
		{"edge", func(x, y int) uint8 { return pick(x < 10, 150, 200) }, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			im := image.NewRGBA(image.Rect(0, 0, 21, 21))
			for y := range 21 {
				for x := range 21 {
					v := c.paint(x, y)
					im.Set(x, y, color.RGBA{v, v, v, 255})
				}
			}
			if got := len(specks(im, im.Bounds())); got != c.want {
				t.Errorf("%d specks, want %d", got, c.want)
			}
		})
	}
}

func pick(b bool, yes, no uint8) uint8 {
	if b {
		return yes
	}
	return no
}

// TestSupersampledPortraitHasNoSpecks: the leader's office avatar, whose
// room portrait shows specks round the mouth when look.mjs multisamples
// (5 at 512 px: the measure sees them), shows none with --ssaa 2. Needs
// node, chromium and npm ci in tools/browser-test, and ../shared.
func TestSupersampledPortraitHasNoSpecks(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..", "..")
	look := filepath.Join(root, "bench", "avatar-look", "look.mjs")
	node, err := exec.LookPath("node")
	if _, serr := os.Stat(filepath.Join(root, "tools", "browser-test", "node_modules", "three")); err != nil || serr != nil {
		t.Skip("node or three is missing (npm ci in tools/browser-test)")
	}
	glb := filepath.Join(root, "..", "shared", "testdata", "rpm-avatar-office.glb")
	if _, err := os.Stat(glb); err != nil {
		t.Skipf("../shared absent: %v", err)
	}
	count := func(extra ...string) int {
		out := t.TempDir()
		args := append([]string{look, out, glb, "--light", "room", "--camera", "portrait"}, extra...)
		if b, err := exec.Command(node, args...).CombinedOutput(); err != nil {
			t.Fatalf("look.mjs %v: %v: %s", extra, err, b)
		}
		im, err := pngfile.Read(filepath.Join(out, "rpm-avatar-office-room-portrait.png"))
		if err != nil {
			t.Fatal(err)
		}
		return len(specks(im, mouthBox))
	}
	multi, super := count(), count("--ssaa", "2")
	t.Logf("specks round the mouth: %d multisampled, %d supersampled", multi, super)
	if multi == 0 {
		t.Errorf("the multisampled portrait shows no specks: the measure no longer sees what it was made for")
	}
	if super != 0 {
		t.Errorf("the supersampled portrait shows %d specks round the mouth, want 0", super)
	}
}
