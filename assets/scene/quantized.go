package scene

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln/assets/meshopt"
)

const (
	quantizationExt = "KHR_mesh_quantization"
	meshoptExt      = "EXT_meshopt_compression"
)

// semantic is what a vertex stream is, which decides the integer types
// glTF (and KHR_mesh_quantization) allow for it.
type semantic int

const (
	semPosition semantic = iota
	semNormal
	semTangent
	semTexcoord
	semColor
	semWeights
	semTargetPosition
	semTargetDirection // morph target NORMAL and TANGENT deltas
)

// intType is a component type, normalized or not.
type intType struct {
	ct   gltf.ComponentType
	norm bool
	// core: glTF 2.0 allows it without KHR_mesh_quantization.
	core bool
}

var (
	i8n  = intType{ct: gltf.ComponentByte, norm: true}
	u8n  = intType{ct: gltf.ComponentUbyte, norm: true}
	i16n = intType{ct: gltf.ComponentShort, norm: true}
	u16n = intType{ct: gltf.ComponentUshort, norm: true}
	i8   = intType{ct: gltf.ComponentByte}
	u8   = intType{ct: gltf.ComponentUbyte}
	i16  = intType{ct: gltf.ComponentShort}
	u16  = intType{ct: gltf.ComponentUshort}
)

func coreType(t intType) intType { t.core = true; return t }

// allowed lists the integer types of each semantic, narrowest first.
var allowed = map[semantic][]intType{
	semPosition:        {i8, u8, i8n, u8n, i16, u16, i16n, u16n},
	semNormal:          {i8n, i16n},
	semTangent:         {i8n, i16n},
	semTexcoord:        {coreType(u8n), i8n, u8, i8, coreType(u16n), i16n, u16, i16},
	semColor:           {coreType(u8n), coreType(u16n)},
	semWeights:         {coreType(u8n), coreType(u16n)},
	semTargetPosition:  {i8, i8n, i16, i16n},
	semTargetDirection: {i8n, i16n},
}

// limits returns the integer range of a type and the divisor of a
// normalized one (0 when not normalized).
func limits(t intType) (lo, hi, div float64) {
	switch t.ct {
	case gltf.ComponentByte:
		lo, hi, div = -128, 127, 127
	case gltf.ComponentUbyte:
		lo, hi, div = 0, 255, 255
	case gltf.ComponentShort:
		lo, hi, div = -32768, 32767, 32767
	default:
		lo, hi, div = 0, 65535, 65535
	}
	if !t.norm {
		return lo, hi, 0
	}
	return max(lo, -hi), hi, div
}

// quantizeExact returns the integers that hold v in type t, or false when
// some value would not come back bit for bit the way Read dequantizes.
func quantizeExact(v []float32, t intType) ([]int32, bool) {
	lo, hi, div := limits(t)
	out := make([]int32, len(v))
	for i, x := range v {
		q := float64(x)
		if div != 0 {
			q *= div
		}
		q = math.Round(q)
		if q < lo || q > hi {
			return nil, false
		}
		back := float32(q)
		if div != 0 {
			back = max(float32(q)/float32(div), -1)
		}
		if back != x {
			return nil, false
		}
		out[i] = int32(q)
	}
	return out, true
}

// packInts lays out integers of comps components, each element padded to
// 4 bytes as KHR_mesh_quantization requires; stride is 0 when no padding
// was needed.
func packInts(q []int32, comps int, ct gltf.ComponentType) (b []byte, stride, elem int) {
	size := ct.ByteSize()
	elem = (comps*size + 3) &^ 3
	b = make([]byte, 0, elem*len(q)/comps)
	for i := 0; i < len(q); i += comps {
		start := len(b)
		for _, v := range q[i : i+comps] {
			if size == 1 {
				b = append(b, byte(v))
			} else {
				b = binary.LittleEndian.AppendUint16(b, uint16(v))
			}
		}
		for len(b)-start < elem {
			b = append(b, 0)
		}
	}
	if elem != comps*size {
		stride = elem
	}
	return b, stride, elem
}

