package paint

import "math"

// A brow is drawn as hairs. Painted as strands along the texture's flow
// (the hair painter's, which runs from the brow mesh's top centre) at
// two texels apart, the hairs were a tenth of a portrait's pixel: a
// portrait saw a smooth bar with a soft edge, "painted on, stickers,
// featureless" (issue 22's panel). The leader's brows are hairs a
// viewer can see: strokes that grow outward from the inner end, up at
// the head, along the arch over the body and down at the tail, sparser
// and lighter at the head, the skin showing between them at the edges.
//
// So a brow's hairs are scattered over its mesh as a viewer in front of
// the face sees it (the face's plane: X = |x| outward from the face's
// middle, so both brows alike, and Y = y up, metres; the texture's UVs
// only say where each hair lands), each a tapered stroke grown the way
// browGrowth says for where it is rooted along its brow.

// browGrowth is the way a brow's hairs grow, degrees above the outward
// horizontal, at points along the brow (0 its head, the inner end; 1 its
// tail), linear between them: near upright at the head, leaning outward
// over its first third, along the arch (which rises to about two thirds
// of the way) over the body, and down with the arch at the tail, as in
// the leader's brows (rpm-avatar-casual's eyes close-up: upright strokes
// at the head, strokes leaning about 30-40° over the body, the tail's
// along and down).
var browGrowth = [...]struct{ at, deg float64 }{
	{0, 80}, {0.15, 65}, {0.4, 40}, {0.65, 15}, {0.85, -5}, {1, -25},
}

// growthAngle is browGrowth at s along the brow, radians.
func growthAngle(s float64) float64 {
	g := browGrowth
	for k := 1; k < len(g); k++ {
		if s <= g[k].at || k == len(g)-1 {
			t := clamp01((s - g[k-1].at) / (g[k].at - g[k-1].at))
			return (g[k-1].deg + (g[k].deg-g[k-1].deg)*t) * math.Pi / 180
		}
	}
	return 0
}

// The brow's hairs: browDensity roots per square metre of the brow seen
// from the front in its body, browHeadDensity of that at the very head
// (rising to the full density over the first browHeadReach of the
// brow), browLength long (browHeadLength at the head), browWidth wide
// at the root. A portrait's pixel is about 0.8 mm at the brows (the
// brow, about 5 cm, is 60 px wide), its supersampled render's 0.4 mm:
// hairs much finer than that are averaged into the flat bar they were,
// so these are drawn about a supersampled pixel wide, and scattered at
// random, so that the gaps between them (about a fifth of the body,
// more at the head: a root's hair covers about 2.5 mm², 0.65 of them a
// mm² leave exp(-1.6) of it bare) run along the hairs as light streaks
// between darker locks, the leader's look. Hairs 0.45 mm wide drew a
// fine scratchy grain in a portrait; 0.6 mm, strokes; 0.7 mm, bolder
// strokes nearer the leader's: along rows through default-male's brow
// in a room portrait, the luma's spread about its 9 px mean (the
// strokes, not the brow's outline) was 6-8 before, 10-14 at 0.6 mm and
// 11-15 at 0.7 mm; the leader's 14-17.
const (
	browDensity     = 0.65e6
	browHeadDensity = 0.6
	browHeadReach   = 0.3
	browLength      = 0.0055
	browHeadLength  = 0.0035
	browWidth       = 0.0007
	browTipWidth    = 0.3
)

// browSpan is one brow's extent outward in the face's plane: X of its
// head and of its tail.
type browSpan struct{ head, tail float64 }

// along is how far along the brow X is: 0 at its head, 1 at its tail.
func (b browSpan) along(x float64) float64 {
	return clamp01((x - b.head) / math.Max(b.tail-b.head, 1e-6))
}

// browHairs is the hairs of both brows of s (one each side of x = 0),
// looked up by where they lie (at): side 0 is x ≥ 0, side 1 x < 0.
type browHairs struct {
	spans [2]browSpan // side 0: x ≥ 0; side 1: x < 0
	*strokes
}

// browCell is the lookup grid's cell, metres.
const browCell = 0.003

// browSide is the side of x: 0 for x ≥ 0, 1 for x < 0.
func browSide(x float64) int {
	if x < 0 {
		return 1
	}
	return 0
}

// newBrowHairs scatters the hairs over s's triangles, as many in each
// as its area seen from the front and browDensity say (the fraction
// kept or not by a hash of the seed), each with its root at a random
// point of it, so the same seed grows the same hairs.
func newBrowHairs(s Surface, seed uint64, n int) *browHairs {
	b := &browHairs{strokes: newStrokes(browCell, texelSize(s, n), browTipWidth)}
	for k := range b.spans {
		b.spans[k] = browSpan{math.Inf(1), math.Inf(-1)}
	}
	for _, p := range s.Pos {
		sp := &b.spans[browSide(float64(p[0]))]
		x := math.Abs(float64(p[0]))
		sp.head, sp.tail = math.Min(sp.head, x), math.Max(sp.tail, x)
	}
	for k, t := range s.Tris {
		var q [3][2]float64
		for c, v := range t {
			q[c] = [2]float64{math.Abs(float64(s.Pos[v][0])), float64(s.Pos[v][1])}
		}
		side := browSide(float64(s.Pos[t[0]][0]))
		area := math.Abs((q[1][0]-q[0][0])*(q[2][1]-q[0][1])-(q[2][0]-q[0][0])*(q[1][1]-q[0][1])) / 2
		mid := b.spans[side].along((q[0][0] + q[1][0] + q[2][0]) / 3)
		head := smooth(0, browHeadReach, mid)
		want := area * browDensity * (browHeadDensity + (1-browHeadDensity)*head)
		count := int(want + hash3(k, 0, 0, seed+80))
		for j := 1; j <= count; j++ {
			r1, r2 := hash3(k, j, 1, seed+80), hash3(k, j, 2, seed+80)
			if r1+r2 > 1 {
				r1, r2 = 1-r1, 1-r2
			}
			root := [2]float64{
				q[0][0] + r1*(q[1][0]-q[0][0]) + r2*(q[2][0]-q[0][0]),
				q[0][1] + r1*(q[1][1]-q[0][1]) + r2*(q[2][1]-q[0][1]),
			}
			at := b.spans[side].along(root[0])
			// A few degrees either way, so they are not combed.
			a := growthAngle(at) + (hash3(k, j, 3, seed+80)-0.5)*0.35
			grow := smooth(0, browHeadReach, at)
			h := stroke{
				root:   root,
				dir:    [2]float64{math.Cos(a), math.Sin(a)},
				length: (browHeadLength + (browLength-browHeadLength)*grow) * (0.75 + 0.5*hash3(k, j, 4, seed+80)),
				width:  browWidth * (0.8 + 0.4*hash3(k, j, 5, seed+80)),
				tone:   0.8 + 0.35*hash3(k, j, 6, seed+80),
			}
			b.add(side, h)
		}
	}
	return b
}

// at is, for the point p of a brow, how far along its brow it is (0 at
// the head, 1 at the tail), how much of it the hairs cover (0..1, as
// layers: 1 - the product of what each leaves) and their mean tone
// there (1 where none).
func (b *browHairs) at(p [3]float64) (along, cover, tone float64) {
	side := browSide(p[0])
	q := [2]float64{math.Abs(p[0]), p[1]}
	along = b.spans[side].along(q[0])
	cover, tone = b.strokes.at(side, q)
	return along, cover, tone
}
