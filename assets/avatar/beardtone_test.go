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
		// Blonde is drawn to its brows' value, a golden brown
		// (TestBeardSitsWithHair): more saturated than the sandy #8d7960
		// it was, and no yellow.
		{"blonde", 0.55, 0.5, 0.1},
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
// grey-green beside the skin; then #59432b, 0.52; drawn to its brows'
// value first and warmed by beardWarm, now #6a4c2d, 0.58). Every named
// hair colour on every skin tone; grey, white and platinum beards
// (saturation under 0.2), which read as hair by their pale hue, and
// beards at beardLumaFloor are let be.
func TestBeardSkinContrast(t *testing.T) {
	for _, hair := range names(hairColors) {
		own := beardBase(colorOf(hairColors, hair))
		_, ownSat := hueSat(own)
		for _, tone := range names(skinTones) {
			skin := colorOf(skinTones, tone)
			b := beardTone(colorOf(hairColors, hair), skin)
			r := b.luma() / skin.luma()
			_, sat := hueSat(b)
			if sat < 0.2 || b.luma() <= beardLumaFloor*1.01 {
				continue
			}
			if r > beardSkinShare*1.01 && r < beardLighterThanSkin*0.999 {
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

// TestBeardSitsWithHair: a beard grown in the hair's colour is a darker,
// warmer shade of it at about its brows' value, and the brows are the
// beard's colour (beardBrows), as a blond man's are; it is not a brown
// of its own. On main before this, random-08's blonde goatee on olive
// skin was drawn to 0.3 of the skin's luminance, 0.52 of its brows' (a
// room portrait's luma 79 under hair of 145 and brows of about 113: "a
// dark brown goatee that clashes with the bright blond hair and ash
// brows", 4/4 portraits lost), and the brows an ash of sRGB saturation
// 0.33 beside the goatee's 0.52; on tan skin 0.40 of the brows', on
// porcelain, brown and dark skins 1.5-1.7 of them, and red and auburn
// beards on dark skin 0.32-0.35. Per row: the beard's luminance over its
// brows' (min to max: 0.95-1.05 where the skin lets it be the brows'
// value, lower where beardSkinShare holds it under a mid skin's, higher
// where beardLighterThanSkin holds it over a brown skin's); its hue
// within 10° warmer than the hair's and never yellower; the brows' hue
// within 3° of the beard's, and where the beard is at the brows' value
// their saturation within 0.04 of it (sRGB bytes of one colour at two
// values differ by about that). Platinum keeps its pale beard
// (inContrast lets pale hues be), lighter than its brows.
// TestBeardSkinContrast keeps every beard off the skin's value.
func TestBeardSitsWithHair(t *testing.T) {
	for _, tc := range []struct {
		hair, skin string
		min, max   float64 // the beard's luminance over the brows'
	}{
		{"blonde", "porcelain", 0.95, 1.05},
		{"blonde", "light", 0.95, 1.05},
		{"blonde", "fair", 0.95, 1.05},
		{"blonde", "medium", 0.8, 1.05},
		{"blonde", "olive", 0.6, 1.05},
		{"blonde", "tan", 0.5, 1.05},
		{"blonde", "brown", 0.95, 1.3},
		{"blonde", "dark", 0.95, 1.05},
		{"light-brown", "light", 0.95, 1.05},
		{"light-brown", "olive", 0.95, 1.05},
		{"light-brown", "tan", 0.75, 1.05},
		{"light-brown", "brown", 0.5, 1.05},
		{"light-brown", "dark", 0.95, 1.3},
		{"red", "light", 0.9, 1.05},
		{"red", "olive", 0.9, 1.05},
		{"red", "brown", 0.6, 1.05},
		{"red", "dark", 0.4, 1.05},
		{"auburn", "fair", 0.8, 1.05},
		{"auburn", "brown", 0.7, 1.05},
		{"auburn", "dark", 0.4, 1.05},
		{"platinum", "light", 1.8, 2.2},
		{"platinum", "olive", 1.8, 2.2},
	} {
		hair := colorOf(hairColors, tc.hair)
		beard := beardTone(hair, colorOf(skinTones, tc.skin))
		brows := beardBrows(hair)
		r := beard.luma() / brows.luma()
		hh, _ := hueSat(hair)
		bh, bs := hueSat(beard)
		wh, ws := hueSat(brows)
		t.Logf("%s on %s: beard #%02x%02x%02x at %.2f of the brows' luminance, %.2f of the hair's; hue %.0f (hair %.0f), brows hue %.0f saturation %.2f (beard %.2f)",
			tc.hair, tc.skin, linearByte(beard[0]), linearByte(beard[1]), linearByte(beard[2]), r, beard.luma()/hair.luma(), bh, hh, wh, ws, bs)
		if r < tc.min || r > tc.max {
			t.Errorf("%s beard on %s skin: %.2f of its brows' luminance (want %.2f to %.2f)", tc.hair, tc.skin, r, tc.min, tc.max)
		}
		if bs > 0.2 && (bh > hh+1 || bh < hh-10) {
			t.Errorf("%s beard on %s skin: hue %.0f against the hair's %.0f (want up to 10° warmer, never yellower)", tc.hair, tc.skin, bh, hh)
		}
		if math.Abs(wh-bh) > 3 || r > 0.95 && r < 1.05 && math.Abs(ws-bs) > 0.04 {
			t.Errorf("%s beard on %s skin: brows hue %.0f saturation %.2f, beard hue %.0f saturation %.2f: two colours of hair on one face", tc.hair, tc.skin, wh, ws, bh, bs)
		}
	}
}
