// Package draco encodes triangle meshes in Google's Draco bitstream
// (version 2.2), the payload of the glTF extension
// KHR_draco_mesh_compression, so Kiln serves Draco downloads without a
// native library. It is written from Draco's published bitstream
// specification; the decoders it is checked against are Google's own (the
// draco3d WebAssembly build in three.js's DRACOLoader and draco3dgltf).
//
// Encode codes a mesh with the sequential method: points keep the order
// of the glTF vertices, so attributes left outside the Draco stream
// (morph targets, application attributes) stay valid beside it; every
// attribute is predicted from the previous point (difference prediction
// with wrap-around) and its corrections entropy coded with rANS, as are
// the triangle indices. EncodeReordered, for meshes with nothing outside
// the stream, also tries edgebreaker connectivity with parallelogram
// prediction (edgebreaker.go) and keeps the smallest stream. Float
// attributes are quantized on a per-attribute grid either way.
package draco

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"slices"
)

// Kind is the semantic Draco gives an attribute; decoders look attributes
// up by unique id, so it only informs.
type Kind uint8

// Draco's attribute types.
const (
	Position Kind = 0
	Normal   Kind = 1
	Color    Kind = 2
	TexCoord Kind = 3
	Generic  Kind = 4
)

// Attribute is one vertex stream of a Mesh: Float with Bits (quantized) or
// Int (stored exactly as unsigned 8- or 16-bit values), Components values
// per point.
type Attribute struct {
	Kind       Kind
	Components int
	// Float, when set, is quantized to Bits bits over its bounding range,
	// or with Octahedral (3 components: unit normals) to Bits bits on
	// Draco's octahedral grid, two values a point instead of three.
	Float      []float32
	Bits       int
	Octahedral bool
	// Int, when Float is nil, holds integers below 1<<16; Wide stores
	// them as 16-bit values, else as 8-bit ones.
	Int  []uint32
	Wide bool
}

// Mesh is an indexed triangle list and its per-point attributes; each
// attribute has Points·Components values.
type Mesh struct {
	Indices    []uint32
	Points     int
	Attributes []Attribute
}

// Draco's data types, sequential attribute codings and prediction ids.
const (
	dtUint8   = 2
	dtUint16  = 4
	dtFloat32 = 9

	codingInteger      = 1
	codingQuantization = 2
	codingNormals      = 3

	predictionDifference         = 0
	predictionParallelogram      = 1
	transformWrap                = 1
	transformOctahedronCanonical = 3
)

// Encode returns the Draco bitstream of m. Attribute i gets unique id i,
// the number KHR_draco_mesh_compression's attributes map refers to.
// Points and triangles keep their order and triangles their winding, but
// a triangle may start at another of its corners (see rotateCorners).
func Encode(m Mesh) ([]byte, error) {
	if err := check(m); err != nil {
		return nil, err
	}
	// Header: magic, version 2.2, triangular mesh, sequential method, no
	// flags (no metadata).
	out := []byte{'D', 'R', 'A', 'C', 'O', 2, 2, 1, 0, 0, 0}
	out = appendVarint(out, uint64(len(m.Indices)/3))
	out = appendVarint(out, uint64(m.Points))
	afterCounts := len(out)
	out = appendConnectivity(out, m)
	// One attributes decoder holding every attribute, in order.
	out = append(out, 1)
	out = appendAttributes(out, m, nil, nil)
	// Google's decoder refuses a stream whose bytes after the face count
	// are fewer than three per face, a bound on uncompressed indices that
	// well-coded regular meshes undercut: zeros after the end, which it
	// never reads, make up the difference.
	for len(out) < afterCounts+len(m.Indices) {
		out = append(out, 0)
	}
	return out, nil
}

