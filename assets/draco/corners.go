package draco

// cornerTable is the connectivity edgebreaker walks: corner c is corner
// c%3 of face c/3, opp[c] the corner across the edge facing c (or -1 on
// a boundary), vert[c] its vertex. Vertices are the points of the mesh,
// except that a point whose faces form several fans (a non-manifold
// vertex) becomes one vertex per fan, as Draco's decoder rebuilds them:
// each fan is then a manifold neighbourhood.
type cornerTable struct {
	vert []int32
	opp  []int32
	// left is a vertex's left-most corner: on a boundary vertex the one
	// whose left swing leaves the mesh, on an interior one any.
	left []int32
	// point is the Mesh point a vertex carries.
	point []uint32
}

func next(c int32) int32 {
	if c < 0 {
		return c
	}
	if c%3 == 2 {
		return c - 2
	}
	return c + 1
}

func prev(c int32) int32 {
	if c < 0 {
		return c
	}
	if c%3 == 0 {
		return c + 2
	}
	return c - 1
}

func (t *cornerTable) opposite(c int32) int32 {
	if c < 0 {
		return -1
	}
	return t.opp[c]
}

// swingLeft is the corner of the same vertex in the face across the edge
// from c to its previous corner's vertex, or -1 on a boundary.
func (t *cornerTable) swingLeft(c int32) int32 { return next(t.opposite(next(c))) }

func (t *cornerTable) swingRight(c int32) int32 { return prev(t.opposite(prev(c))) }

func (t *cornerTable) onBoundary(v int32) bool { return t.swingLeft(t.left[v]) < 0 }

// newCornerTable builds the table of a triangle list. Faces that repeat a
// point (degenerate) must have been left out. An edge joins two faces
// when exactly one face runs along it each way; every other edge (on
// three faces or more, or between faces of opposite winding) is cut into
// boundaries, and the fans of each point become its vertices.
func newCornerTable(indices []uint32) *cornerTable {
	n := int32(len(indices))
	t := &cornerTable{opp: make([]int32, n)}
	key := func(a, b uint32) uint64 { return uint64(a)<<32 | uint64(b) }
	// edges maps a directed edge to the corner facing it, or -2 when
	// more than one corner faces it.
	edges := make(map[uint64]int32, n)
	for c := int32(0); c < n; c++ {
		k := key(indices[next(c)], indices[prev(c)])
		if _, dup := edges[k]; dup {
			edges[k] = -2
		} else {
			edges[k] = c
		}
	}
	for c := int32(0); c < n; c++ {
		t.opp[c] = -1
		if edges[key(indices[next(c)], indices[prev(c)])] < 0 {
			continue
		}
		if o, ok := edges[key(indices[prev(c)], indices[next(c)])]; ok && o >= 0 {
			t.opp[c] = o
		}
	}
	t.assignFans(func(c int32) uint32 { return indices[c] })
	return t
}

// assignFans numbers the vertices of t from its opposites: one vertex per
// fan of corners around a point (swinging across edges that have an
// opposite), with its left-most corner.
func (t *cornerTable) assignFans(pointOf func(c int32) uint32) {
	n := int32(len(t.opp))
	t.vert, t.left, t.point = make([]int32, n), t.left[:0], t.point[:0]
	for c := range t.vert {
		t.vert[c] = -1
	}
	for c := int32(0); c < n; c++ {
		if t.vert[c] >= 0 {
			continue
		}
		v := int32(len(t.point))
		t.point = append(t.point, pointOf(c))
		// Swing left to the fan's end, or all the way round.
		first, s := c, t.swingLeft(c)
		for s >= 0 && s != c {
			first, s = s, t.swingLeft(s)
		}
		if s == c {
			first = c // a closed fan: any corner will do
		}
		t.left = append(t.left, first)
		for s := first; s >= 0 && t.vert[s] < 0; s = t.swingRight(s) {
			t.vert[s] = v
		}
	}
}
