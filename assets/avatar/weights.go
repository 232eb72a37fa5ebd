package avatar

import (
	"container/heap"
	"math"
	"slices"
	"strings"

	"github.com/kilnhq/kiln/assets/avatar/human"
	"github.com/kilnhq/kiln/assets/avatar/paint"
)

// Garments take the body's weights through their bindings, which keeps
// them on the body but copies its sharp weight changes (the armpit, the
// crotch): in a clip that lowers the arms, a few rows of cloth there
// would take all the stretch and tear into wings. Two steps make cloth
// move as cloth: its weights are smoothed over the garment, so the
// stretch spreads over many rows; then the body vertices still under a
// garment take the garment's weights, so that skin and cloth move
// together and the skin cannot come out through it.

// smoothRadius is how far along the cloth a garment vertex gathers
// weights from. The clips move the arms some 35 degrees from the rest
// pose, so arm and spine joints part by several centimetres at the
// armpit and shoulder: a change of weight there must be spread over
// about this much cloth for no edge, however short, to stretch past 1.5x
// in the quiet clips (gesture_nod, locomotion_idle). Measured by the
// cloth test (assets/animation): 4 cm left 1.0% of a top's edges torn in
// nod, 8 cm 0.06%, 16 cm 0.11% at worst and the fewest in every
// arm-raising clip.
const smoothRadius = 0.16

// wideSmooth are the garments whose weights are smoothed further: a
// skirt hangs around both legs, and with the legs' weights 16 cm apart
// the cloth between them tore as they parted (5.3% of its edges under
// locomotion_run, 1.6% with 30 cm).
var wideSmooth = map[string]float64{"bottom/skirt": 0.3}

// smoothWeights gives each vertex the mean of the influences around it
// within smoothRadius along the cloth (vertices welded by position, so
// UV seams do not split it), keeping the four largest.
func (p *part) smoothWeights(fade float64) {
	radius := smoothRadius
	if r, ok := wideSmooth[p.fit.ID]; ok {
		radius = r
	}
	weld, n := weldByPosition(p.pos)
	// Neighbours as sorted lists: sums in a fixed order give the same
	// weights, to the bit, on every build.
	nb := make([][]int, n)
	for _, t := range p.tris {
		for k := 0; k < 3; k++ {
			a, b := weld[t[k]], weld[t[(k+1)%3]]
			if a != b {
				nb[a] = append(nb[a], b)
				nb[b] = append(nb[b], a)
			}
		}
	}
	// Pieces of a garment meet at seams whose two sides are separate
	// vertices a few millimetres apart (a sleeve sewn to the body): they
	// are neighbours too, or the seam would keep the sleeve's weights on
	// one side and the body's on the other and tear there.
	rep := make([][3]float32, n)
	for i, w := range weld {
		rep[w] = p.pos[i]
	}
	const seam = 0.006
	cell := func(q [3]float32) [3]int {
		return [3]int{int(math.Floor(float64(q[0]) / seam)), int(math.Floor(float64(q[1]) / seam)), int(math.Floor(float64(q[2]) / seam))}
	}
	grid := map[[3]int][]int{}
	for v, q := range rep {
		grid[cell(q)] = append(grid[cell(q)], v)
	}
	sewn := make([]bool, n)
	for v, q := range rep {
		c := cell(q)
		for dx := -1; dx <= 1; dx++ {
			for dy := -1; dy <= 1; dy++ {
				for dz := -1; dz <= 1; dz++ {
					for _, u := range grid[[3]int{c[0] + dx, c[1] + dy, c[2] + dz}] {
						if d := sub3(rep[u], q); u != v && d[0]*d[0]+d[1]*d[1]+d[2]*d[2] < seam*seam {
							if !slices.Contains(nb[v], u) {
								sewn[v] = true
							}
							nb[v] = append(nb[v], u)
						}
					}
				}
			}
		}
	}
	for i := range nb {
		slices.Sort(nb[i])
		nb[i] = slices.Compact(nb[i])
	}
	orig := make([]human.Influence, n)
	for i, inf := range p.inf {
		orig[weld[i]] = inf
	}
	out := make([]human.Influence, n)
	ball := newGeodesicBall(n)
	for v := range out {
		// Each vertex takes the kernel-weighted mean of the influences
		// within smoothRadius along the cloth, so that the weights change
		// by at most about 1/smoothRadius per metre wherever the mesh is
		// dense: short edges then cannot take a large step of weight.
		acc := map[uint8]float64{}
		ball.visit(v, nb, rep, radius, func(u int, d float64) {
			k := 1 - (d/radius)*(d/radius)
			k *= k
			for j := 0; j < 4; j++ {
				if w := orig[u].Weight[j]; w > 0 {
					acc[orig[u].Joint[j]] += k * float64(w)
				}
			}
		})
		m := make(map[uint8]float32, len(acc))
		for j, w := range acc {
			m[j] = float32(w)
		}
		out[v] = human.TopFour(m)
	}
	hem := hemDistance(p.tris, weld, n, sewn, nb, rep, fade)
	for v := range out {
		if t := hem[v] / fade; t < 1 {
			out[v] = blend(orig[v], out[v], t*t*(3-2*t))
		}
	}
	for i := range p.inf {
		p.inf[i] = out[weld[i]]
	}
}