// check refuses what Draco cannot carry.
func check(m Mesh) error {
	if len(m.Indices)%3 != 0 {
		return fmt.Errorf("draco: %d indices is not a triangle list", len(m.Indices))
	}
	for _, idx := range m.Indices {
		if int(idx) >= m.Points {
			return fmt.Errorf("draco: index %d beyond %d points", idx, m.Points)
		}
	}
	// Google's decoder refuses a mesh with more points than corners.
	if m.Points > len(m.Indices) {
		return fmt.Errorf("draco: %d points for %d corners", m.Points, len(m.Indices))
	}
	if len(m.Attributes) == 0 || len(m.Attributes) > 255 {
		return fmt.Errorf("draco: %d attributes", len(m.Attributes))
	}
	for i, a := range m.Attributes {
		n := len(a.Int)
		if a.Float != nil {
			n = len(a.Float)
			if a.Bits < 1 || a.Bits > 30 || (a.Octahedral && (a.Bits < 2 || a.Components != 3)) {
				return fmt.Errorf("draco: attribute %d: %d quantization bits for %d components", i, a.Bits, a.Components)
			}
		}
		if a.Components < 1 || a.Components > 4 || n != m.Points*a.Components {
			return fmt.Errorf("draco: attribute %d has %d values for %d points of %d components", i, n, m.Points, a.Components)
		}
	}
	return nil
}

// appendAttributes writes the attributes' descriptions, codings, values
// and quantization grids, all in one attributes decoder. order lists the
// points in the order their values are written (nil: as they are); with
// eb, the order of an edgebreaker traversal, each attribute also tries
// parallelogram prediction and keeps whichever prediction is smaller.
func appendAttributes(out []byte, m Mesh, order []uint32, eb *meshPrediction) []byte {
	g := newGrids(m)
	out = appendVarint(out, uint64(len(m.Attributes)))
	for i := range m.Attributes {
		out = appendDescriptor(out, m.Attributes[i], i)
	}
	for _, a := range m.Attributes {
		out = append(out, codingOf(a))
	}
	for i := range m.Attributes {
		out = g.appendValues(out, m, i, order, eb)
	}
	for i := range m.Attributes {
		out = g.appendGrid(out, m, i)
	}
	return out
}

// appendDescriptor writes attribute i's type, data type, width and
// unique id.
func appendDescriptor(out []byte, a Attribute, i int) []byte {
	dt := byte(dtFloat32)
	if a.Float == nil {
		dt = dtUint8
		if a.Wide {
			dt = dtUint16
		}
	}
	out = append(out, byte(a.Kind), dt, byte(a.Components), 0)
	return appendVarint(out, uint64(i))
}

func codingOf(a Attribute) byte {
	switch {
	case a.Octahedral:
		return codingNormals
	case a.Float != nil:
		return codingQuantization
	}
	return codingInteger
}

// grids holds every attribute as the integers Draco codes: quantized
// floats, integers as they are, normals as their octahedral coordinates
// (two a point).
type grids struct {
	quants []quantization
	ints   [][]int32
	comps  []int
}

func newGrids(m Mesh) *grids {
	g := &grids{quants: make([]quantization, len(m.Attributes)), ints: make([][]int32, len(m.Attributes)), comps: make([]int, len(m.Attributes))}
	for i, a := range m.Attributes {
		g.comps[i] = a.Components
		switch {
		case a.Octahedral:
			o := newOctahedron(a.Bits)
			v := make([]int32, 0, 2*m.Points)
			for p := 0; p < m.Points; p++ {
				s, t := o.coords(a.Float[3*p], a.Float[3*p+1], a.Float[3*p+2])
				v = append(v, s, t)
			}
			g.ints[i], g.comps[i] = v, 2
		case a.Float != nil:
			g.quants[i] = quantize(a.Float, a.Components, a.Bits)
			g.ints[i] = g.quants[i].values
		default:
			v := make([]int32, len(a.Int))
			for j, x := range a.Int {
				v[j] = int32(x)
			}
			g.ints[i] = v
		}
	}
	return g
}

// same reports whether points p and q have the same coded value of
// attribute i.
func (g *grids) same(i int, p, q uint32) bool {
	c := g.comps[i]
	for k := 0; k < c; k++ {
		if g.ints[i][int(p)*c+k] != g.ints[i][int(q)*c+k] {
			return false
		}
	}
	return true
}

