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
// random-07). s.Mask marks the shell's open edge: the hairline. burns
// (per vertex, nil for none) is the sideburns' cover (0..1): there the
// hairs stay dense up to the shell's edge and run on into the sideburns
// painted on the skin below it (BuzzScalp), instead of thinning out
// over the temple into a bare notch above the ear. The skin between the
// hairs is the skin painter's (skinBase) in the head's form shade (form,
// per vertex, as Surface.Form of the head's skin; nil for none): in the
// palette's tone, unshaded, the hairline's last few millimetres drew a
// paler, pinker band round the forehead and down the temples.
func BuzzHair(s Surface, burns, form []float32, color, skin RGB, seed uint64, n int) Maps {
	s.Form = hairlineDistance(s.Pos, s.Mask)
	s.Mask = burns
	var attr [][2]float64
	if form != nil {
		attr = make([][2]float64, len(form))
		for i, f := range form {
			attr[i][0] = float64(f)
		}
	}
	m := surfaceMap(s, n, attr)
	defer release(m)
	l := newLayer(n)
	hair, skinC := rgb(color).scale(buzzRoots), skinBase(rgb(skin))
	depth := formDepth * (1 - formDeep*skinDeep(rgb(skin)))
	parallel(n, func(y0, y1 int) {
		for y := y0; y < y1; y++ {
			for x := 0; x < n; x++ {
				i := y*n + x
				t := m[i]
				if !t.ok {
					l.base[i], l.rough[i] = hair, 0.8
					continue
				}
				cover := math.Max(smooth(0, buzzFade, t.form), math.Min(1, t.mask))
				// The skin's form shade, as skinTexel darkens it.
				fs := depth * t.flow[0]
				bare := rgb{skinC[0] * (1 - formRed*fs), skinC[1] * (1 - fs), skinC[2] * (1 - fs)}
				d, on := buzzTexel(t.pos, cover, seed)
				l.base[i] = mixPerceived(bare, hair, d)
				l.height[i] = 0.6 * on * cover
				l.rough[i] = 0.85
			}
		}
	})
	spill(l, m, n, 4)
	return l.maps(0.3)
}

// buzzTexel is how much of the hair's colour a buzz cut shows at p
// (0..1, over the skin) where cover of it (0 at the hairline's last
// hair, 1 inside it) grows, and how much of a hair's dot lies there.
func buzzTexel(p [3]float64, cover float64, seed uint64) (d, on float64) {
	// The hairs: dots about a millimetre across (two texels or more
	// on a head's shell), in clusters, so the density varies a little
	// over the scalp.
	dot := noise3(scale3(p, buzzDots), seed+80)
	patch := noise3(scale3(p, buzzPatches), seed+81)
	// Dense inside the hairline; toward it the dots drop out one by
	// one (the threshold rises), then the shadow they leave fades last.
	on = smooth(0.75-0.45*cover, 0.9-0.35*cover, dot)
	d = cover * (buzzCover + (1-buzzCover)*on) * (0.92 + 0.16*patch)
	return math.Min(1, d), on
}

// BuzzScalp paints a buzz cut's sideburns on a painted skin (m, made over
// s's UV layout) where s.Mask (the sideburns' cover, 0..1) reaches: the
// buzz cut's own hairs (BuzzHair's dots, in hair of colour color) over
// the skin as painted, so they join the shell's hairs at its edge.
func BuzzScalp(m Maps, s Surface, color RGB, seed uint64) {
	hair := rgb(color).scale(buzzRoots)
	overMask(m, s, func(t texel, c rgb) rgb {
		d, _ := buzzTexel(t.pos, math.Min(1, t.mask), seed)
		return mixPerceived(c, hair, d)
	})
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
