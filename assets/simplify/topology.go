package simplify

import "math"

// none marks an absent vertex in remap tables and edge loops.
const none = ^uint32(0)

// Vertex kinds decide which collapses keep the mesh's structure, after
// meshoptimizer: a manifold vertex can move anywhere; a border vertex only
// along its border; a seam vertex (two wedges at one position, split by a UV
// seam or a hard normal edge) only along the seam, both wedges together; a
// locked vertex never. Complex vertices exist only in the permissive stage:
// all their wedges move together onto one target, merging their attributes.
const (
	kindManifold uint8 = iota
	kindBorder
	kindSeam
	kindComplex
	kindLocked
	kindCount
)

// canCollapse[a][b] says whether a vertex of kind a may collapse onto a
// vertex of kind b. The rule of thumb is that the target keeps its kind: a
// seam vertex collapsing onto a manifold one would turn it into a seam end.
// The exception is complex onto manifold, allowed because the permissive
// stage gives up attribute continuity anyway.
var canCollapse = [kindCount][kindCount]bool{
	{true, true, true, true, true},
	{false, true, false, false, true},
	{false, false, true, false, true},
	{true, false, false, true, true},
	{false, false, false, false, false},
}

// hasOpposite[a][b] says whether an edge between kinds a and b is sure to
// appear in both directions in the position-welded mesh, so that picking it
// from one direction is enough.
var hasOpposite = [kindCount][kindCount]bool{
	{true, true, true, false, true},
	{true, false, true, false, false},
	{true, true, true, false, true},
	{false, false, false, false, false},
	{true, false, true, false, false},
}

// adjacency lists, for each vertex, the triangles around it as the pair
// (next, prev) of the other two corners in winding order. It is rebuilt on
// position-welded indices at each pass, so that a vertex sees the triangles
// of all its wedges.
type adjacency struct {
	offsets []uint32 // len nv+1
	next    []uint32 // len 3 * triangles
	prev    []uint32
}

func newAdjacency(nv, ni int) *adjacency {
	return &adjacency{
		offsets: make([]uint32, nv+1),
		next:    make([]uint32, ni),
		prev:    make([]uint32, ni),
	}
}

// build fills the lists for indices, mapped through remap when not nil.
func (a *adjacency) build(indices, remap []uint32) {
	nv := len(a.offsets) - 1
	off := a.offsets[1:]
	clear(off)
	if remap != nil {
		remap = remap[:nv]
		for _, v := range indices {
			off[remap[v]]++
		}
	} else {
		for _, v := range indices {
			off[v]++
		}
	}
	var sum uint32
	for i, c := range off {
		off[i] = sum
		sum += c
	}
	next, prev := a.next[:len(indices)], a.prev[:len(indices)]
	for i := 0; i+2 < len(indices); i += 3 {
		v0, v1, v2 := indices[i], indices[i+1], indices[i+2]
		if remap != nil {
			v0, v1, v2 = remap[v0], remap[v1], remap[v2]
		}
		o := off[v0]
		next[o], prev[o] = v1, v2
		off[v0] = o + 1
		o = off[v1]
		next[o], prev[o] = v2, v0
		off[v1] = o + 1
		o = off[v2]
		next[o], prev[o] = v0, v1
		off[v2] = o + 1
	}
	a.offsets[0] = 0
}

// hasEdge reports whether some triangle has the directed edge a -> b.
func (a *adjacency) hasEdge(from, to uint32) bool {
	for _, n := range a.next[a.offsets[from]:a.offsets[from+1]] {
		if n == to {
			return true
		}
	}
	return false
}

// positionBits returns the bits of a coordinate with -0 read as 0, so that
// the two zeros weld.
func positionBits(f float32) uint32 {
	if f == 0 {
		return 0
	}
	return math.Float32bits(f)
}

// buildPositionRemap maps each vertex to the first vertex at the same
// position (remap) and links the vertices at one position into a cycle
// (wedge). An open-addressing table keyed by vertex index keeps this linear
// and allocation-light on millions of vertices.
func buildPositionRemap(pos []float32, remap, wedge []uint32) {
	nv := len(pos) / 3
	size := 1
	for size < nv+nv/4 {
		size *= 2
	}
	table := make([]uint32, size)
	for i := range table {
		table[i] = none
	}
	mask := uint32(size - 1)
	for i := 0; i < nv; i++ {
		x, y, z := positionBits(pos[3*i]), positionBits(pos[3*i+1]), positionBits(pos[3*i+2])
		h := (x^x>>17)*73856093 ^ (y^y>>17)*19349663 ^ (z^z>>17)*83492791
		b := h & mask
		for probe := uint32(1); ; probe++ {
			e := table[b]
			if e == none {
				table[b] = uint32(i)
				remap[i] = uint32(i)
				break
			}
			if pos[3*e] == pos[3*i] && pos[3*e+1] == pos[3*i+1] && pos[3*e+2] == pos[3*i+2] {
				remap[i] = e
				break
			}
			b = (b + probe) & mask
		}
	}
	for i := range wedge[:nv] {
		wedge[i] = uint32(i)
	}
	for i := 0; i < nv; i++ {
		if r := remap[i]; r != uint32(i) {
			wedge[i] = wedge[r]
			wedge[r] = uint32(i)
		}
	}
}

