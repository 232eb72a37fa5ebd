package draco

import (
	"math"
	"sync"
)

// Edgebreaker connectivity (Draco's "standard" edgebreaker, spec sections
// "EdgeBreaker Decoder" and "EdgeBreaker Traversal"): the faces are walked
// from face to neighbouring face and each is coded as one of five symbols
// (C, L, R, S, E) by what the walk finds around it, about two bits a
// triangle where index deltas cost a byte an index. Draco's decoder
// rebuilds the faces in reverse order of the walk, so everything the
// attributes need (their order, their predictions) is computed here on
// the encoder's corner table, in the order the decoder will number its
// faces: the two tables are the same up to renumbering.

// Draco's symbols, as their bit patterns (written least significant bit
// first: C in one bit, the others in three).
const (
	symC = 0
	symS = 1
	symL = 3
	symR = 5
	symE = 7
)

// Sides of a face a topology split event names.
const (
	leftEdge  = 0
	rightEdge = 1
)

type splitEvent struct {
	source, split int32 // encoder symbol ids
	edge          uint8
}

// ebWalk is the state of one edgebreaker encoding.
type ebWalk struct {
	t            *cornerTable
	faceVisited  []bool
	vertVisited  []bool
	holeOf       []int32 // vertex → its boundary loop, or -1
	holeVisited  []bool
	symbols      []uint8
	processed    []int32 // the corner of each symbol's face, in walk order
	startInside  []bool  // per component: starts on an interior face
	initCorners  []int32 // those interior start faces, as the decoder adds them
	splitSymbol  []int32 // face → the symbol id of its S, or -1
	splits       []splitEvent
	numSplits    int
	lastSymbolID int32
}

// edgebreaker is the connectivity of a mesh as edgebreaker codes it: the
// stream's connectivity bytes, the table, and the corners in the order
// of the decoder's faces (for the attribute traversal).
type edgebreaker struct {
	t        *cornerTable
	faces    int
	walk     *ebWalk
	faceOrds []int32
}

func encodeEdgebreakerConnectivity(indices []uint32) *edgebreaker {
	t := newCornerTable(indices)
	nf := len(indices) / 3
	w := &ebWalk{
		t:            t,
		faceVisited:  make([]bool, nf),
		vertVisited:  make([]bool, len(t.point)),
		holeOf:       make([]int32, len(t.point)),
		splitSymbol:  make([]int32, nf),
		lastSymbolID: -1,
	}
	for i := range w.holeOf {
		w.holeOf[i] = -1
	}
	for i := range w.splitSymbol {
		w.splitSymbol[i] = -1
	}
	w.findHoles()
	for f := 0; f < nf; f++ {
		if w.faceVisited[f] {
			continue
		}
		start, inside := w.initFace(int32(f))
		w.startInside = append(w.startInside, inside)
		if inside {
			w.vertVisited[t.vert[start]] = true
			w.vertVisited[t.vert[next(start)]] = true
			w.vertVisited[t.vert[prev(start)]] = true
			w.faceVisited[f] = true
			w.initCorners = append(w.initCorners, next(start))
			if o := t.opp[next(start)]; o >= 0 && !w.faceVisited[o/3] {
				w.walkFrom(o)
			}
		} else {
			w.encodeHole(next(start), true)
			w.walkFrom(start)
		}
	}
	// The decoder's faces: the symbols' in reverse, then the interior
	// start faces.
	order := make([]int32, 0, nf)
	for i := len(w.processed) - 1; i >= 0; i-- {
		order = append(order, w.processed[i])
	}
	order = append(order, w.initCorners...)

	return &edgebreaker{t: t, faces: nf, walk: w, faceOrds: order}
}

