// Package meshopt encodes and decodes the bitstreams of the glTF extension
// EXT_meshopt_compression (Khronos, Vendor/EXT_meshopt_compression,
// Appendix A and B): the attribute codec (mode 0), the triangle codec
// (mode 1), the index sequence codec (mode 2) and the octahedral,
// quaternion and exponential filters. It works on byte slices only, so the
// scene reader can decode compressed input and the scene writer can
// compress its buffer views without either knowing the bit layout.
//
// The encoders are written from the published bitstream description; the
// decoders follow the same text, so a test can round-trip without Node and
// three.js's MeshoptDecoder can check the encoders against the reference.
package meshopt

import (
	"errors"
	"fmt"
)

// Mode is the compression mode of a buffer view, as the extension spells it.
type Mode string

// The three modes of the extension.
const (
	ModeAttributes Mode = "ATTRIBUTES"
	ModeTriangles  Mode = "TRIANGLES"
	ModeIndices    Mode = "INDICES"
)

// Filter is the post-decode transform of an ATTRIBUTES view.
type Filter string

// The filters of the extension; "" reads as FilterNone.
const (
	FilterNone        Filter = "NONE"
	FilterOctahedral  Filter = "OCTAHEDRAL"
	FilterQuaternion  Filter = "QUATERNION"
	FilterExponential Filter = "EXPONENTIAL"
)

// ErrMalformed is wrapped by every decode failure: the stream does not
// follow the bitstream of its mode, or does not match count and stride.
var ErrMalformed = errors.New("meshopt: malformed stream")

func malformed(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrMalformed, fmt.Sprintf(format, args...))
}

// Check validates the parameters of a compressed view against the rules
// of the extension's JSON section, so a reader can reject a bad file with
// a message rather than decode garbage.
func Check(mode Mode, filter Filter, count, stride int) error {
	if count < 0 || stride <= 0 {
		return malformed("count %d, byteStride %d", count, stride)
	}
	switch mode {
	case ModeAttributes:
		if stride%4 != 0 || stride > 256 {
			return malformed("ATTRIBUTES needs a byteStride divisible by 4 and at most 256, not %d", stride)
		}
	case ModeTriangles, ModeIndices:
		if stride != 2 && stride != 4 {
			return malformed("%s needs a byteStride of 2 or 4, not %d", mode, stride)
		}
		if mode == ModeTriangles && count%3 != 0 {
			return malformed("TRIANGLES needs a count divisible by 3, not %d", count)
		}
		if filter != "" && filter != FilterNone {
			return malformed("%s takes no filter, not %s", mode, filter)
		}
	default:
		return malformed("unknown mode %q", mode)
	}
	switch filter {
	case "", FilterNone, FilterExponential:
		if filter == FilterExponential && stride%4 != 0 {
			return malformed("EXPONENTIAL needs a byteStride divisible by 4")
		}
	case FilterOctahedral:
		if stride != 4 && stride != 8 {
			return malformed("OCTAHEDRAL needs a byteStride of 4 or 8, not %d", stride)
		}
	case FilterQuaternion:
		if stride != 8 {
			return malformed("QUATERNION needs a byteStride of 8, not %d", stride)
		}
	default:
		return malformed("unknown filter %q", filter)
	}
	return nil
}

// Decode decodes a compressed view into count*stride bytes, applying its
// filter: what a loader puts in the view's place.
func Decode(mode Mode, filter Filter, count, stride int, src []byte) ([]byte, error) {
	if err := Check(mode, filter, count, stride); err != nil {
		return nil, err
	}
	switch mode {
	case ModeAttributes:
		out, err := DecodeVertexBuffer(src, count, stride)
		if err != nil {
			return nil, err
		}
		switch filter {
		case FilterOctahedral:
			DecodeOctahedral(out, stride)
		case FilterQuaternion:
			DecodeQuaternion(out)
		case FilterExponential:
			DecodeExponential(out)
		}
		return out, nil
	case ModeTriangles:
		idx, err := DecodeTriangles(src, count)
		if err != nil {
			return nil, err
		}
		return packIndices(idx, stride), nil
	default:
		idx, err := DecodeIndexSequence(src, count)
		if err != nil {
			return nil, err
		}
		return packIndices(idx, stride), nil
	}
}

func packIndices(idx []uint32, stride int) []byte {
	out := make([]byte, len(idx)*stride)
	for i, v := range idx {
		if stride == 2 {
			out[2*i], out[2*i+1] = byte(v), byte(v>>8)
		} else {
			out[4*i], out[4*i+1], out[4*i+2], out[4*i+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
		}
	}
	return out
}
