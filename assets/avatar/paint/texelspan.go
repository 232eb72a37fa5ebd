package paint

import "math"

// texelSpan is how far apart, in metres, texel i of the n×n surface map
// m and its neighbours lie on the surface, along the image axis where
// they lie farther: the texel's own size where it is longest. A UV
// layout spreads its texels unevenly (the head's neck gets 3.5-4.3 mm
// across and 2 mm up, the face 2-3 mm), so noise finer than a texel,
// which a map's average size (texelSize) lets through, aliases there
// into texel-sized streaks. Along each axis the nearer of the two
// neighbours counts (the other may lie across a UV seam, far away on
// the surface); neighbours copied from this texel (grow's border) or
// more than 1 cm off (a seam) do not. 0 when no neighbour tells.
func texelSpan(m []texel, n, i int) float64 {
	x, y := i%n, i/n
	p := m[i].pos
	along := func(j int, in bool) float64 {
		if !in || !m[j].ok {
			return math.Inf(1)
		}
		q := m[j].pos
		d := math.Sqrt((p[0]-q[0])*(p[0]-q[0]) + (p[1]-q[1])*(p[1]-q[1]) + (p[2]-q[2])*(p[2]-q[2]))
		if d == 0 || d > 0.01 {
			return math.Inf(1)
		}
		return d
	}
	u := math.Min(along(i-1, x > 0), along(i+1, x+1 < n))
	v := math.Min(along(i-n, y > 0), along(i+n, y+1 < n))
	switch {
	case math.IsInf(u, 1) && math.IsInf(v, 1):
		return 0
	case math.IsInf(u, 1):
		return v
	case math.IsInf(v, 1):
		return u
	}
	return math.Max(u, v)
}

// resolved is how much of a noise of cells cell metres across a texel
// spanning span metres (texelSpan) can draw: all of it where the texel
// is at most half a cell (two texels to a cell), none from 0.7 of one.
// Finer noise only aliases: the skin's pores (0.7 mm) and fine lines
// (2.9 mm) are finer than two texels anywhere on a 512 head map (the
// face's texels are 2-3 mm, the neck's 3.5-4.3 mm across), and their
// relief showed as rows of horizontal creases on default-male's throat
// in a room portrait and a grain on the chin and forehead, where the
// leader's head map has no relief at all. 0 (no neighbour to tell)
// draws all of it.
func resolved(cell, span float64) float64 {
	if span == 0 {
		return 1
	}
	return smooth(0.7*cell, 0.5*cell, span)
}
