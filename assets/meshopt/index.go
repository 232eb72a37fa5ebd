package meshopt

import "slices"

// The triangle codec (mode 1) keeps a 16-entry FIFO of recent edges and
// one of recent vertices and a high-water mark "next" of the vertices
// seen so far; in a mesh whose vertices are numbered in order of first
// use and whose triangles are in cache order, most triangles are one
// code byte: an edge from the FIFO and either the next new vertex or a
// recent one. The index sequence codec (mode 2) stores varint deltas
// from one of two running baselines.

const (
	triangleHeader = 0xe1
	sequenceHeader = 0xd1
	fifoSize       = 16
)

// codeAux is the starting lookup table stored at the end of a triangle
// stream: entry Y of code 0xfY describes a triangle whose first vertex is
// the next new one by two nibbles Z and W for its second and third vertex
// (0: the next new vertex, k: the vertex FIFO's entry k-1). The last two
// bytes must be 0 and no nibble may be 0xf; entry 0 is always 0x00, since
// the only other way to write three new vertices (0xfe with a zero byte)
// means "restart". EncodeTriangles replaces the other entries by the
// combinations the stream meets most.
var codeAux = [16]byte{0x00, 0x12, 0x21, 0x01, 0x10, 0x13, 0x31, 0x23, 0x32, 0x02, 0x20, 0x14, 0x41, 0x24, 0x00, 0x00}

// fifo is a ring of recent values; entry 0 is the one pushed last.
type fifo[T comparable] struct {
	ring [fifoSize]T
	head int
	n    int
}

func (f *fifo[T]) push(v T) {
	f.head = (f.head - 1) & (fifoSize - 1)
	f.ring[f.head] = v
	f.n = min(f.n+1, fifoSize)
}

func (f *fifo[T]) at(i int) T { return f.ring[(f.head+i)&(fifoSize-1)] }

// find returns the position of v among the first limit entries, or -1.
func (f *fifo[T]) find(v T, limit int) int {
	for i := 0; i < min(f.n, limit); i++ {
		if f.at(i) == v {
			return i
		}
	}
	return -1
}

type edge struct{ a, b uint32 }

func appendVarint(out []byte, v uint32) []byte {
	for v >= 0x80 {
		out = append(out, byte(v)|0x80)
		v >>= 7
	}
	return append(out, byte(v))
}

func zigzag32(d int32) uint32 { return uint32(d<<1) ^ uint32(d>>31) }

func unzigzag32(v uint32) int32 {
	if v&1 != 0 {
		return ^int32(v >> 1)
	}
	return int32(v >> 1)
}

// EncodeTriangles compresses a triangle list (len(indices) divisible by
// 3) with the triangle codec. The stream is smallest when vertices are
// numbered in order of first use and triangles are in vertex cache order
// (see OptimizeVertexCache and OptimizeVertexFetch), but any list
// round-trips exactly, up to the rotation of each triangle's corners,
// which keeps its winding.
func EncodeTriangles(indices []uint32) []byte {
	// The codec's state (next, the FIFOs) does not depend on the table,
	// so a first pass counts the combinations exactly as the second
	// meets them.
	counts := map[byte]int{}
	encodeTriangles(indices, codeAux, counts)
	table := codeAux
	var zws []byte
	for zw := range counts {
		if zw != 0 {
			zws = append(zws, zw)
		}
	}
	slices.SortFunc(zws, func(a, b byte) int {
		if counts[a] != counts[b] {
			return counts[b] - counts[a]
		}
		return int(a) - int(b)
	})
	for i, zw := range zws[:min(len(zws), 13)] {
		table[1+i] = zw
	}
	return encodeTriangles(indices, table, nil)
}

