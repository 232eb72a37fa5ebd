package avatar

import "math"

// The beard's lower edge. A full or short beard was cut off under the
// jaw by a level plane (1.5 cm under the chin for the full beard, 7 mm
// for the short one). The jaw rises from the chin toward the ears, so
// at the sides that plane lay well below the jaw, on the neck: seen
// from the front the beard hung under the jaw line as a block with a
// flat, stepped lower edge, and hid the jaw (issue 22's panel at p25:
// "a fuzzy, blocky mass that hides the jaw", "a stepped lower edge").
// The leader's beard ends just under the jaw's edge all the way round,
// so the jaw's line reads through it.
//
// underJaw measures, for each skin vertex of the lower face, how far
// it lies in under the jaw's edge: round the head, in each direction
// from the neck's axis, the jaw's edge is the outermost skin there that
// faces the floor (the jaw's and the chin's underside), and a vertex
// below that edge lies in under it by how much nearer the axis it is,
// or, where it faces out (the neck), by jawDrop times how far below the
// edge it is, whichever is more. The face above the edge is 0; the neck
// is past any beard's reach (in front a few centimetres in; at the
// sides, where the neck is nearly as wide as the jaw, centimetres
// below). A full or short beard, and the stubble, keep to jawReach of
// it, so the lower edge runs round under the jaw at that depth, a
// smooth curve (the edge is smoothed from direction to direction, as
// the fringe's edge is, hairfringeedge.go). So does the goatee, over
// the chin alone: cut off by its own level plane 1 cm under the chin,
// it hung below the chin as a square flap that reached back under the
// jaw, and its corners (the strips that join it to the moustache, which
// had no cut under the jaw at all) hung lower still.

// jawDown is the skin normal's downward component from which skin is
// the jaw's underside: the jaw's side and the neck face out.
const jawDown = 0.45

// jawUnderLip is how far under the lips' middle, in face units (about
// 7 cm), the jaw's edge lies at least over the mouth's width: the chin's
// front edge is 0.75 units under it, the lower lip's underside 0.1.
const jawUnderLip = 0.3

// jawDrop is how much a drop below the jaw's edge counts toward the
// depth under it on skin that faces out: the neck falls away under the
// jaw, at the sides only a centimetre nearer the axis.
const jawDrop = 2.0

// jawReach is how far in under the jaw's edge, metres, each region
// reaches (where its weight has fallen to nothing; jawSoft less is
// where it starts to fall): the leader's beard wraps the jaw's edge and
// stops before the throat. A goatee wraps the chin's edge and no more.
var jawReach = map[string]float64{"full": 0.022, "short": 0.014, "goatee": 0.016}

const jawSoft = 0.008

// jawStep is the width of the directions round the neck's axis in
// which the jaw's edge is found (radians, 2 degrees), and jawSigma how
// many of them the edge is smoothed over.
const (
	jawStep  = math.Pi / 90
	jawSigma = 2.0
)

