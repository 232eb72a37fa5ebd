package avatar

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

// beardTone is the colour a beard of hair colour c is painted in
// (linear RGB): "red" (#7e4028) becomes a dark auburn (#613a2e),
// "blonde" (#ae8d5f) a sandy #8d7960, black a charcoal lifted to
// beardLumaFloor, its hue kept.
func beardTone(c rgb) rgb {
	l := c.luma()
	var out rgb
	for i := range c {
		out[i] = beardShade * (c[i] + beardGrey*(l-c[i]))
	}
	if ol := out.luma(); ol > 0 && ol < beardLumaFloor {
		out = out.scale(beardLumaFloor / ol)
	}
	return out
}
