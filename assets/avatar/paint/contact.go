package paint

import "math"

// Edge is a stretch of the edge of a layer of cloth that lies over more
// of the same garment (a collar's outer edge and points over a shirt's
// front): its ends, its cloth's normal, and Out, across the edge away
// from the layer, in its plane.
type Edge struct {
	A, B, N, Out [3]float64
}

// How a collar's edge shades the cloth under it: by contactDepth right
// at the edge and just under it, fading out over contactReach outside
// it. The leader's open collar stands off the shirt with a dark line
// under its edge and points; ours, the shirt's colour on the shirt,
// read as a printed outline (p27). Cloth deeper than contactUnder under
// the collar is left alone: unseen, and a band's inside, which the
// opening shows, read as a grey lining when shaded.
const (
	contactDepth = 0.45
	contactReach = 0.012
	contactUnder = 0.015
)

// contactFront is how far in front of an edge's cloth (along its
// normal) cloth may lie and still take its shade: the shirt's front
// curves out a little beside a collar's outer edge, but cloth well in
// front of it lies over the edge, not under it.
const contactFront = 0.003

// contactShade is how much light woven cloth at p keeps under the
// nearest of edges (1 where none is near). It is worked out per texel,
// from the texel's position: the shirt's vertices are centimetres
// apart, and a shade blended between them was a soft band, not a line.
func contactShade(edges []Edge, p [3]float64) float64 {
	best := contactUnder * 2
	var br [3]float64
	bi := -1
	for i := range edges {
		e := &edges[i]
		ab := sub(e.B, e.A)
		t := clamp01(dot(sub(p, e.A), ab) / dot(ab, ab))
		r := sub(p, [3]float64{e.A[0] + t*ab[0], e.A[1] + t*ab[1], e.A[2] + t*ab[2]})
		if l := math.Sqrt(dot(r, r)); l < best {
			best, br, bi = l, r, i
		}
	}
	if bi < 0 {
		return 1
	}
	e := &edges[bi]
	behind := dot(br, e.N)
	flat := [3]float64{br[0] - behind*e.N[0], br[1] - behind*e.N[1], br[2] - behind*e.N[2]}
	d := math.Sqrt(dot(flat, flat))
	if behind > contactFront {
		return 1
	}
	s := 1 - smooth(0, contactReach, d)
	if dot(flat, e.Out) < 0 {
		// Under the collar: shaded right under its edge, not deeper.
		s = smooth(-contactUnder, -contactUnder/2, -d)
	}
	return 1 - contactDepth*s
}
