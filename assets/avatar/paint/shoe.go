package paint

import "math"

// shoe is what painting footwear needs to know of it beyond the cloth:
// where the floor is, how high the sole reaches and, per foot, the axis
// from heel to toe, so that laces run down the instep whichever way the
// feet point.
type shoe struct {
	low, sole float64
	sole0     rgb
	feet      [2]foot
	laces     bool
}

// foot is one shoe's frame in the floor plane: its centre, the unit
// direction from heel to toe, and the extent along it.
type foot struct {
	cx, cz   float64
	dx, dz   float64
	min, max float64
}

// newShoe finds the two feet of a footwear mesh (split at x = 0, the
// avatar's midline) and each one's heel-to-toe axis: the principal axis
// of its vertices in the floor plane, pointing to +Z (the avatar faces
// +Z).
func newShoe(s Surface, low, soleHeight float64, sole rgb, laces bool) *shoe {
	sh := &shoe{low: low, sole: soleHeight, sole0: sole, laces: laces}
	for side := range 2 {
		var n, mx, mz float64
		in := func(p [3]float32) bool { return (p[0] < 0) == (side == 0) }
		for _, p := range s.Pos {
			if in(p) {
				n++
				mx += float64(p[0])
				mz += float64(p[2])
			}
		}
		if n == 0 {
			continue
		}
		mx, mz = mx/n, mz/n
		var cxx, cxz, czz float64
		for _, p := range s.Pos {
			if in(p) {
				x, z := float64(p[0])-mx, float64(p[2])-mz
				cxx, cxz, czz = cxx+x*x, cxz+x*z, czz+z*z
			}
		}
		// The larger eigenvector of the 2×2 covariance.
		a := 0.5 * math.Atan2(2*cxz, cxx-czz)
		dx, dz := math.Cos(a), math.Sin(a)
		if dz < 0 {
			dx, dz = -dx, -dz
		}
		f := foot{cx: mx, cz: mz, dx: dx, dz: dz, min: math.Inf(1), max: math.Inf(-1)}
		for _, p := range s.Pos {
			if in(p) {
				along := (float64(p[0])-mx)*dx + (float64(p[2])-mz)*dz
				f.min, f.max = math.Min(f.min, along), math.Max(f.max, along)
			}
		}
		sh.feet[side] = f
	}
	return sh
}

// paint changes the cloth's colour c, relief h and roughness at the
// surface point p into the shoe's: below the sole line, a midsole of the
// sole colour with horizontal ribs, a thin dark stripe along its top and
// a darker outsole at the floor; on a sneaker's instep, the tongue, lace
// bars across it and dark eyelets either side.
func (sh *shoe) paint(p [3]float64, c rgb, h, rough float64) (rgb, float64, float64) {
	up := p[1] - sh.low
	if up < sh.sole {
		c, h, rough = sh.sole0, 0.5+0.5*math.Sin(2*math.Pi*up/0.004), 0.7
		switch {
		case up < 0.007:
			c, rough = sh.sole0.scale(0.22).mix(rgb{0.05, 0.045, 0.04}, 0.5), 0.85
		case up > sh.sole-0.004:
			c, h = sh.sole0.scale(0.15), 0.2
		}
		return c, h, rough
	}
	if !sh.laces {
		return c, h, rough
	}
	f := sh.feet[0]
	if p[0] >= 0 {
		f = sh.feet[1]
	}
	x, z := p[0]-f.cx, p[2]-f.cz
	along := x*f.dx + z*f.dz
	across := math.Abs(-x*f.dz + z*f.dx)
	t := (along - f.min) / (f.max - f.min)
	if t < 0.42 || t > 0.8 || up < 0.04 || across > 0.022 {
		return c, h, rough
	}
	const bar = 0.011 // lace spacing along the foot, metres
	ph := along / bar
	ph -= math.Floor(ph)
	switch {
	case across > 0.015:
		// The eyestay, with an eyelet at every bar.
		if math.Hypot((ph-0.25)*bar, across-0.0185) < 0.0022 {
			return rgb{0.04, 0.04, 0.045}, 0, 0.4
		}
		return c.scale(0.88), 0.6, rough
	case ph < 0.5:
		// A lace bar, rounded in relief.
		return c.mix(rgb{0.9, 0.9, 0.88}, 0.3), math.Sin(math.Pi * ph * 2), 0.75
	default:
		// The tongue, in shadow between the bars.
		return c.scale(0.72), 0, rough
	}
}
