package simplify

import (
	"math"
	"runtime"
	"sync"
)

// collapse is a candidate edge collapse v0 -> v1. Before ranking, bits is
// all ones for an edge that may collapse either way and 0 otherwise;
// ranking picks the cheaper direction and stores the bits of its error, a
// non-negative float32, whose bits sort like the floats.
type collapse struct {
	v0, v1 uint32
	bits   uint32
}

const bidirectional = ^uint32(0)

func (c *collapse) err() float32 { return math.Float32frombits(c.bits) }

// simplifier holds the state of one Simplify call. Every slice is sized
// once, from the vertex and index counts, and reused by every pass.
type simplifier struct {
	done <-chan struct{} // Options.Done of the current run

	nattr int // attributes with a non-zero weight

	remap, wedge   []uint32 // first vertex at the same position; cycle of wedges
	kind           []uint8
	rk             []uint64 // remap<<8 | kind, packed for pick
	loop, loopback []uint32 // border / seam neighbours, see classify
	loopVerts      []uint32 // vertices whose loop or loopback is set
	pinned         []bool   // locked by the caller or by LockBorder, nil if none

	ps []position // quadric and position per distinct position (indexed by remap)
	pv []vec3     // with attributes: the position of every vertex, as in ps
	// va holds one record of vstride floats per vertex when there are
	// attributes: the attribute quadric (recQ floats, as quadric), the
	// gradient of each attribute (4 floats each, as grad), then the
	// vertex's own weighted attribute values. Ranking an edge reads the
	// moving vertex's quadric and gradients and the target's values, so
	// one record keeps them together instead of three arrays apart.
	va      []float32
	vstride int

	adj *adjacency

	old []uint32 // the caller's number of each internal vertex

	internal   []uint32  // scratch: internal number of each caller's vertex, then a hash table
	scratchPos []float32 // scratch of renumber: positions in internal numbers
	indices    []uint32  // the result in progress, in internal numbers

	collapses   []collapse
	order       []uint32
	cremap      []uint32 // where each vertex moves in this pass
	clocked     []bool   // positions touched in this pass
	moved       []uint32 // vertices moved in this pass
	chunkCounts []int    // edges picked per chunk of triangles
	touched     []uint32 // positions locked in this pass

	resultError float32 // largest squared collapse error so far
	flat        int     // triangles of indices with two corners at one position

	// src and box wait for prepare: the caller's mesh (for its
	// attributes) and the bounding box of the internal positions
	// (scratchPos). prepared says whether prepare has run.
	src      Mesh
	box      bbox
	prepared bool
}

// pool keeps the buffers of finished calls for the next ones: the scene
// code simplifies every primitive of a model, twice, and allocating and
// zeroing megabytes per call showed in the time and in the garbage
// collector's work.
var pool sync.Pool

// poolMaxIndices bounds what is pooled: the state of a call on millions
// of triangles would hold hundreds of megabytes between calls, for a gain
// that is small next to the call's own time.
const poolMaxIndices = 3 << 20

// resize returns b with length n, reusing its memory when it is large
// enough. The contents are whatever they were: callers overwrite or clear.
func resize[T any](b []T, n int) []T {
	if cap(b) >= n {
		return b[:n]
	}
	return make([]T, n)
}

func newSimplifier(m *Mesh, opt Options) *simplifier {
	s, _ := pool.Get().(*simplifier)
	if s == nil {
		s = &simplifier{adj: &adjacency{}}
	}
	s.nattr, s.pinned, s.resultError = 0, nil, 0
	s.moved, s.touched = s.moved[:0], s.touched[:0]

	pos, box := s.renumber(m)
	nv := len(s.old)
	s.remap = resize(s.remap, nv)
	s.wedge = resize(s.wedge, nv)
	s.kind = resize(s.kind, nv)
	s.loop = resize(s.loop, nv)
	s.loopback = resize(s.loopback, nv)
	s.cremap = resize(s.cremap, nv)
	s.clocked = resize(s.clocked, nv)
	clear(s.clocked)
	ni := len(s.indices)
	s.adj.offsets = resize(s.adj.offsets, nv+1)
	s.adj.corners = resize(s.adj.corners, ni)
	s.collapses = resize(s.collapses, ni)
	s.order = resize(s.order, ni)
	for i := range s.cremap {
		s.cremap[i] = uint32(i)
	}

	s.internal = buildPositionRemap(pos, s.remap, s.wedge, s.internal)
	if m.Locked != nil {
		// a lock holds the position: all its wedges
		s.pinned = make([]bool, nv)
		for i, v := range s.old {
			if m.Locked[v] {
				r := s.remap[i]
				for w := r; ; {
					s.pinned[w] = true
					if w = s.wedge[w]; w == r {
						break
					}
				}
			}
		}
	}
	s.adj.build(s.indices, nil)
	classify(s.kind, s.loop, s.loopback, s.adj, s.remap, s.wedge, s.pinned)
	if opt.LockBorder {
		s.lockBorders()
	}
	s.collectLoopVerts()
	s.packKinds()

	s.src, s.box, s.prepared = *m, box, false
	return s
}

