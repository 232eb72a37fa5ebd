package meshopt

import (
	"encoding/binary"
	"math"
)

// Filters (Appendix B) turn each element after attribute decoding; their
// encoders below pick the element layout the decode functions invert.
// Decoders may differ from each other by one unit in the last place, so a
// writer that wants a lossless file checks the round trip itself.

// DecodeOctahedral turns 4 signed components (x, y in octahedral form, a
// K-bit 1.0, a free fourth) into a unit vector's 3 normalized components
// and the fourth, in place; stride is 4 (8-bit) or 8 (16-bit).
func DecodeOctahedral(data []byte, stride int) {
	for i := 0; i+stride <= len(data); i += stride {
		var in [4]int32
		for c := range in {
			in[c] = readSigned(data[i:], c, stride/4)
		}
		out := octDecode(in, stride/4)
		for c := 0; c < 3; c++ {
			writeSigned(data[i:], c, stride/4, out[c])
		}
	}
}

func octDecode(in [4]int32, size int) [3]int32 {
	one := float32(in[2])
	x, y := float32(in[0])/one, float32(in[1])/one
	z := 1 - abs32(x) - abs32(y)
	t := min(z, 0)
	x -= copysign32(t, x)
	y -= copysign32(t, y)
	l := float32(math.Sqrt(float64(x*x + y*y + z*z)))
	scale := float32(127)
	if size == 2 {
		scale = 32767
	}
	return [3]int32{round32(x / l * scale), round32(y / l * scale), round32(z / l * scale)}
}

// EncodeOctahedral lays out unit vectors v (xyz, plus a fourth value w in
// [-1,1] kept as a normalized integer, for tangents) in octahedral form
// with bits (4..16, at most 8 when stride is 4) of precision.
func EncodeOctahedral(v [][4]float32, stride, bits int) []byte {
	size := stride / 4
	one := int32(1)<<(bits-1) - 1
	full := float32(127)
	if size == 2 {
		full = 32767
	}
	out := make([]byte, len(v)*stride)
	for i, e := range v {
		x, y, z := e[0], e[1], e[2]
		s := abs32(x) + abs32(y) + abs32(z)
		if s == 0 {
			s = 1
		}
		x, y, z = x/s, y/s, z/s
		if z < 0 {
			x, y = (1-abs32(y))*sign32(x), (1-abs32(x))*sign32(y)
		}
		o := out[i*stride:]
		writeSigned(o, 0, size, round32(x*float32(one)))
		writeSigned(o, 1, size, round32(y*float32(one)))
		writeSigned(o, 2, size, one)
		writeSigned(o, 3, size, round32(max(-1, min(1, e[3]))*full))
	}
	return out
}

// DecodeQuaternion turns 8-byte elements (three 16-bit components scaled
// by √2, and a K-bit 1.0 whose low 2 bits name the dropped largest
// component) into four normalized 16-bit components, in place.
func DecodeQuaternion(data []byte) {
	const r = float32(1 / math.Sqrt2)
	for i := 0; i+8 <= len(data); i += 8 {
		var in [4]int32
		for c := range in {
			in[c] = readSigned(data[i:], c, 2)
		}
		one := float32(in[3] | 3)
		x := float32(in[0]) / one * r
		y := float32(in[1]) / one * r
		z := float32(in[2]) / one * r
		w := float32(math.Sqrt(float64(max(0, 1-x*x-y*y-z*z))))
		m := int(in[3] & 3)
		writeSigned(data[i:], (m+1)%4, 2, round32(x*32767))
		writeSigned(data[i:], (m+2)%4, 2, round32(y*32767))
		writeSigned(data[i:], (m+3)%4, 2, round32(z*32767))
		writeSigned(data[i:], m, 2, round32(w*32767))
	}
}

