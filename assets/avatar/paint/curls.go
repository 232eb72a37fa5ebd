package paint

import "math"

// Curly hair's curls, as a function of the point in 3D, so the sculpted
// curly cut's geometry (its raised curls) and its painter (their light
// and the shadows between them) draw the same curls and agree to the
// millimetre, as the short cut's tousle does (Tousle).
//
// Issue 22's panel (p15) read our curls as "lumpy" (random-08, -09,
// -14), then (p16, session 15's cells) as "lumpy polygons", "blocky and
// faceted": every curl was a flat-topped cell ringed by a dark crease,
// the creases one network round the cells, a turtle's shell (0.997 of
// random-08's dark texels in one group). Real curls, and the leader's
// stylised clumps, are rounded coils with their strands wound round
// them, dark gaps between some of them, not round all of them. Here
// every point of the hair belongs to the curl whose middle is nearest
// (points scattered over the head, nearest by distance over each
// curl's size, so big and small curls lie side by side: Worley's
// cellular noise), raised in a dome over it, round on top and falling
// toward where it meets the next; how deep it falls there is a slow
// noise, so in places curls part in a deep gap and elsewhere merge into
// a clump with a dip between them (TestCurlGapsAreBroken). Each curl
// has an axis of its own along the hair, a ringlet lying on the head,
// which the painter winds its strands round.
//
// The curls lie on directions from a centre (CurlCentre), not on the
// point itself: the geometry raises each point along its direction, so
// the painter, which sees only the raised surface, finds the same curl
// there.

// Curl is the curl of curly hair at a point.
type Curl struct {
	// Rise is how high the curl stands there, 0..1: 1 over its middle,
	// rounding over (a dome's profile) to 0 at its edge where it parts
	// from the next in a deep gap, to 1-curlDip where it merges.
	Rise float64
	// From is how far out the point is in its curl: 0 in its middle, 1
	// where it meets the next.
	From float64
	// Tone is the curl's own lightness, 0..1, so neighbouring curls
	// differ a little, as clumps of real curls do.
	Tone float64
	// Dir is the direction from the centre the point lies on (a unit
	// vector): the geometry raises the point along it.
	Dir [3]float64
	// Out is the way from the curl's middle to the point, along the
	// hair (a unit vector, or zero in the middle): the way the curl's
	// dome slopes down, so the painter can light its side that faces
	// the light and shade the other.
	Out [3]float64
	// Slope is how steeply the curl falls along Out there (rise over
	// From), fading out at its edge.
	Slope float64
	// Along and Across are where the point lies in the curl, along its
	// axis (a ringlet lying on the head, each its own way) and across
	// it, in the curl's radii from its middle: the painter winds the
	// curl's strands round the axis.
	Along, Across float64
}

const (
	// curlSphere is the radius (metres) of the sphere the curls are
	// laid out on: about a head's, so curlCell there is about as wide
	// on the hair.
	curlSphere = 0.1
	// curlCell is about how far apart curls are (metres): 2.8 cm, two
	// or three across the forehead, as the leader's clumps are.
	curlCell = 0.028
	// curlSizeSpread is how much curls differ in size (a share of the
	// cell, either way half of it).
	curlSizeSpread = 0.6
	// curlRadius is about a curl's radius over its cell (half the way to
	// the next), for the painter's coils.
	curlRadius = 0.5
	// Where the gap noise is over curlGapFrom, the curls part in a deep
	// gap; elsewhere they dip to curlDip of their rise where they meet.
	// curlGapFreq (per metre) is about one gap or clump every two curls.
	curlGapFrom = 0.42
	curlGapFreq = 70.0
	curlDip     = 0.45
	// curlSlopeFade is where (From) the dome's slope, as the painter
	// lights it, fades out, so its light runs on across a gap.
	curlSlopeFade = 0.75
	// curlSeed picks the curls.
	curlSeed = 31
)

