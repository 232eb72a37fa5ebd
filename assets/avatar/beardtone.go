package avatar

import "math"

// Facial hair grows darker and less saturated than the scalp hair of the
// same colour name: coarser, shadowed strands over the skin. Painted in
// the hair's own colour a ginger beard read orange and a blonde goatee a
// flat yellow patch (issue 22's panel, random-11 and random-08), where
// the leader's beards are a dense dark mass. beardGrey is the share of
// its own luminance mixed in (desaturate), beardShade how much of the
// light is kept (linear).
const (
	beardGrey  = 0.3
	beardShade = 0.7
)

// beardLumaFloor is the least luminance (linear) a beard is painted in:
// black hair (#1c1714, 0.009) darkened by beardShade was 0.0064, about
// sRGB 19 of 255, and its strands' light and dark (paint.Beard, 0.62 to
// 1.07 of the colour) a few sRGB levels apart: random-06's black beard
// read "a blocky dark mass" at p21, a hole with no hair in it, darker
// than the black scalp hair beside it. At the floor (sRGB 31) it is a
// charcoal whose strands show; dark brown (0.017) and lighter are above
// it and keep their tone.
const beardLumaFloor = 0.014

// beardSkinShare is the most luminance (linear) a coloured beard is
// painted in against the skin it grows on, and beardLighterThanSkin how
// far above the skin's a beard's luminance must lie to keep its tone as
// a beard lighter than the skin. Between the two a beard was nearly the
// skin's own value and hue: random-08's blonde goatee on an olive face
// (0.96 of the skin's luminance, and lit more than the skin under it,
// which has its occlusion) read "a flat beige patch" at p28, a room
// portrait's luma of 141 on skin of 106, where the leader's brown beard
// is about half its skin's (84-91 on 180). At 0.3 of the skin (p29) the
// goatee was a room portrait's luma 79 on skin of 108 and hair of 145,
// half the brows' luminance: "a dark brown goatee that clashes with the
// bright blond hair and ash brows" (lost 4/4 portraits). At 0.5 it was
// 103 on 108, the skin's value again; at 0.4, 91: a dark golden blonde a
// little darker than the brows beside the skin, which still reads as
// hair on the skin.
const (
	beardSkinShare       = 0.4
	beardLighterThanSkin = 1.45
)

// beardWarm is how fast the power inContrast raises a darkened beard's
// channels to grows with the darkening. At 1 (the power was 2-k) a
// blonde goatee drawn only to its brows' value was a khaki beside the
// golden hair in the room light (random-08's room portrait: saturation
// 0.48, no more than the hair's 0.48, at a value where that hue reads
// olive-green); at 1.75 it is a warm golden brown (saturation 0.63, hue
// 31 against the hair's 35).
const beardWarm = 1.75

// beardTone is the colour a beard of hair colour c is painted in on skin
// of colour skin (linear RGB): "red" (#7e4028) becomes a dark auburn
// (#613a2e), black a charcoal lifted to beardLumaFloor, its hue kept; a
// light coloured one (blonde, light brown) is then drawn to its brows'
// value and kept out of the skin's (inContrast): blonde (#ae8d5f) is a
// golden brown #795c3d, the brows' luminance, on light and fair skins,
// #6a4c2d on olive.
//
// The rule, from the room portraits: a blond man's beard is a darker,
// warmer shade of his hair, about his brows' value, not a brown of its
// own. Measured on random-08 (blonde curly hair, goatee, olive skin), the
// hair is luma 145 (hue 35), the brows about 113, the skin beside the
// goatee 108 (hue 18); the goatee was 79 at p29 and is now 91 (hue 31).
// The leader's beard is 0.9 of its hair's luma, its hue, and its brows
// the same colour. Ours stays darker than the brows on olive and tan
// skins, where at the brows' own value it is the skin's.
func beardTone(c, skin rgb) rgb {
	out := inContrast(beardBase(c), browColor(c).luma(), skin)
	if ol := out.luma(); ol > 0 && ol < beardLumaFloor {
		out = out.scale(beardLumaFloor / ol)
	}
	return out
}

// beardBase is hair colour c darkened by beardShade and greyed by
// beardGrey: a beard's tone before inContrast and beardLumaFloor.
func beardBase(c rgb) rgb {
	l := c.luma()
	var out rgb
	for i := range c {
		out[i] = beardShade * (c[i] + beardGrey*(l-c[i]))
	}
	return out
}

// inContrast draws a coloured beard's luminance down to its brows'
// (brow) where it is lighter, then out of the band from beardSkinShare
// to beardLighterThanSkin of the skin's, to the band's nearer edge (by
// ratio) if that is no lighter than the beard's own tone, else to the
// lower: blonde on brown skin goes up to a golden blonde between the
// brows and the hair, on tan skin down to a golden brown. It does so by
// the beard's saturation (linear; blonde's is 0.56, platinum's 0.31,
// grey's 0.05): a grey, white or platinum beard reads as hair against
// skin at any value by its pale hue, and darkened it is a charcoal under
// grey hair or a khaki under platinum hair. Darkened, its channels are
// raised to a power that grows with the darkening (beardWarm): scaled
// alone, a dark blonde went a drab olive khaki (a dark yellow reads
// green); the power keeps it a warm golden brown, as a dark blonde beard
// is.
func inContrast(beard rgb, brow float64, skin rgb) rgb {
	bl, sl := beard.luma(), skin.luma()
	if bl <= 0 {
		return beard
	}
	hi := max(beard[0], beard[1], beard[2])
	sat := (hi - min(beard[0], beard[1], beard[2])) / hi
	w := smoothstep(0.35, 0.5, sat)
	if w == 0 {
		return beard
	}
	t := min(bl, brow)
	lo, up := beardSkinShare*sl, beardLighterThanSkin*sl
	if t > lo && t < up {
		if up <= bl && up/t < t/lo {
			t = up
		} else {
			t = lo
		}
	}
	k := 1 - w*(1-t/bl)
	if k == 1 {
		return beard
	}
	var out rgb
	for i, x := range beard {
		out[i] = math.Pow(x/hi, 1+beardWarm*(1-k))
	}
	return out.scale(k * bl / out.luma())
}

// beardBrows is the brows' colour on a face whose beard grows in the
// hair's colour: browColor's luminance in the hue and saturation of the
// beard's tone before the skin's bound (beardTone on no skin). browColor
// greys the brows toward an ash (browGrey) and the beard is warmed as it
// is drawn to its brows' value (inContrast), so on random-08 a golden
// goatee sat under olive-grey brows (sRGB saturation 0.33 against the
// beard's 0.50 at the same luminance): two colours of hair on one face.
// A man's brows and beard are one colour. Not the skin-bound beard's
// own: drawn far down on a dark skin a red beard is a deep saturated red
// (saturation 0.81), which lifted to the brows' value was an orange;
// dark, black and red beards' tones were already their brows' colour.
func beardBrows(hair rgb) rgb {
	b, t := browColor(hair), beardTone(hair, rgb{})
	if t.luma() <= 0 {
		return b
	}
	return t.scale(b.luma() / t.luma())
}