// encodeTriangles encodes with the given table; counts, when not nil,
// receives how often each combination of a triangle that starts with the
// next new vertex occurs.
func encodeTriangles(indices []uint32, table [16]byte, counts map[byte]int) []byte {
	tris := len(indices) / 3
	codes := make([]byte, 0, tris)
	data := make([]byte, 0, tris)
	var edges fifo[edge]
	var verts fifo[uint32]
	var next, last uint32
	explicit := func(v uint32) {
		data = appendVarint(data, zigzag32(int32(v-last)))
		last = v
	}
	for t := 0; t < tris; t++ {
		tri := [3]uint32{indices[3*t], indices[3*t+1], indices[3*t+2]}
		if code, ok := encodeEdgeTriangle(tri, &edges, &verts, &next, &last, explicit); ok {
			codes = append(codes, code)
			continue
		}
		// No known edge: put the next new vertex first when a rotation
		// has it, so that the code needs no explicit first index.
		rot := tri
		for r := 0; r < 3; r++ {
			c := [3]uint32{tri[r], tri[(r+1)%3], tri[(r+2)%3]}
			if c[0] == next {
				rot = c
				break
			}
		}
		a, b, c := rot[0], rot[1], rot[2]
		// A stream that starts again at vertex 0 (the next primitive of a
		// view that holds several) resets next, as the 0xfe code with a
		// zero byte says, so its vertices count as new again.
		if next != 0 && a == 0 && b == 1 && c == 2 {
			codes = append(codes, 0xfe)
			data = append(data, 0)
			next = 3
			edges.push(edge{b, a})
			edges.push(edge{c, b})
			edges.push(edge{a, c})
			verts.push(a)
			verts.push(b)
			verts.push(c)
			continue
		}
		firstNew := a == next
		n := next
		if firstNew {
			n++
		}
		nibble := func(v uint32) byte {
			if v == n {
				n++
				return 0
			}
			if i := verts.find(v, 14); i >= 0 {
				return byte(i + 1)
			}
			return 0xf
		}
		z := nibble(b)
		w := nibble(c)
		zw := z<<4 | w
		aux := -1
		if firstNew && z != 0xf && w != 0xf && counts != nil {
			counts[zw]++
		}
		if firstNew {
			for y := 0; y < 14; y++ {
				if table[y] == zw {
					aux = y
					break
				}
			}
		}
		switch {
		case aux >= 0:
			codes = append(codes, 0xf0|byte(aux))
		case firstNew:
			codes = append(codes, 0xfe)
			data = append(data, zw)
		default:
			codes = append(codes, 0xff)
			data = append(data, zw)
			explicit(a)
		}
		if z == 0xf {
			explicit(b)
		}
		if w == 0xf {
			explicit(c)
		}
		next = n
		edges.push(edge{b, a})
		edges.push(edge{c, b})
		edges.push(edge{a, c})
		verts.push(a)
		if z == 0 || z == 0xf {
			verts.push(b)
		}
		if w == 0 || w == 0xf {
			verts.push(c)
		}
	}
	out := make([]byte, 0, 1+len(codes)+len(data)+16)
	out = append(out, triangleHeader)
	out = append(out, codes...)
	out = append(out, data...)
	return append(out, table[:]...)
}

// encodeEdgeTriangle codes a triangle that has an edge in the FIFO, if
// any rotation does, preferring a third vertex that needs no extra bytes.
func encodeEdgeTriangle(tri [3]uint32, edges *fifo[edge], verts *fifo[uint32], next, last *uint32, explicit func(uint32)) (byte, bool) {
	best, bestX, bestCost := [3]uint32{}, -1, 3
	for r := 0; r < 3 && bestCost > 0; r++ {
		a, b, c := tri[r], tri[(r+1)%3], tri[(r+2)%3]
		x := edges.find(edge{a, b}, 15)
		if x < 0 {
			continue
		}
		cost := 1
		if c == *next || c+1 == *last || c == *last+1 {
			cost = 0
		} else if y := verts.find(c, 13); y >= 1 {
			cost = 0
		}
		if cost < bestCost {
			best, bestX, bestCost = [3]uint32{a, b, c}, x, cost
		}
	}
	if bestX < 0 {
		return 0, false
	}
	a, b, c := best[0], best[1], best[2]
	code := byte(bestX) << 4
	push := true
	switch y := verts.find(c, 13); {
	case c == *next:
		*next++
	case y >= 1:
		code |= byte(y)
		push = false
	case c+1 == *last:
		code |= 0xd
		*last = c
	case c == *last+1:
		code |= 0xe
		*last = c
	default:
		code |= 0xf
		explicit(c)
	}
	edges.push(edge{c, b})
	edges.push(edge{a, c})
	if push {
		verts.push(c)
	}
	return code, true
}

