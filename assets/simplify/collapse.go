package simplify

import (
	"math"
)

// collapse is a candidate edge collapse v0 -> v1. Before ranking, err is 1
// for an edge that may collapse either way and 0 otherwise; ranking picks
// the cheaper direction and stores its error.
type collapse struct {
	v0, v1 uint32
	err    float32
}

// simplifier holds the state of one Simplify call. Every slice is sized
// once, from the vertex and index counts, and reused by every pass.
type simplifier struct {
	pos   []vec3    // positions rescaled to the unit box
	attr  []float32 // weighted attributes with a non-zero weight, nattr per vertex
	nattr int

	remap, wedge   []uint32 // first vertex at the same position; cycle of wedges
	kind           []uint8
	loop, loopback []uint32 // border / seam neighbours, see classify
	loopVerts      []uint32 // vertices whose loop or loopback is set
	pinned         []bool   // locked by the caller or by LockBorder, nil if none

	vq []quadric // position quadric per position (indexed by remap)
	aq []quadric // attribute quadric per vertex
	ag []grad    // attribute gradients, nattr per vertex

	adj *adjacency

	indices []uint32 // the result in progress

	collapses []collapse
	order     []uint32
	cremap    []uint32 // where each vertex moves in this pass
	clocked   []bool   // positions touched in this pass
	moved     []uint32 // vertices moved in this pass
	touched   []uint32 // positions locked in this pass

	resultError float32 // largest squared collapse error so far
}

func newSimplifier(m *Mesh, opt Options) *simplifier {
	nv := len(m.Positions) / 3
	s := &simplifier{
		remap:    make([]uint32, nv),
		wedge:    make([]uint32, nv),
		kind:     make([]uint8, nv),
		loop:     make([]uint32, nv),
		loopback: make([]uint32, nv),
		cremap:   make([]uint32, nv),
		clocked:  make([]bool, nv),
	}

	// Triangles with a repeated index cover nothing; dropping them now keeps
	// the self edges they would add out of the adjacency.
	s.indices = make([]uint32, 0, len(m.Indices))
	for i := 0; i+2 < len(m.Indices); i += 3 {
		a, b, c := m.Indices[i], m.Indices[i+1], m.Indices[i+2]
		if a != b && b != c && c != a {
			s.indices = append(s.indices, a, b, c)
		}
	}
	ni := len(s.indices)
	s.adj = newAdjacency(nv, ni)
	s.collapses = make([]collapse, ni)
	s.order = make([]uint32, ni)
	for i := range s.cremap {
		s.cremap[i] = uint32(i)
	}

	buildPositionRemap(m.Positions, s.remap, s.wedge)
	if m.Locked != nil {
		s.pinned = m.Locked
	}
	s.adj.build(s.indices, nil)
	classify(s.kind, s.loop, s.loopback, s.adj, s.remap, s.wedge, s.pinned)
	if opt.LockBorder {
		s.lockBorders()
	}
	s.collectLoopVerts()

	s.rescale(m)
	s.fillQuadrics()
	return s
}

