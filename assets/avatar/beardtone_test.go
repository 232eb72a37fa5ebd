package avatar

import (
	"math"
	"slices"
	"testing"

	"github.com/kilnhq/kiln/assets/avatar/paint"
)

// TestBeardTone: a beard is painted darker and less saturated than the
// scalp hair of its colour name, as the leader's are: ginger a natural
// auburn, not orange; blonde sandy, not yellow. Saturation and value
// (HSV) of the sRGB colours; painted in the hair's own colour (before)
// the red beard had saturation 0.81 and value 0.64.
func TestBeardTone(t *testing.T) {
	hsv := func(c rgb) (s, v float64) {
		var b [3]float64
		for i, x := range c {
			b[i] = float64(linearByte(x)) / 255
		}
		hi := math.Max(b[0], math.Max(b[1], b[2]))
		lo := math.Min(b[0], math.Min(b[1], b[2]))
		if hi == 0 {
			return 0, 0
		}
		return (hi - lo) / hi, hi
	}
	for _, tc := range []struct {
		hair     string
		maxSat   float64
		maxValue float64
		darkerBy float64
	}{
		{"red", 0.65, 0.5, 0.1},
		{"auburn", 0.6, 0.4, 0.08},
		{"blonde", 0.4, 0.66, 0.1},
		// Black is lifted to beardLumaFloor, a charcoal a shade over the
		// hair's own value (TestBlackBeardShowsStrands).
		{"black", 0.3, 0.15, -0.04},
		{"dark-brown", 0.55, 0.2, 0.02},
	} {
		hs, hv := hsv(colorOf(hairColors, tc.hair))
		s, v := hsv(beardTone(colorOf(hairColors, tc.hair)))
		t.Logf("%s: hair S %.2f V %.2f, beard S %.2f V %.2f", tc.hair, hs, hv, s, v)
		if s > tc.maxSat || v > tc.maxValue || hv-v < tc.darkerBy {
			t.Errorf("%s beard: saturation %.2f (max %.2f), value %.2f (max %.2f), %.2f darker than the hair (min %.2f)", tc.hair, s, tc.maxSat, v, tc.maxValue, hv-v, tc.darkerBy)
		}
	}
}

// linearByte encodes a linear channel as an sRGB byte.
func linearByte(x float64) uint8 {
	if x <= 0.0031308 {
		return uint8(math.Round(255 * 12.92 * x))
	}
	return uint8(math.Round(255 * (1.055*math.Pow(x, 1/2.4) - 0.055)))
}

// TestBlackBeardLifted: a black beard is painted a charcoal, not the
// near-black it was (issue 22's p21 panel on random-06: "a blocky dark
// mass with jagged edges"). Painted by paint.Beard on the default
// masculine head's full beard, the texels the inner shell draws (alpha
// 0.5 and over): the median sRGB luma byte. Before beardLumaFloor: 17
// (the black scalp hair's albedo is 24); now 29.
func TestBlackBeardLifted(t *testing.T) {
	cfg := Default(Masculine)
	cfg.FacialHair = FacialHair{Style: "full-beard", Color: "black"}
	body, head := restingHead(t, cfg)
	bd := newBeard(cfg, head, body.Joints())
	const n = 512
	m := paint.Beard(bd.part.surface(), bd.color, 1, n)
	var lum []float64
	for i := 0; i < n*n; i++ {
		px := m.Base.Pix[4*i : 4*i+4]
		if px[3] < 128 {
			continue
		}
		lum = append(lum, 0.2126*float64(px[0])+0.7152*float64(px[1])+0.0722*float64(px[2]))
	}
	if len(lum) < 500 {
		t.Fatalf("%d texels of beard (want 500)", len(lum))
	}
	slices.Sort(lum)
	med := lum[len(lum)/2]
	t.Logf("black beard: median luma %.0f, strands p90-p10 %.0f (%d texels)", med, lum[len(lum)*9/10]-lum[len(lum)/10], len(lum))
	if med < 24 {
		t.Errorf("black beard: median luma %.0f (min 24): a near-black mass", med)
	}
}
