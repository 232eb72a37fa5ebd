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
	nv := len(s.kind)
	idx := s.indices
	used := make([]bool, nv)
	for _, v := range idx {
		used[v] = true
	}
	ids := make([]uint64, nv)
	setIDs := func(grid int) {
		scale := float32(grid - 1)
		for v := range ids {
			if !used[v] {
				continue
			}
			if s.pinned != nil && s.pinned[v] {
				ids[v] = 1<<32 | uint64(v)
				continue
			}
			p := s.ps[s.remap[v]].p
			x, y, z := uint64(p.x*scale+0.5), uint64(p.y*scale+0.5), uint64(p.z*scale+0.5)
			ids[v] = x<<20 | y<<10 | z
		}
	}
	count := func() int {
		n := 0
		for i := 0; i+2 < len(idx); i += 3 {
			a, b, c := ids[idx[i]], ids[idx[i+1]], ids[idx[i+2]]
			if a != b && b != c && c != a {
				n += 3
			}
		}
		return n
	}

	// Binary search for the finest grid at or under the target; the count
	// grows with the grid size, if not strictly.
	lo, hi := 1, 1025 // count(lo) <= target is assumed, count(hi) > target
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		setIDs(mid)
		if count() <= target {
			lo = mid
		} else {
			hi = mid
		}
	}
	setIDs(lo)

	// cells: dense numbers for the ids in use
	cells := make([]uint32, nv)
	table := newIDTable(nv)
	ncell := uint32(0)
	for v := range ids {
		if used[v] {
			c, fresh := table.insert(ids[v], ncell)
			if fresh {
				ncell++
			}
			cells[v] = c
		}
	}

	cq := make([]quadric, ncell)
	var q quadric
	for i := 0; i+2 < len(idx); i += 3 {
		i0, i1, i2 := idx[i], idx[i+1], idx[i+2]
		c0, c1, c2 := cells[i0], cells[i1], cells[i2]
		p0, p1, p2 := s.ps[s.remap[i0]].p, s.ps[s.remap[i1]].p, s.ps[s.remap[i2]].p
		if c0 == c1 && c1 == c2 {
			// a triangle inside a cell says more about where the surface is
			fromTriangle(&q, p0, p1, p2, 3)
			cq[c0].add(&q)
			continue
		}
		fromTriangle(&q, p0, p1, p2, 1)
		cq[c0].add(&q)
		cq[c1].add(&q)
		cq[c2].add(&q)
	}
	best := make([]uint32, ncell)
	bestErr := make([]float32, ncell)
	for i := range best {
		best[i] = none
	}
	for v := range cells {
		if !used[v] {
			continue
		}
		c := cells[v]
		e := posError(&cq[c], s.ps[s.remap[v]].p)
		if best[c] == none || e < bestErr[c] {
			best[c], bestErr[c] = uint32(v), e
		}
	}
	for _, e := range bestErr {
		s.resultError = max(s.resultError, e)
	}

	// Neighbouring cells often produce the same triangle several times;
	// keep one, comparing triangles rotated to start at their least index.
	out := idx[:0] // written behind the reads
	seen := newTriangleTable(len(idx) / 3)
	for i := 0; i+2 < len(idx); i += 3 {
		c0, c1, c2 := cells[idx[i]], cells[idx[i+1]], cells[idx[i+2]]
		if c0 == c1 || c1 == c2 || c2 == c0 {
			continue
		}
		a, b, c := best[c0], best[c1], best[c2]
		if s.remap[a] == s.remap[b] || s.remap[b] == s.remap[c] || s.remap[c] == s.remap[a] {
			continue
		}
		switch {
		case b < a && b < c:
			a, b, c = b, c, a
		case c < a && c < b:
			a, b, c = c, a, b
		}
		if seen.insert(a, b, c) {
			out = append(out, a, b, c)
		}
	}
	s.indices = out
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