// hemFade is how far from a hem, a cuff or a collar the cloth takes the
// smoothed weights in full. At the opening itself it keeps the weights of
// the body under it, so that the skin just inside the opening and the
// cloth over it move alike: with the smoothed weights there (a collar
// turning with the shoulders, a cuff with the forearm) the skin that
// follows its own joints came out through them.
const hemFade = 0.06

// hemDistance is, per welded vertex, the distance along the cloth to the
// nearest open border: edges of one triangle that are not sewn to another
// piece of the garment (sewn vertices have a partner a few millimetres
// away that is no neighbour along an edge).
func hemDistance(tris [][3]uint32, weld []int, n int, sewn []bool, nb [][]int, rep [][3]float32, fade float64) []float64 {
	count := map[[2]int]int{}
	for _, t := range tris {
		for k := 0; k < 3; k++ {
			a, b := weld[t[k]], weld[t[(k+1)%3]]
			if a > b {
				a, b = b, a
			}
			count[[2]int{a, b}]++
		}
	}
	dist := make([]float64, n)
	for i := range dist {
		dist[i] = math.Inf(1)
	}
	h := &distHeap{}
	for e, c := range count {
		for _, v := range e {
			if c == 1 && !sewn[v] && dist[v] != 0 {
				dist[v] = 0
				heap.Push(h, distItem{v: v})
			}
		}
	}
	for h.Len() > 0 {
		it := heap.Pop(h).(distItem)
		if it.d > dist[it.v] || it.d >= fade {
			continue
		}
		for _, u := range nb[it.v] {
			d := sub3(rep[u], rep[it.v])
			if nd := it.d + math.Sqrt(d[0]*d[0]+d[1]*d[1]+d[2]*d[2]); nd < dist[u] {
				dist[u] = nd
				heap.Push(h, distItem{v: u, d: nd})
			}
		}
	}
	return dist
}

// blend mixes two sets of influences, t of b and 1-t of a, keeping the
// four largest.
func blend(a, b human.Influence, t float64) human.Influence {
	m := map[uint8]float32{}
	for k := 0; k < 4; k++ {
		m[a.Joint[k]] += float32(1-t) * a.Weight[k]
		m[b.Joint[k]] += float32(t) * b.Weight[k]
	}
	return human.TopFour(m)
}

// geodesicBall walks the cloth from a vertex outward, nearest first, up
// to a distance measured along its edges (Dijkstra), reusing its buffers
// from one vertex to the next.
type geodesicBall struct {
	dist    []float64
	touched []int
}

func newGeodesicBall(n int) *geodesicBall {
	b := &geodesicBall{dist: make([]float64, n)}
	for i := range b.dist {
		b.dist[i] = math.Inf(1)
	}
	return b
}