// underJaw is, per head vertex, how far in under the jaw's edge it lies
// (metres, see above). The neck's axis is the head joint's depth.
func underJaw(head *part, f faceFrame) []float64 {
	axis := f.ear - 0.012
	polar := func(p [3]float32) (a, r float64) {
		x, z := float64(p[0]), float64(p[2])-axis
		return math.Atan2(x, z), math.Hypot(x, z)
	}
	half := int(math.Ceil(math.Pi / jawStep))
	n := 2*half + 1
	bin := func(a float64) int { return min(n-1, max(0, int(math.Round(a/jawStep))+half)) }
	// The outermost downward-facing skin in each direction, between
	// the lips and a few centimetres under the chin, in front of the
	// sideburns' back edge.
	// The skin is sampled across its triangles, not at its corners
	// alone: the head's quads are 5-8 mm, wider than a direction's step
	// at the chin. The lower lip's underside faces down too and stands
	// farther out than the chin: skin over the mouth's width is jaw only
	// jawUnderLip face units or more under the lips' middle.
	type sample struct {
		k    int
		r, y float64
	}
	var under []sample
	const steps = 6
	for _, t := range head.tris {
		var ny float64
		for _, v := range t {
			ny += float64(head.nrm[v][1]) / 3
		}
		a, b, c := v3(head.pos[t[0]]), v3(head.pos[t[1]]), v3(head.pos[t[2]])
		low := math.Min(a[1], math.Min(b[1], c[1]))
		high := math.Max(a[1], math.Max(b[1], c[1]))
		front := math.Min(a[2], math.Min(b[2], c[2]))
		side := smoothstep(0.4, 0.6, math.Abs(a[0]+b[0]+c[0])/3/f.unit)
		if -ny < jawDown || high > f.lip[1]-jawUnderLip*f.unit*(1-side) || low < f.chin-0.03 || front < f.ear-0.01 {
			continue
		}
		for i := 0; i <= steps; i++ {
			for j := 0; i+j <= steps; j++ {
				u, w := float64(i)/steps, float64(j)/steps
				var q [3]float32
				for m := 0; m < 3; m++ {
					q[m] = float32(a[m] + u*(b[m]-a[m]) + w*(c[m]-a[m]))
				}
				ang, r := polar(q)
				k := bin(ang)
				under = append(under, sample{k, r, float64(q[1])})
			}
		}
	}
	edgeR, edgeY := make([]float64, n), make([]float64, n)
	found := make([]bool, n)
	for _, s := range under {
		if !found[s.k] || s.r > edgeR[s.k] {
			found[s.k], edgeR[s.k], edgeY[s.k] = true, s.r, s.y
		}
	}
	// Directions with no such skin take their nearest neighbour's edge.
	near := make([]int, n)
	for k := range near {
		near[k] = -1
		for d := 0; d < n && near[k] < 0; d++ {
			switch {
			case k-d >= 0 && found[k-d]:
				near[k] = k - d
			case k+d < n && found[k+d]:
				near[k] = k + d
			}
		}
		if near[k] < 0 {
			return dropUnderChin(head, f)
		}
	}
	r0, y0 := make([]float64, n), make([]float64, n)
	for k, j := range near {
		r0[k], y0[k] = edgeR[j], edgeY[j]
	}
	edgeR, edgeY = smoothCurve(r0, jawSigma), smoothCurve(y0, jawSigma)
	out := make([]float64, len(head.pos))
	for i, p := range head.pos {
		a, r := polar(p)
		c := a/jawStep + float64(half)
		k := min(n-2, max(0, int(math.Floor(c))))
		t := min(1, max(0, c-float64(k)))
		er := edgeR[k]*(1-t) + edgeR[k+1]*t
		ey := edgeY[k]*(1-t) + edgeY[k+1]*t
		// A drop counts on skin that faces out (the neck), not on the
		// jaw's and the chin's underside, which slope down toward the
		// throat.
		drop := math.Max(0, ey-float64(p[1])) * smoothstep(jawDown, jawDown/2, -float64(head.nrm[i][1]))
		out[i] = math.Max(math.Max(0, er-r), jawDrop*drop) * smoothstep(ey+0.004, ey, float64(p[1]))
	}
	return out
}

// jawEdge is the share of a beard's or a goatee's weight a vertex keeps
// for its depth under the jaw (underJaw, d): 1 up to jawSoft before the
// region's reach, 0 from the reach on. For the painted shadow (reach,
// in face units, is stubbleReach) both move out by reach and the fall
// widens by half of it, so the stubble thins out over the band past the
// shells' edge as it does at the cheeks (TestBeardShadowReaches).
func jawEdge(region string, d, reach, unit float64) float64 {
	r := jawReach[region] + reach*unit
	return smoothstep(r+0.5*reach*unit, r-jawSoft, d)
}

// dropUnderChin is underJaw for a head on which no downward-facing skin
// under the lips was found (none of the generator's faces): jawDrop
// times how far each vertex lies under the chin's lowest point, so the
// beard still stops under the chin rather than running down the neck.
func dropUnderChin(head *part, f faceFrame) []float64 {
	out := make([]float64, len(head.pos))
	for i, p := range head.pos {
		out[i] = jawDrop * math.Max(0, f.chin-float64(p[1]))
	}
	return out
}
