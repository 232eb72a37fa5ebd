package draco

import "math"

// Normals go on Draco's octahedral grid: a unit vector is projected onto
// the octahedron |x|+|y|+|z| = 1, the lower half folded over the upper
// one, and the square that results is quantized to two integers s, t in
// [0, 2^bits-2]. Each point is predicted from the previous one with the
// canonicalized octahedron transform: both are moved (folded back into
// the diamond, rotated into its bottom-left quarter) so that the
// correction is small and positive.
type octahedron struct {
	maxQuantized, maxValue, center int32
}

func newOctahedron(bits int) octahedron {
	mq := int32(1)<<bits - 1
	return octahedron{maxQuantized: mq, maxValue: mq - 1, center: (mq - 1) / 2}
}

// coords maps a direction to its (s, t) on the grid. A zero vector maps
// to +x.
func (o octahedron) coords(x, y, z float32) (int32, int32) {
	sum := math.Abs(float64(x)) + math.Abs(float64(y)) + math.Abs(float64(z))
	v := [3]float64{1, 0, 0}
	if sum > 1e-6 {
		v = [3]float64{float64(x) / sum, float64(y) / sum, float64(z) / sum}
	}
	c := o.center
	a := int32(math.Floor(v[0]*float64(c) + 0.5))
	b := int32(math.Floor(v[1]*float64(c) + 0.5))
	d := c - abs32(a) - abs32(b)
	if d < 0 {
		// Rounding pushed the point off the octahedron: take the excess
		// from the second coordinate.
		if b > 0 {
			b += d
		} else {
			b -= d
		}
		d = 0
	}
	if v[2] < 0 {
		d = -d
	}
	var s, t int32
	if a >= 0 {
		s, t = b+c, d+c
	} else {
		if b < 0 {
			s = abs32(d)
		} else {
			s = o.maxValue - abs32(d)
		}
		if d < 0 {
			t = abs32(b)
		} else {
			t = o.maxValue - abs32(b)
		}
	}
	return o.canonical(s, t)
}

// canonical picks one of the grid points that stand for the same
// direction on the square's edges and corners.
func (o octahedron) canonical(s, t int32) (int32, int32) {
	m, c := o.maxValue, o.center
	switch {
	case (s == 0 && t == 0) || (s == 0 && t == m) || (s == m && t == 0):
		return m, m
	case s == 0 && t > c:
		return s, c - (t - c)
	case s == m && t < c:
		return s, c + (c - t)
	case t == m && s < c:
		return c + (c - s), t
	case t == 0 && s > c:
		return c - (s - c), t
	}
	return s, t
}

func (o octahedron) inDiamond(s, t int32) bool { return abs32(s)+abs32(t) <= o.center }

// invertDiamond mirrors a point outside the diamond |s|+|t| <= center
// into it across the diamond's edge in its quadrant (and back).
func (o octahedron) invertDiamond(s, t int32) (int32, int32) {
	var ss, st int32
	switch {
	case s >= 0 && t >= 0:
		ss, st = 1, 1
	case s <= 0 && t <= 0:
		ss, st = -1, -1
	default:
		ss, st = sign32(s), sign32(t)
	}
	cs, ct := ss*o.center, st*o.center
	us, ut := 2*s-cs, 2*t-ct
	if ss*st >= 0 {
		us, ut = -ut, -us
	} else {
		us, ut = ut, us
	}
	return (us + cs) / 2, (ut + ct) / 2
}

// rotation is how many quarter turns bring p into the bottom-left
// quarter.
func rotation(s, t int32) int {
	switch {
	case s == 0:
		switch {
		case t == 0:
			return 0
		case t > 0:
			return 3
		}
		return 1
	case s > 0:
		if t >= 0 {
			return 2
		}
		return 1
	}
	if t <= 0 {
		return 0
	}
	return 3
}

func rotate(s, t int32, n int) (int32, int32) {
	switch n {
	case 1:
		return t, -s
	case 2:
		return -s, -t
	case 3:
		return -t, s
	}
	return s, t
}

// correction is what the decoder adds to pred to get orig, both grid
// points: the difference after the canonicalizing moves of pred, taken
// modulo the grid so it is never negative.
func (o octahedron) correction(orig, pred [2]int32) [2]int32 {
	os, ot := orig[0]-o.center, orig[1]-o.center
	ps, pt := pred[0]-o.center, pred[1]-o.center
	if !o.inDiamond(ps, pt) {
		os, ot = o.invertDiamond(os, ot)
		ps, pt = o.invertDiamond(ps, pt)
	}
	if !(ps == 0 && pt == 0) && !(ps < 0 && pt <= 0) {
		n := rotation(ps, pt)
		os, ot = rotate(os, ot, n)
		ps, pt = rotate(ps, pt, n)
	}
	positive := func(x int32) int32 {
		if x < 0 {
			return x + o.maxQuantized
		}
		return x
	}
	return [2]int32{positive(os - ps), positive(ot - pt)}
}

func abs32(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}

func sign32(x int32) int32 {
	if x > 0 {
		return 1
	}
	return -1
}
