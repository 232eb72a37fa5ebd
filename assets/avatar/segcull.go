package avatar

import "math"

// triGrid bins a mesh's triangles by their bounding boxes in a uniform
// grid, so that a question about a short segment (does it pass through
// the mesh?) tests only the triangles whose boxes reach the segment's
// box, not all of them. pressHair asked crossesHat about every edge of
// every moved hair triangle against every triangle of the hat: most of a
// hatted avatar's build (0.7 s of CPU on random-1). A triangle the
// segment crosses holds the crossing, so its box meets the segment's box;
// the boxes keep a margin (triGridSlack) far over the rounding of
// rayEdges' crossing, so the triangles passed over are ones no answer
// came from, and the answers are the ones the full search gave.
type triGrid struct {
	pos  []vec3
	tris [][3]uint32
	lo   vec3
	cell float64
	dim  [3]int
	// start and items are the triangles of each cell in the mesh's order
	// (cell k holds items[start[k]:start[k+1]]): two flat arrays, not a
	// slice per cell.
	start []int32
	items []int32
	// seen marks the triangles a query already tested (seen[t] == stamp),
	// a triangle spanning several cells being tested once.
	seen  []uint32
	stamp uint32
}

// triGridSlack is the margin round every box, in metres: far over the
// rounding of a crossing computed in float64 on avatar-sized meshes.
const triGridSlack = 1e-5

