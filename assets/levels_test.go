package assets

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"testing"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/scene/scenetest"
	"github.com/kilnhq/kiln/internal/gltfcheck"
)

// tubeWithTexture is the skinned tube fixture with its texture replaced
// by a w×h checker.
func tubeWithTexture(t *testing.T, w, h int) *scene.Scene {
	t.Helper()
	s, err := Read(scenetest.SkinnedTube())
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Images) != 1 {
		t.Fatalf("the tube has %d images, want 1", len(s.Images))
	}
	s.Images[0].Data = scenetest.PNG(w, h, color.NRGBA{200, 60, 40, 255}, color.NRGBA{240, 240, 240, 255})
	return s
}

// imageSizes decodes the PNG and JPEG images of a GLB.
func imageSizes(t *testing.T, glb []byte) [][2]int {
	t.Helper()
	doc, bin := split(t, glb)
	var out [][2]int
	for i, img := range doc.Images {
		bv := doc.BufferViews[*img.BufferView]
		cfg, _, err := image.DecodeConfig(bytes.NewReader(bin[bv.ByteOffset : bv.ByteOffset+bv.ByteLength]))
		if err != nil {
			t.Fatalf("image %d: %v", i, err)
		}
		out = append(out, [2]int{cfg.Width, cfg.Height})
	}
	return out
}

// TestTexturesFollowTheLevel: the stored levels of an object scale its
// images to 1024 at lod 1 and 512 at lod 2, aspect kept, never up; a
// downloaded variant of an avatar or object does the same.
func TestTexturesFollowTheLevel(t *testing.T) {
	for _, tt := range []struct {
		w, h int
		want [3][2]int
	}{
		{2048, 1024, [3][2]int{{2048, 1024}, {1024, 512}, {512, 256}}},
		{300, 200, [3][2]int{{300, 200}, {300, 200}, {300, 200}}},
		{800, 800, [3][2]int{{800, 800}, {800, 800}, {512, 512}}},
	} {
		models, err := Levels(context.Background(), tubeWithTexture(t, tt.w, tt.h), 2)
		if err != nil {
			t.Fatal(err)
		}
		for l, m := range models {
			gltfcheck.RequireValid(t, m.GLB)
			got := imageSizes(t, m.GLB)
			if len(got) != 1 || got[0] != tt.want[l] {
				t.Errorf("%dx%d source, stored lod %d: images %v, want %v", tt.w, tt.h, l, got, tt.want[l])
			}
		}
		for l := 0; l <= 2; l++ {
			m, err := BuildVariant(context.Background(), tubeWithTexture(t, tt.w, tt.h), kiln.Variant{LOD: l, TextureFormat: "png"})
			if err != nil {
				t.Fatal(err)
			}
			want := tt.want[l]
			if l == 0 && want[0] > 1024 { // variants cap lod 0 at 1024 as before
				want = [2]int{want[0] / 2, want[1] / 2}
			}
			if got := imageSizes(t, m.GLB); len(got) != 1 || got[0] != want {
				t.Errorf("%dx%d source, variant lod %d: images %v, want %v", tt.w, tt.h, l, got, want)
			}
		}
	}
}
