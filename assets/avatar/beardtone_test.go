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
		// Black skin (luminance 0): the tone against the hair alone, with
		// no skin to hold contrast against (TestBeardSkinContrast).
		s, v := hsv(beardTone(colorOf(hairColors, tc.hair), rgb{}))
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

// TestBeardSkinContrast: a coloured beard is painted well darker than
// the skin it grows on, or well lighter, never near the skin's own value
// (random-08's blonde goatee on olive skin, "a flat beige patch" at p28:
// 0.96 of the skin's luminance before inContrast), and darkened it stays
// more saturated the more it is darkened, a warm dark blonde and not an
// olive khaki (scaled alone, blonde on olive was #504435, saturation
// 0.34 against the undarkened tone's 0.32 in sRGB bytes, reading
// grey-green beside the skin; now #59432b, 0.52). Every named hair colour on every skin
// tone; grey, white and platinum beards (saturation under 0.2), which
// read as hair by their pale hue, and beards at beardLumaFloor are let
// be.
func TestBeardSkinContrast(t *testing.T) {
	for _, hair := range names(hairColors) {
		own := beardTone(colorOf(hairColors, hair), rgb{})
		_, ownSat := hueSat(own)
		for _, tone := range names(skinTones) {
			skin := colorOf(skinTones, tone)
			b := beardTone(colorOf(hairColors, hair), skin)
			r := b.luma() / skin.luma()
			_, sat := hueSat(b)
			if sat < 0.2 || b.luma() <= beardLumaFloor*1.01 {
				continue
			}
			if r > beardSkinShare*1.01 && r < beardLighterThanSkin {
				t.Errorf("%s beard on %s skin: %.2f of the skin's luminance (want at most %.2f or at least %.2f)", hair, tone, r, beardSkinShare, beardLighterThanSkin)
			}
			k := b.luma() / own.luma()
			if want := ownSat + 0.25*(1-k); sat < want {
				t.Errorf("%s beard on %s skin: darkened to %.2f of its tone with saturation %.2f (want %.2f, its tone's %.2f and more as it darkens)", hair, tone, k, sat, want, ownSat)
			}
		}
	}
	b := beardTone(colorOf(hairColors, "blonde"), colorOf(skinTones, "olive"))
	_, sat := hueSat(b)
	t.Logf("blonde beard on olive skin: #%02x%02x%02x, saturation %.2f", linearByte(b[0]), linearByte(b[1]), linearByte(b[2]), sat)
}

// hueSat is the hue (degrees) and saturation (HSV) of a colour's sRGB
// bytes.
func hueSat(c rgb) (hue, sat float64) {
	r, g, b := float64(linearByte(c[0])), float64(linearByte(c[1])), float64(linearByte(c[2]))
	hi, lo := max(r, g, b), min(r, g, b)
	if hi == lo {
		return 0, 0
	}
	switch hi {
	case r:
		hue = 60 * (g - b) / (hi - lo)
	case g:
		hue = 60 * (2 + (b-r)/(hi-lo))
	default:
		hue = 60 * (4 + (r-g)/(hi-lo))
	}
	return math.Mod(hue+360, 360), (hi - lo) / hi
}
