package avatar

import (
	"math"
	"sync"

	"github.com/kilnhq/kiln/assets/avatar/paint"
)

// formLight is the soft key light whose shade the face's form bakes into
// the skin (formShade): above and in front of the face, as a room's
// brightest light is and as the leader bakes its faces.
var formLight = vec3{0, 0.5, 1}

// formSpread is the half-angle of the cone of rays toward the key light
// (radians): a broad light, so shadows are soft and a nose casts no hard
// edge.
const formSpread = 0.75

// formReach is how far along a ray toward the light a part of the face
// still shades the skin, metres: the nose and the brow ridge stand 2-3
// cm off the skin they shade; farther parts (the chin over the chest)
// are the jaw shade's.
const formReach = 0.04

// formRays are the directions formShade casts from each vertex: the key
// light's own direction and two rings around it, out to formSpread.
var formRays = sync.OnceValue(func() []vec3 {
	l := formLight.norm()
	// Two axes across the light.
	a := l.cross(vec3{1, 0, 0}).norm()
	b := l.cross(a)
	out := []vec3{l}
	for ring, n := range []int{6, 9} {
		th := formSpread * float64(ring+1) / 2
		for i := range n {
			ph := 2*math.Pi*float64(i)/float64(n) + float64(ring)*0.35
			d := vec3{}
			for k := range 3 {
				d[k] = math.Cos(th)*l[k] + math.Sin(th)*(math.Cos(ph)*a[k]+math.Sin(ph)*b[k])
			}
			out = append(out, d)
		}
	}
	return out
})

// formShade is, per vertex of the head part, how much of the key light
// (formLight, a cone of formRays) the face's own form keeps from the skin
// there, 0 (lit as skin facing the light) to 1 (none): the skin turning
// away from the light (the face's sides, the temples, under the nose,
// the lips and the chin) by its normal, and the skin the nose, the brow
// ridge and the cheeks overhang (the nose's sides, the eye sockets, the
// creases) by rays that meet the face within formReach. The leader bakes
// this shading into its skin texture, and in a room light (lit from
// every side, which leaves a face nearly even) it is most of what gives
// its faces their form: its nose sides are 0.90 of its nose bridge's
// luma and its temples 0.83-0.89 of its cheeks', ours were even (0.99
// to 1.01), the flat, waxy faces of the blind panel. The shade fades out
// over the part's lowest 3 cm, where the body's skin, unshaded, meets it.
func formShade(p *part) []float32 {
	rays := formRays()
	hit := make([][]bool, len(rays))
	var wg sync.WaitGroup
	for k, d := range rays {
		wg.Go(func() { hit[k] = occludedAlong(p, d) })
	}
	wg.Wait()
	l := formLight.norm()
	var full float64
	for _, d := range rays {
		full += math.Max(0, l.dot(d))
	}
	bottom := math.Inf(1)
	for _, q := range p.pos {
		bottom = math.Min(bottom, float64(q[1]))
	}
	out := make([]float32, len(p.pos))
	for v, q := range p.pos {
		n := v3(p.nrm[v])
		var lit float64
		for k, d := range rays {
			if !hit[k][v] {
				lit += math.Max(0, n.dot(d))
			}
		}
		shade := math.Max(0, 1-lit/full)
		out[v] = float32(shade * smoothstep(bottom, bottom+0.03, float64(q[1])))
	}
	return out
}

// occludedAlong is, per vertex of p, whether a triangle of p facing
// against the ray d lies across it within formReach: found, as jawShade
// does, in the plane across the ray, where the ray is a point, so each
// vertex looks only at the triangles in its own cell of a grid. Vertices
// facing away from the ray are not looked at (they take none of its
// light anyway).
func occludedAlong(p *part, d vec3) []bool {
	const cell = 0.004
	a := d.cross(vec3{1, 0, 0}).norm()
	b := d.cross(a)
	// The vertices in the plane across the ray, and their height up it.
	fx, fy, fh := make([]float64, len(p.pos)), make([]float64, len(p.pos)), make([]float64, len(p.pos))
	lo, hi := [2]float64{math.Inf(1), math.Inf(1)}, [2]float64{math.Inf(-1), math.Inf(-1)}
	for v, q := range p.pos {
		w := v3(q)
		fx[v], fy[v], fh[v] = w.dot(a), w.dot(b), w.dot(d)
		lo = [2]float64{math.Min(lo[0], fx[v]), math.Min(lo[1], fy[v])}
		hi = [2]float64{math.Max(hi[0], fx[v]), math.Max(hi[1], fy[v])}
	}
	nx, ny := int(math.Floor((hi[0]-lo[0])/cell))+1, int(math.Floor((hi[1]-lo[1])/cell))+1
	at := func(x, y float64) (int, int) { return int((x - lo[0]) / cell), int((y - lo[1]) / cell) }
	// Only triangles facing against the ray cast a shade on the skin
	// behind them (the skin's inside is never seen from it); each is
	// listed in every cell its box covers, the lists in one array
	// (counted, then filled).
	casts := func(t [3]uint32) (c0x, c0y, c1x, c1y int, ok bool) {
		var facing float64
		for _, v := range t {
			facing += v3(p.nrm[v]).dot(d)
		}
		if facing > 0 {
			return 0, 0, 0, 0, false
		}
		c0x, c0y = at(min(fx[t[0]], fx[t[1]], fx[t[2]]), min(fy[t[0]], fy[t[1]], fy[t[2]]))
		c1x, c1y = at(max(fx[t[0]], fx[t[1]], fx[t[2]]), max(fy[t[0]], fy[t[1]], fy[t[2]]))
		return c0x, c0y, c1x, c1y, true
	}
	start := make([]int32, nx*ny+1)
	for _, t := range p.tris {
		if c0x, c0y, c1x, c1y, ok := casts(t); ok {
			for j := c0y; j <= c1y; j++ {
				for i := c0x; i <= c1x; i++ {
					start[j*nx+i+1]++
				}
			}
		}
	}
	for c := range nx * ny {
		start[c+1] += start[c]
	}
	list := make([]int32, start[nx*ny])
	fill := append([]int32(nil), start[:nx*ny]...)
	for ti, t := range p.tris {
		if c0x, c0y, c1x, c1y, ok := casts(t); ok {
			for j := c0y; j <= c1y; j++ {
				for i := c0x; i <= c1x; i++ {
					list[fill[j*nx+i]] = int32(ti)
					fill[j*nx+i]++
				}
			}
		}
	}
	out := make([]bool, len(p.pos))
	for v := range p.pos {
		if v3(p.nrm[v]).dot(d) <= 0 {
			continue
		}
		x, y, h := fx[v], fy[v], fh[v]
		i, j := at(x, y)
		for _, ti := range list[start[j*nx+i]:start[j*nx+i+1]] {
			t := p.tris[ti]
			ax, ay, ah := fx[t[0]], fy[t[0]], fh[t[0]]
			bx, by, bh := fx[t[1]], fy[t[1]], fh[t[1]]
			cx, cy, ch := fx[t[2]], fy[t[2]], fh[t[2]]
			det := (bx-ax)*(cy-ay) - (cx-ax)*(by-ay)
			if math.Abs(det) < 1e-12 {
				continue
			}
			u := ((x-ax)*(cy-ay) - (cx-ax)*(y-ay)) / det
			w := ((bx-ax)*(y-ay) - (x-ax)*(by-ay)) / det
			if u < 0 || w < 0 || u+w > 1 {
				continue
			}
			// At least 2 mm up the ray: the skin around a vertex is
			// not in front of it.
			if up := ah + u*(bh-ah) + w*(ch-ah) - h; up > 0.002 && up < formReach {
				out[v] = true
				break
			}
		}
	}
	return out
}