// prepare scales the positions into the unit box and fills the quadrics,
// once per call, before the first edge is ranked. It waits until then
// because a primitive may have no edge that can collapse at all (every
// vertex of a flat-shaded primitive is a seam or a corner: most of
// RobotExpressive's): its quadrics would be filled for nothing, and
// filling them was half of such a call's time. It must still run on the
// mesh as newSimplifier left it (the same triangles, kinds and loops):
// stage calls it before a pass changes anything, and run calls it up
// front when a permissive stage may relax seams or drop triangles.
func (s *simplifier) prepare() {
	if s.prepared {
		return
	}
	s.rescale(s.scratchPos, s.box, &s.src)
	s.fillQuadrics()
	s.src, s.prepared = Mesh{}, true
}

// renumber gives the vertices that the triangles use internal numbers in
// order of first use. It sets s.old (internal to caller's numbers) and
// s.indices (the triangles in internal numbers, without those that repeat
// an index: they cover nothing), and returns the internal positions and
// their bounding box.
//
// Vertices that no triangle uses (a primitive that shares a vertex buffer
// with others) then cost nothing, and the per-vertex arrays follow the
// order in which the passes walk the triangles. (Sorting vertices and
// triangles along a Z-order curve was tried: on the bunny and its
// subdivisions it cost more than the cache misses it saved.)
func (s *simplifier) renumber(m *Mesh) ([]float32, bbox) {
	internal := resize(s.internal, len(m.Positions)/3)
	s.internal = internal
	for i := range internal {
		internal[i] = none
	}
	s.old = s.old[:0]
	s.indices = resize(s.indices, len(m.Indices))[:0]
	for i := 0; i+2 < len(m.Indices); i += 3 {
		a, b, c := m.Indices[i], m.Indices[i+1], m.Indices[i+2]
		if a == b || b == c || c == a {
			continue
		}
		for _, v := range [3]uint32{a, b, c} {
			n := internal[v]
			if n == none {
				n = uint32(len(s.old))
				internal[v] = n
				s.old = append(s.old, v)
			}
			s.indices = append(s.indices, n)
		}
	}
	box := bbox{
		min: [3]float32{math.MaxFloat32, math.MaxFloat32, math.MaxFloat32},
		max: [3]float32{-math.MaxFloat32, -math.MaxFloat32, -math.MaxFloat32},
	}
	pos := resize(s.scratchPos, 3*len(s.old))
	s.scratchPos = pos
	for i, v := range s.old {
		p := m.Positions[3*v : 3*v+3 : 3*v+3]
		copy(pos[3*i:3*i+3], p)
		for j := 0; j < 3; j++ {
			box.min[j] = min(box.min[j], p[j])
			box.max[j] = max(box.max[j], p[j])
		}
	}
	return pos, box
}

// bbox is an axis-aligned bounding box.
type bbox struct{ min, max [3]float32 }

// lockBorders locks and pins every vertex at a position on an open boundary
// of the position-welded surface: border vertices, and also the seam or
// locked vertices that sit on a border (every border vertex of a
// flat-shaded mesh). Pinning keeps them in the later stages too, which
// classify the mesh again or ignore topology.
func (s *simplifier) lockBorders() {
	pinned := make([]bool, len(s.kind))
	copy(pinned, s.pinned)
	s.adj.build(s.indices, s.remap)
	var idx prevIndex
	for i, r := range s.remap {
		if r != uint32(i) {
			continue
		}
		around := s.adj.around(r)
		idx.reset(around)
		open := false
		for _, c := range around {
			if !idx.closes(around, c.next) {
				open = true
				break
			}
		}
		if !open {
			continue
		}
		for v := r; ; {
			s.kind[v], pinned[v] = kindLocked, true
			if v = s.wedge[v]; v == r {
				break
			}
		}
	}
	s.pinned = pinned
}

func (s *simplifier) collectLoopVerts() {
	s.loopVerts = s.loopVerts[:0]
	for i := range s.loop {
		if s.loop[i] != none || s.loopback[i] != none {
			s.loopVerts = append(s.loopVerts, uint32(i))
		}
	}
}

