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

// Edge rules, combined into one byte per pair of kinds (edgeRules[k0<<3|k1])
// so that picking edges costs one table look-up per edge.
const (
	ruleForward  = 1 << iota // k0 may collapse onto k1
	ruleBackward             // k1 may collapse onto k0
	ruleOpposite             // see hasOpposite
	ruleLoop0                // i0 is on a border or seam: the edge must be its loop edge
	ruleLoop1                // i1 is on a border or seam: the edge must be its loopback edge
)

var edgeRules = func() (r [64]uint8) {
	onLoop := func(k uint8) bool { return k == kindBorder || k == kindSeam }
	for k0 := uint8(0); k0 < kindCount; k0++ {
		for k1 := uint8(0); k1 < kindCount; k1++ {
			var f uint8
			if canCollapse[k0][k1] {
				f |= ruleForward
			}
			if canCollapse[k1][k0] {
				f |= ruleBackward
			}
			if hasOpposite[k0][k1] {
				f |= ruleOpposite
			}
			// two border (or seam) vertices without an edge between them on
			// their loop are on different loops: collapsing would join them;
			// the same holds between a border and a locked vertex
			if onLoop(k0) && (k0 == k1 || k1 == kindLocked) {
				f |= ruleLoop0
			}
			if onLoop(k1) && k0 == kindLocked {
				f |= ruleLoop1
			}
			r[k0<<3|k1] = f
		}
	}
	return r
}()

// adjacency lists, for each vertex, the triangles around it as the pair
// (next, prev) of the other two corners in winding order, side by side so
// that the flip test reads one cache line. It is rebuilt from the indices at
// each pass, position-welded, so that a vertex sees the triangles of all its
// wedges.
type adjacency struct {
	offsets []uint32 // len nv+1
	corners []corner // len 3 * triangles
}

type corner struct{ next, prev uint32 }

// around returns the triangles around v.
func (a *adjacency) around(v uint32) []corner {
	return a.corners[a.offsets[v]:a.offsets[v+1]]
}

// build fills the lists for indices, mapped through remap when not nil.
func (a *adjacency) build(indices, remap []uint32) {
	a.count(indices, remap)
	a.fill(indices, remap)
}

// count counts the corners of each vertex into offsets[1:], the first half
// of build; remapIndices does the same while it writes the indices, which
// saves the next pass one walk over them.
func (a *adjacency) count(indices, remap []uint32) {
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
}

// fill turns the counts into offsets and fills the lists.
func (a *adjacency) fill(indices, remap []uint32) {
	off := a.offsets[1:]
	var sum uint32
	for i, c := range off {
		off[i] = sum
		sum += c
	}
	cs := a.corners[:len(indices)]
	for i := 0; i+2 < len(indices); i += 3 {
		v0, v1, v2 := indices[i], indices[i+1], indices[i+2]
		if remap != nil {
			v0, v1, v2 = remap[v0], remap[v1], remap[v2]
		}
		o := off[v0]
		cs[o] = corner{v1, v2}
		off[v0] = o + 1
		o = off[v1]
		cs[o] = corner{v2, v0}
		off[v1] = o + 1
		o = off[v2]
		cs[o] = corner{v0, v1}
		off[v2] = o + 1
	}
	a.offsets[0] = 0
}

// closes reports whether some triangle around v has the edge t -> v, the
// opposite of v -> t. Such a triangle has v as a corner, so it is in v's own
// list (around), with t as the corner before v: no need to look at t's list.
func closes(around []corner, t uint32) bool {
	for _, c := range around {
		if c.prev == t {
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
// on millions of vertices; it is made in scratch's memory when that is large
// enough, and returned for reuse.
func buildPositionRemap(pos []float32, remap, wedge, scratch []uint32) []uint32 {
	nv := len(pos) / 3
	size := 1
	for size < nv+nv/4 {
		size *= 2
	}
	table := resize(scratch, size)
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
	return table
}

// classify sets kind, loop and loopback for every vertex from the adjacency
// of the unwelded indices, where each of the two wedges of a seam has an
// open edge. The indices must have no triangle with a repeated index. loop[v] is the vertex that follows v along its
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
	var idx prevIndex
	for v := 0; v < nv; v++ {
		vv := uint32(v)
		around := adj.around(vv)
		idx.reset(around)
		for _, c := range around {
			t := c.next
			if idx.closes(around, t) {
				continue
			}
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
	var idx prevIndex
	for i := range kind {
		ii := uint32(i)
		if remap[i] != ii || wedge[i] == ii {
			continue
		}
		if kind[i] != kindSeam && kind[i] != kindLocked {
			continue
		}
		keep := pinned != nil && pinned[i] // pins cover all wedges of a position
		around := welded.around(ii)
		idx.reset(around)
		for _, c := range around {
			if c.next == ii || !idx.closes(around, c.next) {
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