// visit calls f for every vertex within r of v along the graph nb, with
// its distance, in a fixed order.
func (b *geodesicBall) visit(v int, nb [][]int, pos [][3]float32, r float64, f func(u int, d float64)) {
	for _, u := range b.touched {
		b.dist[u] = math.Inf(1)
	}
	b.touched = b.touched[:0]
	h := &distHeap{}
	b.dist[v] = 0
	b.touched = append(b.touched, v)
	heap.Push(h, distItem{v, 0})
	for h.Len() > 0 {
		it := heap.Pop(h).(distItem)
		if it.d > b.dist[it.v] {
			continue
		}
		f(it.v, it.d)
		for _, u := range nb[it.v] {
			e := sub3(pos[u], pos[it.v])
			d := it.d + math.Sqrt(e[0]*e[0]+e[1]*e[1]+e[2]*e[2])
			if d < r && d < b.dist[u] {
				if math.IsInf(b.dist[u], 1) {
					b.touched = append(b.touched, u)
				}
				b.dist[u] = d
				heap.Push(h, distItem{u, d})
			}
		}
	}
}

type distItem struct {
	v int
	d float64
}

// distHeap orders by distance, then vertex, so the walk is the same on
// every run.
type distHeap []distItem

func (h distHeap) Len() int { return len(h) }
func (h distHeap) Less(i, j int) bool {
	return h[i].d < h[j].d || h[i].d == h[j].d && h[i].v < h[j].v
}
func (h distHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *distHeap) Push(x any)   { *h = append(*h, x.(distItem)) }
func (h *distHeap) Pop() any {
	old := *h
	it := old[len(old)-1]
	*h = old[:len(old)-1]
	return it
}

// weldByPosition numbers vertices by their position: vertices split at
// seams get one number.
func weldByPosition(pos [][3]float32) ([]int, int) {
	id := map[[3]float32]int{}
	weld := make([]int, len(pos))
	for i, p := range pos {
		k, ok := id[p]
		if !ok {
			k = len(id)
			id[p] = k
		}
		weld[i] = k
	}
	return weld, len(id)
}

// underRadius is how far inside a garment a skin vertex may be and still
// take its weights: garments sit 1 to 3 cm off the skin.
const underRadius = 0.05

// skinFade is how far from a garment's opening (a hem, a cuff, a collar)
// the skin blends from the garment's weights back to its own. Skin under
// the garment moves as the cloth over it; at the opening, seen skin and
// the skin just inside it move alike, so neither a step in the skin nor a
// gap under the hem opens when the garment's smoothed weights and the
// body's part ways.
const skinFade = 0.05

// followGarments gives the skin vertices under a garment the weights of
// the cloth right over them, for the skin parts (body, head) and the
// garments in order (the first that covers a vertex wins), and blends the
// skin near a garment's opening towards them. A vertex is under a garment
// when its nearest point on the garment, within underRadius, is inside
// the cloth's surface and not on its opening, or when the garment crosses
// its outward normal within underRadius (an ankle in a shoe's collar).
// Hands keep their own weights. It reports, per skin part and vertex, whether a garment
// covers it.
func followGarments(skin []*part, garments []*part) [][]bool {
	key := func(p [3]float32) [3]int {
		return [3]int{int(math.Floor(float64(p[0]) / underRadius)), int(math.Floor(float64(p[1]) / underRadius)), int(math.Floor(float64(p[2]) / underRadius))}
	}
	rims := make([][]float32, len(garments))
	cells := make([]*triCells, len(garments))
	for i, g := range garments {
		rims[i], cells[i] = paint.Border(g.pos, g.tris), newTriCells(g, key)
	}
	covered := make([][]bool, len(skin))
	for si, s := range skin {
		covered[si] = make([]bool, len(s.pos))
		for v, p := range s.pos {
			if handJoint[s.inf[v].Joint[0]] {
				continue
			}
			// Under several garments (a waist under a top and a skirt),
			// the skin moves with the nearest, the one it could come out
			// through.
			best := cover{dist: math.Inf(1)}
			for i, g := range garments {
				c := cells[i].over(p, s.nrm[v], g, rims[i])
				if c.share > best.share || c.share == 1 && c.dist < best.dist {
					best = c
				}
			}
			switch {
			case best.share == 1:
				s.inf[v], covered[si][v] = best.inf, best.under
				for k := range best.push {
					s.pos[v][k] += float32(best.push[k])
				}
			case best.share > 0:
				s.inf[v] = blend(s.inf[v], best.inf, best.share)
			}
		}
	}
	return covered
}