// rescale maps the internal positions p, whose bounding box is box, into
// the unit box (s.ps[r].p, one
// per distinct position), so that errors are relative to the extent, and
// pre-multiplies the attributes by their weights.
func (s *simplifier) rescale(p []float32, box bbox, m *Mesh) {
	nv := len(s.kind)
	minv, maxv := box.min, box.max
	extent := max(maxv[0]-minv[0], maxv[1]-minv[1], maxv[2]-minv[2])
	var scale float32
	if extent > 0 {
		scale = 1 / extent
	}
	s.ps = resize(s.ps, nv)
	clear(s.ps)
	for i, r := range s.remap {
		if r == uint32(i) {
			s.ps[i].p = vec3{(p[3*i] - minv[0]) * scale, (p[3*i+1] - minv[1]) * scale, (p[3*i+2] - minv[2]) * scale}
		}
	}

	var used []int
	for k, w := range m.AttrWeights {
		if w > 0 {
			used = append(used, k)
		}
	}
	s.nattr = len(used)
	if s.nattr == 0 {
		return
	}
	s.pv = resize(s.pv, nv)
	for i, r := range s.remap {
		s.pv[i] = s.ps[r].p
	}
	s.vstride = recQ + 5*s.nattr
	s.va = resize(s.va, nv*s.vstride)
	clear(s.va)
	off := recQ + 4*s.nattr
	for i, v := range s.old {
		src := m.Attributes[int(v)*m.AttrStride : int(v+1)*m.AttrStride]
		dst := s.va[i*s.vstride+off : (i+1)*s.vstride]
		for j, k := range used {
			dst[j] = src[k] * m.AttrWeights[k]
		}
	}
}

// recQ is the number of floats of a quadric in a vertex record (see va).
const recQ = 11

// Border edges get a strong perpendicular plane so that borders keep their
// shape; seam edges a weak one, as the topology rules already keep seams
// on their line and a strong weight would only block good collapses.
const (
	edgeWeightBorder = 10
	edgeWeightSeam   = 1
)

// fillQuadrics fills the position quadrics (s.ps) and, with attributes,
// the attribute records (s.va). The two write different arrays and are
// summed in triangle order either way, so on a mesh large enough to pay
// for a goroutine they run side by side (share: the caller takes the
// attributes, the larger part) with the same results to the bit.
func (s *simplifier) fillQuadrics() {
	if s.nattr == 0 {
		s.fillPositionQuadrics()
		return
	}
	helpers := 0
	if len(s.indices)/3 >= parallelFill {
		helpers = min(runtime.GOMAXPROCS(0), 2) - 1
	}
	share(2, helpers, func(k int) {
		if k == 0 {
			s.fillAttributeQuadrics()
		} else {
			s.fillPositionQuadrics()
		}
	})
}

// parallelFill is the fewest triangles for which fillQuadrics starts a
// goroutine: below, the attribute records of a primitive take tens of
// microseconds, which a goroutine's start and a scheduling delay on a
// loaded machine would eat.
const parallelFill = 2048

// fillPositionQuadrics sums the plane of every triangle into its corners'
// position quadrics, and the edge planes of border and seam edges.
func (s *simplifier) fillPositionQuadrics() {
	idx, ps, remap, kind := s.indices, s.ps, s.remap, s.kind
	var q quadric
	for i := 0; i+2 < len(idx); i += 3 {
		p0, p1, p2 := &ps[remap[idx[i]]], &ps[remap[idx[i+1]]], &ps[remap[idx[i+2]]]
		a00, a11, a22, a10, a20, a21, b0, b1, b2, c, w := planeTerms(p0.p, p1.p, p2.p, 1)
		p0.q.addTerms(a00, a11, a22, a10, a20, a21, b0, b1, b2, c, w)
		p1.q.addTerms(a00, a11, a22, a10, a20, a21, b0, b1, b2, c, w)
		p2.q.addTerms(a00, a11, a22, a10, a20, a21, b0, b1, b2, c, w)
	}
	if len(s.loopVerts) > 0 {
		onLoop := func(k uint8) bool { return k == kindBorder || k == kindSeam }
		for i := 0; i+2 < len(idx); i += 3 {
			tri := [5]uint32{idx[i], idx[i+1], idx[i+2], idx[i], idx[i+1]}
			for e := 0; e < 3; e++ {
				i0, i1, i2 := tri[e], tri[e+1], tri[e+2]
				k0, k1 := kind[i0], kind[i1]
				if !onLoop(k0) && !onLoop(k1) {
					continue
				}
				if onLoop(k0) && s.loop[i0] != i1 {
					continue
				}
				if onLoop(k1) && s.loopback[i1] != i0 {
					continue
				}
				// a seam edge appears once per side; count it once
				if hasOpposite[k0][k1] && remap[i1] > remap[i0] {
					continue
				}
				w := float32(edgeWeightSeam)
				if k0 == kindBorder || k1 == kindBorder {
					w = edgeWeightBorder
				}
				p0, p1, p2 := &ps[remap[i0]], &ps[remap[i1]], &ps[remap[i2]]
				fromEdge(&q, p0.p, p1.p, p2.p, w)
				// the triangle's own plane at the edge's weight (but adding
				// no weight: it is not more surface): without it an end of
				// a border edge may slide off the surface along the edge
				// plane, which the open borders' error showed
				a00, a11, a22, a10, a20, a21, b0, b1, b2, c, _ := planeTerms(p0.p, p1.p, p2.p, w)
				q.addTerms(a00, a11, a22, a10, a20, a21, b0, b1, b2, c, 0)
				p0.q.add(&q)
				p1.q.add(&q)
			}
		}
	}
}