// appendValues writes attribute i's values for the points in order.
func (g *grids) appendValues(out []byte, m Mesh, i int, order []uint32, eb *meshPrediction) []byte {
	a := m.Attributes[i]
	if a.Octahedral {
		return appendOctahedral(out, gather(a.Float, 3, order), a.Bits)
	}
	values := gather(g.ints[i], a.Components, order)
	best := appendPredicted(nil, values, a.Components, nil)
	if eb != nil {
		if para := appendPredicted(nil, values, a.Components, eb); len(para) < len(best) {
			best = para
		}
	}
	return append(out, best...)
}

// appendGrid writes what the decoder needs after attribute i's values:
// a quantized attribute's grid, a normal's bits.
func (g *grids) appendGrid(out []byte, m Mesh, i int) []byte {
	if m.Attributes[i].Octahedral {
		return append(out, byte(m.Attributes[i].Bits))
	}
	q := g.quants[i]
	if q.values == nil {
		return out
	}
	for _, v := range q.min {
		out = binary.LittleEndian.AppendUint32(out, math.Float32bits(v))
	}
	out = binary.LittleEndian.AppendUint32(out, math.Float32bits(q.rng))
	return append(out, byte(q.bits))
}

// gather lists the values of the points in order (all of them, as they
// are, when order is nil).
func gather[T any](v []T, comps int, order []uint32) []T {
	if order == nil {
		return v
	}
	out := make([]T, 0, len(order)*comps)
	for _, p := range order {
		out = append(out, v[int(p)*comps:int(p+1)*comps]...)
	}
	return out
}

// appendConnectivity writes the indices: as deltas from the previous
// index, entropy coded (method 0), or plain (method 1), whichever is
// smaller.
func appendConnectivity(out []byte, m Mesh) []byte {
	if len(m.Indices) == 0 {
		return append(out, 1)
	}
	// Each delta as its magnitude shifted left with the sign in the low
	// bit (not the zigzag of attribute corrections: -1 is 3, not 1).
	indices := rotateCorners(m.Indices)
	symbols := make([]uint32, len(indices))
	last := int32(0)
	for i, idx := range indices {
		d := int32(idx) - last
		if d < 0 {
			symbols[i] = uint32(-d)<<1 | 1
		} else {
			symbols[i] = uint32(d) << 1
		}
		last = int32(idx)
	}
	// Method 0 takes any deltas (the tagged scheme holds 32 bits), but
	// plain indices are smaller when the deltas are as large as the
	// indices themselves.
	coded := encodeSymbols(append(out, 0), symbols, 1)
	plain := append(slices.Clip(out), 1)
	for _, idx := range m.Indices {
		switch {
		case m.Points < 1<<8:
			plain = append(plain, byte(idx))
		case m.Points < 1<<16:
			plain = binary.LittleEndian.AppendUint16(plain, uint16(idx))
		case m.Points < 1<<21:
			plain = appendVarint(plain, uint64(idx))
		default:
			plain = binary.LittleEndian.AppendUint32(plain, idx)
		}
	}
	if len(plain) < len(coded) {
		return plain
	}
	return coded
}

