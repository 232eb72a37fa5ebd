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

// beardTone is the colour a beard of hair colour c is painted in
// (linear RGB): "red" (#7e4028) becomes a dark auburn (#613a2e),
// "blonde" (#ae8d5f) a sandy #8d7960, black stays near black.
func beardTone(c rgb) rgb {
	l := c.luma()
	var out rgb
	for i := range c {
		out[i] = beardShade * (c[i] + beardGrey*(l-c[i]))
	}
	return out
}