// fillAttributeQuadrics sums the attribute quadric and gradients of every
// triangle, written into a scratch record, into its three corners'
// records. It reads the positions from s.pv, not s.ps: the position
// quadrics that fillPositionQuadrics may be writing at the same time
// share their cache lines with s.ps's positions.
func (s *simplifier) fillAttributeQuadrics() {
	idx, pv := s.indices, s.pv
	st, na := s.vstride, s.nattr
	off := recQ + 4*na
	var scratch [recQ + 4*maxRecAttr]float32
	var t []float32
	if na <= maxRecAttr {
		t = scratch[:recQ+4*na]
	} else {
		t = make([]float32, recQ+4*na)
	}
	va := s.va
	for i := 0; i+2 < len(idx); i += 3 {
		i0, i1, i2 := int(idx[i]), int(idx[i+1]), int(idx[i+2])
		r0, r1, r2 := va[i0*st:i0*st+st], va[i1*st:i1*st+st], va[i2*st:i2*st+st]
		fromAttributes(t, pv[i0], pv[i1], pv[i2], r0[off:], r1[off:], r2[off:])
		addRec(r0[:len(t)], t)
		addRec(r1[:len(t)], t)
		addRec(r2[:len(t)], t)
	}
}

// maxRecAttr is the number of attributes whose scratch record fits on the
// stack in fillQuadrics (normals, two sets of texture coordinates and a
// colour are 11).
const maxRecAttr = 16

// addRec adds the quadric and gradients of record r to q.
func addRec(q, r []float32) {
	q = q[:len(r)]
	// four at a time through array pointers: one bounds check per four
	// floats, and four independent adds per round of the loop
	for len(r) >= 4 && len(q) >= 4 {
		q4, r4 := (*[4]float32)(q), (*[4]float32)(r)
		q4[0] += r4[0]
		q4[1] += r4[1]
		q4[2] += r4[2]
		q4[3] += r4[3]
		q, r = q[4:], r[4:]
	}
	for k, f := range r {
		q[k] += f
	}
}

// chunkSize is the unit of work (triangles or edges) handed to a
// goroutine in the parallel phases, and maxWorkers bounds how many share
// them. Ranking an edge with attributes costs several times what it costs
// on positions alone (two attribute quadrics and a gradient per
// attribute), so its chunks are smaller: a mesh of 15 K triangles with
// normals and texture coordinates (DamagedHelmet) then ranks on every
// core, where chunks of chunkSize kept it on one.
const (
	chunkSize     = 16384
	attrChunkSize = 2048
	maxWorkers    = 8
)

// split runs fn over [0, n) in chunks of size and returns the number of
// chunks. Ranking and picking edges are independent per edge and are most
// of the time of a pass, so when there are at least four chunks, up to
// GOMAXPROCS goroutines take chunks from a shared counter. The calling
// goroutine works too and takes chunks as long as any is left, so a helper
// that the operating system does not schedule (the machines are shared with
// builds) delays the phase by one chunk at most, not by half the work.
func split(n, size int, fn func(chunk, lo, hi int)) int {
	chunks := max(1, (n+size-1)/size)
	run := func(c int) { fn(c, c*size, min(n, (c+1)*size)) }
	workers := min(runtime.GOMAXPROCS(0), maxWorkers)
	if workers <= 1 || chunks < 4 {
		for c := range chunks {
			run(c)
		}
		return chunks
	}
	share(chunks, workers-1, run)
	return chunks
}

// stage runs collapse passes until the index count reaches target, no
// collapse stays under limit (a squared relative error), or the topology
// allows none.
func (s *simplifier) stage(target int, limit float32) {
	s.adj.count(s.indices, s.remap)
	s.flat = s.countFlat()
	// the triangles that count are those with three distinct positions:
	// the others are dropped at the end, so a target counted on the index
	// buffer alone would be undershot by them
	for len(s.indices)-3*s.flat > target && !s.stopped() {
		s.adj.fill(s.indices, s.remap)
		n := s.pick()
		if n == 0 {
			return
		}
		s.prepare()
		s.rank(s.collapses[:n])
		sortCollapses(s.order[:n], s.collapses[:n])
		goal := (len(s.indices) - 3*s.flat - target) / 3
		if s.perform(s.collapses[:n], s.order[:n], goal, limit) == 0 {
			return
		}
		s.updateQuadrics()
		s.remapLoops()
		s.remapIndices()
		s.endPass()
	}
}