// newTriGrid bins p's triangles in cells of about cell metres (fewer
// when the mesh is large, so the grid stays small).
func newTriGrid(p *part, cell float64) *triGrid {
	g := &triGrid{tris: p.tris, cell: cell, seen: make([]uint32, len(p.tris))}
	g.pos = make([]vec3, len(p.pos))
	lo, hi := vec3{math.Inf(1), math.Inf(1), math.Inf(1)}, vec3{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
	for i, q := range p.pos {
		g.pos[i] = v3(q)
	}
	for _, t := range p.tris {
		for _, v := range t {
			for a := range 3 {
				lo[a], hi[a] = math.Min(lo[a], g.pos[v][a]), math.Max(hi[a], g.pos[v][a])
			}
		}
	}
	if len(p.tris) == 0 {
		return g
	}
	for {
		n := 1
		for a := range 3 {
			g.dim[a] = int((hi[a]-lo[a])/g.cell) + 1
			n *= g.dim[a]
		}
		if n <= 1<<16 {
			break
		}
		g.cell *= 2
	}
	g.lo = lo
	g.start, g.items = cellLists(g.dim[0]*g.dim[1]*g.dim[2], len(g.tris), func(t int, f func(k int)) {
		a0, a1 := g.box(g.pos[g.tris[t][0]], g.pos[g.tris[t][1]], g.pos[g.tris[t][2]])
		for z := a0[2]; z <= a1[2]; z++ {
			for y := a0[1]; y <= a1[1]; y++ {
				for x := a0[0]; x <= a1[0]; x++ {
					f((z*g.dim[1]+y)*g.dim[0] + x)
				}
			}
		}
	})
	return g
}

// cellLists lays out the items of a grid of ncell cells as two flat
// arrays, cell k holding items[start[k]:start[k+1]] in the items' order:
// cells(t, f) calls f with each cell item t lies in (none to leave it
// out). Two passes over the items, count then place, so nothing is
// allocated per cell; triGrid and fanGrid share it.
func cellLists(ncell, nitems int, cells func(t int, f func(k int))) (start, items []int32) {
	// The two callbacks are made once: cells is not known here, so a
	// callback made per item would escape, an allocation for each.
	start = make([]int32, ncell+1)
	count := func(k int) { start[k+1]++ }
	for t := range nitems {
		cells(t, count)
	}
	for k := range ncell {
		start[k+1] += start[k]
	}
	items = make([]int32, start[ncell])
	fill := make([]int32, ncell)
	copy(fill, start[:ncell])
	var cur int32
	place := func(k int) {
		items[fill[k]] = cur
		fill[k]++
	}
	for t := range nitems {
		cur = int32(t)
		cells(t, place)
	}
	return start, items
}

// box is the range of cells the box round pts (with the slack) covers,
// clamped to the grid.
func (g *triGrid) box(pts ...vec3) (lo, hi [3]int) {
	for a := range 3 {
		mn, mx := math.Inf(1), math.Inf(-1)
		for _, p := range pts {
			mn, mx = math.Min(mn, p[a]), math.Max(mx, p[a])
		}
		lo[a] = max(0, int(math.Floor((mn-triGridSlack-g.lo[a])/g.cell)))
		hi[a] = min(g.dim[a]-1, int(math.Floor((mx+triGridSlack-g.lo[a])/g.cell)))
	}
	return lo, hi
}

// crosses reports whether the segment from p along the unit u, of length
// l, passes through one of the grid's triangles: rayTriangle meets it
// ahead of p and nearer than l.
func (g *triGrid) crosses(p, u vec3, l float64) bool {
	return g.crossesWhere(p, u, l, nil)
}

// crossesWhere is crosses for the triangles t with keep(t) (all when
// keep is nil).
func (g *triGrid) crossesWhere(p, u vec3, l float64, keep func(t int32) bool) bool {
	if len(g.tris) == 0 {
		return false
	}
	q := p.add(u.scale(l))
	lo, hi := g.box(p, q)
	g.stamp++
	if g.stamp == 0 {
		clear(g.seen)
		g.stamp = 1
	}
	for z := lo[2]; z <= hi[2]; z++ {
		for y := lo[1]; y <= hi[1]; y++ {
			for x := lo[0]; x <= hi[0]; x++ {
				k := (z*g.dim[1]+y)*g.dim[0] + x
				for _, t := range g.items[g.start[k]:g.start[k+1]] {
					if g.seen[t] == g.stamp {
						continue
					}
					g.seen[t] = g.stamp
					if keep != nil && !keep(t) {
						continue
					}
					tri := g.tris[t]
					if dist, _, _, ok := rayTriangle(p, u, g.pos[tri[0]], g.pos[tri[1]], g.pos[tri[2]]); ok && dist < l {
						return true
					}
				}
			}
		}
	}
	return false
}

// fanGrid bins triangles by where they lie as seen from one point (the
// apex) in front of all of them: a triangle projected from the apex onto
// the plane z = apex z - 1 keeps its shape's convexity, and every ray
// toward the apex that passes through the triangle starts at a point
// whose projection lies in the triangle's projection. mouthMask asked,
// for each vertex near the mouth and each of five points before it,
// whether any of the mouth's triangles hides that point: a ray through
// thousands of triangles, 0.7 s of every process's first build. The grid
// gives the few whose projected boxes (with fanGridSlack) hold the
// vertex's projection; the triangles passed over are ones the ray
// cannot cross, so the answers are the full search's.
type fanGrid struct {
	apex [3]float64
	lo   [2]float64
	cell float64
	dim  [2]int
	// start and items as triGrid's; always are triangles not wholly
	// behind the apex (never on the avatars' mouths), tested every time.
	start, items, always []int32
	ntris                int
}

// fanGridSlack is the margin round each projected box: some 1e-5 m at
// the mouth's distance, far over the rounding of rayHits' crossing.
const fanGridSlack = 1e-4

// project is p seen from the apex, on the plane one metre behind it, and
// whether p lies behind the apex (by at least a millimetre).
func (g *fanGrid) project(p [3]float64) ([2]float64, bool) {
	dz := g.apex[2] - p[2]
	if dz < 1e-3 {
		return [2]float64{}, false
	}
	return [2]float64{(p[0] - g.apex[0]) / dz, (p[1] - g.apex[1]) / dz}, true
}

// newFanGrid bins tris as seen from apex in about cells² cells.
func newFanGrid(apex [3]float64, tris [][3][3]float64, cells int) *fanGrid {
	g := &fanGrid{apex: apex, ntris: len(tris)}
	boxes := make([][2][2]float64, len(tris))
	ok := make([]bool, len(tris))
	lo, hi := [2]float64{math.Inf(1), math.Inf(1)}, [2]float64{math.Inf(-1), math.Inf(-1)}
	for t, tri := range tris {
		b := [2][2]float64{{math.Inf(1), math.Inf(1)}, {math.Inf(-1), math.Inf(-1)}}
		ok[t] = true
		for _, p := range tri {
			q, in := g.project(p)
			if !in {
				ok[t] = false
				break
			}
			for a := range 2 {
				b[0][a], b[1][a] = math.Min(b[0][a], q[a]-fanGridSlack), math.Max(b[1][a], q[a]+fanGridSlack)
			}
		}
		if !ok[t] {
			g.always = append(g.always, int32(t))
			continue
		}
		boxes[t] = b
		for a := range 2 {
			lo[a], hi[a] = math.Min(lo[a], b[0][a]), math.Max(hi[a], b[1][a])
		}
	}
	if math.IsInf(lo[0], 1) {
		return g
	}
	g.lo = lo
	g.cell = math.Max(hi[0]-lo[0], hi[1]-lo[1])/float64(max(cells, 1)) + 1e-12
	for a := range 2 {
		g.dim[a] = int((hi[a]-lo[a])/g.cell) + 1
	}
	g.start, g.items = cellLists(g.dim[0]*g.dim[1], len(tris), func(t int, f func(k int)) {
		if !ok[t] {
			return // tested always, in no cell
		}
		b := boxes[t]
		x0, x1 := g.at(b[0][0], 0), g.at(b[1][0], 0)
		y0, y1 := g.at(b[0][1], 1), g.at(b[1][1], 1)
		for y := y0; y <= y1; y++ {
			for x := x0; x <= x1; x++ {
				f(y*g.dim[0] + x)
			}
		}
	})
	return g
}

// at is the cell column (a 0) or row (a 1) of the projected coordinate
// v, clamped to the grid.
func (g *fanGrid) at(v float64, a int) int {
	return min(g.dim[a]-1, max(0, int(math.Floor((v-g.lo[a])/g.cell))))
}

// near calls f with every triangle a ray from o toward the apex may
// cross (each once) until f returns true, and reports whether one did.
func (g *fanGrid) near(o [3]float64, f func(t int) bool) bool {
	for _, t := range g.always {
		if f(int(t)) {
			return true
		}
	}
	if g.start == nil {
		return false // no triangle binned
	}
	q, in := g.project(o)
	if !in {
		// Not behind the apex (never a mouth's vertex): every triangle.
		for t := range g.ntris {
			if f(t) {
				return true
			}
		}
		return false
	}
	if q[0] < g.lo[0] || q[1] < g.lo[1] || q[0] >= g.lo[0]+float64(g.dim[0])*g.cell || q[1] >= g.lo[1]+float64(g.dim[1])*g.cell {
		return false // outside every binned triangle's box
	}
	k := g.at(q[1], 1)*g.dim[0] + g.at(q[0], 0)
	for _, t := range g.items[g.start[k]:g.start[k+1]] {
		if f(int(t)) {
			return true
		}
	}
	return false
}

// neighbours are the vertices each vertex shares a triangle edge with,
// once per edge of each triangle (a vertex twice for an edge two
// triangles share), in the order the triangles and their edges come: two
// flat arrays, not a slice per vertex (pressHair's walk over the hair
// made one for every vertex of it, a third of a hatted build's
// allocations).
type neighbours struct {
	start []int32 // v's neighbours are to[start[v]:start[v+1]]
	to    []int32
}

func newNeighbours(n int, tris [][3]uint32) neighbours {
	nb := neighbours{start: make([]int32, n+1), to: make([]int32, 6*len(tris))}
	for _, t := range tris {
		for _, v := range t {
			nb.start[v+1] += 2
		}
	}
	for v := range n {
		nb.start[v+1] += nb.start[v]
	}
	fill := make([]int32, n)
	copy(fill, nb.start[:n])
	for _, t := range tris {
		for k := 0; k < 3; k++ {
			a, b := t[k], t[(k+1)%3]
			nb.to[fill[a]] = int32(b)
			fill[a]++
			nb.to[fill[b]] = int32(a)
			fill[b]++
		}
	}
	return nb
}

// of is v's neighbours.
func (nb neighbours) of(v int) []int32 { return nb.to[nb.start[v]:nb.start[v+1]] }