// cover is how a skin vertex lies under a garment: the share of the
// garment's weights it takes (1 inside the cloth, less near an opening, 0
// away from it), the weights of the cloth there, the distance to the
// cloth, and how far to move the vertex to keep clearance under it.
type cover struct {
	share float64
	inf   human.Influence
	dist  float64
	push  [3]float64
	under bool // under the cloth, not at an opening: hidden if its triangle is
}

// clearance is the least depth of skin under cloth. Skin and cloth a few
// millimetres apart do not keep that gap through a clip even with the
// same weights, as neighbouring corners differ: skin closer than this is
// pushed in along the cloth's normal.
const clearance = 0.008

// over tells how the skin vertex at p with outward normal n lies under
// the garment.
func (c *triCells) over(p, n [3]float32, g *part, rim []float32) cover {
	tri, q, bary := c.nearest(p, g)
	if tri < 0 {
		if hit, hb := c.cast(p, n, g); hit >= 0 {
			return cover{share: 1, inf: g.weightsAt(hit, hb), dist: underRadius, under: true}
		}
		return cover{}
	}
	corners := g.tris[tri]
	var gn [3]float64
	onRim := true
	for k, v := range corners {
		for a := 0; a < 3; a++ {
			gn[a] += bary[k] * float64(g.nrm[v][a])
		}
		if bary[k] > 1e-6 && rim[v] == 0 {
			onRim = false
		}
	}
	d := sub3(p, [3]float32{float32(q[0]), float32(q[1]), float32(q[2])})
	dist := math.Sqrt(d[0]*d[0] + d[1]*d[1] + d[2]*d[2])
	inf := g.weightsAt(tri, bary)
	// Inside: under the cloth, or at an opening but clearly on its inner
	// side (under a waistband, where the nearest cloth is its edge). Skin
	// at an opening may be seen through it (a V-neck): it moves with the
	// cloth but stays where it is and is not hidden.
	if depth := d[0]*gn[0] + d[1]*gn[1] + d[2]*gn[2]; depth < 0 && (!onRim || depth < -0.5*dist) {
		cv := cover{share: 1, inf: inf, dist: dist, under: !onRim}
		if l := math.Sqrt(gn[0]*gn[0] + gn[1]*gn[1] + gn[2]*gn[2]); cv.under && l > 0 && depth/l > -clearance {
			for k := range cv.push {
				cv.push[k] = (-clearance - depth/l) * gn[k] / l
			}
		}
		return cv
	}
	if hit, hb := c.cast(p, n, g); hit >= 0 {
		return cover{share: 1, inf: g.weightsAt(hit, hb), dist: underRadius, under: true}
	}
	if !onRim {
		return cover{}
	}
	return cover{share: math.Max(0, 1-dist/skinFade), inf: inf, dist: dist}
}

// weightsAt is the cloth's weights at a point of a triangle, its corners'
// mixed by the point's barycentric coordinates.
func (g *part) weightsAt(tri int, bary [3]float64) human.Influence {
	m := map[uint8]float32{}
	for k, v := range g.tris[tri] {
		for j := 0; j < 4; j++ {
			m[g.inf[v].Joint[j]] += float32(bary[k]) * g.inf[v].Weight[j]
		}
	}
	return human.TopFour(m)
}

// handJoint marks the joints of the hands and fingers, by index: skin
// there keeps its own weights under a garment, or a finger or thumb that
// took a sleeve's weights would stop bending.
var handJoint = func() [256]bool {
	var h [256]bool
	for i, n := range JointNames() {
		h[i] = strings.HasPrefix(n, "LeftHand") || strings.HasPrefix(n, "RightHand")
	}
	return h
}()

// cuffAt is where a sleeve ends, along the forearm from the wrist joint
// (negative: before it). MakeHuman's long sleeves reach over the thumb
// in the rest pose, and a thumb or a turning hand under a cuff comes out
// through it.
const cuffAt = -0.035