// pick lists the edges that may collapse in at least one direction. Chunks
// of the index buffer may be scanned in parallel, each into its own range
// of s.collapses (a triangle yields at most three edges), then packed.
func (s *simplifier) pick() int {
	ntri := len(s.indices) / 3
	counts := s.chunkCounts[:0]
	for range max(1, (ntri+chunkSize-1)/chunkSize) {
		counts = append(counts, 0)
	}
	s.chunkCounts = counts
	chunks := split(ntri, chunkSize, func(c, lo, hi int) {
		counts[c] = s.pickRange(s.indices[3*lo:3*hi], s.collapses[3*lo:3*hi])
	})
	n := counts[0]
	for c := 1; c < chunks; c++ {
		lo := 3 * c * chunkSize
		n += copy(s.collapses[n:], s.collapses[lo:lo+counts[c]])
	}
	return n
}

// pickRange picks the edges of the triangles idx into out.
func (s *simplifier) pickRange(idx []uint32, out []collapse) int {
	rk, loop, loopback := s.rk, s.loop, s.loopback
	out = out[:len(idx)]
	n := 0
	for i := 0; i+2 < len(idx); i += 3 {
		tri := idx[i : i+3 : i+3]
		for e := 0; e < 3; e++ {
			i0, i1 := tri[e], tri[0]
			if e < 2 {
				i1 = tri[e+1]
			}
			p0, p1 := rk[i0], rk[i1]
			r0, r1 := p0>>8, p1>>8
			rule := edgeRules[(p0&7)<<3|p1&7]
			// equal positions: a zero-length edge, or a vertex that moved
			// onto one wedge of a seam it touched; leave it alone
			if r0 == r1 || rule&(ruleForward|ruleBackward) == 0 {
				continue
			}
			if rule&(ruleLoop0|ruleLoop1) != 0 &&
				(rule&ruleLoop0 != 0 && loop[i0] != i1 || rule&ruleLoop1 != 0 && loopback[i1] != i0) {
				continue
			}
			switch rule & (ruleForward | ruleBackward) {
			case ruleForward | ruleBackward:
				out[n] = collapse{i0, i1, bidirectional}
			case ruleForward:
				out[n] = collapse{i0, i1, 0}
			default:
				out[n] = collapse{i1, i0, 0}
			}
			// An edge that is sure to be seen from both sides is kept from
			// the side where r0 > r1. Which side comes first is a coin toss,
			// too costly for a branch: the candidate is written anyway and
			// counted only when kept (the sign of r0 - r1 says).
			drop := uint64(rule/ruleOpposite&1) & ((r0 - r1) >> 63)
			n += int(1 - drop)
		}
	}
	return n
}

// wedgeErrors adds to e, the squared error of collapsing i0 onto i1 with
// i0's own attributes (rankError's), the attribute errors of the other
// wedges that move with it: a seam's other side, a complex vertex's every
// wedge.
func (s *simplifier) wedgeErrors(e float32, i0, i1 uint32) float32 {
	switch s.kind[i0] {
	case kindSeam:
		s0, s1 := s.seamPair(i0, i1)
		e += s.attrError(s0, s1)
	case kindComplex:
		for w := s.wedge[i0]; w != i0; w = s.wedge[w] {
			e += s.attrError(w, i1)
		}
	}
	return e
}

func (s *simplifier) attrError(v, target uint32) float32 {
	st := s.vstride
	return attrError(s.va[int(v)*st:int(v+1)*st], s.va[int(target)*st+recQ+4*s.nattr:int(target+1)*st], s.ps[s.remap[target]].p)
}

// seamPair returns, for a seam collapse i0 -> i1, the other wedge of i0 and
// the vertex it moves to: the neighbour of that wedge along its own seam
// edge, found through the loops because i1 may be locked and have more than
// two wedges.
func (s *simplifier) seamPair(i0, i1 uint32) (uint32, uint32) {
	s0 := s.wedge[i0]
	var s1 uint32
	if s.loop[i0] == i1 {
		s1 = s.loopback[s0]
	} else {
		s1 = s.loop[s0]
	}
	if s1 == none || s.remap[s1] != s.remap[i1] {
		s1 = s.wedge[i1]
	}
	return s0, s1
}

func (s *simplifier) rank(cs []collapse) {
	size := chunkSize
	if s.nattr > 0 {
		size = attrChunkSize
	}
	split(len(cs), size, func(_, lo, hi int) { s.rankRange(cs[lo:hi]) })
}