// EncodeQuaternion lays out unit quaternions (x, y, z, w) for the
// quaternion filter with bits (4..16) of precision.
func EncodeQuaternion(q [][4]float32, bits int) []byte {
	one := int32(1)<<(bits-1) - 1
	out := make([]byte, 8*len(q))
	for i, e := range q {
		m := 0
		for c := 1; c < 4; c++ {
			if abs32(e[c]) > abs32(e[m]) {
				m = c
			}
		}
		if e[m] < 0 {
			e = [4]float32{-e[0], -e[1], -e[2], -e[3]}
		}
		o := out[8*i:]
		for k := 0; k < 3; k++ {
			writeSigned(o, k, 2, round32(e[(m+1+k)%4]*math.Sqrt2*float32(one)))
		}
		writeSigned(o, 3, 2, one&^3|int32(m))
	}
	return out
}

// DecodeExponential turns little-endian int32 values (8-bit exponent,
// 24-bit mantissa) into float32 m·2^e, in place.
func DecodeExponential(data []byte) {
	for i := 0; i+4 <= len(data); i += 4 {
		v := int32(binary.LittleEndian.Uint32(data[i:]))
		e := v >> 24
		m := v << 8 >> 8
		binary.LittleEndian.PutUint32(data[i:], math.Float32bits(float32(math.Ldexp(float64(m), int(e)))))
	}
}

// EncodeExponential lays out float values, comps to an element sharing
// one exponent, with a mantissa of bits (1..24, sign included); when the
// values fit, the encoding is exact. It reports whether every value came
// back exactly.
func EncodeExponential(v []float32, comps, bits int) ([]byte, bool) {
	out := make([]byte, 4*len(v))
	exact := true
	for i := 0; i < len(v); i += comps {
		el := v[i:min(i+comps, len(v))]
		// The exponent that gives the largest component bits-1 bits of
		// magnitude.
		e := -100
		for _, x := range el {
			if x == 0 || math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				continue
			}
			_, ex := math.Frexp(float64(x))
			e = max(e, ex-(bits-1))
		}
		e = max(-100, min(100, e))
		for k, x := range el {
			m := math.Round(math.Ldexp(float64(x), -e))
			lim := float64(int32(1)<<(bits-1) - 1)
			m = max(-lim, min(lim, m))
			if float32(math.Ldexp(m, e)) != x {
				exact = false
			}
			binary.LittleEndian.PutUint32(out[4*(i+k):], uint32(int32(e)<<24|int32(m)&0xffffff))
		}
	}
	return out, exact
}

func readSigned(b []byte, c, size int) int32 {
	if size == 1 {
		return int32(int8(b[c]))
	}
	return int32(int16(binary.LittleEndian.Uint16(b[2*c:])))
}

func writeSigned(b []byte, c, size int, v int32) {
	if size == 1 {
		b[c] = byte(int8(v))
		return
	}
	binary.LittleEndian.PutUint16(b[2*c:], uint16(int16(v)))
}

func abs32(x float32) float32 { return float32(math.Abs(float64(x))) }

func sign32(x float32) float32 {
	if x < 0 {
		return -1
	}
	return 1
}

func copysign32(a, b float32) float32 { return float32(math.Copysign(float64(a), float64(b))) }

func round32(x float32) int32 { return int32(math.Round(float64(x))) }

// EncodeExponentialShared lays out float values for the exponential
// filter with one exponent for all of them, the smallest that holds
// every value exactly; consecutive values (keyframe times on a grid) then
// differ in few bytes. It reports false when no exponent holds them all
// within a 24-bit mantissa.
func EncodeExponentialShared(v []float32) ([]byte, bool) {
	e := 100
	for _, x := range v {
		if x == 0 {
			continue
		}
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return nil, false
		}
		// The exponent of the lowest set bit of x's significand.
		frac, exp := math.Frexp(float64(x))
		m := uint64(math.Abs(math.Ldexp(frac, 53)))
		low := exp - 53
		for m&1 == 0 {
			m >>= 1
			low++
		}
		e = min(e, low)
	}
	if e < -100 {
		return nil, false
	}
	out := make([]byte, 4*len(v))
	lim := float64(int32(1)<<23 - 1)
	for i, x := range v {
		m := math.Ldexp(float64(x), -e)
		if math.Abs(m) > lim {
			return nil, false
		}
		binary.LittleEndian.PutUint32(out[4*i:], uint32(int32(e)<<24|int32(m)&0xffffff))
	}
	return out, true
}
