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
func Roots(m Maps, s Surface, color RGB, seed uint64) {
	roots := rgb(color).scale(rootShade)
	overMask(m, s, func(t texel, c rgb) rgb {
		return c.mix(roots, rootsCover(t.mask, noise3(scale3(t.pos, 2200), seed+61)))
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