// headFormShade is the head part's form shade (formShade), softened
// under the jaw where p has a mouth (mo) to place the jaw by.
func headFormShade(p *part, mo *paint.Mouth) []float32 {
	f := formShade(p)
	if mo != nil {
		softenFormUnderJaw(f, p, mo.Centre[1]-0.01)
	}
	return f
}

// formJawSoften is how many times softenFormUnderJaw averages the form
// shade under the jaw with its neighbours' (softenShade), and
// formJawFade how far under top (metres) it takes the softened shade in
// full. From the throat the chin stands within formReach of most rays
// toward the key light, and whether a ray meets it flips from one vertex
// to the next where the chin's edge crosses the mesh: unsoftened, the
// shade under the chin ran in streaks along the mesh's edges that fan out
// from the chin (random-13's and random-16's necks, the panels' "blotchy
// neck shading", "dirt"). Thirty passes spread it over about two
// centimetres, the streaks' spacing.
const (
	formJawSoften = 30
	formJawFade   = 0.03
)

// formJawKeep is how far from the head part's lower border (round the
// neck, where the body's part meets it) the form shade stays as
// formShade casts it, fading to the softened shade beyond, metres:
// softened all the way, the shade under the chin ran on into the
// border, where formShade leaves the throat's front nearly unshaded to
// meet the body's skin, and the neck showed a step there (the body's
// skin 1.03 of the head's, TestNeckShaded).
const formJawKeep = 0.03

// softenFormUnderJaw softens the form shade form of the head part p on
// the skin under top (a centimetre under the lips' parting, as jawShade
// takes it): the softened shade in full from formJawFade under top and
// formJawKeep off the part's lower border; the face above, so the nose's
// sides and the eye sockets keep their crisp shade, and the border as
// they were.
func softenFormUnderJaw(form []float32, p *part, top float64) {
	soft := append([]float32(nil), form...)
	softenShade(graphOf(p), soft, formJawSoften)
	for v, w := range formJawWeights(p, top) {
		form[v] += float32(w) * (soft[v] - form[v])
	}
}

// formJawWeights is, per vertex of p, how much of the softened shade
// softenFormUnderJaw takes (0..1).
func formJawWeights(p *part, top float64) []float64 {
	border := lowerBorder(p, top)
	out := make([]float64, len(p.pos))
	for v, q := range p.pos {
		y := float64(q[1])
		w := smoothstep(top, top-formJawFade, y)
		if w == 0 {
			continue
		}
		near := math.Inf(1)
		for _, b := range border {
			near = math.Min(near, v3(q).sub(v3(p.pos[b])).len())
		}
		out[v] = w * smoothstep(0, formJawKeep, near)
	}
	return out
}

// lowerBorder is the vertices of p on its open border lower than top:
// the ring round the neck where the body's part meets the head's (the
// eyes' and the mouth's openings are higher).
func lowerBorder(p *part, top float64) []uint32 {
	type edge [2]uint32
	count := map[edge]int{}
	key := func(a, b uint32) edge {
		// Seams split a vertex in two at one place: the edge is keyed
		// by the base mesh's vertices, as the graph is.
		ba, bb := uint32(p.base[a]), uint32(p.base[b])
		if ba > bb {
			ba, bb = bb, ba
		}
		return edge{ba, bb}
	}
	for _, t := range p.tris {
		for k := range 3 {
			count[key(t[k], t[(k+1)%3])]++
		}
	}
	var out []uint32
	for _, t := range p.tris {
		for k := range 3 {
			// Each border vertex starts one border edge.
			if a := t[k]; count[key(a, t[(k+1)%3])] == 1 && float64(p.pos[a][1]) < top {
				out = append(out, a)
			}
		}
	}
	return out
}
