package simplify

// cluster is the last resort of the permissive mode, after meshoptimizer's
// sloppy simplifier: it snaps vertices to a uniform grid, keeps one vertex
// per cell (the one that best fits the planes of the cell's triangles) and
// keeps the triangles whose corners fall in three different cells. It
// ignores topology, so it always reaches a target, at the price of holes,
// merged parts and possibly flipped triangles. The grid is the finest one
// whose result has at most target indices; pinned vertices keep cells of
// their own and never move.
func (s *simplifier) cluster(target int) {
	c := clustering{s: s, used: s.usedVertices(), ids: make([]uint64, len(s.kind))}
	c.chooseGrid(target)
	cells, ncell := c.cellTable()
	cq := c.cellQuadrics(cells, ncell)
	best := c.cellVertices(cells, cq)
	s.indices = c.filterTriangles(cells, best)
}

// clustering holds the vertex grid ids between the steps of cluster.
type clustering struct {
	s    *simplifier
	used []bool
	ids  []uint64
}

// usedVertices marks the vertices some triangle uses.
func (s *simplifier) usedVertices() []bool {
	used := make([]bool, len(s.kind))
	for _, v := range s.indices {
		used[v] = true
	}
	return used
}

// setIDs gives every used vertex the id of its cell in a grid of the
// given size over the unit cube the positions are scaled into; a pinned
// vertex gets a cell of its own.
func (c *clustering) setIDs(grid int) {
	s := c.s
	scale := float32(grid - 1)
	for v := range c.ids {
		if !c.used[v] {
			continue
		}
		if s.pinned != nil && s.pinned[v] {
			c.ids[v] = 1<<32 | uint64(v)
			continue
		}
		p := s.ps[s.remap[v]].p
		x, y, z := uint64(p.x*scale+0.5), uint64(p.y*scale+0.5), uint64(p.z*scale+0.5)
		c.ids[v] = x<<20 | y<<10 | z
	}
}

// countIndices is the number of indices that would remain: those of the
// triangles whose corners fall in three different cells.
func (c *clustering) countIndices() int {
	idx, n := c.s.indices, 0
	for i := 0; i+2 < len(idx); i += 3 {
		a, b, d := c.ids[idx[i]], c.ids[idx[i+1]], c.ids[idx[i+2]]
		if a != b && b != d && d != a {
			n += 3
		}
	}
	return n
}

// chooseGrid finds by binary search the finest grid whose result is at
// or under target indices (the count grows with the grid size, if not
// strictly) and leaves its ids set.
func (c *clustering) chooseGrid(target int) {
	lo, hi := 1, 1025 // count(lo) <= target is assumed, count(hi) > target
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		c.setIDs(mid)
		if c.countIndices() <= target {
			lo = mid
		} else {
			hi = mid
		}
	}
	c.setIDs(lo)
}

// cellTable numbers the cells in use densely, per vertex.
func (c *clustering) cellTable() (cells []uint32, ncell uint32) {
	cells = make([]uint32, len(c.ids))
	table := newIDTable(len(c.ids))
	for v := range c.ids {
		if c.used[v] {
			cell, fresh := table.insert(c.ids[v], ncell)
			if fresh {
				ncell++
			}
			cells[v] = cell
		}
	}
	return cells, ncell
}

// cellQuadrics sums into each cell the planes of its triangles; a
// triangle inside a cell says more about where the surface is, so it
// weighs three times.
func (c *clustering) cellQuadrics(cells []uint32, ncell uint32) []quadric {
	s, idx := c.s, c.s.indices
	cq := make([]quadric, ncell)
	var q quadric
	for i := 0; i+2 < len(idx); i += 3 {
		i0, i1, i2 := idx[i], idx[i+1], idx[i+2]
		c0, c1, c2 := cells[i0], cells[i1], cells[i2]
		p0, p1, p2 := s.ps[s.remap[i0]].p, s.ps[s.remap[i1]].p, s.ps[s.remap[i2]].p
		if c0 == c1 && c1 == c2 {
			fromTriangle(&q, p0, p1, p2, 3)
			cq[c0].add(&q)
			continue
		}
		fromTriangle(&q, p0, p1, p2, 1)
		cq[c0].add(&q)
		cq[c1].add(&q)
		cq[c2].add(&q)
	}
	return cq
}