// vertexAttr writes a vertex stream: in a quantized scene as the first
// allowed integer type that holds it exactly, else as float.
func (w *writer) vertexAttr(sem semantic, v []float32, comps int, minmax bool) int {
	if w.quantized && len(v) > 0 {
		for _, t := range allowed[sem] {
			if q, ok := quantizeExact(v, t); ok {
				return w.intAttr(sem, v, q, comps, t, minmax)
			}
		}
	}
	return w.floatAttr(v, comps, minmax)
}

// unitAttr is vertexAttr for normals and tangents: raw is tried for an
// exact integer type, unit (renormalized) is what float output stores.
func (w *writer) unitAttr(sem semantic, raw, unit []float32, comps int) int {
	if w.quantized {
		for _, t := range allowed[sem] {
			if q, ok := quantizeExact(raw, t); ok && (sem != semTangent || unitW(raw)) {
				return w.intAttr(sem, raw, q, comps, t, false)
			}
		}
	}
	return w.floatAttr(unit, comps, false)
}

// unitW: tangent w must be exactly ±1.
func unitW(t []float32) bool {
	for i := 3; i < len(t); i += 4 {
		if t[i] != 1 && t[i] != -1 {
			return false
		}
	}
	return true
}

func (w *writer) intAttr(sem semantic, v []float32, q []int32, comps int, t intType, minmax bool) int {
	if !t.core {
		w.usedQuantization = true
	}
	b, stride, elem := packInts(q, comps, t.ct)
	count := len(v) / comps
	spec := accSpec{ct: t.ct, typ: vecType[comps], normalized: t.norm, count: count, target: gltf.TargetArrayBuffer, stride: stride,
		info: viewInfo{mode: meshopt.ModeAttributes, stride: elem, count: count}}
	if w.opts.Meshopt && (sem == semNormal || sem == semTangent) && t.norm {
		spec.info.filter, spec.info.filtered = octahedral(v, comps, b, elem)
	}
	var mm []float32
	if minmax {
		mm = v
		if t.norm {
			// Bounds of a normalized accessor are its stored integers.
			mm = make([]float32, len(q))
			for i, x := range q {
				mm[i] = float32(x)
			}
		}
	}
	return w.accessor(b, spec, mm)
}

// within1 reports whether two layouts of signed components of size bytes
// differ by at most one unit everywhere, the error the extension allows
// between decoders.
func within1(a, b []byte, size int) bool {
	for i := 0; i+size <= len(a); i += size {
		var x, y int32
		if size == 1 {
			x, y = int32(int8(a[i])), int32(int8(b[i]))
		} else {
			x, y = int32(int16(binary.LittleEndian.Uint16(a[i:]))), int32(int16(binary.LittleEndian.Uint16(b[i:])))
		}
		if x-y > 1 || y-x > 1 {
			return false
		}
	}
	return true
}

// octahedral returns the octahedral filter input for unit vectors stored
// as b (normalized bytes or shorts, stride 4 or 8), at the lowest
// precision whose decoding gives b back within one unit, or no filter.
func octahedral(v []float32, comps int, b []byte, stride int) (meshopt.Filter, []byte) {
	if stride != 4 && stride != 8 {
		return "", nil
	}
	vec := make([][4]float32, len(v)/comps)
	for i := range vec {
		copy(vec[i][:comps], v[i*comps:(i+1)*comps])
	}
	size := stride / 4
	for _, bits := range []int{8, 10, 12, 16}[:map[int]int{1: 1, 2: 4}[size]] {
		enc := meshopt.EncodeOctahedral(vec, stride, bits)
		dec := append([]byte(nil), enc...)
		meshopt.DecodeOctahedral(dec, stride)
		if within1(dec, b, size) {
			return meshopt.FilterOctahedral, enc
		}
	}
	return "", nil
}

