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
// arc), raised in a dome whose foot is the crease where it meets the
// next (Middle); the painter draws the crease dark and the dome lit
// toward its middle at its texels' resolution, not the mesh's.
//
// The curls lie on directions from a centre (CurlCentre), not on the
// point itself: the geometry raises each point along its direction, so
// the painter, which sees only the raised surface, finds the same curl
// there.

// Curl is the curl of curly hair at a point.
type Curl struct {
	// Tone is the curl's own lightness, 0..1, so neighbouring curls
	// differ a little, as clumps of real curls do.
	Tone float64
	// Middle is how near the curl's middle the point lies, 0..1: 0 on
	// the crease between two curls, 1 at the curl's own point ((s2 -
	// s1) / (s2 + s1) of the distances below, which runs evenly across
	// a curl, where their difference alone, the rise before, stayed
	// under a third over most of it on the head). The geometry raises
	// each curl in a dome over it and the painter shades it.
	Middle float64
	// Dir is the direction from the centre the point lies on (a unit
	// vector): the geometry raises the point along it.
	Dir [3]float64
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
	// curlSeed picks the curls.
	curlSeed = 31
)

// CurlAt is the curl at p (metres) round centre.
func CurlAt(p, centre [3]float64) Curl {
	var m cellMemo
	return curlAt(p, centre, &m)
}