// appendPredicted writes integer values with the wrap transform over
// their range, so no correction needs more bits than the values
// themselves: each point predicted from the previous one (difference
// prediction), or with eb across the triangle it was reached by
// (parallelogram prediction: the opposite vertex mirrored over the shared
// edge), from the previous one where that triangle's vertices are not
// all decoded yet.
func appendPredicted(out []byte, values []int32, comps int, eb *meshPrediction) []byte {
	method := byte(predictionDifference)
	if eb != nil {
		method = predictionParallelogram
	}
	out = append(out, method, transformWrap)
	lo, hi := int32(0), int32(0)
	if len(values) > 0 {
		lo, hi = values[0], values[0]
		for _, v := range values {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	span := hi - lo + 1
	maxCorr := span / 2
	minCorr := -maxCorr
	if span&1 == 0 {
		maxCorr--
	}
	symbols := make([]uint32, len(values))
	pred := make([]int32, comps)
	for p := 0; p < len(values)/comps; p++ {
		switch {
		case p == 0:
			for c := range pred {
				pred[c] = lo // the first point is predicted from zero, clamped
			}
		case eb != nil && eb.parallelogram(values, p, comps, pred):
			for c := range pred {
				pred[c] = min(max(pred[c], lo), hi)
			}
		default:
			copy(pred, values[(p-1)*comps:p*comps])
		}
		for c := 0; c < comps; c++ {
			i := p*comps + c
			d := values[i] - pred[c]
			if d < minCorr {
				d += span
			} else if d > maxCorr {
				d -= span
			}
			symbols[i] = zigzag(d)
		}
	}
	out = encodeSymbols(append(out, 1), symbols, comps)
	out = binary.LittleEndian.AppendUint32(out, uint32(lo))
	return binary.LittleEndian.AppendUint32(out, uint32(hi))
}

// appendOctahedral writes unit vectors on the octahedral grid of bits,
// each point predicted from the previous one (the first from the grid's
// corner) through the canonicalized octahedron transform, whose
// corrections are never negative and are coded as they are.
func appendOctahedral(out []byte, v []float32, bits int) []byte {
	o := newOctahedron(bits)
	out = append(out, predictionDifference, transformOctahedronCanonical)
	symbols := make([]uint32, 0, 2*len(v)/3)
	var prev [2]int32
	for i := 0; i < len(v); i += 3 {
		s, t := o.coords(v[i], v[i+1], v[i+2])
		c := o.correction([2]int32{s, t}, prev)
		symbols = append(symbols, uint32(c[0]), uint32(c[1]))
		prev = [2]int32{s, t}
	}
	out = encodeSymbols(append(out, 1), symbols, 2)
	out = binary.LittleEndian.AppendUint32(out, uint32(o.maxQuantized))
	return binary.LittleEndian.AppendUint32(out, uint32(o.center))
}

// quantization is a float attribute on Draco's grid: value =
// min + q·rng/(2^bits-1), the same range for every component.
type quantization struct {
	values []int32
	min    []float32
	rng    float32
	bits   int
}

func quantize(v []float32, comps, bits int) quantization {
	q := quantization{min: make([]float32, comps), bits: bits, values: make([]int32, len(v))}
	hi := make([]float32, comps)
	for c := 0; c < comps; c++ {
		q.min[c], hi[c] = float32(math.Inf(1)), float32(math.Inf(-1))
	}
	for i, x := range v {
		c := i % comps
		q.min[c], hi[c] = min(q.min[c], x), max(hi[c], x)
	}
	for c := 0; c < comps; c++ {
		q.rng = max(q.rng, hi[c]-q.min[c])
	}
	if q.rng == 0 {
		q.rng = 1
	}
	maxQ := float32(int32(1)<<bits - 1)
	inv := maxQ / q.rng
	for i, x := range v {
		q.values[i] = int32(math.Floor(float64((x-q.min[i%comps])*inv + 0.5)))
	}
	return q
}

// Dequantized is the float attribute a decoder gives back for v coded
// with bits: the values clients see, whose bounds the glTF accessor
// states.
func Dequantized(v []float32, comps, bits int) []float32 {
	q := quantize(v, comps, bits)
	delta := q.rng / float32(int32(1)<<bits-1)
	out := make([]float32, len(v))
	for i, x := range q.values {
		out[i] = float32(x)*delta + q.min[i%comps]
	}
	return out
}

// rotateCorners starts each triangle at the corner that makes its index
// deltas smallest, the previous triangle's last index included: the
// triangle and its winding stay, the symbols shrink.
func rotateCorners(idx []uint32) []uint32 {
	out := make([]uint32, len(idx))
	cost := func(d int64) int { return bits.Len64(uint64(max(d, -d))) }
	last := int64(0)
	for i := 0; i+2 < len(idx); i += 3 {
		best, bestCost := 0, math.MaxInt
		for r := 0; r < 3; r++ {
			a, b, c := int64(idx[i+r]), int64(idx[i+(r+1)%3]), int64(idx[i+(r+2)%3])
			if k := cost(a-last) + cost(b-a) + cost(c-b); k < bestCost {
				best, bestCost = r, k
			}
		}
		for k := 0; k < 3; k++ {
			out[i+k] = idx[i+(best+k)%3]
		}
		last = int64(out[i+2])
	}
	return out
}
