package avatar

import "math"

// jawShadeNear and jawShadeReach are how far along a ray toward the
// light the jaw's shade reaches, metres: the whole shade where the jaw's
// underside is this near, none this far.
const (
	jawShadeNear  = 0.015
	jawShadeReach = 0.055
)

// jawDepth is how far under top the jaw's undersides reach, metres: the
// chin's lowest point is 4 to 5 cm under the lips' parting. Lower, the
// collarbones and a low neckline's chest would shade the skin under
// them.
const jawDepth = 0.07

// jawShadeTilts are the rays toward the light each vertex under the jaw
// casts, as forward (z) per upward (y) metre: a room's light comes from
// above and in front of the face, and a vertical ray alone misses the
// chin from the throat, whose front stands only a few millimetres behind
// where the chin's underside meets it. The shade is their mean, so it
// fades softly.
var jawShadeTilts = []float64{0.4, 0.8, 1.2}

// jawShade is, per vertex of the head part, how much the jaw and the chin
// shade the skin under them (0..1): the throat and the neck's sides just
// below the jaw line, by how near the jaw's underside is along rays
// toward the light (jawShadeTilts). In a room light (light from every
// side) our faces had no edge at the jaw: the neck was as light as the
// cheeks, so the face read as running down to the collar, long and
// narrow, where the leader bakes a soft shadow under its jaw that ends
// the face (TestJawShade). Only the skin lower than top (a centimetre
// under the lips' parting) shades or is shaded, so the lips, the nose and
// the lids, which overhang skin too, cast none: their creases are the
// cavity shading's.
func jawShade(p *part, top float64) []float32 {
	out := make([]float32, len(p.pos))
	for _, k := range jawShadeTilts {
		shadeAlong(p, top, k, out)
	}
	softenShade(graphOf(p), out, jawShadeSoften)
	// Faded out over the part's last 2 cm, where the body's skin,
	// unshaded, meets it (after softening, so none runs into the border).
	bottom := math.Inf(1)
	for _, q := range p.pos {
		bottom = math.Min(bottom, float64(q[1]))
	}
	for v, q := range p.pos {
		out[v] *= float32(smoothstep(bottom, bottom+0.02, float64(q[1])))
	}
	return out
}

// jawShadeSoften is how many times jawShade averages each vertex's shade
// with its neighbours': whether a ray from a vertex meets the jaw's
// underside within reach jumps from one vertex to the next where the
// underside's edge crosses the mesh, and on random-15's chin the shade's
// edge zigzagged along the mesh's edges, a V of lines at the chin's
// lower edge (p14's "smudgy chin shading"). Six passes soften it over
// about a centimetre.
const jawShadeSoften = 6

// softenShade averages a per-vertex shade with its neighbours' on g,
// passes times, half its own and half their mean each time.
func softenShade(g baseGraph, s []float32, passes int) {
	v := make([]float64, len(g.at))
	for i, k := range g.node {
		v[k] = float64(s[i])
	}
	next := make([]float64, len(v))
	for range passes {
		for k, ns := range g.nbr {
			if len(ns) == 0 {
				next[k] = v[k]
				continue
			}
			var m float64
			for _, j := range ns {
				m += v[j]
			}
			next[k] = 0.5*v[k] + 0.5*m/float64(len(ns))
		}
		v, next = next, v
	}
	for i, k := range g.node {
		s[i] = float32(v[k])
	}
}

// shadeAlong adds to out, per vertex, its share of the shade along the
// ray (0, 1, k): the nearest triangle that faces against the ray, found
// in the plane across it (x, z - k·y), where the ray is a point.
func shadeAlong(p *part, top, k float64, out []float32) {
	const cell = 0.004
	type key [2]int32
	at := func(x, z float64) key { return key{int32(math.Floor(x / cell)), int32(math.Floor(z / cell))} }
	flat := func(q [3]float32) (x, z float64) { return float64(q[0]), float64(q[2]) - k*float64(q[1]) }
	grid := map[key][]int32{}
	for ti, t := range p.tris {
		var facing float64
		lo, hi := [2]float64{1e9, 1e9}, [2]float64{-1e9, -1e9}
		high, low := false, false
		for _, v := range t {
			facing += float64(p.nrm[v][1]) + k*float64(p.nrm[v][2])
			x, z := flat(p.pos[v])
			lo = [2]float64{math.Min(lo[0], x), math.Min(lo[1], z)}
			hi = [2]float64{math.Max(hi[0], x), math.Max(hi[1], z)}
			high = high || float64(p.pos[v][1]) > top
			low = low || float64(p.pos[v][1]) < top-jawDepth
		}
		if facing > -0.3 || high || low {
			continue
		}
		a, b := at(lo[0], lo[1]), at(hi[0], hi[1])
		for i := a[0]; i <= b[0]; i++ {
			for j := a[1]; j <= b[1]; j++ {
				grid[key{i, j}] = append(grid[key{i, j}], int32(ti))
			}
		}
	}
	share := float32(1 / float64(len(jawShadeTilts)))
	for v, q := range p.pos {
		y := float64(q[1])
		if y > top {
			continue
		}
		x, z := flat(q)
		// The nearest such triangle at least 2 mm up the ray (a vertex
		// on the underside is not under itself).
		near := math.Inf(1)
		for _, ti := range grid[at(x, z)] {
			t := p.tris[ti]
			ax, az := flat(p.pos[t[0]])
			bx, bz := flat(p.pos[t[1]])
			cx, cz := flat(p.pos[t[2]])
			d := (bx-ax)*(cz-az) - (cx-ax)*(bz-az)
			if math.Abs(d) < 1e-12 {
				continue
			}
			u := ((x-ax)*(cz-az) - (cx-ax)*(z-az)) / d
			w := ((bx-ax)*(z-az) - (x-ax)*(bz-az)) / d
			if u < 0 || w < 0 || u+w > 1 {
				continue
			}
			ya, yb, yc := float64(p.pos[t[0]][1]), float64(p.pos[t[1]][1]), float64(p.pos[t[2]][1])
			if h := ya + u*(yb-ya) + w*(yc-ya) - y; h > 0.002 {
				near = math.Min(near, h*math.Sqrt(1+k*k))
			}
		}
		out[v] += share * float32(1-smoothstep(jawShadeNear, jawShadeReach, near))
	}
}
