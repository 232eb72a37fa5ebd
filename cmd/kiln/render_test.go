package main

import (
	"bytes"
	"image"
	_ "image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chai2010/webp"
	"github.com/kilnhq/kiln/assets/scene/scenetest"
)

func TestRenderCLI(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "tube.glb")
	if err := os.WriteFile(in, scenetest.SkinnedTube(), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.glb")
	os.WriteFile(bad, []byte("not a model"), 0o644)
	tests := []struct {
		args   []string
		code   int
		stderr string // a part of the one-line error
		size   int
		alpha  uint8 // corner alpha of the written image
	}{
		{[]string{in, "a.png", "--size", "48"}, 0, "", 48, 0},
		{[]string{in, "b.png", "--size", "40", "--camera", "portrait", "--background", "10,20,30"}, 0, "", 40, 255},
		{[]string{in, "c.jpg", "--size", "32"}, 0, "", 32, 255},
		{[]string{"--size", "32", in, "d.webp"}, 0, "", 32, 0},
		{[]string{in, "e.gif"}, 2, "extension", 0, 0},
		{[]string{in, "f.png", "--size", "0"}, 2, "--size", 0, 0},
		{[]string{in, "g.png", "--camera", "side"}, 2, "--camera", 0, 0},
		{[]string{in, "h.png", "--background", "1,2,300"}, 2, "--background", 0, 0},
		{[]string{in}, 2, "usage", 0, 0},
		{[]string{bad, "i.png"}, 1, "bad.glb", 0, 0},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			args := append([]string{"render"}, tt.args...)
			for i, a := range args {
				if strings.Contains(a, ".") && !strings.HasPrefix(a, "/") && !strings.Contains(a, ",") {
					args[i] = filepath.Join(dir, a)
				}
			}
			var stdout, stderr bytes.Buffer
			code := run(args, &stdout, &stderr)
			if code != tt.code {
				t.Fatalf("exit %d, want %d: %s", code, tt.code, stderr.String())
			}
			if tt.code != 0 {
				if !strings.Contains(stderr.String(), tt.stderr) || strings.Count(stderr.String(), "\n") != 1 {
					t.Fatalf("stderr %q, want one line naming %q", stderr.String(), tt.stderr)
				}
				return
			}
			var out string
			for _, a := range args {
				if e := filepath.Ext(a); e == ".png" || e == ".jpg" || e == ".webp" {
					out = a
				}
			}
			data, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			var m image.Image
			if filepath.Ext(out) == ".webp" {
				m, err = webp.Decode(bytes.NewReader(data))
			} else if filepath.Ext(out) == ".png" {
				m, err = png.Decode(bytes.NewReader(data))
			} else {
				m, _, err = image.Decode(bytes.NewReader(data))
			}
			if err != nil {
				t.Fatal(err)
			}
			if m.Bounds().Dx() != tt.size || m.Bounds().Dy() != tt.size {
				t.Fatalf("size %v, want %d", m.Bounds(), tt.size)
			}
			if _, _, _, a := m.At(0, 0).RGBA(); uint8(a>>8) != tt.alpha {
				t.Errorf("corner alpha %d, want %d", a>>8, tt.alpha)
			}
		})
	}
}
