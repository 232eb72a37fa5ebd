package meshopt

// The attribute codec (mode 0): elements are cut into blocks; within a
// block each byte position of the element is a "data block" of zigzag
// byte deltas from the previous element, in groups of 16 whose 2-bit
// header picks how wide the deltas are stored (0, 2 or 4 bits with a
// sentinel for outliers, or whole bytes). The baseline for the first
// delta is the element stored at the very end of the stream.

const (
	vertexHeader = 0xa0
	groupSize    = 16
	tailMinSize  = 32
)

// blockElements is the number of elements per attribute block: as many
// whole groups as fit in 8 KiB, at most 256.
func blockElements(stride int) int {
	return min((8192/stride)&^15, 256)
}

func zigzag8(v byte) byte {
	if v&0x80 != 0 {
		return ^(v << 1)
	}
	return v << 1
}

func unzigzag8(v byte) byte {
	if v&1 != 0 {
		return ^(v >> 1)
	}
	return v >> 1
}

// EncodeVertexBuffer compresses count elements of stride bytes (stride a
// multiple of 4, at most 256) with the attribute codec. Each group takes
// the narrowest of the four encodings, so no other choice of encodings
// gives a shorter stream for the same bytes in the same order.
func EncodeVertexBuffer(data []byte, count, stride int) []byte {
	out := make([]byte, 1, 1+len(data)/2+max(stride, tailMinSize))
	out[0] = vertexHeader
	base := make([]byte, stride)
	if count > 0 {
		copy(base, data[:stride])
	}
	last := append([]byte(nil), base...)
	per := blockElements(stride)
	var deltas [256]byte
	for start := 0; start < count; start += per {
		n := min(count-start, per)
		groups := (n + groupSize - 1) / groupSize
		for k := 0; k < stride; k++ {
			prev := last[k]
			for i := 0; i < groups*groupSize; i++ {
				if i < n {
					v := data[(start+i)*stride+k]
					deltas[i] = zigzag8(v - prev)
					prev = v
				} else {
					deltas[i] = 0
				}
			}
			hdr := len(out)
			for range (groups + 3) / 4 {
				out = append(out, 0)
			}
			for g := 0; g < groups; g++ {
				var bits byte
				out, bits = encodeGroup(out, deltas[g*groupSize:(g+1)*groupSize])
				out[hdr+g/4] |= bits << (2 * (g % 4))
			}
		}
		copy(last, data[(start+n-1)*stride:(start+n)*stride])
	}
	for range max(stride, tailMinSize) - stride {
		out = append(out, 0)
	}
	return append(out, base...)
}

// encodeGroup appends the 16 deltas d in the narrowest encoding and
// returns its header bits.
func encodeGroup(out []byte, d []byte) ([]byte, byte) {
	zero, over2, over4 := true, 0, 0
	for _, v := range d {
		zero = zero && v == 0
		if v >= 3 {
			over2++
		}
		if v >= 15 {
			over4++
		}
	}
	switch {
	case zero:
		return out, 0
	case 4+over2 <= 8+over4 && 4+over2 < 16:
		for j := 0; j < 4; j++ {
			var b byte
			for q := 0; q < 4; q++ {
				b |= min(d[4*j+q], 3) << (6 - 2*q)
			}
			out = append(out, b)
		}
		for _, v := range d {
			if v >= 3 {
				out = append(out, v)
			}
		}
		return out, 1
	case 8+over4 < 16:
		for j := 0; j < 8; j++ {
			out = append(out, min(d[2*j], 15)<<4|min(d[2*j+1], 15))
		}
		for _, v := range d {
			if v >= 15 {
				out = append(out, v)
			}
		}
		return out, 2
	default:
		return append(out, d...), 3
	}
}

// DecodeVertexBuffer decodes count elements of stride bytes from src,
// which must be exactly one attribute stream.
func DecodeVertexBuffer(src []byte, count, stride int) ([]byte, error) {
	if stride <= 0 || stride%4 != 0 || stride > 256 {
		return nil, malformed("vertex stride %d", stride)
	}
	tail := max(stride, tailMinSize)
	if len(src) < 1+tail || src[0] != vertexHeader {
		return nil, malformed("not an attribute stream (header or length)")
	}
	// Each block spends at least 2 header bits per 16 elements on every
	// byte of the element: a count beyond that cannot be in src, and is
	// refused before it is allocated.
	if count < 0 || count/64 > len(src) {
		return nil, malformed("%d elements cannot fit in %d bytes", count, len(src))
	}
	out := make([]byte, count*stride)
	last := append([]byte(nil), src[len(src)-stride:]...)
	end := len(src) - tail
	pos := 1
	per := blockElements(stride)
	var deltas [256]byte
	for start := 0; start < count; start += per {
		n := min(count-start, per)
		groups := (n + groupSize - 1) / groupSize
		for k := 0; k < stride; k++ {
			hdr := pos
			pos += (groups + 3) / 4
			if pos > end {
				return nil, malformed("attribute stream ends inside a block header")
			}
			for g := 0; g < groups; g++ {
				bits := src[hdr+g/4] >> (2 * (g % 4)) & 3
				var err error
				pos, err = decodeGroup(src[:end], pos, bits, deltas[g*groupSize:(g+1)*groupSize])
				if err != nil {
					return nil, err
				}
			}
			prev := last[k]
			for i := 0; i < n; i++ {
				prev += unzigzag8(deltas[i])
				out[(start+i)*stride+k] = prev
			}
		}
		copy(last, out[(start+n-1)*stride:(start+n)*stride])
	}
	if pos != end {
		return nil, malformed("attribute stream has %d bytes after its blocks", end-pos)
	}
	return out, nil
}

func decodeGroup(src []byte, pos int, bits byte, d []byte) (int, error) {
	switch bits {
	case 0:
		clear(d)
		return pos, nil
	case 3:
		if pos+16 > len(src) {
			return 0, malformed("attribute stream ends inside a group")
		}
		copy(d, src[pos:pos+16])
		return pos + 16, nil
	}
	width := 2 * int(bits) // 2 or 4
	packed := 16 * width / 8
	if pos+packed > len(src) {
		return 0, malformed("attribute stream ends inside a group")
	}
	sentinel := byte(1<<width - 1)
	extra := pos + packed
	for i := 0; i < 16; i++ {
		bit := i * width
		v := src[pos+bit/8] >> (8 - width - bit%8) & sentinel
		if v == sentinel {
			if extra >= len(src) {
				return 0, malformed("attribute stream ends inside a group")
			}
			v = src[extra]
			extra++
		}
		d[i] = v
	}
	return extra, nil
}
