package worker

import (
	"context"
	"testing"

	"github.com/kilnhq/kiln/assets/avatar"
	"github.com/kilnhq/kiln/assets/render"
)

// TestPictureFromPart draws a catalogue thumbnail as the worker does (the
// kept default body with the style's part) and as a whole build, and
// compares pixels: the part's picture must be far nearer the whole
// build's than the default body's picture is, so the style shows as it
// will on the avatar.
func TestPictureFromPart(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and renders avatars")
	}
	draw := func(t *testing.T, cfg avatar.Config, part string) []byte {
		t.Helper()
		s, err := pictureScene(cfg, part)
		if err != nil {
			t.Fatal(err)
		}
		m, err := render.Render(context.Background(), s, render.Options{Size: 128, Camera: "portrait", Background: render.ForFormat("png", nil)})
		if err != nil {
			t.Fatal(err)
		}
		return m.Pix
	}
	def := avatar.Default(avatar.Masculine)
	plain := draw(t, def, "")
	for _, tc := range []struct{ cat, style string }{
		{"hair", "curly"},
		{"headwear", "beanie"},
	} {
		t.Run(tc.cat+"/"+tc.style, func(t *testing.T) {
			cfg := def.WithStyle(tc.cat, tc.style)
			if !composed(tc.cat, tc.style) {
				t.Fatalf("%s/%s is not drawn from its part", tc.cat, tc.style)
			}
			fromPart, whole := draw(t, cfg, tc.cat), draw(t, cfg, "")
			off, change := meanDiff(fromPart, whole), meanDiff(whole, plain)
			t.Logf("from the part vs the whole build: %.3f a channel; the style's change: %.3f", off, change)
			if change < 0.05 || off > change/3 {
				t.Errorf("the picture from the part is %.3f a channel off the whole build's, against %.3f that the style changes", off, change)
			}
		})
	}
}

// meanDiff is the mean absolute difference of two pictures' channels.
func meanDiff(a, b []byte) float64 {
	var s float64
	for i := range a {
		d := float64(a[i]) - float64(b[i])
		s += max(d, -d)
	}
	return s / float64(len(a))
}
