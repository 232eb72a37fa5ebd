package avatar

import "math"

// upperLashes keeps the lashes of the upper lids only: the triangles
// whose centre is above the middle of the eyeballs. MakeHuman's lower
// lashes sit a few millimetres below the lid, and painted as solid
// strands they drew a dark crescent under each eye, an eyeliner rim
// with skin between it and the eye (the leader's avatars show no lower
// lashes at a portrait's distance).
func upperLashes(lashes *part, eyes ...*part) {
	var y float64
	n := 0
	for _, e := range eyes {
		for _, p := range e.pos {
			y += float64(p[1])
			n++
		}
	}
	if n == 0 {
		return
	}
	y /= float64(n)
	var keep []uint32
	for _, t := range lashes.tris {
		c := (float64(lashes.pos[t[0]][1]) + float64(lashes.pos[t[1]][1]) + float64(lashes.pos[t[2]][1])) / 3
		if c > y {
			keep = append(keep, t[0], t[1], t[2])
		}
	}
	if len(keep) > 0 {
		lashes.keep(keep)
	}
}

// The lash line's width in a front view, from the lashes' lowest point
// up (their roots, partly behind the lid's edge), as the eye's inner
// corner (lashInner) to lashEndFrom of the way along the lashes
// (lashOuter), from where it narrows to nothing at lashEnd (the eye's
// outer corner). MakeHuman's lashes, painted as hair cut out at their
// strands' tips, were a band of the same height from end to end in the
// room close-ups, with a ragged top and a flick out past the outer
// corner: the "hard, jagged dark strip" of issue 22 (TestLashLine). The
// leader's line is thin at the inner corner, fuller toward the outer one,
// and ends at the corner. lashOuter was 5 mm; once the line's colour
// faded into the skin from 0.3 of its width up (paint.Lashes) its dark
// core over the outer third was a thin stroke, where the leader's
// thickens; at 6.5 mm the outer third's width in a front view
// (TestLashLine) is 2.08-3.73 mm instead of 1.85-3.44, the inner third's
// as it was, and the top edge's jag at most 0.039 mm (0.034 before).
const (
	lashInner   = 0.002
	lashOuter   = 0.0065
	lashEndFrom = 0.65
	lashEnd     = 1.0
	// lashEndCut is how much reach the line's end adds at lashEnd:
	// over 1, so the line ends before the lashes' last vertices (a
	// width falling to zero there left a hairline flick, which the
	// lashes' coarse vertices, 3 to 4 mm apart, drew as a blunt end).
	lashEndCut = 1.2
)

// lashReach is, per vertex of the (upper) lashes, how far up from the
// lashes' lowest point within lashNear in x it is in a front view, as a
// share of the line's width there (lashInner to lashOuter), plus up to
// lashEndCut toward the outer end (lashEndFrom to lashEnd): under 1
// inside the line, over it outside (paint.Lashes). "Along" runs from the
// lashes' inner end (0) to their outer end (1) on each side.
func lashReach(lashes *part) []float32 {
	const lashNear = 0.0015
	var lo, hi [2]float64 // per side (x<0, x>0): least and most |x|
	for s := range 2 {
		lo[s], hi[s] = math.Inf(1), math.Inf(-1)
	}
	side := func(p [3]float32) int {
		if p[0] < 0 {
			return 0
		}
		return 1
	}
	for _, p := range lashes.pos {
		s, x := side(p), math.Abs(float64(p[0]))
		lo[s], hi[s] = math.Min(lo[s], x), math.Max(hi[s], x)
	}
	out := make([]float32, len(lashes.pos))
	for i, p := range lashes.pos {
		s := side(p)
		root := float64(p[1])
		for _, q := range lashes.pos {
			if side(q) == s && math.Abs(float64(q[0]-p[0])) < lashNear {
				root = math.Min(root, float64(q[1]))
			}
		}
		a := 0.0
		if hi[s] > lo[s] {
			a = (math.Abs(float64(p[0])) - lo[s]) / (hi[s] - lo[s])
		}
		w := lashInner + (lashOuter-lashInner)*smoothstep(0, lashEndFrom, a)
		out[i] = float32(math.Min(4, (float64(p[1])-root)/w+lashEndCut*smoothstep(lashEndFrom, lashEnd, a)))
	}
	return out
}