func (s *simplifier) rankRange(cs []collapse) {
	if s.nattr == 0 {
		// the common case of positions only, with the quadric evaluation
		// written out: this loop is the hot spot of the whole simplifier
		ps, remap := s.ps, s.remap
		for i := range cs {
			c := &cs[i]
			i0, i1 := c.v0, c.v1
			p0, p1 := &ps[remap[i0]], &ps[remap[i1]]
			q, v := &p0.q, p1.p
			r := q.c + (2*(q.b0+q.a10*v.y)+q.a00*v.x)*v.x + (2*(q.b1+q.a21*v.z)+q.a11*v.y)*v.y + (2*(q.b2+q.a20*v.x)+q.a22*v.z)*v.z
			ei := abs32(r) / (q.w + minWeight)
			// both directions are evaluated for every edge and the cheaper
			// one picked without a branch: which is cheaper is a coin toss,
			// and a mispredicted branch costs more than the evaluation
			q, v = &p1.q, p0.p
			r = q.c + (2*(q.b0+q.a10*v.y)+q.a00*v.x)*v.x + (2*(q.b1+q.a21*v.z)+q.a11*v.y)*v.y + (2*(q.b2+q.a20*v.x)+q.a22*v.z)*v.z
			ej := abs32(r) / (q.w + minWeight)
			// all ones when ej < ei (the sign of ej - ei) and the edge may
			// collapse either way
			swap := uint32(int32(math.Float32bits(ej-ei))>>31) & c.bits
			x := (i0 ^ i1) & swap
			c.v0, c.v1 = i0^x, i1^x
			be, bj := math.Float32bits(ei), math.Float32bits(ej)
			c.bits = be ^ (be^bj)&swap
		}
		return
	}
	// with attributes: the position and attribute errors of the moving
	// vertex written out here (the calls cost as much as the arithmetic),
	// the other wedges of a seam or complex vertex added by wedgeErrors
	ps, remap, kind, va := s.ps, s.remap, s.kind, s.va
	st, na := s.vstride, s.nattr
	off := recQ + 4*na
	for i := range cs {
		c := &cs[i]
		i0, i1 := c.v0, c.v1
		p0, p1 := &ps[remap[i0]], &ps[remap[i1]]
		ei := rankError(&p0.q, va[int(i0)*st:int(i0)*st+off], va[int(i1)*st+off:int(i1+1)*st], p1.p)
		if k := kind[i0]; k == kindSeam || k == kindComplex {
			ei = s.wedgeErrors(ei, i0, i1)
		}
		if c.bits == bidirectional {
			ej := rankError(&p1.q, va[int(i1)*st:int(i1)*st+off], va[int(i0)*st+off:int(i0+1)*st], p0.p)
			if k := kind[i1]; k == kindSeam || k == kindComplex {
				ej = s.wedgeErrors(ej, i1, i0)
			}
			if ej < ei {
				c.v0, c.v1, ei = i1, i0, ej
			}
		}
		c.bits = math.Float32bits(ei)
	}
}

// rankError is the squared error of collapsing a vertex of one wedge: the position
// error of q at v plus the attribute error of the moving vertex's record r
// (quadric and gradients) at v with the target's values a.
func rankError(q *quadric, r, a []float32, v vec3) float32 {
	e := q.c + (2*(q.b0+q.a10*v.y)+q.a00*v.x)*v.x + (2*(q.b1+q.a21*v.z)+q.a11*v.y)*v.y + (2*(q.b2+q.a20*v.x)+q.a22*v.z)*v.z
	e = abs32(e) / (q.w + minWeight)
	r = r[:recQ+4*len(a)]
	f := r[9] + (2*(r[6]+r[3]*v.y)+r[0]*v.x)*v.x + (2*(r[7]+r[5]*v.z)+r[1]*v.y)*v.y + (2*(r[8]+r[4]*v.x)+r[2]*v.z)*v.z
	w := r[10]
	g := r[recQ:]
	for _, ak := range a {
		if len(g) < 4 {
			break // never: r holds 4 floats per attribute
		}
		gk := (*[4]float32)(g)
		f += ak * (ak*w - 2*(v.x*gk[0]+v.y*gk[1]+v.z*gk[2]+gk[3]))
		g = g[4:]
	}
	return e + abs32(f)
}

// sortCollapses orders collapses by error with a counting sort on the top
// 12 bits of the float (8 of exponent, 4 of mantissa): the exact order
// matters little, and this is linear.
func sortCollapses(order []uint32, cs []collapse) {
	const bins = 2048 + 512 // exponents up to 2^32; larger errors share the last bin
	var hist [bins]uint32
	key := func(bits uint32) uint32 {
		return min(bits>>19, bins-1) // the sign bit is 0
	}
	for i := range cs {
		hist[key(cs[i].bits)]++
	}
	var sum uint32
	for i, c := range hist {
		hist[i] = sum
		sum += c
	}
	for i := range cs {
		k := key(cs[i].bits)
		order[hist[k]] = uint32(i)
		hist[k]++
	}
}

