package paint

import "math"

// BuzzHair paints a buzz cut, hair cropped to a few millimetres, over s
// (the thin sculpted shell on the scalp) for skin of colour skin: the
// skin shows between the short hairs, which read as a fine stipple of
// the hair's colour, darker than the hair's length would be (a buzz
// shows roots, not lengths), and toward the hairline the hairs thin out
// into the skin over buzzFade, so the cut ends in a soft hairline, not a
// line. Painted as the long styles are (locks, sheen), the red buzz read
// as "a flat helmet" beside the leader's (issue 22's panel, p15,
// random-07). s.Mask marks the shell's open edge: the hairline.
func BuzzHair(s Surface, color, skin RGB, seed uint64, n int) Maps {
	s.Form = hairlineDistance(s.Pos, s.Mask)
	m := surfaceMap(s, n, nil)
	defer release(m)
	l := newLayer(n)
	hair, bare := rgb(color).scale(buzzRoots), rgb(skin)
	parallel(n, func(y0, y1 int) {
		for y := y0; y < y1; y++ {
			for x := 0; x < n; x++ {
				i := y*n + x
				t := m[i]
				if !t.ok {
					l.base[i], l.rough[i] = hair, 0.8
					continue
				}
				cover := smooth(0, buzzFade, t.form)
				// The hairs: dots about a millimetre across (two
				// texels or more on a head's shell), in clusters, so
				// the density varies a little over the scalp.
				dot := noise3(scale3(t.pos, buzzDots), seed+80)
				patch := noise3(scale3(t.pos, buzzPatches), seed+81)
				// Dense inside the hairline; toward it the dots drop
				// out one by one (the threshold rises), then the
				// shadow they leave fades last.
				on := smooth(0.75-0.45*cover, 0.9-0.35*cover, dot)
				d := cover * (buzzCover + (1-buzzCover)*on) * (0.92 + 0.16*patch)
				l.base[i] = mixPerceived(bare, hair, math.Min(1, d))
				l.height[i] = 0.6 * on * cover
				l.rough[i] = 0.85
			}
		}
	})
	spill(l, m, n, 4)
	return l.maps(0.3)
}

const (
	// buzzRoots is how light the cropped hair is beside its colour.
	buzzRoots = 0.8
	// buzzCover is the share of the hair's colour between the dots
	// inside the hairline: the skin shows, but the cut reads as hair.
	buzzCover = 0.72
	// buzzFade is over how far from the hairline (metres) the hairs
	// thin out into the skin.
	buzzFade = 0.015
	// buzzDots and buzzPatches are the hairs' and their clusters'
	// noise frequencies (per metre).
	buzzDots    = 900.0
	buzzPatches = 60.0
)

// hairlineDistance is, per vertex of pos, how far (metres, straight
// through space) it lies from the nearest vertex marked in edge (the
// mesh's open edge: Border), capped at 5 cm.
func hairlineDistance(pos [][3]float32, edge []float32) []float32 {
	var rim [][3]float32
	for i, e := range edge {
		if e > 0.5 {
			rim = append(rim, pos[i])
		}
	}
	out := make([]float32, len(pos))
	for i, p := range pos {
		best := float32(0.05 * 0.05)
		for _, q := range rim {
			dx, dy, dz := p[0]-q[0], p[1]-q[1], p[2]-q[2]
			best = min(best, dx*dx+dy*dy+dz*dz)
		}
		out[i] = float32(math.Sqrt(float64(best)))
	}
	return out
}
