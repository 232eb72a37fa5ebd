package paint

// Lashes paints an upper lash line over s for a face of the skin tone
// skin. s's Mask is, per vertex, how far up from the lid's edge it lies
// as a share of the line's width there (the avatar's lashReach): the
// line is lashRoot at the lid, and from lashSoftFrom of its width up it
// fades into the skin's tone, which it reaches at its top edge, where
// its alpha falls through the material's cut-off (0.5). The share is
// smooth across the mesh, so the cut follows a smooth curve, thin at the
// inner corner and fuller toward the outer one: Hair's alpha broke every
// border into strand tips, which in a close-up was a ragged, jagged
// strip. Faint strands across the line (lashStrands) keep it from
// reading as a painted stroke.
//
// Painted one dark brown to its top edge (0.15 of the way to a fixed
// warm brown there), the line was a solid band with a hard cut against
// the lid, as dark over its whole width: the panel's "heavy dark rim"
// round a "fixed, hard" gaze. The leader's is a dark line at the lashes'
// roots fading up into a soft shadow on the lid. The fade ends in the
// skin's own tone so it holds for every skin (a fixed brown is lighter
// than a deep tone's lid and a dark cut on a light one), and in the tone
// itself, not the lid's darker texels: the lashes' card takes less of a
// room light than the lid's skin, and faded to 0.6 of the tone its top
// edge was a step from 194 to 139 (sRGB red) under default-male's lid in
// the room close-up, at the tone 194 to 178.
func Lashes(s Surface, skin RGB, seed uint64, n int) Maps {
	m := surfaceMap(s, n, nil)
	defer release(m)
	l := newLayer(n)
	l.alpha = make([]float64, n*n)
	base := lashRoot
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
				l.base[i] = c.mix(rgb(skin), smooth(lashSoftFrom, 1, r))
				l.alpha[i] = clamp01(0.5 + lashAlphaSlope*(1-r))
			}
		}
	})
	return l.maps(0)
}

// lashRoot is the line's colour at the lashes' roots: a dark brown, not
// black (black lashes drew an eyeliner rim).
var lashRoot = rgb{0.045, 0.03, 0.022}

// lashSoftFrom is the share of the line's width from which its colour
// fades into the skin's: below it the line is lashRoot, a dark line at
// the lashes' roots, fuller over the outer third (the avatar's
// lashOuter). In the panel's room close-ups (look.mjs --camera eyes,
// bench/avatar-look/eyerim), on the fourteen faces of a porcelain to
// tan skin it reads (not random-08), the rows above the white darker
// than half the skin under the eye went from 2.0-9.2 (12 faces at 5 or
// more; default-male 5.4) to 1.5-6.2 (two at 5 or more; default-male
// 4.3), and the band of 7 rows above the white from a median 0.29 of
// that skin's luma to 0.33. On the five brown and dark faces those
// figures hardly move (the dark core is as it was); there the top edge,
// a brown cut on the skin, fades into it. The leader's dark band is as
// dark (0.22 and 0.32) and 7.9 rows deep, but soft: its top fades over 8
// or so rows into a shadow on the lid, where ours was cut. lashStrands
// is the strands' frequency per metre (about 0.3 mm apart);
// lashAlphaSlope how fast the alpha falls through the cut-off, per unit
// of reach (texels at the edge keep a smooth alpha to filter, not a
// step).
const (
	lashSoftFrom   = 0.3
	lashStrands    = 3000.0
	lashAlphaSlope = 2.0
)
