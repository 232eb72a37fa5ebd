package paint

import "math"

// Curly hair's curls, as a function of the point in 3D, so the sculpted
// curly cut's geometry (its raised curls) and its painter (their light
// and the dark creases between them) draw the same curls and agree to
// the millimetre, as the short cut's tousle does (Tousle).
//
// Issue 22's panel (p15) still read our curls as "lumpy" (random-08,
// -09, -14): the shell was raised in round domes over a flat floor, the
// paint shaded them from the mesh's curvature, which at the shell's
// 5 mm vertices is a soft blur: soft lumps, no gaps. The leader's hair
// is big clean clumps with dark gaps between them. Here every point of
// the hair belongs to one curl (the cell round the nearest of points
// scattered over the head, nearest by distance over each curl's size:
// Worley's cellular noise, weighted, so where two curls meet is an
// arc), raised in a rounded clump that falls steeply into a crease
// where it meets the next; the painter draws the crease dark and the clump's top lit at
// its texels' resolution, not the mesh's.
//
// The curls lie on directions from a centre (CurlCentre), not on the
// point itself: the geometry raises each point along its direction, so
// the painter, which sees only the raised surface, finds the same curl
// there.

// Curl is the curl of curly hair at a point.
type Curl struct {
	// Rise is how high the curl stands there, 0..1: 0 in the crease
	// between two curls, 1 over the curl's top.
	Rise float64
	// Tone is the curl's own lightness, 0..1, so neighbouring curls
	// differ a little, as clumps of real curls do.
	Tone float64
	// Dir is the direction from the centre the point lies on (a unit
	// vector): the geometry raises the point along it.
	Dir [3]float64
	// Under is how much the point lies on its curl's upper side,
	// 0..1: 1 toward the crown, where the curl above lies over it (its
	// tip over this curl's root), 0 toward its lower edge, where it
	// lies over the next. The painter shades a curl under an overlap
	// and leaves the curl on top lit to its edge.
	Under float64
	// Open is how much the painter darkens the crease the point is
	// nearest, 0..1: 0 where the two curls run into one clump
	// (curlOpen), so clumps come in several sizes; the geometry keeps
	// every crease, a soft groove under the shell's 5 mm vertices.
	Open float64
	// Coil is where the point lies on its curl's coil, 0..1 round a
	// turn: the phase of a spiral round the curl's middle, so a
	// painted strand winds round each curl.
	Coil float64
}

const (
	// curlSphere is the radius (metres) of the sphere the curls are
	// laid out on: about a head's, so curlCell there is about as wide
	// on the hair.
	curlSphere = 0.1
	// curlCell is about how wide a curl is (metres): 2.5 cm, two or
	// three across the forehead, as the leader's clumps are.
	curlCell = 0.028
	// curlSizeSpread is how much curls differ in size (a share of the
	// cell, either way half of it).
	curlSizeSpread = 0.6
	// curlRound is how far in from its crease a curl rounds over into
	// its top (in distances over the curl's size).
	curlRound = 1.1
	// curlSeed picks the curls.
	curlSeed = 31
	// curlOpen is the share of the creases painted: the others run
	// the two curls into one clump, so clumps come in several sizes
	// and the creases are arcs, not a closed net of equal cells
	// ("cobblestone", issue 22's panel p21).
	curlOpen = 0.7
	// curlTurns is how many turns a curl's coil winds over a cell, a
	// curl's own up to curlTurnsSpread more or less (a share of it),
	// each curl wound one way or the other: coils all alike and all
	// one way read as a stamped pattern.
	curlTurns       = 4.5
	curlTurnsSpread = 0.25
)

// curlCoilPitch is how far apart (metres) the turns of a curl's coil
// are at the closest.
const curlCoilPitch = curlCell / (curlTurns * (1 + curlTurnsSpread))

// curlCrown is the direction from the curls' centre toward the crown:
// curls nearer it lie over the curls below them.
var curlCrown = [3]float64{0, 0.97, -0.24}