// classify sets kind, loop and loopback for every vertex from the adjacency
// of the unwelded indices, where each of the two wedges of a seam has an
// open edge. loop[v] is the vertex that follows v along its
// border or seam (the open edge leaving v), loopback[v] the one before it;
// they are only meaningful for border and seam vertices. Vertices on more
// than one border loop, at the end of a seam, or with more than two wedges
// are locked. pinned marks the vertices locked by the caller (Locked or
// LockBorder); they stay locked in every stage.
func classify(kind []uint8, loop, loopback []uint32, adj *adjacency, remap, wedge []uint32, pinned []bool) {
	nv := len(kind)
	for i := range loop {
		loop[i] = none
		loopback[i] = none
	}
	// openInc / openOut: the single open edge into / out of a vertex, or the
	// vertex itself when there are several.
	openInc, openOut := loopback, loop
	for v := 0; v < nv; v++ {
		vv := uint32(v)
		lo, hi := adj.offsets[v], adj.offsets[v+1]
		for _, t := range adj.next[lo:hi] {
			if t == vv {
				// a degenerate triangle has a self edge; treat the vertex as
				// having several open edges rather than let it close a border
				openInc[v], openOut[v] = vv, vv
			} else if !adj.hasEdge(t, vv) {
				if openInc[t] == none {
					openInc[t] = vv
				} else {
					openInc[t] = t
				}
				if openOut[v] == none {
					openOut[v] = t
				} else {
					openOut[v] = vv
				}
			}
		}
	}
	for i := 0; i < nv; i++ {
		ii := uint32(i)
		if remap[i] != ii {
			kind[i] = kind[remap[i]]
			continue
		}
		switch {
		case wedge[i] == ii:
			oi, oo := openInc[i], openOut[i]
			switch {
			case oi == none && oo == none:
				kind[i] = kindManifold
			case oi != ii && oo != ii:
				kind[i] = kindBorder
			default:
				kind[i] = kindLocked
			}
		case wedge[wedge[i]] == ii:
			w := wedge[i]
			oiv, oov := openInc[i], openOut[i]
			oiw, oow := openInc[w], openOut[w]
			if oiv != none && oiv != ii && oov != none && oov != ii &&
				oiw != none && oiw != w && oow != none && oow != w &&
				remap[oiv] == remap[oow] && remap[oov] == remap[oiw] && remap[oiv] != remap[oov] {
				kind[i] = kindSeam
			} else {
				kind[i] = kindLocked
			}
		default:
			kind[i] = kindLocked
		}
	}
	for i := 0; i < nv; i++ {
		r := remap[i]
		if pinned != nil && pinned[i] {
			kind[r] = kindLocked
		}
	}
	for i := 0; i < nv; i++ {
		kind[i] = kind[remap[i]]
	}
}

// relax turns seam vertices, and vertices locked only because of their
// wedges, into complex vertices for the permissive stage. Vertices on an open
// boundary of the welded surface (welded is the position-welded adjacency),
// and pinned ones, stay as they are so that borders keep their shape.
func relax(kind []uint8, welded *adjacency, remap, wedge []uint32, pinned []bool) {
	for i := range kind {
		ii := uint32(i)
		if remap[i] != ii || wedge[i] == ii {
			continue
		}
		if kind[i] != kindSeam && kind[i] != kindLocked {
			continue
		}
		keep := false
		for v := ii; ; {
			if pinned != nil && pinned[v] {
				keep = true
			}
			if v = wedge[v]; v == ii {
				break
			}
		}
		for _, t := range welded.next[welded.offsets[i]:welded.offsets[i+1]] {
			if t == ii || !welded.hasEdge(t, ii) {
				keep = true
			}
		}
		if keep {
			continue
		}
		for v := ii; ; {
			kind[v] = kindComplex
			if v = wedge[v]; v == ii {
				break
			}
		}
	}
}