// CurlAt is the curl at p (metres) round centre.
func CurlAt(p, centre [3]float64) Curl {
	d := [3]float64{p[0] - centre[0], p[1] - centre[1], p[2] - centre[2]}
	r := math.Sqrt(d[0]*d[0] + d[1]*d[1] + d[2]*d[2])
	if r < 1e-9 {
		return Curl{Dir: [3]float64{0, 1, 0}, From: 1}
	}
	u := [3]float64{d[0] / r, d[1] / r, d[2] / r}
	q := [3]float64{u[0] * curlSphere, u[1] * curlSphere, u[2] * curlSphere}
	var c [3]int
	for a := range c {
		c[a] = int(math.Floor(q[a] / curlCell))
	}
	// The two nearest curls' middles, each distance over that curl's
	// size, so big and small curls lie side by side.
	type near struct {
		s    float64
		cell [3]int
		mid  [3]float64
	}
	n := [2]near{{s: math.Inf(1)}, {s: math.Inf(1)}}
	for dx := -1; dx <= 1; dx++ {
		for dy := -1; dy <= 1; dy++ {
			for dz := -1; dz <= 1; dz++ {
				x, y, z := c[0]+dx, c[1]+dy, c[2]+dz
				f := [3]float64{
					(float64(x) + hash3(x, y, z, curlSeed)) * curlCell,
					(float64(y) + hash3(x, y, z, curlSeed+1)) * curlCell,
					(float64(z) + hash3(x, y, z, curlSeed+2)) * curlCell,
				}
				e := near{
					s:    math.Sqrt((q[0]-f[0])*(q[0]-f[0])+(q[1]-f[1])*(q[1]-f[1])+(q[2]-f[2])*(q[2]-f[2])) / (curlCell * (1 + curlSizeSpread*(hash3(x, y, z, curlSeed+4)-0.5))),
					cell: [3]int{x, y, z},
					mid:  f,
				}
				switch {
				case e.s < n[0].s:
					n = [2]near{e, n[0]}
				case e.s < n[1].s:
					n[1] = e
				}
			}
		}
	}
	// How far out the point is in its curl: 0 in its middle, 1 where
	// it meets the next.
	from := 2 * n[0].s / (n[0].s + n[1].s)
	// How deep the gap is where it meets the next: a slow noise over the
	// head, so here curls part in a deep gap and there only dip where
	// they meet (a clump): the gaps broken and irregular, each a shadow
	// between a few coils, not a net round every curl.
	depth := curlDip + (1-curlDip)*smooth(curlGapFrom, curlGapFrom+0.1, noise3(scale3(q, curlGapFreq), curlSeed+5))
	// The way out from the middle, along the hair: the step from the
	// middle to the point less its part along u.
	o := along(u, [3]float64{q[0] - n[0].mid[0], q[1] - n[0].mid[1], q[2] - n[0].mid[2]})
	// The curl's axis, its own way along the hair: a ringlet lying on
	// the head, its strands wound round it.
	nc := n[0].cell
	axis := along(u, [3]float64{hash3(nc[0], nc[1], nc[2], curlSeed+6) - 0.5, hash3(nc[0], nc[1], nc[2], curlSeed+7) - 0.5, hash3(nc[0], nc[1], nc[2], curlSeed+8) - 0.5})
	if al := math.Sqrt(dot(axis, axis)); al > 1e-12 {
		axis = scale3(axis, 1/al)
	}
	side := cross(u, axis)
	size := curlCell * (1 + curlSizeSpread*(hash3(nc[0], nc[1], nc[2], curlSeed+4)-0.5)) * curlRadius
	coilAlong, coilAcross := dot(o, axis)/size, dot(o, side)/size
	if ol := math.Sqrt(o[0]*o[0] + o[1]*o[1] + o[2]*o[2]); ol > 1e-12 {
		o = [3]float64{o[0] / ol, o[1] / ol, o[2] / ol}
	} else {
		o = [3]float64{}
	}
	return Curl{
		// A dome: round over the top, falling to its gap's depth.
		Rise:   1 - depth*from*from,
		From:   from,
		Slope:  2 * depth * from * (1 - smooth(curlSlopeFade, 1, from)),
		Tone:   hash3(n[0].cell[0], n[0].cell[1], n[0].cell[2], curlSeed+3),
		Dir:    u,
		Out:    o,
		Along:  coilAlong,
		Across: coilAcross,
	}
}

// CurlCentre is the centre curly hair's curls are laid out round, for
// a hair mesh whose open edges' vertices (its hairline, on the skin:
// Border) are at edge: the middle of their bounds. The geometry finds
// it from the hairline's points on the skin before the curls are
// raised, the painter from the finished mesh's open edges: the same
// points.
func CurlCentre(edge [][3]float32) [3]float64 {
	lo, hi := [3]float64{math.Inf(1), math.Inf(1), math.Inf(1)}, [3]float64{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
	for _, p := range edge {
		for a := range 3 {
			lo[a], hi[a] = math.Min(lo[a], float64(p[a])), math.Max(hi[a], float64(p[a]))
		}
	}
	if len(edge) == 0 {
		return [3]float64{}
	}
	return [3]float64{(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2}
}

// curlCentreOf is CurlCentre for the surface s: of its open edges'
// vertices, or of all of them when it has none (a closed test shape).
func curlCentreOf(s Surface) [3]float64 {
	b := Border(s.Pos, s.Tris)
	var edge [][3]float32
	for i, v := range b {
		if v > 0 {
			edge = append(edge, s.Pos[i])
		}
	}
	if len(edge) == 0 {
		edge = s.Pos
	}
	return CurlCentre(edge)
}

// along is v less its part along the unit vector u: its part along a
// surface whose normal is u.
func along(u, v [3]float64) [3]float64 {
	k := dot(u, v)
	return [3]float64{v[0] - k*u[0], v[1] - k*u[1], v[2] - k*u[2]}
}