// CurlAt is the curl at p (metres) round centre.
func CurlAt(p, centre [3]float64) Curl {
	d := [3]float64{p[0] - centre[0], p[1] - centre[1], p[2] - centre[2]}
	r := math.Sqrt(d[0]*d[0] + d[1]*d[1] + d[2]*d[2])
	if r < 1e-9 {
		return Curl{Dir: [3]float64{0, 1, 0}}
	}
	u := [3]float64{d[0] / r, d[1] / r, d[2] / r}
	q := [3]float64{u[0] * curlSphere, u[1] * curlSphere, u[2] * curlSphere}
	var c [3]int
	for a := range c {
		c[a] = int(math.Floor(q[a] / curlCell))
	}
	// The nearest point and the second, each distance over that
	// point's curl's size: where two curls meet is a circle's arc, so
	// each curl is round where it meets the next (plain distances cut
	// the hair into straight-edged tiles: "cracked stone").
	s1, s2 := math.Inf(1), math.Inf(1)
	var near, next [3]int
	var f1 [3]float64
	for dx := -1; dx <= 1; dx++ {
		for dy := -1; dy <= 1; dy++ {
			for dz := -1; dz <= 1; dz++ {
				x, y, z := c[0]+dx, c[1]+dy, c[2]+dz
				f := [3]float64{
					(float64(x) + hash3(x, y, z, curlSeed)) * curlCell,
					(float64(y) + hash3(x, y, z, curlSeed+1)) * curlCell,
					(float64(z) + hash3(x, y, z, curlSeed+2)) * curlCell,
				}
				e := math.Sqrt((q[0]-f[0])*(q[0]-f[0])+(q[1]-f[1])*(q[1]-f[1])+(q[2]-f[2])*(q[2]-f[2])) / (curlCell * (1 + curlSizeSpread*(hash3(x, y, z, curlSeed+4)-0.5)))
				if e < s1 {
					s1, s2, near, next = e, s1, [3]int{x, y, z}, near
					f1 = f
				} else if e < s2 {
					s2, next = e, [3]int{x, y, z}
				}
			}
		}
	}
	// How far inside its curl the point is (0 on the crease), as a
	// share of curlRound; a quarter circle's profile over it: steep at
	// the crease, flat over the top.
	e := math.Min(1, (s2-s1)/curlRound)
	return Curl{
		Rise:  math.Sqrt(e * (2 - e)),
		Tone:  hash3(near[0], near[1], near[2], curlSeed+3),
		Dir:   u,
		Under: curlUnder(f1, q),
		Open:  curlPair(near, next),
		Coil:  curlCoil(q, f1, near),
	}
}

// curlUnder is Curl.Under for the point q of the curl round f1 (on
// curlSphere's scale): how much nearer the crown q is than f1, over
// their distance. It runs on smoothly over the curl (by the crease the
// point is nearest it jumped where that crease changed, and the shade
// under an overlap ended in straight-edged wedges at the curl's
// corners), and from curl to curl a crease's upper side is the lower
// curl's upper side.
func curlUnder(f1, q [3]float64) float64 {
	g := func(f [3]float64) float64 {
		l := math.Sqrt(f[0]*f[0] + f[1]*f[1] + f[2]*f[2])
		return (f[0]*curlCrown[0] + f[1]*curlCrown[1] + f[2]*curlCrown[2]) / math.Max(l, 1e-9)
	}
	d := math.Sqrt((q[0]-f1[0])*(q[0]-f1[0]) + (q[1]-f1[1])*(q[1]-f1[1]) + (q[2]-f1[2])*(q[2]-f1[2]))
	w := (g(q) - g(f1)) * curlSphere / math.Max(d, 1e-9)
	return smooth(-0.25, 0.35, w)
}

// curlPair is Curl.Open for the crease between the curls of cells a
// and b: the same from either side, 1 for curlOpen of the pairs, 0 for
// the others (one clump).
func curlPair(a, b [3]int) float64 {
	lo, hi := a, b
	if hi[0] < lo[0] || (hi[0] == lo[0] && (hi[1] < lo[1] || (hi[1] == lo[1] && hi[2] < lo[2]))) {
		lo, hi = hi, lo
	}
	h := hash3(lo[0]*73+hi[0], lo[1]*73+hi[1], lo[2]*73+hi[2], curlSeed+6)
	return smooth(1-curlOpen-0.08, 1-curlOpen+0.08, h)
}

// curlCoil is Curl.Coil for the point q of the curl of cell cell, round
// f (on curlSphere's scale): the angle round f in the plane across f's
// direction, either way, plus the curl's turns for each cell out from
// f, turned by a phase of the curl's own.
func curlCoil(q, f [3]float64, cell [3]int) float64 {
	fl := math.Sqrt(f[0]*f[0] + f[1]*f[1] + f[2]*f[2])
	if fl < 1e-9 {
		return 0
	}
	nrm := [3]float64{f[0] / fl, f[1] / fl, f[2] / fl}
	// Two axes across nrm: any direction not along it, made square.
	ref := [3]float64{1, 0, 0}
	if math.Abs(nrm[0]) > 0.9 {
		ref = [3]float64{0, 0, 1}
	}
	k := ref[0]*nrm[0] + ref[1]*nrm[1] + ref[2]*nrm[2]
	a := [3]float64{ref[0] - k*nrm[0], ref[1] - k*nrm[1], ref[2] - k*nrm[2]}
	al := math.Sqrt(a[0]*a[0] + a[1]*a[1] + a[2]*a[2])
	a = [3]float64{a[0] / al, a[1] / al, a[2] / al}
	b := [3]float64{nrm[1]*a[2] - nrm[2]*a[1], nrm[2]*a[0] - nrm[0]*a[2], nrm[0]*a[1] - nrm[1]*a[0]}
	d := [3]float64{q[0] - f[0], q[1] - f[1], q[2] - f[2]}
	x := d[0]*a[0] + d[1]*a[1] + d[2]*a[2]
	y := d[0]*b[0] + d[1]*b[1] + d[2]*b[2]
	r := math.Hypot(x, y) / curlCell
	turns := curlTurns * (1 + curlTurnsSpread*(2*hash3(cell[0], cell[1], cell[2], curlSeed+7)-1))
	way := 1.0
	if hash3(cell[0], cell[1], cell[2], curlSeed+8) < 0.5 {
		way = -1
	}
	c := r*turns + way*math.Atan2(y, x)/(2*math.Pi) + hash3(cell[0], cell[1], cell[2], curlSeed+5)
	return c - math.Floor(c)
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
