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

// How hanging hair shades the skin under its edge: by hairContactDepth
// where the hair touches the skin, fading out over hairContactReach from
// it. Viewers draw no shadows, so a bob's fringe and sides hung over a
// forehead and cheeks lit as if nothing were there, a shell set on the
// head (p28: "a rigid shell, a heavy helmet"); the leader's skin darkens
// right under its hair's edge. Tight, not spread: a neck shade spread
// over centimetres read as dirt (0/16).
const (
	hairContactDepth = 0.3
	hairContactReach = 0.012
)

// HairContactReach is how far from hair its contact shade reaches
// (HairContact): callers mark the skin within it, and the distance they
// give need be right only within it.
const HairContactReach = hairContactReach

// HairContact darkens a painted skin (m, made over the same UV layout as
// s) by the hair's contact shade where s.Mask reaches 0.01: texel by
// texel, from the distance from the texel's point to the nearest hair,
// which near gives (a function per band of texels, for it may keep
// state; at least HairContactReach where no hair is that near). It is
// worked out per texel for the reason contactShade is: the head's
// vertices lie a centimetre apart at the temples, and a shade blended
// between them is a soft band, not a line. Skin's shadows are redder
// than it (formRed), so red darkens less.
func HairContact(m Maps, s Surface, near func() func(p [3]float64) float64) {
	n := m.Base.Rect.Dx()
	sm := surfaceMap(s, n, nil)
	defer release(sm)
	parallel(n, func(y0, y1 int) {
		dist := near()
		for y := y0; y < y1; y++ {
			for x := 0; x < n; x++ {
				t := sm[y*n+x]
				if !t.ok || t.mask < 0.01 {
					continue
				}
				k := hairContactDepth * (1 - smooth(0, hairContactReach, dist(t.pos)))
				if k <= 0 {
					continue
				}
				o := m.Base.PixOffset(x, y)
				px := m.Base.Pix[o : o+3 : o+3]
				c := rgb{srgbToLinear(px[0]), srgbToLinear(px[1]), srgbToLinear(px[2])}
				c = rgb{c[0] * (1 - formRed*k), c[1] * (1 - k), c[2] * (1 - k)}
				px[0], px[1], px[2] = linearToSRGB(c[0]), linearToSRGB(c[1]), linearToSRGB(c[2])
			}
		}
	})
}