// stream is the connectivity's bytes, with one seam bit for each
// attribute with seams on every edge between faces, in the decoder's
// face order (see seamBits).
func (e *edgebreaker) stream(seams [][]bool) []byte {
	t, w, nf := e.t, e.walk, e.faces
	var out []byte
	out = append(out, 0) // standard edgebreaker
	out = appendVarint(out, uint64(len(t.point)))
	out = appendVarint(out, uint64(nf))
	out = append(out, byte(len(seams)))
	out = appendVarint(out, uint64(len(w.symbols)))
	out = appendVarint(out, uint64(w.numSplits))
	// Topology splits: source ids as increasing deltas, split ids below
	// them, then one bit each for the edge.
	out = appendVarint(out, uint64(len(w.splits)))
	if len(w.splits) > 0 {
		last := int32(0)
		for _, e := range w.splits {
			out = appendVarint(out, uint64(e.source-last))
			out = appendVarint(out, uint64(e.source-e.split))
			last = e.source
		}
		var bits bitWriter
		for _, e := range w.splits {
			bits.put(uint32(e.edge), 1)
		}
		out = append(out, bits.buf...)
	}
	// The symbols, last first (the decoder reads them in reverse).
	var bits bitWriter
	for i := len(w.symbols) - 1; i >= 0; i-- {
		s := w.symbols[i]
		if s == symC {
			bits.put(0, 1)
		} else {
			bits.put(uint32(s), 3)
		}
	}
	out = appendVarint(out, uint64(len(bits.buf)))
	out = append(out, bits.buf...)
	out = appendRABSBits(out, w.startInside)
	for _, bits := range seams {
		out = appendRABSBits(out, bits)
	}
	return out
}

// findHoles numbers the boundary loops and marks their vertices.
func (w *ebWalk) findHoles() {
	t := w.t
	for c := int32(0); c < int32(len(t.vert)); c++ {
		if t.opp[c] >= 0 {
			continue
		}
		v := t.vert[next(c)]
		if w.holeOf[v] >= 0 {
			continue
		}
		id := int32(len(w.holeVisited))
		w.holeVisited = append(w.holeVisited, false)
		corner := c
		for w.holeOf[v] < 0 {
			w.holeOf[v] = id
			corner = next(corner)
			for t.opp[corner] >= 0 {
				corner = next(t.opp[corner])
			}
			v = t.vert[next(corner)]
		}
	}
}

// initFace picks where a component starts: on a face whose corners are
// all inside, that face (reported true), else the corner facing a
// boundary edge of the face or of a boundary vertex's fan.
func (w *ebWalk) initFace(f int32) (int32, bool) {
	t := w.t
	c := 3 * f
	for i := 0; i < 3; i++ {
		if t.opp[c] < 0 {
			return c, false
		}
		if w.holeOf[t.vert[c]] >= 0 {
			r := c
			for r >= 0 {
				c = r
				r = t.swingRight(r)
			}
			return prev(c), false
		}
		c = next(c)
	}
	return c, true
}

// encodeHole marks a boundary loop's vertices visited, starting from the
// vertex of corner start: the decoder creates them as it meets them.
func (w *ebWalk) encodeHole(start int32, first bool) {
	t := w.t
	c := prev(start)
	for t.opp[c] >= 0 {
		c = next(t.opp[c])
	}
	sv := t.vert[start]
	if first {
		w.vertVisited[sv] = true
	}
	w.holeVisited[w.holeOf[sv]] = true
	v := t.vert[prev(c)]
	for v != sv {
		w.vertVisited[v] = true
		c = next(c)
		for t.opp[c] >= 0 {
			c = next(t.opp[c])
		}
		v = t.vert[prev(c)]
	}
}

func (w *ebWalk) faceDone(c int32) bool { return c < 0 || w.faceVisited[c/3] }

// walkFrom codes the faces reachable from corner c, depth first: right
// before left at every split.
func (w *ebWalk) walkFrom(c int32) {
	t := w.t
	stack := []int32{c}
	for len(stack) > 0 {
		c = stack[len(stack)-1]
		if w.faceDone(c) {
			stack = stack[:len(stack)-1]
			continue
		}
		for {
			w.lastSymbolID++
			f := c / 3
			w.faceVisited[f] = true
			w.processed = append(w.processed, c)
			v := t.vert[c]
			boundary := w.holeOf[v] >= 0
			if !w.vertVisited[v] {
				w.vertVisited[v] = true
				if !boundary {
					w.symbols = append(w.symbols, symC)
					c = t.opposite(next(c))
					continue
				}
			}
			right, left := t.opposite(next(c)), t.opposite(prev(c))
			if w.faceDone(right) {
				if right >= 0 {
					w.splitEvent(rightEdge, right/3)
				}
				if w.faceDone(left) {
					if left >= 0 {
						w.splitEvent(leftEdge, left/3)
					}
					w.symbols = append(w.symbols, symE)
					stack = stack[:len(stack)-1]
					break
				}
				w.symbols = append(w.symbols, symR)
				c = left
				continue
			}
			if w.faceDone(left) {
				if left >= 0 {
					w.splitEvent(leftEdge, left/3)
				}
				w.symbols = append(w.symbols, symL)
				c = right
				continue
			}
			w.symbols = append(w.symbols, symS)
			w.numSplits++
			if boundary && !w.holeVisited[w.holeOf[v]] {
				w.encodeHole(c, false)
			}
			w.splitSymbol[f] = w.lastSymbolID
			stack[len(stack)-1] = left
			stack = append(stack, right)
			break
		}
	}
}