// perform makes the collapses in order of error until goal triangles are
// removed or the error reaches limit. A collapse is skipped when either
// end was already touched in this pass, since the ranking is no longer
// valid there, or when it would flip a triangle.
func (s *simplifier) perform(cs []collapse, order []uint32, goal int, limit float32) int {
	edgeGoal := goal / 2
	removed, done := 0, 0
	remap, kind, cremap, clocked := s.remap, s.kind, s.cremap, s.clocked
	for _, ci := range order {
		c := &cs[ci]
		e := c.err()
		if e > limit || removed >= goal {
			break
		}
		// Many good collapses are skipped because a neighbour moved first;
		// stop the pass when the errors grow well past those of the first
		// goal/2 collapses, so that the next pass, with fresh ranks, decides.
		errorGoal := float32(math.MaxFloat32)
		if edgeGoal < len(order) {
			errorGoal = 1.5 * cs[order[edgeGoal]].err()
		}
		if e > errorGoal && e > s.resultError && removed > goal/6 {
			break
		}
		i0, i1 := c.v0, c.v1
		r0, r1 := remap[i0], remap[i1]
		if clocked[r0] || clocked[r1] {
			continue
		}
		gone, flips := s.flips(r0, r1)
		if flips {
			edgeGoal++
			continue
		}
		k := kind[i0]
		switch k {
		case kindComplex:
			for v := i0; ; {
				cremap[v] = i1
				s.moved = append(s.moved, v)
				if v = s.wedge[v]; v == i0 {
					break
				}
			}
		case kindSeam:
			s0, s1 := s.seamPair(i0, i1)
			cremap[i0], cremap[s0] = i1, s1
			s.moved = append(s.moved, i0, s0)
		default:
			cremap[i0] = i1
			s.moved = append(s.moved, i0)
		}
		clocked[r0], clocked[r1] = true, true
		s.touched = append(s.touched, r0, r1)
		removed += gone
		done++
		s.resultError = max(s.resultError, e)
	}
	return done
}

// flips reports whether moving position r0 onto r1 would turn some triangle
// around r0 by more than about 75 degrees. The pure test would be 90, but
// a series of collapses close to 90 degrees can then fold the surface.
// It also counts the triangles the collapse removes: those around r0 that
// have a corner at r1 and none other at one position yet (1 on a border,
// 2 inside, more around a complex vertex), so that a pass stops exactly
// at its goal.
func (s *simplifier) flips(r0, r1 uint32) (gone int, flips bool) {
	adj, ps, remap, cremap := s.adj, s.ps, s.remap, s.cremap
	v0, v1 := ps[r0].p, ps[r1].p
	for _, c := range adj.around(r0) {
		a := remap[cremap[c.next]]
		b := remap[cremap[c.prev]]
		if a == b {
			continue
		}
		if a == r1 || b == r1 {
			gone++
			continue
		}
		pa, pb := ps[a].p, ps[b].p
		eb := vec3{pb.x - pa.x, pb.y - pa.y, pb.z - pa.z}
		ec := vec3{v0.x - pa.x, v0.y - pa.y, v0.z - pa.z}
		ed := vec3{v1.x - pa.x, v1.y - pa.y, v1.z - pa.z}
		nbc := vec3{eb.y*ec.z - eb.z*ec.y, eb.z*ec.x - eb.x*ec.z, eb.x*ec.y - eb.y*ec.x}
		nbd := vec3{eb.y*ed.z - eb.z*ed.y, eb.z*ed.x - eb.x*ed.z, eb.x*ed.y - eb.y*ed.x}
		dot := nbc.x*nbd.x + nbc.y*nbd.y + nbc.z*nbd.z
		abc := nbc.x*nbc.x + nbc.y*nbc.y + nbc.z*nbc.z
		abd := nbd.x*nbd.x + nbd.y*nbd.y + nbd.z*nbd.z
		if dot <= 0.25*sqrt32(abc*abd) {
			return 0, true
		}
	}
	return gone, false
}

// updateQuadrics merges the quadrics of every moved vertex into its target.
func (s *simplifier) updateQuadrics() {
	na := s.nattr
	for _, i0 := range s.moved {
		i1 := s.cremap[i0]
		r0, r1 := s.remap[i0], s.remap[i1]
		// the position quadric once per position: its first vertex always moves
		if i0 == r0 {
			s.ps[r1].q.add(&s.ps[r0].q)
		}
		if na > 0 {
			st, n := s.vstride, recQ+4*na
			addRec(s.va[int(i1)*st:int(i1)*st+n], s.va[int(i0)*st:int(i0)*st+n])
		}
	}
}