// lockBorders turns border vertices into locked ones and pins them, so that
// later stages, which classify the mesh again, keep them too.
func (s *simplifier) lockBorders() {
	pinned := make([]bool, len(s.kind))
	copy(pinned, s.pinned)
	for i, k := range s.kind {
		if k == kindBorder {
			s.kind[i] = kindLocked
			pinned[i] = true
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

// rescale maps positions into the unit box, so that errors are relative to
// the extent, and pre-multiplies the attributes by their weights.
func (s *simplifier) rescale(m *Mesh) {
	nv := len(s.kind)
	minv := [3]float32{math.MaxFloat32, math.MaxFloat32, math.MaxFloat32}
	maxv := [3]float32{-math.MaxFloat32, -math.MaxFloat32, -math.MaxFloat32}
	p := m.Positions
	for i := 0; i+2 < len(p); i += 3 {
		for j := 0; j < 3; j++ {
			minv[j] = min(minv[j], p[i+j])
			maxv[j] = max(maxv[j], p[i+j])
		}
	}
	extent := max(maxv[0]-minv[0], maxv[1]-minv[1], maxv[2]-minv[2])
	var scale float32
	if extent > 0 {
		scale = 1 / extent
	}
	s.pos = make([]vec3, nv)
	for i := range s.pos {
		s.pos[i] = vec3{(p[3*i] - minv[0]) * scale, (p[3*i+1] - minv[1]) * scale, (p[3*i+2] - minv[2]) * scale}
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
	s.attr = make([]float32, nv*s.nattr)
	for i := 0; i < nv; i++ {
		src := m.Attributes[i*m.AttrStride : (i+1)*m.AttrStride]
		dst := s.attr[i*s.nattr : (i+1)*s.nattr]
		for j, k := range used {
			dst[j] = src[k] * m.AttrWeights[k]
		}
	}
}

// Border edges get a strong perpendicular plane so that borders keep their
// shape; seam edges a weak one, as the topology rules already keep seams
// on their line and a strong weight would only block good collapses.
const (
	edgeWeightBorder = 10
	edgeWeightSeam   = 1
)

func (s *simplifier) fillQuadrics() {
	nv := len(s.kind)
	s.vq = make([]quadric, nv)
	idx, pos, remap, kind := s.indices, s.pos, s.remap, s.kind
	var q quadric
	for i := 0; i+2 < len(idx); i += 3 {
		i0, i1, i2 := idx[i], idx[i+1], idx[i+2]
		fromTriangle(&q, pos[i0], pos[i1], pos[i2], 1)
		s.vq[remap[i0]].add(&q)
		s.vq[remap[i1]].add(&q)
		s.vq[remap[i2]].add(&q)
	}
	onLoop := func(k uint8) bool { return k == kindBorder || k == kindSeam }
	for i := 0; i+2 < len(idx); i += 3 {
		for e := 0; e < 3; e++ {
			i0, i1, i2 := idx[i+e], idx[i+(e+1)%3], idx[i+(e+2)%3]
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
			fromEdge(&q, pos[i0], pos[i1], pos[i2], w)
			s.vq[remap[i0]].add(&q)
			s.vq[remap[i1]].add(&q)
		}
	}
	if s.nattr == 0 {
		return
	}
	na := s.nattr
	s.aq = make([]quadric, nv)
	s.ag = make([]grad, nv*na)
	g := make([]grad, na)
	for i := 0; i+2 < len(idx); i += 3 {
		i0, i1, i2 := idx[i], idx[i+1], idx[i+2]
		fromAttributes(&q, g, pos[i0], pos[i1], pos[i2],
			s.attr[int(i0)*na:], s.attr[int(i1)*na:], s.attr[int(i2)*na:])
		for _, v := range [3]uint32{i0, i1, i2} {
			s.aq[v].add(&q)
			addGrads(s.ag[int(v)*na:int(v+1)*na], g)
		}
	}
}

// stage runs collapse passes until the index count reaches target, no
// collapse stays under limit (a squared relative error), or the topology
// allows none.
func (s *simplifier) stage(target int, limit float32) {
	for len(s.indices) > target {
		s.adj.build(s.indices, s.remap)
		n := s.pick()
		if n == 0 {
			return
		}
		s.rank(s.collapses[:n])
		sortCollapses(s.order[:n], s.collapses[:n])
		goal := (len(s.indices) - target) / 3
		if s.perform(s.collapses[:n], s.order[:n], goal, limit) == 0 {
			return
		}
		s.updateQuadrics()
		s.remapLoops()
		s.remapIndices()
		s.endPass()
	}
}

// pick lists the edges that may collapse in at least one direction.
func (s *simplifier) pick() int {
	idx, remap, kind, loop, loopback := s.indices, s.remap, s.kind, s.loop, s.loopback
	out := s.collapses
	n := 0
	for i := 0; i+2 < len(idx); i += 3 {
		tri := idx[i : i+3 : i+3]
		for e := 0; e < 3; e++ {
			i0 := tri[e]
			i1 := tri[0]
			if e < 2 {
				i1 = tri[e+1]
			}
			// equal positions: a zero-length edge, or a vertex that moved
			// onto one wedge of a seam it touched; leave it alone
			if remap[i0] == remap[i1] {
				continue
			}
			k0, k1 := kind[i0], kind[i1]
			c01, c10 := canCollapse[k0][k1], canCollapse[k1][k0]
			if !c01 && !c10 {
				continue
			}
			if hasOpposite[k0][k1] && remap[i1] > remap[i0] {
				continue
			}
			// two border (or seam) vertices without an edge between them on
			// their loop are on different loops: collapsing would join them
			if k0 == k1 && (k0 == kindBorder || k0 == kindSeam) && loop[i0] != i1 {
				continue
			}
			if k0 == kindLocked || k1 == kindLocked {
				if (k0 == kindBorder || k0 == kindSeam) && loop[i0] != i1 {
					continue
				}
				if (k1 == kindBorder || k1 == kindSeam) && loopback[i1] != i0 {
					continue
				}
			}
			switch {
			case c01 && c10:
				out[n] = collapse{i0, i1, 1}
			case c01:
				out[n] = collapse{i0, i1, 0}
			default:
				out[n] = collapse{i1, i0, 0}
			}
			n++
		}
	}
	return n
}

// edgeError is the squared error of collapsing i0 onto i1: the position
// error plus the attribute error of every wedge that moves.
func (s *simplifier) edgeError(i0, i1 uint32) float32 {
	e := s.vq[s.remap[i0]].posError(s.pos[i1])
	if s.nattr == 0 {
		return e
	}
	e += s.attrError(i0, i1)
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
	na := int(s.nattr)
	return attrError(&s.aq[v], s.ag[int(v)*na:int(v+1)*na], s.pos[target], s.attr[int(target)*na:int(target+1)*na])
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
	if s.nattr == 0 {
		// the common case of positions only, kept free of calls and branches
		vq, pos, remap := s.vq, s.pos, s.remap
		for i := range cs {
			c := &cs[i]
			i0, i1 := c.v0, c.v1
			ei := vq[remap[i0]].posError(pos[i1])
			if c.err != 0 {
				if ej := vq[remap[i1]].posError(pos[i0]); ej < ei {
					c.v0, c.v1, ei = i1, i0, ej
				}
			}
			c.err = ei
		}
		return
	}
	for i := range cs {
		c := &cs[i]
		i0, i1 := c.v0, c.v1
		ei := s.edgeError(i0, i1)
		if c.err != 0 {
			if ej := s.edgeError(i1, i0); ej < ei {
				c.v0, c.v1, ei = i1, i0, ej
			}
		}
		c.err = ei
	}
}

// sortCollapses orders collapses by error with a counting sort on the top
// 12 bits of the float (8 of exponent, 4 of mantissa): the exact order
// matters little, and this is linear.
func sortCollapses(order []uint32, cs []collapse) {
	const bins = 2048 + 512 // exponents up to 2^32; larger errors share the last bin
	var hist [bins]uint32
	key := func(e float32) uint32 {
		k := (math.Float32bits(e) << 1) >> 20
		return min(k, bins-1)
	}
	for i := range cs {
		hist[key(cs[i].err)]++
	}
	var sum uint32
	for i, c := range hist {
		hist[i] = sum
		sum += c
	}
	for i := range cs {
		k := key(cs[i].err)
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
		if c.err > limit || removed >= goal {
			break
		}
		// Many good collapses are skipped because a neighbour moved first;
		// stop the pass when the errors grow well past those of the first
		// goal/2 collapses, so that the next pass, with fresh ranks, decides.
		errorGoal := float32(math.MaxFloat32)
		if edgeGoal < len(order) {
			errorGoal = 1.5 * cs[order[edgeGoal]].err
		}
		if c.err > errorGoal && c.err > s.resultError && removed > goal/6 {
			break
		}
		i0, i1 := c.v0, c.v1
		r0, r1 := remap[i0], remap[i1]
		if clocked[r0] || clocked[r1] {
			continue
		}
		if s.flips(r0, r1) {
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
		if k == kindBorder {
			removed++
		} else {
			removed += 2
		}
		done++
		s.resultError = max(s.resultError, c.err)
	}
	return done
}

// flips reports whether moving position r0 onto r1 would turn some triangle
// around r0 by more than about 75 degrees. The pure test would be 90, but
// a series of collapses close to 90 degrees can then fold the surface.
func (s *simplifier) flips(r0, r1 uint32) bool {
	adj, pos, remap, cremap := s.adj, s.pos, s.remap, s.cremap
	v0, v1 := pos[r0], pos[r1]
	lo, hi := adj.offsets[r0], adj.offsets[r0+1]
	next, prev := adj.next[lo:hi], adj.prev[lo:hi]
	prev = prev[:len(next)]
	for k := range next {
		a := remap[cremap[next[k]]]
		b := remap[cremap[prev[k]]]
		if a == r1 || b == r1 || a == b {
			continue
		}
		pa, pb := pos[a], pos[b]
		eb := vec3{pb.x - pa.x, pb.y - pa.y, pb.z - pa.z}
		ec := vec3{v0.x - pa.x, v0.y - pa.y, v0.z - pa.z}
		ed := vec3{v1.x - pa.x, v1.y - pa.y, v1.z - pa.z}
		nbc := vec3{eb.y*ec.z - eb.z*ec.y, eb.z*ec.x - eb.x*ec.z, eb.x*ec.y - eb.y*ec.x}
		nbd := vec3{eb.y*ed.z - eb.z*ed.y, eb.z*ed.x - eb.x*ed.z, eb.x*ed.y - eb.y*ed.x}
		dot := nbc.x*nbd.x + nbc.y*nbd.y + nbc.z*nbd.z
		abc := nbc.x*nbc.x + nbc.y*nbc.y + nbc.z*nbc.z
		abd := nbd.x*nbd.x + nbd.y*nbd.y + nbd.z*nbd.z
		if dot <= 0.25*sqrt32(abc*abd) {
			return true
		}
	}
	return false
}

// updateQuadrics merges the quadrics of every moved vertex into its target.
func (s *simplifier) updateQuadrics() {
	na := s.nattr
	for _, i0 := range s.moved {
		i1 := s.cremap[i0]
		r0, r1 := s.remap[i0], s.remap[i1]
		// the position quadric once per position: its first vertex always moves
		if i0 == r0 {
			s.vq[r1].add(&s.vq[r0])
		}
		if na > 0 {
			s.aq[i1].add(&s.aq[i0])
			addGrads(s.ag[int(i1)*na:int(i1+1)*na], s.ag[int(i0)*na:int(i0+1)*na])
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

// remapIndices applies the pass's collapses and drops the triangles that
// lost a corner.
func (s *simplifier) remapIndices() {
	idx, cremap := s.indices, s.cremap
	w := 0
	for i := 0; i+2 < len(idx); i += 3 {
		a, b, c := cremap[idx[i]], cremap[idx[i+1]], cremap[idx[i+2]]
		if a != b && b != c && c != a {
			idx[w], idx[w+1], idx[w+2] = a, b, c
			w += 3
		}
	}
	s.indices = idx[:w]
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
}

// run simplifies towards opt.TargetRatio in stages, see Options.Permissive.
func (s *simplifier) run(opt Options, triangles int) {
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
	if opt.Permissive && len(s.indices) > target {
		s.cluster(target)
	}
}