// splitEvent records that the current face meets, across edge, a face
// that was coded with S: the decoder must know where the branches join.
func (w *ebWalk) splitEvent(edge uint8, face int32) {
	if s := w.splitSymbol[face]; s >= 0 {
		w.splits = append(w.splits, splitEvent{source: w.lastSymbolID, split: s, edge: edge})
	}
}

// traversal is the order in which Draco's decoder visits the vertices to
// read their attribute values (its depth-first traverser over its faces
// in order), and what parallelogram prediction needs: each value's corner
// and each vertex's value.
type traversal struct {
	corner    []int32 // value index → the corner it was reached by
	vertValue []int32 // vertex → value index
}

func (e *edgebreaker) traverse(t *cornerTable) traversal {
	tr := traversal{vertValue: make([]int32, len(t.point))}
	for i := range tr.vertValue {
		tr.vertValue[i] = -1
	}
	faceSeen := make([]bool, e.faces)
	done := func(c int32) bool { return c < 0 || faceSeen[c/3] }
	visit := func(c int32) bool {
		v := t.vert[c]
		if tr.vertValue[v] >= 0 {
			return false
		}
		tr.vertValue[v] = int32(len(tr.corner))
		tr.corner = append(tr.corner, c)
		return true
	}
	var stack []int32
	for _, c := range e.faceOrds {
		if done(c) {
			continue
		}
		visit(next(c))
		visit(prev(c))
		stack = append(stack[:0], c)
		for len(stack) > 0 {
			c = stack[len(stack)-1]
			if done(c) {
				stack = stack[:len(stack)-1]
				continue
			}
			for {
				faceSeen[c/3] = true
				v := t.vert[c]
				if tr.vertValue[v] < 0 {
					boundary := t.onBoundary(v)
					visit(c)
					if !boundary {
						c = t.opposite(next(c))
						continue
					}
				}
				right, left := t.opposite(next(c)), t.opposite(prev(c))
				if done(right) {
					if done(left) {
						stack = stack[:len(stack)-1]
						break
					}
					c = left
					continue
				}
				if done(left) {
					c = right
					continue
				}
				stack[len(stack)-1] = left
				stack = append(stack, right)
				break
			}
		}
	}
	return tr
}

// bitWriter packs values least significant bit first, as Draco's bit
// coder does.
type bitWriter struct {
	buf  []byte
	used uint
}

func (b *bitWriter) put(v uint32, n int) {
	for i := 0; i < n; i++ {
		if b.used%8 == 0 {
			b.buf = append(b.buf, 0)
		}
		b.buf[len(b.buf)-1] |= byte(v>>i&1) << (b.used % 8)
		b.used++
	}
}

// appendRABSBits writes bits with Draco's binary rANS coder: the
// probability of a zero in 1/256ths, the coded size and the bytes, coded
// last bit first so the decoder reads them in order.
func appendRABSBits(out []byte, bits []bool) []byte {
	zeros := 0
	for _, b := range bits {
		if !b {
			zeros++
		}
	}
	total := max(len(bits), 1)
	p0 := min(uint32(float64(zeros)/float64(total)*256+0.5), 255)
	if p0 == 0 {
		p0 = 1
	}
	const lBase, ioBase, prec = 4096, 256, 256
	state := uint32(lBase)
	var buf []byte
	for i := len(bits) - 1; i >= 0; i-- {
		p := prec - p0
		ls := p0
		if bits[i] {
			ls = p
		}
		if state >= lBase/prec*ioBase*ls {
			buf = append(buf, byte(state))
			state /= ioBase
		}
		add := p
		if bits[i] {
			add = 0
		}
		state = (state/ls)*prec + state%ls + add
	}
	state -= lBase
	switch {
	case state < 1<<6:
		buf = append(buf, byte(state))
	case state < 1<<14:
		v := 1<<14 | state
		buf = append(buf, byte(v), byte(v>>8))
	default:
		v := 2<<22 | state
		buf = append(buf, byte(v), byte(v>>8), byte(v>>16))
	}
	out = append(out, byte(p0))
	out = appendVarint(out, uint64(len(buf)))
	return append(out, buf...)
}

// meshPrediction is what parallelogram prediction reads: the table and
// the traversal that ordered the values.
type meshPrediction struct {
	t  *cornerTable
	tr traversal
}

