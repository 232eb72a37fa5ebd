package paint

// Lashes paints an upper lash line of a colour over s, whose Mask is,
// per vertex, how far up from the lid's edge it lies as a share of the
// line's width there (the avatar's lashReach): the line is the
// colour at the lid, a little lighter and warmer toward its top edge (so
// the edge is not a dark cut against the skin), and its alpha falls
// through the material's cut-off (0.5) where the share is 1. The share
// is smooth across the mesh, so the cut follows a smooth curve, thin at
// the inner corner and fuller toward the outer one: Hair's alpha broke
// every border into strand tips, which in a close-up was a ragged, jagged
// strip. Faint strands across the line (lashStrands) keep it from
// reading as a painted stroke.
func Lashes(s Surface, color RGB, seed uint64, n int) Maps {
	m := surfaceMap(s, n, nil)
	defer release(m)
	l := newLayer(n)
	l.alpha = make([]float64, n*n)
	base := rgb(color)
	parallel(n, func(y0, y1 int) {
		for y := y0; y < y1; y++ {
			for x := 0; x < n; x++ {
				i := y*n + x
				t := m[i]
				l.rough[i] = 0.7
				if !t.ok {
					l.base[i] = base
					continue
				}
				r := t.mask
				strand := noise3(scale3(t.pos, lashStrands), seed)
				c := base.scale(0.85 + 0.3*strand)
				l.base[i] = c.mix(lashTop, lashTopShare*smooth(0.2, 1, r))
				l.alpha[i] = clamp01(0.5 + lashAlphaSlope*(1-r))
			}
		}
	})
	return l.maps(0)
}

// lashTop is the warm brown the line's colour goes lashTopShare of the
// way to at its top edge; lashStrands the strands' frequency per metre
// (about 0.3 mm apart); lashAlphaSlope how fast the alpha falls through
// the cut-off, per unit of reach (texels at the edge keep a smooth
// alpha to filter, not a step).
var lashTop = rgb{0.16, 0.09, 0.06}

const (
	lashTopShare   = 0.15
	lashStrands    = 3000.0
	lashAlphaSlope = 2.0
)
