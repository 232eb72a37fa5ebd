package avatar

import (
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
	// weights, to the bit, on every build. They are kept flat (the
	// edge's ends counted, then placed), not a slice per vertex: the
	// lists were a fifth of a build's allocations.
	edgeStart := make([]int32, n+1)
	for _, t := range p.tris {
		for k := 0; k < 3; k++ {
			if a, b := weld[t[k]], weld[t[(k+1)%3]]; a != b {
				edgeStart[a+1]++
				edgeStart[b+1]++
			}
		}
	}
	for v := range n {
		edgeStart[v+1] += edgeStart[v]
	}
	edgeTo := make([]int32, edgeStart[n])
	fill := slices.Clone(edgeStart[:n])
	for _, t := range p.tris {
		for k := 0; k < 3; k++ {
			if a, b := weld[t[k]], weld[t[(k+1)%3]]; a != b {
				edgeTo[fill[a]], edgeTo[fill[b]] = int32(b), int32(a)
				fill[a]++
				fill[b]++
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
	var pairs bucketPairs
	for v, q := range rep {
		pairs.add(cellOf(q, seam), v)
	}
	grid := pairs.build()
	sewn := make([]bool, n)
	g := &edgeGraph{start: make([]int32, n+1), to: make([]int32, 0, len(edgeTo))}
	for v, q := range rep {
		edges := edgeTo[edgeStart[v]:edgeStart[v+1]]
		g.to = append(g.to, edges...)
		for u := range grid.around(cellOf(q, seam), 1) {
			if d := sub3(rep[u], q); int(u) != v && d[0]*d[0]+d[1]*d[1]+d[2]*d[2] < seam*seam {
				if !slices.Contains(edges, u) {
					sewn[v] = true
				}
				g.to = append(g.to, u)
			}
		}
		row := g.to[g.start[v]:]
		slices.Sort(row)
		g.to = g.to[:int(g.start[v])+len(slices.Compact(row))]
		g.start[v+1] = int32(len(g.to))
	}
	orig := make([]human.Influence, n)
	for i, inf := range p.inf {
		orig[weld[i]] = inf
	}
	g.measure(rep)
	out := smoothed(orig, g, radius)
	if fade > 0 {
		near := smoothed(orig, g, hemSmooth)
		hem := hemDistance(p.pos, p.tris, weld, n, sewn, g, rep, fade)
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
func hemDistance(pos [][3]float32, tris [][3]uint32, weld []int, n int, sewn []bool, g *edgeGraph, rep [][3]float32, fade float64) []float64 {
	dist := make([]float64, n)
	for i := range dist {
		dist[i] = math.Inf(1)
	}
	var h distHeap
	for i, b := range paint.Border(pos, tris) {
		if v := weld[i]; b != 0 && !sewn[v] && dist[v] != 0 {
			dist[v] = 0
			h.push(distItem{v: v})
		}
	}
	for len(h) > 0 {
		it := h.pop()
		if it.d > dist[it.v] || it.d >= fade {
			continue
		}
		for _, u32 := range g.to[g.start[it.v]:g.start[it.v+1]] {
			u := int(u32)
			d := sub3(rep[u], rep[it.v])
			if nd := it.d + math.Sqrt(d[0]*d[0]+d[1]*d[1]+d[2]*d[2]); nd < dist[u] {
				dist[u] = nd
				h.push(distItem{v: u, d: nd})
			}
		}
	}
	return dist
}

// blend mixes two sets of influences, t of b and 1-t of a, keeping the
// four largest.
func blend(a, b human.Influence, t float64) human.Influence {
	// Summed in the order the map of joints it replaced summed them
	// (each joint's sum from 0), so the weights are the same to the bit,
	// in arrays on the stack: followGarments blends at every skin vertex
	// near an opening.
	var joints [8]uint8
	var sums, ws [8]float64
	n := 0
	add := func(j uint8, w float64) {
		k := 0
		for k < n && joints[k] != j {
			k++
		}
		if k == n {
			joints[n], sums[n] = j, 0
			n++
		}
		sums[k] += w
	}
	for k := 0; k < 4; k++ {
		add(a.Joint[k], (1-t)*float64(a.Weight[k]))
		add(b.Joint[k], t*float64(b.Weight[k]))
	}
	// jointSums.continuousTopFour on these sums.
	copy(ws[:n], sums[:n])
	slices.Sort(ws[:n])
	fifth := 0.0
	if n > 4 {
		fifth = ws[n-5]
	}
	var list [8]human.JointWeight
	m := 0
	for k := range n {
		if w := sums[k]; w > fifth {
			list[m] = human.JointWeight{Joint: joints[k], Weight: float32(w - fifth)}
			m++
		}
	}
	return human.TopFourOf(list[:m])
}

// smoothed gives each vertex the kernel-weighted mean of the influences
// within radius along the cloth, so that the weights change by at most
// about 1/radius per metre wherever the mesh is dense: short edges then
// cannot take a large step of weight.
func smoothed(orig []human.Influence, g *edgeGraph, radius float64) []human.Influence {
	out := make([]human.Influence, len(orig))
	ball := newGeodesicBall(len(orig))
	var acc jointSums
	for v := range out {
		acc.reset()
		ball.visit(v, g, radius, func(u int, d float64) {
			k := 1 - (d/radius)*(d/radius)
			k *= k
			for j := 0; j < 4; j++ {
				if w := orig[u].Weight[j]; w > 0 {
					acc.add(orig[u].Joint[j], k*float64(w))
				}
			}
		})
		out[v] = acc.continuousTopFour()
	}
	return out
}

// jointSums sums weights per joint in an array rather than a map: the
// smoothing sums for every vertex of every garment, and a map there was
// a fifth of a build. Each joint's sum takes its terms in the same order
// as the map did, so the weights are the same to the bit.
type jointSums struct {
	sum    [256]float64
	in     [256]bool
	joints []uint8 // the joints added to, in first-added order
	ws     []float64
	list   []human.JointWeight
}

func (a *jointSums) reset() {
	for _, j := range a.joints {
		a.sum[j], a.in[j] = 0, false
	}
	a.joints = a.joints[:0]
}

func (a *jointSums) add(j uint8, w float64) {
	if !a.in[j] {
		a.in[j] = true
		a.joints = append(a.joints, j)
	}
	a.sum[j] += w
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
func (a *jointSums) continuousTopFour() human.Influence {
	a.ws = a.ws[:0]
	for _, j := range a.joints {
		a.ws = append(a.ws, a.sum[j])
	}
	slices.Sort(a.ws)
	fifth := 0.0
	if len(a.ws) > 4 {
		fifth = a.ws[len(a.ws)-5]
	}
	a.list = a.list[:0]
	for _, j := range a.joints {
		if w := a.sum[j]; w > fifth {
			a.list = append(a.list, human.JointWeight{Joint: j, Weight: float32(w - fifth)})
		}
	}
	return human.TopFourOf(a.list)
}

// geodesicBall walks the cloth from a vertex outward, nearest first, up
// to a distance measured along its edges (Dijkstra), reusing its buffers
// from one vertex to the next.
type geodesicBall struct {
	dist    []float64
	touched []int
	heap    distHeap
}

func newGeodesicBall(n int) *geodesicBall {
	b := &geodesicBall{dist: make([]float64, n)}
	for i := range b.dist {
		b.dist[i] = math.Inf(1)
	}
	return b
}

// edgeGraph is the welded neighbour lists, flat, each edge with its
// length computed once: the walks from every vertex of a garment cross
// each edge hundreds of times, and took the difference and its square
// root each time. The lengths are the ones the walk computed (the same
// expression on the same positions), so the distances are the same to
// the bit.
type edgeGraph struct {
	start []int32   // v's edges are start[v] to start[v+1]
	to    []int32   // the neighbour at the edge's end
	len   []float64 // the edge's length
}

// measure computes the length of every edge of g between the positions.
func (g *edgeGraph) measure(pos [][3]float32) {
	g.len = make([]float64, len(g.to))
	for v := range len(g.start) - 1 {
		for e := g.start[v]; e < g.start[v+1]; e++ {
			d := sub3(pos[g.to[e]], pos[v])
			g.len[e] = math.Sqrt(d[0]*d[0] + d[1]*d[1] + d[2]*d[2])
		}
	}
}

// visit calls f for every vertex within r of v along the graph g, with
// its distance, in a fixed order.
func (b *geodesicBall) visit(v int, g *edgeGraph, r float64, f func(u int, d float64)) {
	for _, u := range b.touched {
		b.dist[u] = math.Inf(1)
	}
	b.touched = b.touched[:0]
	h := b.heap[:0]
	b.dist[v] = 0
	b.touched = append(b.touched, v)
	h.push(distItem{v, 0})
	for len(h) > 0 {
		it := h.pop()
		if it.d > b.dist[it.v] {
			continue
		}
		f(it.v, it.d)
		to, ln := g.to[g.start[it.v]:g.start[it.v+1]], g.len[g.start[it.v]:g.start[it.v+1]]
		ln = ln[:len(to)]
		for k, u32 := range to {
			u := int(u32)
			d := it.d + ln[k]
			if d < r && d < b.dist[u] {
				if math.IsInf(b.dist[u], 1) {
					b.touched = append(b.touched, u)
				}
				b.dist[u] = d
				h.push(distItem{u, d})
			}
		}
	}
	b.heap = h
}

type distItem struct {
	v int
	d float64
}

// distHeap is a binary min-heap ordered by distance, then vertex, so the
// walk is the same on every run. It is typed rather than container/heap's
// interface: that boxed every item pushed and popped, a million
// allocations per avatar. The order is a total one (no two items share
// both vertex and distance), so any correct heap pops the same sequence.
type distHeap []distItem

func (a distItem) less(b distItem) bool {
	return a.d < b.d || a.d == b.d && a.v < b.v
}

func (h *distHeap) push(it distItem) {
	s := append(*h, it)
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !s[i].less(s[p]) {
			break
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
	*h = s
}

func (h *distHeap) pop() distItem {
	s := *h
	top := s[0]
	n := len(s) - 1
	s[0] = s[n]
	s = s[:n]
	for i := 0; ; {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && s[r].less(s[l]) {
			m = r
		}
		if !s[m].less(s[i]) {
			break
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
	*h = s
	return top
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