// cellVertices picks each cell's vertex, the one that best fits the
// cell's planes, and records the worst fit as the result's error.
func (c *clustering) cellVertices(cells []uint32, cq []quadric) []uint32 {
	s := c.s
	best := make([]uint32, len(cq))
	bestErr := make([]float32, len(cq))
	for i := range best {
		best[i] = none
	}
	for v := range cells {
		if !c.used[v] {
			continue
		}
		cell := cells[v]
		e := posError(&cq[cell], s.ps[s.remap[v]].p)
		if best[cell] == none || e < bestErr[cell] {
			best[cell], bestErr[cell] = uint32(v), e
		}
	}
	for _, e := range bestErr {
		s.resultError = max(s.resultError, e)
	}
	return best
}

// filterTriangles keeps the triangles over three cells, drawn between the
// cells' vertices. Neighbouring cells often produce the same triangle
// several times: one is kept, comparing triangles rotated to start at
// their least index.
func (c *clustering) filterTriangles(cells, best []uint32) []uint32 {
	s, idx := c.s, c.s.indices
	out := idx[:0] // written behind the reads
	seen := newTriangleTable(len(idx) / 3)
	for i := 0; i+2 < len(idx); i += 3 {
		c0, c1, c2 := cells[idx[i]], cells[idx[i+1]], cells[idx[i+2]]
		if c0 == c1 || c1 == c2 || c2 == c0 {
			continue
		}
		a, b, d := best[c0], best[c1], best[c2]
		if s.remap[a] == s.remap[b] || s.remap[b] == s.remap[d] || s.remap[d] == s.remap[a] {
			continue
		}
		switch {
		case b < a && b < d:
			a, b, d = b, d, a
		case d < a && d < b:
			a, b, d = d, a, b
		}
		if seen.insert(a, b, d) {
			out = append(out, a, b, d)
		}
	}
	return out
}

// idTable maps grid cell ids to dense cell numbers with open addressing.
type idTable struct {
	keys []uint64
	vals []uint32
	mask uint64
}

func newIDTable(n int) *idTable {
	size := 1
	for size < n+n/4+1 {
		size *= 2
	}
	t := &idTable{keys: make([]uint64, size), vals: make([]uint32, size), mask: uint64(size - 1)}
	for i := range t.vals {
		t.vals[i] = none
	}
	return t
}

func hash64(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	return k
}

// insert returns the value of key, storing val for it if it is new.
func (t *idTable) insert(key uint64, val uint32) (uint32, bool) {
	b := hash64(key) & t.mask
	for probe := uint64(1); ; probe++ {
		if t.vals[b] == none {
			t.keys[b], t.vals[b] = key, val
			return val, true
		}
		if t.keys[b] == key {
			return t.vals[b], false
		}
		b = (b + probe) & t.mask
	}
}

// triangleTable is a set of triangles given by their three indices.
type triangleTable struct {
	tris []uint32 // 3 per slot; slot empty when its first index is none
	mask uint64
}

func newTriangleTable(n int) *triangleTable {
	size := 1
	for size < n+n/4+1 {
		size *= 2
	}
	t := &triangleTable{tris: make([]uint32, 3*size), mask: uint64(size - 1)}
	for i := 0; i < len(t.tris); i += 3 {
		t.tris[i] = none
	}
	return t
}

// insert adds the triangle and reports whether it was new.
func (t *triangleTable) insert(a, b, c uint32) bool {
	h := hash64(uint64(a)*73856093 ^ uint64(b)*19349663 ^ uint64(c)*83492791)
	slot := h & t.mask
	for probe := uint64(1); ; probe++ {
		e := t.tris[3*slot : 3*slot+3]
		if e[0] == none {
			e[0], e[1], e[2] = a, b, c
			return true
		}
		if e[0] == a && e[1] == b && e[2] == c {
			return false
		}
		slot = (slot + probe) & t.mask
	}
}
