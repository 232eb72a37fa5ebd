package avatar

import (
	"image"
	"testing"
)

// inkShare is the share of the top's base colour texels near the ink
// colour (yellow ink on a navy top: red and green high, blue low).
func inkShare(t *testing.T, cfg Config) float64 {
	t.Helper()
	s, err := Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	img := baseColorImage(t, s, "Wolf3D_Outfit_Top")
	return share(img, func(r, g, b uint32) bool { return r > 150 && g > 120 && b < 110 })
}

func share(img image.Image, ink func(r, g, b uint32) bool) float64 {
	n, k := 0, 0
	bd := img.Bounds()
	for y := bd.Min.Y; y < bd.Max.Y; y += 2 {
		for x := bd.Min.X; x < bd.Max.X; x += 2 {
			r, g, b, _ := img.At(x, y).RGBA()
			n++
			if ink(r>>8, g>>8, b>>8) {
				k++
			}
		}
	}
	return float64(k) / float64(n)
}

// TestTopPrints paints each print in yellow on a navy T-shirt: stripes
// cover half the shirt (a fifth of the texture or more, which also
// holds the space between the pattern pieces), the chest graphic a few percent, the logo
// less, a plain shirt none; and the ink follows its colour.
func TestTopPrints(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 4 avatars")
	}
	for _, tc := range []struct {
		id     string
		lo, hi float64
	}{{"none", 0, 0.001}, {"stripes", 0.2, 0.6}, {"graphic", 0.005, 0.08}, {"logo", 0.0005, 0.02}} {
		cfg := Default(Masculine)
		cfg.Outfit.Top = Garment{Style: "tshirt", Color: "navy", Print: Print{ID: tc.id, Color: "yellow"}}
		got := inkShare(t, cfg)
		t.Logf("%s: %.2f%% of the texture in yellow ink", tc.id, 100*got)
		if got < tc.lo || got > tc.hi {
			t.Errorf("%s: %.2f%% of the texture in ink, want %.2f%% to %.2f%%", tc.id, 100*got, 100*tc.lo, 100*tc.hi)
		}
	}
}
