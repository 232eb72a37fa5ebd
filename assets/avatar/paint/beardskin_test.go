package paint

import (
	"image"
	"math"
	"testing"
)

// TestRootsUnderBeard paints a beard's roots on a uniform skin (a
// sphere of radius 10 cm whose mask falls from 1 at v 0.3 to 0 at v
// 0.55, as a beard's widened region falls past its edge) and measures,
// texel by texel, how much of the way from the skin to the roots'
// colour each went (cover, from linear luminance). Under the beard
// (mask 0.45 and over, where the shells lie) no texel may show the
// skin through (cover under 0.8): the old shadow, Stubble at the full
// beard's 0.9, left 0.80 of those texels under 0.8 cover, the skin
// showing in spots between the shells' strands (issue 22's panel,
// random-11). And the fade onto the skin is soft: the band from cover
// 0.8 down to 0.1 at least 14 mm wide along the sphere (it was 9.8 mm,
// and the beard's cheek line read as a hard outline in a portrait),
// with the skin untouched where the mask is 0.
func TestRootsUnderBeard(t *testing.T) {
	const seg, n, r = 64, 256, 0.1
	s := sphere([3]float32{0, 1.6, 0}, r, seg)
	s.Mask = make([]float32, len(s.Pos))
	for i, uv := range s.UV {
		s.Mask[i] = float32(clamp01((0.55 - float64(uv[1])) / 0.25))
	}
	skin := RGB{0.6, 0.35, 0.25}
	hair := RGB{0.2, 0.06, 0.03}
	lum := rgb.luma
	for _, tc := range []struct {
		name  string
		paint func(Maps)
	}{
		{"roots", func(m Maps) { Roots(m, s, nil, hair, 3) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := Maps{Base: image.NewNRGBA(image.Rect(0, 0, n, n))}
			sk := [3]uint8{linearToSRGB(skin[0]), linearToSRGB(skin[1]), linearToSRGB(skin[2])}
			for i := 0; i < n*n; i++ {
				copy(m.Base.Pix[4*i:4*i+3], sk[:])
				m.Base.Pix[4*i+3] = 255
			}
			tc.paint(m)
			l0 := lum(rgb{srgbToLinear(sk[0]), srgbToLinear(sk[1]), srgbToLinear(sk[2])})
			l1 := lum(rgb(hair).scale(rootShade))
			// Mean cover per row (v), and the spots under the beard.
			rows := make([]float64, n)
			under, spots, touched := 0, 0, 0
			for y := 0; y < n; y++ {
				v := (float64(y) + 0.5) / n
				mask := clamp01((0.55 - v) / 0.25)
				for x := 0; x < n; x++ {
					o := m.Base.PixOffset(x, y)
					px := m.Base.Pix[o : o+3]
					c := (l0 - lum(rgb{srgbToLinear(px[0]), srgbToLinear(px[1]), srgbToLinear(px[2])})) / (l0 - l1)
					rows[y] += c / n
					if mask >= 0.45 {
						under++
						if c < 0.8 {
							spots++
						}
					}
					if v > 0.56 && c > 0.01 {
						touched++
					}
				}
			}
			// The fade: from the last row at cover 0.8 and over to the
			// first under 0.1, in metres along the meridian.
			hi, lo := -1, -1
			for y := 0; y < n; y++ {
				if rows[y] >= 0.8 {
					hi = y
				}
				if hi >= 0 && lo < 0 && y > hi && rows[y] < 0.1 {
					lo = y
				}
			}
			width := float64(lo-hi) / n * math.Pi * r
			share := float64(spots) / float64(under)
			t.Logf("%s: %.2f of %d texels under the beard show the skin (cover < 0.8); fade 0.8 -> 0.1 over %.1f mm; %d texels touched past the mask", tc.name, share, under, 1000*width, touched)
			if share > 0.001 {
				t.Errorf("%.2f of the texels under the beard show the skin through (max 0.001)", share)
			}
			if hi < 0 || lo < 0 || width < 0.014 {
				t.Errorf("the roots fade onto the skin over %.1f mm (min 14)", 1000*width)
			}
			if touched > 0 {
				t.Errorf("%d texels past the mask's end painted", touched)
			}
		})
	}
}