// DecodeTriangles decodes count indices (a multiple of 3) from a triangle
// stream.
func DecodeTriangles(src []byte, count int) ([]uint32, error) {
	if count%3 != 0 {
		return nil, malformed("triangle count %d is not a multiple of 3", count)
	}
	tris := count / 3
	if len(src) < 1+tris+16 || src[0] != triangleHeader {
		return nil, malformed("not a triangle stream (header or length)")
	}
	aux := src[len(src)-16:]
	codes := src[1 : 1+tris]
	data := src[1+tris : len(src)-16]
	pos := 0
	var edges fifo[edge]
	var verts fifo[uint32]
	var next, last uint32
	var bad error
	readByte := func() byte {
		if pos >= len(data) {
			bad = malformed("triangle stream ends inside its data")
			return 0
		}
		pos++
		return data[pos-1]
	}
	readIndex := func() uint32 {
		var v uint32
		for shift := 0; shift < 35; shift += 7 {
			b := readByte()
			v |= uint32(b&0x7f) << shift
			if b < 0x80 {
				break
			}
		}
		last += uint32(unzigzag32(v))
		return last
	}
	fromFifo := func(i int) uint32 {
		if i >= verts.n {
			bad = malformed("triangle stream reads an empty vertex FIFO entry")
		}
		return verts.at(i)
	}
	out := make([]uint32, 0, count)
	for _, code := range codes {
		x, y := int(code>>4), int(code&0xf)
		var a, b, c uint32
		if x < 0xf {
			if x >= edges.n {
				return nil, malformed("triangle stream reads an empty edge FIFO entry")
			}
			e := edges.at(x)
			a, b = e.a, e.b
			push := true
			switch {
			case y == 0:
				c = next
				next++
			case y < 0xd:
				c = fromFifo(y)
				push = false
			case y == 0xd:
				last--
				c = last
			case y == 0xe:
				last++
				c = last
			default:
				c = readIndex()
			}
			edges.push(edge{c, b})
			edges.push(edge{a, c})
			if push {
				verts.push(c)
			}
		} else {
			var zw byte
			if y < 0xe {
				zw = aux[y]
				a = next
				next++
			} else {
				zw = readByte()
				if zw == 0 {
					next = 0
				}
				if y == 0xe {
					a = next
					next++
				} else {
					a = readIndex()
				}
			}
			z, w := int(zw>>4), int(zw&0xf)
			take := func(n int) uint32 {
				switch {
				case n == 0:
					next++
					return next - 1
				case n < 0xf:
					return fromFifo(n - 1)
				default:
					return readIndex()
				}
			}
			b = take(z)
			c = take(w)
			edges.push(edge{b, a})
			edges.push(edge{c, b})
			edges.push(edge{a, c})
			verts.push(a)
			if z == 0 || z == 0xf {
				verts.push(b)
			}
			if w == 0 || w == 0xf {
				verts.push(c)
			}
		}
		if bad != nil {
			return nil, bad
		}
		out = append(out, a, b, c)
	}
	if pos != len(data) {
		return nil, malformed("triangle stream has %d unread data bytes", len(data)-pos)
	}
	return out, nil
}

// EncodeIndexSequence compresses any index list (strips, lines, points,
// sparse indices) with the index sequence codec, taking for each index
// the baseline it is nearer to.
func EncodeIndexSequence(indices []uint32) []byte {
	out := make([]byte, 1, 1+len(indices)+4)
	out[0] = sequenceHeader
	var base [2]uint32
	for _, v := range indices {
		d0, d1 := int64(v)-int64(base[0]), int64(v)-int64(base[1])
		k := 0
		if abs64(d1) < abs64(d0) {
			k = 1
		}
		d := int32(v - base[k])
		out = appendVarint(out, zigzag32(d)<<1|uint32(k))
		base[k] = v
	}
	return append(out, 0, 0, 0, 0)
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// DecodeIndexSequence decodes count indices from an index sequence stream.
func DecodeIndexSequence(src []byte, count int) ([]uint32, error) {
	if len(src) < 1+4 || src[0] != sequenceHeader {
		return nil, malformed("not an index sequence stream (header or length)")
	}
	if count < 0 || count > len(src)-5 {
		return nil, malformed("%d indices cannot fit in %d bytes", count, len(src))
	}
	end := len(src) - 4
	pos := 1
	var base [2]uint32
	out := make([]uint32, count)
	for i := range out {
		var v uint32
		for shift := 0; ; shift += 7 {
			if pos >= end || shift > 28 {
				return nil, malformed("index sequence ends inside a value")
			}
			b := src[pos]
			pos++
			v |= uint32(b&0x7f) << shift
			if b < 0x80 {
				break
			}
		}
		k := v & 1
		base[k] += uint32(unzigzag32(v >> 1))
		out[i] = base[k]
	}
	if pos != end {
		return nil, malformed("index sequence has %d bytes after its values", end-pos)
	}
	return out, nil
}