// animOutput writes a sampler's keyframe values. In a quantized scene,
// rotations that are exact 16-bit normalized values are stored so (glTF
// allows it); with Meshopt, such rotations take the quaternion filter and
// float values the exponential one, where they round-trip.
func (w *writer) animOutput(out []float32, k int, rotation bool) int {
	count := len(out) / k
	spec := accSpec{ct: gltf.ComponentFloat, typ: vecType[k], count: count,
		info: viewInfo{mode: meshopt.ModeAttributes, stride: 4 * k, count: count}}
	if rotation && k == 4 && w.quantized {
		if q, ok := quantizeExact(out, i16n); ok {
			b, _, _ := packInts(q, 4, gltf.ComponentShort)
			spec.ct, spec.normalized, spec.info.stride = gltf.ComponentShort, true, 8
			if w.opts.Meshopt {
				quats := make([][4]float32, count)
				for i := range quats {
					copy(quats[i][:], out[4*i:4*i+4])
				}
				for _, bits := range []int{12, 14, 16} {
					enc := meshopt.EncodeQuaternion(quats, bits)
					dec := append([]byte(nil), enc...)
					meshopt.DecodeQuaternion(dec)
					if sameRotations(dec, b) {
						spec.info.filter, spec.info.filtered = meshopt.FilterQuaternion, enc
						break
					}
				}
			}
			return w.accessor(b, spec, nil)
		}
	}
	if w.opts.Meshopt && (k == 3 || k == 1) {
		for _, bits := range []int{12, 16, 20, 24} {
			if enc, exact := meshopt.EncodeExponential(out, k, bits); exact {
				spec.info.filter, spec.info.filtered = meshopt.FilterExponential, enc
				break
			}
		}
	}
	return w.accessor(appendFloats(make([]byte, 0, 4*len(out)), out...), spec, nil)
}

// sameRotations compares two layouts of 16-bit quaternions within one
// unit, q and -q being the same rotation.
func sameRotations(a, b []byte) bool {
	for i := 0; i+8 <= len(a); i += 8 {
		neg := make([]byte, 8)
		for c := 0; c < 4; c++ {
			binary.LittleEndian.PutUint16(neg[2*c:], uint16(-int16(binary.LittleEndian.Uint16(a[i+2*c:]))))
		}
		if !within1(a[i:i+8], b[i:i+8], 2) && !within1(neg, b[i:i+8], 2) {
			return false
		}
	}
	return true
}

// viewInfo is how a buffer view compresses: mode "" for views that stay
// as they are (images); filtered is the filter's input when a filter is
// used; indices the index values of a TRIANGLES or INDICES view.
type viewInfo struct {
	mode     meshopt.Mode
	filter   meshopt.Filter
	stride   int
	count    int
	filtered []byte
	indices  []uint32
}

