package avatar

import (
	"container/heap"
	"math"
	"slices"

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
// UV seams do not split it), keeping the four largest; within fade of an
// opening (0: none) it blends back to the body's (see hemFade).
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
	out := smoothed(orig, nb, rep, radius)
	if fade > 0 {
		near := smoothed(orig, nb, rep, hemSmooth)
		hem := hemDistance(p.pos, p.tris, weld, n, sewn, nb, rep, fade)
		for v := range out {
			if t := hem[v] / fade; t < 1 {
				out[v] = blend(near[v], out[v], t*t*(3-2*t))
			}
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
// nearest open border (paint.Border) that is not sewn to another piece of
// the garment (sewn vertices have a partner a few millimetres away that
// is no neighbour along an edge).
func hemDistance(pos [][3]float32, tris [][3]uint32, weld []int, n int, sewn []bool, nb [][]int, rep [][3]float32, fade float64) []float64 {
	dist := make([]float64, n)
	for i := range dist {
		dist[i] = math.Inf(1)
	}
	h := &distHeap{}
	for i, b := range paint.Border(pos, tris) {
		if v := weld[i]; b != 0 && !sewn[v] && dist[v] != 0 {
			dist[v] = 0
			heap.Push(h, distItem{v: v})
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
	m := map[uint8]float64{}
	for k := 0; k < 4; k++ {
		m[a.Joint[k]] += (1 - t) * float64(a.Weight[k])
		m[b.Joint[k]] += t * float64(b.Weight[k])
	}
	return continuousTopFour(m)
}

// smoothed gives each vertex the kernel-weighted mean of the influences
// within radius along the cloth, so that the weights change by at most
// about 1/radius per metre wherever the mesh is dense: short edges then
// cannot take a large step of weight.
func smoothed(orig []human.Influence, nb [][]int, rep [][3]float32, radius float64) []human.Influence {
	out := make([]human.Influence, len(orig))
	ball := newGeodesicBall(len(orig))
	for v := range out {
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
		out[v] = continuousTopFour(acc)
	}
	return out
}

// hemSmooth is the smoothing the cloth keeps at an opening: the body's
// weights there spread over a few centimetres, so that the short edges
// of a collar do not take a step between neck, chest and arm.
const hemSmooth = 0.03

// continuousTopFour keeps the four largest influences less the fifth
// largest, so that where two joints trade fourth and fifth place between
// neighbouring vertices both weigh nothing there: cutting the fifth
// alone and renormalising made a step of its weight across a single
// edge, which a short edge at a collar took as a tear.
func continuousTopFour(acc map[uint8]float64) human.Influence {
	ws := make([]float64, 0, len(acc))
	for _, w := range acc {
		ws = append(ws, w)
	}
	slices.Sort(ws)
	fifth := 0.0
	if len(ws) > 4 {
		fifth = ws[len(ws)-5]
	}
	m := make(map[uint8]float32, len(acc))
	for j, w := range acc {
		if w > fifth {
			m[j] = float32(w - fifth)
		}
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