// endSleeves cuts a top's sleeves at the wrists: the triangles with a
// corner past cuffAt along a forearm go. (Moving such corners back onto
// the cut would level the cuff but leave edges a fraction of a
// millimetre long, which tear at the slightest motion.)
func endSleeves(g *part, joints map[string][3]float32) {
	past := make([]bool, len(g.pos))
	for _, side := range []string{"Left", "Right"} {
		e, w := joints[side+"ForeArm"], joints[side+"Hand"]
		u := sub3(w, e)
		l := math.Sqrt(u[0]*u[0] + u[1]*u[1] + u[2]*u[2])
		for k := range u {
			u[k] /= l
		}
		for i, p := range g.pos {
			pe := sub3(p, e)
			along := pe[0]*u[0] + pe[1]*u[1] + pe[2]*u[2]
			r := [3]float64{pe[0] - along*u[0], pe[1] - along*u[1], pe[2] - along*u[2]}
			// Within a forearm's reach of its axis, past the elbow.
			if along > 0 && r[0]*r[0]+r[1]*r[1]+r[2]*r[2] < 0.1*0.1 {
				if along-l > cuffAt {
					past[i] = true
				}
			}
		}
	}
	var idx []uint32
	for _, t := range g.tris {
		if !past[t[0]] && !past[t[1]] && !past[t[2]] {
			idx = append(idx, t[0], t[1], t[2])
		}
	}
	g.keep(idx)
}

// triCells buckets a garment's triangles by the cells their bounding
// boxes touch (cells of underRadius, so everything within that distance
// of a point is in the point's cell or its neighbours, a large triangle
// whose corners are all farther included).
type triCells struct {
	key   func([3]float32) [3]int
	cells map[[3]int][]int
}

func newTriCells(g *part, key func([3]float32) [3]int) *triCells {
	c := &triCells{key: key, cells: map[[3]int][]int{}}
	for t, tri := range g.tris {
		lo, hi := key(g.pos[tri[0]]), key(g.pos[tri[0]])
		for _, v := range tri[1:] {
			k := key(g.pos[v])
			for a := range k {
				lo[a], hi[a] = min(lo[a], k[a]), max(hi[a], k[a])
			}
		}
		for x := lo[0]; x <= hi[0]; x++ {
			for y := lo[1]; y <= hi[1]; y++ {
				for z := lo[2]; z <= hi[2]; z++ {
					c.cells[[3]int{x, y, z}] = append(c.cells[[3]int{x, y, z}], t)
				}
			}
		}
	}
	return c
}

// cast follows the ray from p along n for underRadius and returns the
// triangle where it first crosses the garment and the barycentric
// coordinates of the crossing, or -1.
func (c *triCells) cast(p [3]float32, n [3]float32, g *part) (int, [3]float64) {
	best, bt := -1, underRadius
	var bary [3]float64
	o := [3]float64{float64(p[0]), float64(p[1]), float64(p[2])}
	d := [3]float64{float64(n[0]), float64(n[1]), float64(n[2])}
	c.around(p, func(t int) {
		tri := g.tris[t]
		// Möller and Trumbore.
		a := g.pos[tri[0]]
		e1, e2 := sub3(g.pos[tri[1]], a), sub3(g.pos[tri[2]], a)
		h := cross3(d, e2)
		det := e1[0]*h[0] + e1[1]*h[1] + e1[2]*h[2]
		if math.Abs(det) < 1e-12 {
			return
		}
		sv := [3]float64{o[0] - float64(a[0]), o[1] - float64(a[1]), o[2] - float64(a[2])}
		u := (sv[0]*h[0] + sv[1]*h[1] + sv[2]*h[2]) / det
		if u < 0 || u > 1 {
			return
		}
		q := cross3(sv, e1)
		w := (d[0]*q[0] + d[1]*q[1] + d[2]*q[2]) / det
		if w < 0 || u+w > 1 {
			return
		}
		if dist := (e2[0]*q[0] + e2[1]*q[1] + e2[2]*q[2]) / det; dist > 0 && dist < bt {
			best, bt, bary = t, dist, [3]float64{1 - u - w, u, w}
		}
	})
	return best, bary
}