// compress rewrites the binary chunk. The views of one kind (mode,
// filter, stride and target) are joined into one view, as gltfpack does:
// fewer views mean a shorter JSON and fewer codec tails, and the codecs
// carry their state from one accessor to the next. Each joined view is
// EXT_meshopt_compression data in buffer 0 and points at a fallback
// buffer 1 that holds no data; images stay as they are.
func (w *writer) compress() error {
	readers := make([][]*gltf.Accessor, len(w.doc.BufferViews))
	for _, a := range w.doc.Accessors {
		if a.BufferView != nil {
			readers[*a.BufferView] = append(readers[*a.BufferView], a)
		}
	}
	type key struct {
		mode   meshopt.Mode
		filter meshopt.Filter
		stride int
		target gltf.Target
	}
	type group struct {
		info viewInfo
		data []byte
	}
	groups := map[key]*group{}
	var views []*gltf.BufferView
	var contents []any // per new view: the image bytes or its group
	remap := make([]int, len(w.doc.BufferViews))
	for i, v := range w.doc.BufferViews {
		info := w.info[i]
		data := w.bin[v.ByteOffset : v.ByteOffset+v.ByteLength]
		if info.mode == "" {
			views = append(views, v)
			contents = append(contents, data)
			remap[i] = len(views) - 1
			continue
		}
		if info.stride*info.count != len(data) {
			return fmt.Errorf("buffer view %d: %d bytes are not %d elements of %d", i, len(data), info.count, info.stride)
		}
		k := key{info.mode, info.filter, info.stride, v.Target}
		g := groups[k]
		if g == nil {
			g = &group{info: viewInfo{mode: info.mode, filter: info.filter, stride: info.stride}}
			groups[k] = g
			nv := &gltf.BufferView{Target: v.Target}
			if v.Target == gltf.TargetArrayBuffer {
				nv.ByteStride = info.stride
			}
			views = append(views, nv)
			contents = append(contents, g)
		}
		offset := len(g.data)
		if info.filtered != nil {
			data = info.filtered
		}
		g.data = append(g.data, data...)
		g.info.count += info.count
		g.info.indices = append(g.info.indices, info.indices...)
		for _, a := range readers[i] {
			a.ByteOffset += offset
		}
		remap[i] = slices.Index(contents, any(g))
	}
	for _, a := range w.doc.Accessors {
		if a.BufferView != nil {
			a.BufferView = gltf.Index(remap[*a.BufferView])
		}
	}
	for _, im := range w.doc.Images {
		if im.BufferView != nil {
			im.BufferView = gltf.Index(remap[*im.BufferView])
		}
	}
	bin := make([]byte, 0, len(w.bin)/2)
	fallback := 0
	for i, v := range views {
		for len(bin)%4 != 0 {
			bin = append(bin, 0)
		}
		g, ok := contents[i].(*group)
		if !ok {
			v.ByteOffset = len(bin)
			bin = append(bin, contents[i].([]byte)...)
			continue
		}
		var enc []byte
		switch g.info.mode {
		case meshopt.ModeTriangles:
			enc = meshopt.EncodeTriangles(g.info.indices)
		case meshopt.ModeIndices:
			enc = meshopt.EncodeIndexSequence(g.info.indices)
		default:
			enc = meshopt.EncodeVertexBuffer(g.data, g.info.count, g.info.stride)
		}
		ext := map[string]any{
			"buffer": 0, "byteOffset": len(bin), "byteLength": len(enc),
			"byteStride": g.info.stride, "count": g.info.count, "mode": g.info.mode,
		}
		if g.info.filter != "" {
			ext["filter"] = g.info.filter
		}
		bin = append(bin, enc...)
		v.Buffer = 1
		v.ByteOffset = fallback
		v.ByteLength = len(g.data)
		fallback += (v.ByteLength + 3) &^ 3
		v.Extensions = gltf.Extensions{meshoptExt: ext}
	}
	w.doc.BufferViews = views
	w.bin = bin
	if len(groups) > 0 {
		w.doc.Buffers = []*gltf.Buffer{{ByteLength: fallback, Extensions: gltf.Extensions{meshoptExt: map[string]any{"fallback": true}}}}
	}
	return nil
}

// shortNodes copies the nodes with each transform number rounded to the
// float32 a loader keeps of it, which JSON then spells in at most 9
// digits instead of 17: the same file for every loader, and a shorter
// JSON chunk (several KB on a skeleton of 60 joints).
func shortNodes(nodes []*gltf.Node) []*gltf.Node {
	out := make([]*gltf.Node, len(nodes))
	for i, n := range nodes {
		c := *n
		for k := range c.Translation {
			c.Translation[k] = short(c.Translation[k])
			c.Scale[k] = short(c.Scale[k])
		}
		for k := range c.Rotation {
			c.Rotation[k] = short(c.Rotation[k])
		}
		for k := range c.Matrix {
			c.Matrix[k] = short(c.Matrix[k])
		}
		out[i] = &c
	}
	return out
}

func short(x float64) float64 {
	v, err := strconv.ParseFloat(strconv.FormatFloat(x, 'g', -1, 32), 64)
	if err != nil {
		return x
	}
	return v
}