// curlAt is CurlAt with the points round the last cell it looked in
// kept in m (one m for curls only).
func curlAt(p, centre [3]float64, m *cellMemo) Curl {
	d := [3]float64{p[0] - centre[0], p[1] - centre[1], p[2] - centre[2]}
	r := math.Sqrt(d[0]*d[0] + d[1]*d[1] + d[2]*d[2])
	if r < 1e-9 {
		return Curl{Dir: [3]float64{0, 1, 0}}
	}
	u := [3]float64{d[0] / r, d[1] / r, d[2] / r}
	q := [3]float64{u[0] * curlSphere, u[1] * curlSphere, u[2] * curlSphere}
	// Distances over each point's curl's size: where two curls meet is
	// a circle's arc, so each curl is round where it meets the next
	// (plain distances cut the hair into straight-edged tiles: "cracked
	// stone").
	c := m.nearest(q, curlCell, curlSeed)
	near, s1, s2 := c.cell, c.first, c.second
	return Curl{
		Tone:   hash3(near[0], near[1], near[2], curlSeed+3),
		Middle: (s2 - s1) / (s2 + s1),
		Dir:    u,
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

// Ringlets. Issue 22's panel (p35) still read the curls as "lumpy clay"
// (random-09 brown, random-14 blonde): a few smooth lumps 3-4 cm wide,
// shaded soft, no hair in them. Real curly hair at a portrait's scale
// is ringlets a centimetre or so across, each a coil of fine strands,
// dark between them. The shell's vertices (5 mm apart) cannot raise
// curls that small: at curlCell 2 and 2.4 cm its curls stood under
// 1 mm (TestCurlyHairLumpy, 0.87 mm) and its outline turned in corners
// (TestCurlsAreRound, 28.4° and 29.7° a mm), and at 1.2 cm they were
// p13's pitted "sponge". So the geometry raises the clumps (CurlAt) and
// the painter draws the ringlets in them (RingletAt): the same weighted
// cellular noise as the clumps at ringletCell, each ringlet's strands
// coiling round its point.
const (
	// ringletCell is about how wide a ringlet is (metres), on the
	// curls' sphere (curlSphere): 1.2 cm, as real curls at this scale.
	ringletCell = 0.012
	// ringletSeed picks the ringlets.
	ringletSeed = 57
)

// Ringlet is the ringlet of curly hair at a point.
type Ringlet struct {
	// Middle is how near the ringlet's middle the point lies, 0 on the
	// crease between two ringlets, 1 at its point (as Curl's Middle).
	Middle float64
	// Tone is the ringlet's own lightness, 0..1.
	Tone float64
	// Radius and Turn place the point on the ringlet's coil: its
	// distance from the ringlet's point across the hair (metres, on the
	// curls' sphere) and its angle round it (radians, from a direction
	// of the ringlet's own).
	Radius, Turn float64
}

// RingletAt is the ringlet at p (metres) round centre (CurlCentre).
func RingletAt(p, centre [3]float64) Ringlet {
	var m cellMemo
	return ringletAt(p, centre, &m)
}

// ringletAt is RingletAt with the points round the last cell it looked
// in kept in m (one m for ringlets only).
func ringletAt(p, centre [3]float64, m *cellMemo) Ringlet {
	d := [3]float64{p[0] - centre[0], p[1] - centre[1], p[2] - centre[2]}
	r := math.Sqrt(d[0]*d[0] + d[1]*d[1] + d[2]*d[2])
	if r < 1e-9 {
		return Ringlet{}
	}
	u := [3]float64{d[0] / r, d[1] / r, d[2] / r}
	q := [3]float64{u[0] * curlSphere, u[1] * curlSphere, u[2] * curlSphere}
	c := m.nearest(q, ringletCell, ringletSeed)
	near, at, s1, s2 := c.cell, c.at, c.first, c.second
	// The coil's frame: across the hair (off u), from a direction of
	// the ringlet's own, so no two ringlets' strands start alike.
	h := [3]float64{hash3(near[0], near[1], near[2], ringletSeed+5) - 0.5, hash3(near[0], near[1], near[2], ringletSeed+6) - 0.5, hash3(near[0], near[1], near[2], ringletSeed+7) - 0.5}
	a := cross(u, h)
	if l := math.Sqrt(dot(a, a)); l > 1e-6 {
		a = [3]float64{a[0] / l, a[1] / l, a[2] / l}
	} else {
		a = cross(u, [3]float64{0.3, 0.9, 0.3})
		l = math.Sqrt(dot(a, a))
		a = [3]float64{a[0] / l, a[1] / l, a[2] / l}
	}
	b := cross(u, a)
	v := [3]float64{q[0] - at[0], q[1] - at[1], q[2] - at[2]}
	x, y := dot(v, a), dot(v, b)
	return Ringlet{
		Middle: (s2 - s1) / (s2 + s1),
		Tone:   hash3(near[0], near[1], near[2], ringletSeed+3),
		Radius: math.Hypot(x, y),
		Turn:   math.Atan2(y, x),
	}
}

// cells is what cellMemo.nearest finds: the cell whose point is nearest,
// that point, and the nearest and second distances, each over its
// point's size.
type cells struct {
	cell          [3]int
	at            [3]float64
	first, second float64
}

// cellMemo is the points round one cell that nearest looked among
// last: the texels a painter asks about in turn mostly fall in the cell
// of the one before, and each point costs four hashes (27 points, for
// each of curly hair's million texels, twice).
type cellMemo struct {
	ok     bool
	centre [3]int
	at     [27][3]float64 // each point
	size   [27]float64    // its distances' divisor: cell times its size
}

// nearest finds, among points scattered one to a cell of size cell
// (placed and sized by hashes from seed: seed to seed+2 place a point,
// seed+4 sizes it by curlSizeSpread), the two nearest q, each distance
// over its point's size. A memo serves one cell size and seed.
func (m *cellMemo) nearest(q [3]float64, cell float64, seed uint64) cells {
	var c [3]int
	for a := range c {
		c[a] = int(math.Floor(q[a] / cell))
	}
	if !m.ok || m.centre != c {
		m.ok, m.centre = true, c
		k := 0
		for dx := -1; dx <= 1; dx++ {
			for dy := -1; dy <= 1; dy++ {
				for dz := -1; dz <= 1; dz++ {
					x, y, z := c[0]+dx, c[1]+dy, c[2]+dz
					m.at[k] = [3]float64{
						(float64(x) + hash3(x, y, z, seed)) * cell,
						(float64(y) + hash3(x, y, z, seed+1)) * cell,
						(float64(z) + hash3(x, y, z, seed+2)) * cell,
					}
					m.size[k] = cell * (1 + curlSizeSpread*(hash3(x, y, z, seed+4)-0.5))
					k++
				}
			}
		}
	}
	out := cells{first: math.Inf(1), second: math.Inf(1)}
	k := 0
	for dx := -1; dx <= 1; dx++ {
		for dy := -1; dy <= 1; dy++ {
			for dz := -1; dz <= 1; dz++ {
				f := m.at[k]
				e := math.Sqrt((q[0]-f[0])*(q[0]-f[0])+(q[1]-f[1])*(q[1]-f[1])+(q[2]-f[2])*(q[2]-f[2])) / m.size[k]
				if e < out.first {
					out.first, out.second, out.cell, out.at = e, out.first, [3]int{c[0] + dx, c[1] + dy, c[2] + dz}, f
				} else if e < out.second {
					out.second = e
				}
				k++
			}
		}
	}
	return out
}