// parallelogram predicts value p as Draco's decoder does: across the edge
// facing p's corner, the far vertex mirrored over that edge, when all
// three of that face's vertices come before p.
func (e *meshPrediction) parallelogram(values []int32, p, comps int, pred []int32) bool {
	o := e.t.opposite(e.tr.corner[p])
	if o < 0 {
		return false
	}
	vo, vn, vp := e.tr.vertValue[e.t.vert[o]], e.tr.vertValue[e.t.vert[next(o)]], e.tr.vertValue[e.t.vert[prev(o)]]
	if int(vo) >= p || int(vn) >= p || int(vp) >= p {
		return false
	}
	for c := 0; c < comps; c++ {
		pred[c] = values[int(vn)*comps+c] + values[int(vp)*comps+c] - values[int(vo)*comps+c]
	}
	return true
}

// EncodeReordered is Encode for meshes whose points may be renumbered:
// it also codes the mesh with edgebreaker and returns whichever stream
// is smaller, with the number of points the decoder gives back. With
// edgebreaker the decoder numbers points and faces in its own order (the
// triangles and their winding stay), and gives a point on faces that
// meet only there (a non-manifold vertex) once per fan of faces, so
// callers keep nothing beside the stream that counts on point order
// (morph targets, other attributes). Meshes with degenerate triangles or
// points no triangle uses stay sequential, which keeps both.
func EncodeReordered(m Mesh) ([]byte, int, error) {
	seq, err := Encode(m)
	if err != nil {
		return nil, 0, err
	}
	// The two edgebreaker codings only read m: they run side by side.
	type result struct {
		data   []byte
		points int
		ok     bool
	}
	var single, seams result
	var wg sync.WaitGroup
	wg.Go(func() { single.data, single.points, single.ok = encodeEdgebreaker(m) })
	seams.data, seams.points, seams.ok = encodeEdgebreakerSeams(m)
	wg.Wait()
	best, points := seq, m.Points
	for _, r := range []result{single, seams} {
		if r.ok && len(r.data) < len(best) {
			best, points = r.data, r.points
		}
	}
	return best, points, nil
}

// encodeEdgebreaker codes m with edgebreaker connectivity, every
// attribute on it (Draco's single connectivity: the mesh is cut where
// attributes differ, since its points are already split there).
func encodeEdgebreaker(m Mesh) ([]byte, int, bool) {
	if len(m.Indices) == 0 {
		return nil, 0, false
	}
	used := make([]bool, m.Points)
	for i := 0; i < len(m.Indices); i += 3 {
		a, b, c := m.Indices[i], m.Indices[i+1], m.Indices[i+2]
		if a == b || b == c || a == c {
			return nil, 0, false
		}
		used[a], used[b], used[c] = true, true, true
	}
	for _, u := range used {
		if !u {
			return nil, 0, false
		}
	}
	eb := encodeEdgebreakerConnectivity(m.Indices)
	tr := eb.traverse(eb.t)
	order := make([]uint32, len(tr.corner))
	for k, c := range tr.corner {
		order[k] = eb.t.point[eb.t.vert[c]]
	}
	// Header: magic, version 2.2, triangular mesh, edgebreaker, no flags.
	out := []byte{'D', 'R', 'A', 'C', 'O', 2, 2, 1, 1, 0, 0}
	out = append(out, eb.stream(nil)...)
	// One attributes decoder on the position connectivity (data id -1),
	// per vertex, depth-first traversal.
	out = append(out, 1, 0xff, 0, 0)
	out = appendAttributes(out, m, order, &meshPrediction{t: eb.t, tr: tr})
	return out, len(order), true
}