// remapLoops keeps border and seam loops pointing at live vertices.
func (s *simplifier) remapLoops() {
	for _, loop := range [2][]uint32{s.loop, s.loopback} {
		for _, i := range s.loopVerts {
			l := loop[i]
			if l == none {
				continue
			}
			r := s.cremap[l]
			if r != i {
				loop[i] = r
			} else if loop[l] != none {
				// the edge collapsed towards i: skip over the removed vertex
				loop[i] = s.cremap[loop[l]]
			} else {
				loop[i] = none
			}
		}
	}
}

// remapIndices applies the pass's collapses, drops the triangles that lost
// a corner, and counts the corners of each position for the next pass's
// adjacency.
func (s *simplifier) remapIndices() {
	idx, cremap, remap := s.indices, s.cremap, s.remap
	off := s.adj.offsets[1:]
	clear(off)
	w, flat := 0, 0
	for i := 0; i+2 < len(idx); i += 3 {
		a, b, c := cremap[idx[i]], cremap[idx[i+1]], cremap[idx[i+2]]
		if a != b && b != c && c != a {
			idx[w], idx[w+1], idx[w+2] = a, b, c
			w += 3
			ra, rb, rc := remap[a], remap[b], remap[c]
			off[ra]++
			off[rb]++
			off[rc]++
			if ra == rb || rb == rc || rc == ra {
				flat++
			}
		}
	}
	s.indices = idx[:w]
	s.flat = flat
}

// countFlat counts the triangles with two corners at one position.
func (s *simplifier) countFlat() int {
	idx, remap := s.indices, s.remap
	n := 0
	for i := 0; i+2 < len(idx); i += 3 {
		ra, rb, rc := remap[idx[i]], remap[idx[i+1]], remap[idx[i+2]]
		if ra == rb || rb == rc || rc == ra {
			n++
		}
	}
	return n
}

func (s *simplifier) endPass() {
	for _, v := range s.moved {
		s.cremap[v] = v
	}
	for _, r := range s.touched {
		s.clocked[r] = false
	}
	s.moved = s.moved[:0]
	s.touched = s.touched[:0]
}

// dropPositionDegenerates removes the triangles with two corners at the same
// position, which collapses next to a seam can leave behind. It breaks the
// loop metadata, so it runs between stages only.
func (s *simplifier) dropPositionDegenerates() {
	idx, remap := s.indices, s.remap
	w := 0
	for i := 0; i+2 < len(idx); i += 3 {
		a, b, c := idx[i], idx[i+1], idx[i+2]
		ra, rb, rc := remap[a], remap[b], remap[c]
		if ra != rb && rb != rc && rc != ra {
			idx[w], idx[w+1], idx[w+2] = a, b, c
			w += 3
		}
	}
	s.indices = idx[:w]
}

// relaxSeams classifies the current mesh again with seams relaxed into
// complex vertices, for the permissive stage.
func (s *simplifier) relaxSeams() {
	s.adj.build(s.indices, nil)
	classify(s.kind, s.loop, s.loopback, s.adj, s.remap, s.wedge, s.pinned)
	s.adj.build(s.indices, s.remap)
	relax(s.kind, s.adj, s.remap, s.wedge, s.pinned)
	s.collectLoopVerts()
	s.packKinds()
}

// packKinds fills rk from remap and kind.
func (s *simplifier) packKinds() {
	s.rk = resize(s.rk, len(s.kind))
	for i, k := range s.kind {
		s.rk[i] = uint64(s.remap[i])<<8 | uint64(k)
	}
}

// run simplifies towards opt.TargetRatio in stages, see Options.Permissive.
func (s *simplifier) run(opt Options, triangles int) {
	s.done = opt.Done
	if opt.Permissive {
		// the permissive stages relax seams and drop triangles before
		// they rank, and the last resort reads positions: the quadrics
		// are those of the mesh as it came
		s.prepare()
	}
	target := int(float64(triangles)*float64(opt.TargetRatio)) * 3
	limit := float32(math.Inf(1))
	if opt.MaxError > 0 {
		limit = opt.MaxError * opt.MaxError
	}
	s.stage(target, limit)
	if opt.Permissive && len(s.indices) > target {
		if !math.IsInf(float64(limit), 1) {
			s.stage(target, float32(math.Inf(1)))
		}
		if len(s.indices) > target {
			s.dropPositionDegenerates()
			s.relaxSeams()
			s.stage(target, float32(math.Inf(1)))
		}
	}
	s.dropPositionDegenerates()
	if opt.Permissive && len(s.indices) > target && !s.stopped() {
		s.cluster(target)
	}
}

// stopped reports whether the run's Done has closed.
func (s *simplifier) stopped() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// release hands the buffers of s to the next call.
func (s *simplifier) release() {
	s.src = Mesh{} // the caller's arrays are not the pool's to keep
	if cap(s.indices) <= poolMaxIndices {
		pool.Put(s)
	}
}
