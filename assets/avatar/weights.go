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

// smoothWeights gives each vertex the mean of the influences around it
// within smoothRadius along the cloth (vertices welded by position, so
// UV seams do not split it), keeping the four largest.
func (p *part) smoothWeights() {
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
	for v, q := range rep {
		c := cell(q)
		for dx := -1; dx <= 1; dx++ {
			for dy := -1; dy <= 1; dy++ {
				for dz := -1; dz <= 1; dz++ {
					for _, u := range grid[[3]int{c[0] + dx, c[1] + dy, c[2] + dz}] {
						if d := sub3(rep[u], q); u != v && d[0]*d[0]+d[1]*d[1]+d[2]*d[2] < seam*seam {
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
		ball.visit(v, nb, rep, smoothRadius, func(u int, d float64) {
			k := 1 - (d/smoothRadius)*(d/smoothRadius)
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
	for i := range p.inf {
		p.inf[i] = out[weld[i]]
	}
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

// followGarments gives the skin vertices under a garment the weights of
// the nearest garment vertex, for the skin parts (body, head) and the
// garments in order (the first that covers a vertex wins). A vertex is
// under a garment when the nearest garment vertex is within underRadius,
// is not on the garment's open border (a hem, a collar: the skin there is
// seen and follows its own joints), and the vertex is on the inner side
// of its normal; or when the garment crosses the vertex's outward
// normal within underRadius. It reports, per skin part and vertex, whether a garment
// covers it.
func followGarments(skin []*part, garments []*part) [][]bool {
	covered := make([][]bool, len(skin))
	for i, s := range skin {
		covered[i] = make([]bool, len(s.pos))
	}
	for _, g := range garments {
		rim := paint.Border(g.pos, g.tris)
		grid := map[[3]int][]int{}
		key := func(p [3]float32) [3]int {
			return [3]int{int(math.Floor(float64(p[0]) / underRadius)), int(math.Floor(float64(p[1]) / underRadius)), int(math.Floor(float64(p[2]) / underRadius))}
		}
		for i, p := range g.pos {
			k := key(p)
			grid[k] = append(grid[k], i)
		}
		tris := newTriCells(g, key)
		for si, s := range skin {
			for v, p := range s.pos {
				if covered[si][v] {
					continue
				}
				k := key(p)
				best, bd := -1, underRadius*underRadius
				for dx := -1; dx <= 1; dx++ {
					for dy := -1; dy <= 1; dy++ {
						for dz := -1; dz <= 1; dz++ {
							for _, i := range grid[[3]int{k[0] + dx, k[1] + dy, k[2] + dz}] {
								d := sub3(p, g.pos[i])
								if dd := d[0]*d[0] + d[1]*d[1] + d[2]*d[2]; dd < bd {
									best, bd = i, dd
								}
							}
						}
					}
				}
				if best >= 0 && rim[best] == 0 {
					d := sub3(p, g.pos[best])
					n := g.nrm[best]
					if d[0]*float64(n[0])+d[1]*float64(n[1])+d[2]*float64(n[2]) < 0 {
						s.inf[v] = g.inf[best]
						covered[si][v] = true
						continue
					}
				}
				// Skin whose nearest garment vertex is a hem can still be
				// under the garment: the ankle inside a shoe's collar, the
				// wrist inside a cuff. It is when the garment lies across
				// its outward normal, within underRadius.
				if hit := tris.cast(p, s.nrm[v], g); hit >= 0 {
					s.inf[v] = g.inf[hit]
					covered[si][v] = true
				}
			}
		}
	}
	return covered
}

// triCells buckets a garment's triangles by the cells their corners
// fall in (cells of underRadius, so a ray of that length from a point
// stays within the point's cell and its neighbours).
type triCells struct {
	key   func([3]float32) [3]int
	cells map[[3]int][]int
}

func newTriCells(g *part, key func([3]float32) [3]int) *triCells {
	c := &triCells{key: key, cells: map[[3]int][]int{}}
	for t, tri := range g.tris {
		seen := map[[3]int]bool{}
		for _, v := range tri {
			k := key(g.pos[v])
			if !seen[k] {
				seen[k] = true
				c.cells[k] = append(c.cells[k], t)
			}
		}
	}
	return c
}

// cast follows the ray from p along n for underRadius and returns the
// garment vertex nearest where it first crosses the garment (the hit
// triangle's corner with the largest barycentric weight), or -1.
func (c *triCells) cast(p [3]float32, n [3]float32, g *part) int {
	k := c.key(p)
	best, bt := -1, underRadius
	seen := map[int]bool{}
	o := [3]float64{float64(p[0]), float64(p[1]), float64(p[2])}
	d := [3]float64{float64(n[0]), float64(n[1]), float64(n[2])}
	for dx := -1; dx <= 1; dx++ {
		for dy := -1; dy <= 1; dy++ {
			for dz := -1; dz <= 1; dz++ {
				for _, t := range c.cells[[3]int{k[0] + dx, k[1] + dy, k[2] + dz}] {
					if seen[t] {
						continue
					}
					seen[t] = true
					tri := g.tris[t]
					// Möller and Trumbore.
					a := g.pos[tri[0]]
					e1, e2 := sub3(g.pos[tri[1]], a), sub3(g.pos[tri[2]], a)
					h := cross3(d, e2)
					det := e1[0]*h[0] + e1[1]*h[1] + e1[2]*h[2]
					if math.Abs(det) < 1e-12 {
						continue
					}
					sv := [3]float64{o[0] - float64(a[0]), o[1] - float64(a[1]), o[2] - float64(a[2])}
					u := (sv[0]*h[0] + sv[1]*h[1] + sv[2]*h[2]) / det
					if u < 0 || u > 1 {
						continue
					}
					q := cross3(sv, e1)
					w := (d[0]*q[0] + d[1]*q[1] + d[2]*q[2]) / det
					if w < 0 || u+w > 1 {
						continue
					}
					if dist := (e2[0]*q[0] + e2[1]*q[1] + e2[2]*q[2]) / det; dist > 0 && dist < bt {
						bt = dist
						corner := tri[0]
						switch {
						case u >= w && u >= 1-u-w:
							corner = tri[1]
						case w >= u && w >= 1-u-w:
							corner = tri[2]
						}
						best = int(corner)
					}
				}
			}
		}
	}
	return best
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
