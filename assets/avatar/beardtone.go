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
// is about half its skin's (84-91 on 180). Drawn at beardSkinShare a
// blonde beard is a dark golden blonde, the value the leader's beards
// have against the skin; beards already that dark (black, browns, red on
// light skins), beards well above the skin and grey, white and platinum
// ones keep their tone.
const (
	beardSkinShare       = 0.3
	beardLighterThanSkin = 1.45
)

// beardTone is the colour a beard of hair colour c is painted in on skin
// of colour skin (linear RGB): "red" (#7e4028) becomes a dark auburn
// (#613a2e), "blonde" (#ae8d5f) a sandy #8d7960, black a charcoal lifted
// to beardLumaFloor, its hue kept; then drawn down toward beardSkinShare
// of the skin's luminance where it would be near the skin's own value
// (inContrast).
func beardTone(c, skin rgb) rgb {
	l := c.luma()
	var out rgb
	for i := range c {
		out[i] = beardShade * (c[i] + beardGrey*(l-c[i]))
	}
	out = inContrast(out, skin)
	if ol := out.luma(); ol > 0 && ol < beardLumaFloor {
		out = out.scale(beardLumaFloor / ol)
	}
	return out
}

// inContrast draws a beard's colour down to beardSkinShare of the skin's
// luminance when it lies between that and beardLighterThanSkin of it,
// by its saturation (linear; blonde's is 0.56, platinum's 0.31, grey's
// 0.05): a grey, white or platinum beard reads as hair against skin at
// any value by its pale hue, and darkened it is a charcoal under grey
// hair or a khaki under platinum hair; a sandy one of the skin's own hue
// reads as skin. Darkened, its channels are raised to a power that grows
// with the darkening: scaled alone, a dark blonde went a drab olive
// khaki (a dark yellow reads green); the power keeps it a warm golden
// brown, as a dark blonde beard is (blonde #8d7960 on olive skin becomes
// #59432b, not #504435).
func inContrast(beard, skin rgb) rgb {
	bl, sl := beard.luma(), skin.luma()
	if bl <= beardSkinShare*sl || bl >= beardLighterThanSkin*sl {
		return beard
	}
	hi := max(beard[0], beard[1], beard[2])
	sat := (hi - min(beard[0], beard[1], beard[2])) / hi
	w := smoothstep(0.35, 0.5, sat)
	if w == 0 {
		return beard
	}
	k := 1 - w*(1-beardSkinShare*sl/bl)
	var out rgb
	for i, x := range beard {
		out[i] = math.Pow(x/hi, 2-k)
	}
	return out.scale(k * bl / out.luma())
}