// encodeEdgebreakerSeams codes m as Google's encoder does at its default
// speed: edgebreaker over the positions alone (points at the same
// position are one vertex, so the surface stays whole across texture
// and normal seams), positions in one attributes decoder, and each other
// attribute in its own, on a connectivity cut only where its values
// differ across an edge (one bit an edge says where). It reports false
// where positions alone make a triangle degenerate.
func encodeEdgebreakerSeams(m Mesh) ([]byte, int, bool) {
	pos := m.Attributes[0]
	if pos.Kind != Position || pos.Float == nil || pos.Octahedral || len(m.Indices) == 0 {
		return nil, 0, false
	}
	// One id per distinct position.
	ids := make(map[[3]uint32]uint32, m.Points)
	posID := make([]uint32, m.Points)
	for p := 0; p < m.Points; p++ {
		k := [3]uint32{math.Float32bits(pos.Float[3*p]), math.Float32bits(pos.Float[3*p+1]), math.Float32bits(pos.Float[3*p+2])}
		id, ok := ids[k]
		if !ok {
			id = uint32(len(ids))
			ids[k] = id
		}
		posID[p] = id
	}
	tri := make([]uint32, len(m.Indices))
	used := make([]bool, m.Points)
	for i, idx := range m.Indices {
		tri[i] = posID[idx]
		used[idx] = true
	}
	for i := 0; i < len(tri); i += 3 {
		if tri[i] == tri[i+1] || tri[i+1] == tri[i+2] || tri[i] == tri[i+2] {
			return nil, 0, false
		}
	}
	for _, u := range used {
		if !u {
			return nil, 0, false
		}
	}
	eb := encodeEdgebreakerConnectivity(tri)
	t := eb.t
	g := newGrids(m)
	pointOf := func(c int32) uint32 { return m.Indices[c] }
	// Each other attribute's table: the position table cut at its seams.
	n := len(m.Attributes)
	tables := make([]*cornerTable, n)
	tables[0] = t
	interior := make([]bool, n) // has seams inside the surface
	for i := 1; i < n; i++ {
		at := &cornerTable{opp: make([]int32, len(t.opp))}
		for c := int32(0); c < int32(len(t.opp)); c++ {
			o := t.opp[c]
			at.opp[c] = o
			if o >= 0 && (!g.same(i, pointOf(next(c)), pointOf(prev(o))) || !g.same(i, pointOf(prev(c)), pointOf(next(o)))) {
				at.opp[c] = -1
				interior[i] = true
			}
		}
		if interior[i] {
			at.assignFans(pointOf)
			tables[i] = at
		} else {
			tables[i] = t
		}
	}
	// The seam bits, in the decoder's order of faces and edges.
	seams := make([][]bool, n-1)
	seen := make([]bool, eb.faces)
	for _, c := range eb.faceOrds {
		seen[c/3] = true
		for _, k := range []int32{c, next(c), prev(c)} {
			o := t.opp[k]
			if o < 0 || seen[o/3] {
				continue
			}
			for i := 1; i < n; i++ {
				seams[i-1] = append(seams[i-1], tables[i].opp[k] < 0)
			}
		}
	}
	out := []byte{'D', 'R', 'A', 'C', 'O', 2, 2, 1, 1, 0, 0}
	out = append(out, eb.stream(seams)...)
	// One attributes decoder per attribute: positions on the position
	// connectivity (data id -1); the others on their own data, per
	// vertex where they have no seams inside, else per corner.
	out = append(out, byte(n))
	for i := 0; i < n; i++ {
		switch {
		case i == 0:
			out = append(out, 0xff, 0, 0)
		case interior[i]:
			out = append(out, byte(i-1), 1, 0)
		default:
			out = append(out, byte(i-1), 0, 0)
		}
	}
	for i, a := range m.Attributes {
		out = appendVarint(out, 1)
		out = appendDescriptor(out, a, i)
		out = append(out, codingOf(a))
	}
	for i := range m.Attributes {
		tr := eb.traverse(tables[i])
		order := make([]uint32, len(tr.corner))
		for k, c := range tr.corner {
			order[k] = pointOf(c)
		}
		out = g.appendValues(out, m, i, order, &meshPrediction{t: tables[i], tr: tr})
		out = g.appendGrid(out, m, i)
	}
	return out, decodedPoints(t, tables[1:]), true
}

// decodedPoints is the number of points Draco's decoder makes of a mesh
// with attribute connectivities: around each position vertex, a point
// for every run of corners that no attribute's seam divides.
func decodedPoints(t *cornerTable, attrs []*cornerTable) int {
	points := 0
	for v := range t.left {
		start := t.left[v]
		differs := func(a, b int32) bool {
			for _, at := range attrs {
				if at.vert[a] != at.vert[b] {
					return true
				}
			}
			return false
		}
		changes := 0
		prevC := start
		for c := t.swingRight(start); c >= 0 && c != start; c = t.swingRight(c) {
			if differs(prevC, c) {
				changes++
			}
			prevC = c
		}
		if t.onBoundary(int32(v)) {
			points += 1 + changes
			continue
		}
		// A closed fan: the run across the start, if divided there,
		// was counted twice.
		if differs(prevC, start) {
			changes++
		}
		points += max(changes, 1)
	}
	return points
}
