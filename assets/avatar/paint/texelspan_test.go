package paint

import (
	"math"
	"testing"
)

// TestSkinReliefOnlyWhereResolved paints skin on spheres whose texels
// are 2.5 mm (a head's 512 map spreads the face over 2-3 mm texels, the
// neck over 3.5-4.3 mm) and 0.25 mm, and reads the normal map's mean
// tilt (the length of its x and y) over the sphere's middle band: the
// pores (0.7 mm) and fine lines (2.9 mm) are drawn only where two
// texels fit in a cell. Drawn on every texel, they aliased into a
// texel-sized grain and, on the neck's long texels, rows of horizontal
// creases (default-male's throat in p12's room portrait): the
// head-sized sphere's mean tilt was 0.040 before, 0.006 now (a flat
// normal's 128, 128 reads 0.0055); the fine sphere keeps its pores,
// 0.021 as before.
func TestSkinReliefOnlyWhereResolved(t *testing.T) {
	for _, c := range []struct {
		name     string
		r        float32
		min, max float64
	}{
		{"2.5 mm texels", 0.1, 0, 0.015},
		{"0.25 mm texels", 0.01, 0.012, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			img := decode(t, Skin(sphere([3]float32{0, 1.6, 0}, c.r, 64), RGB{0.6, 0.4, 0.3}, 3, 256).Normal)
			var tilt, n float64
			for y := 77; y < 179; y++ {
				for x := 0; x < 256; x++ {
					p := img.NRGBAAt(x, y)
					nx, ny := float64(p.R)/127.5-1, float64(p.G)/127.5-1
					tilt += math.Hypot(nx, ny)
					n++
				}
			}
			tilt /= n
			t.Logf("mean tilt %.3f", tilt)
			if tilt < c.min || tilt > c.max {
				t.Errorf("mean tilt of the normal map %.3f, want %.2f to %.2f", tilt, c.min, c.max)
			}
		})
	}
}
