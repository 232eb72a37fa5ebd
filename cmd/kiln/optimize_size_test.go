package main

import (
	"bytes"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/scene/scenetest"
	"github.com/kilnhq/kiln/internal/gltfcheck"
)

// TestOptimizeTextureSize: a 2048-wide texture is capped at 1024 by
// default and at N by --texture-size N; --texture-size source keeps it at
// 2048, byte for byte without --texture-format (also with --meshopt, as
// gltfpack -cc leaves textures), and converted at its size with one; bad
// values and conflicts exit 2 naming the flag.
func TestOptimizeTextureSize(t *testing.T) {
	dir := t.TempDir()
	s, err := scene.Read(scenetest.Skinned(), scene.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Images) == 0 {
		t.Fatal("the skinned model has no image")
	}
	png := scenetest.PNG(2048, 16, color.NRGBA{200, 40, 40, 255}, color.NRGBA{40, 40, 200, 255})
	for _, im := range s.Images {
		im.Data, im.MimeType = png, "image/png"
	}
	src, err := scene.Write(s)
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, "wide.glb")
	os.WriteFile(in, src, 0o644)
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string // in the printed stats, or the error line
		same bool   // the source PNG's bytes are in the output
	}{
		{"default", nil, 0, `"sizeAfter": [` + "\n" + `        1024,`, false},
		{"limit", []string{"--texture-size", "512"}, 0, `"sizeAfter": [` + "\n" + `        512,`, false},
		{"source", []string{"--texture-size", "source"}, 0, `"sizeAfter": [` + "\n" + `        2048,`, true},
		{"source meshopt", []string{"--texture-size=source", "--meshopt"}, 0, `"sizeAfter": [` + "\n" + `        2048,`, true},
		{"source webp", []string{"--texture-size", "source", "--texture-format", "webp"}, 0, `"sizeAfter": [` + "\n" + `        2048,`, false},
		{"too small", []string{"--texture-size", "100"}, 2, "--texture-size must be a whole number from 256 to 1024", false},
		{"word", []string{"--texture-size", "big"}, 2, "--texture-size must be source or a whole number", false},
		{"source with atlas", []string{"--texture-size", "source", "--atlas", "512"}, 2, "--texture-size source take", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".glb")
			var stdout, stderr bytes.Buffer
			code := run(append([]string{"optimize", in, out}, tc.args...), &stdout, &stderr)
			got := stdout.String() + stderr.String()
			if code != tc.code || !strings.Contains(got, tc.want) {
				t.Fatalf("exit %d %q, want %d with %q", code, got, tc.code, tc.want)
			}
			if code != 0 {
				return
			}
			glb, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			gltfcheck.RequireValid(t, glb)
			if bytes.Contains(glb, png) != tc.same {
				t.Errorf("source PNG bytes in the output: %v, want %v", !tc.same, tc.same)
			}
		})
	}
}