// nearest is the garment triangle nearest to p within underRadius, the
// nearest point on it and that point's barycentric coordinates, or -1.
func (c *triCells) nearest(p [3]float32, g *part) (int, [3]float64, [3]float64) {
	best, bd := -1, underRadius
	var bq, bb [3]float64
	pp := [3]float64{float64(p[0]), float64(p[1]), float64(p[2])}
	c.around(p, func(t int) {
		tri := g.tris[t]
		var v [3][3]float64
		for k := range v {
			v[k] = [3]float64{float64(g.pos[tri[k]][0]), float64(g.pos[tri[k]][1]), float64(g.pos[tri[k]][2])}
		}
		q, b := closestOnTriangle(pp, v[0], v[1], v[2])
		if d := math.Sqrt((pp[0]-q[0])*(pp[0]-q[0]) + (pp[1]-q[1])*(pp[1]-q[1]) + (pp[2]-q[2])*(pp[2]-q[2])); d < bd {
			best, bd, bq, bb = t, d, q, b
		}
	})
	return best, bq, bb
}

// around calls f once for every triangle with a corner in p's cell or a
// neighbouring one, in a fixed order.
func (c *triCells) around(p [3]float32, f func(t int)) {
	k := c.key(p)
	seen := map[int]bool{}
	for dx := -1; dx <= 1; dx++ {
		for dy := -1; dy <= 1; dy++ {
			for dz := -1; dz <= 1; dz++ {
				for _, t := range c.cells[[3]int{k[0] + dx, k[1] + dy, k[2] + dz}] {
					if !seen[t] {
						seen[t] = true
						f(t)
					}
				}
			}
		}
	}
}

// closestOnTriangle is the point of triangle abc nearest to p and its
// barycentric coordinates (the Voronoi regions of the corners, the edges
// and the face, in turn).
func closestOnTriangle(p, a, b, c [3]float64) ([3]float64, [3]float64) {
	sub := func(x, y [3]float64) [3]float64 { return [3]float64{x[0] - y[0], x[1] - y[1], x[2] - y[2]} }
	dot := func(x, y [3]float64) float64 { return x[0]*y[0] + x[1]*y[1] + x[2]*y[2] }
	at := func(u, v, w float64) ([3]float64, [3]float64) {
		var q [3]float64
		for i := range q {
			q[i] = u*a[i] + v*b[i] + w*c[i]
		}
		return q, [3]float64{u, v, w}
	}
	ab, ac, ap := sub(b, a), sub(c, a), sub(p, a)
	d1, d2 := dot(ab, ap), dot(ac, ap)
	if d1 <= 0 && d2 <= 0 {
		return at(1, 0, 0)
	}
	bp := sub(p, b)
	d3, d4 := dot(ab, bp), dot(ac, bp)
	if d3 >= 0 && d4 <= d3 {
		return at(0, 1, 0)
	}
	if vc := d1*d4 - d3*d2; vc <= 0 && d1 >= 0 && d3 <= 0 {
		v := d1 / (d1 - d3)
		return at(1-v, v, 0)
	}
	cp := sub(p, c)
	d5, d6 := dot(ab, cp), dot(ac, cp)
	if d6 >= 0 && d5 <= d6 {
		return at(0, 0, 1)
	}
	if vb := d5*d2 - d1*d6; vb <= 0 && d2 >= 0 && d6 <= 0 {
		w := d2 / (d2 - d6)
		return at(1-w, 0, w)
	}
	if va := d3*d6 - d5*d4; va <= 0 && d4-d3 >= 0 && d5-d6 >= 0 {
		w := (d4 - d3) / ((d4 - d3) + (d5 - d6))
		return at(0, 1-w, w)
	}
	va, vb, vc := d3*d6-d5*d4, d5*d2-d1*d6, d1*d4-d3*d2
	den := 1 / (va + vb + vc)
	v, w := vb*den, vc*den
	return at(1-v-w, v, w)
}

// hide drops the triangles whose three corners are covered (skin under
// a garment, which MakeHuman's delete lists leave at armpits, crotches
// and ankles) and the vertices no triangle uses any more. A triangle with
// one corner out stays: dropping it opened holes below hems and collars,
// where the garment ends before the triangle does.
func (p *part) hide(covered []bool) {
	var idx []uint32
	for _, t := range p.tris {
		if !covered[t[0]] || !covered[t[1]] || !covered[t[2]] {
			idx = append(idx, t[0], t[1], t[2])
		}
	}
	p.keep(idx)
}
