package scene

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/imagetype"
)

// Default limits of Read. A model is decoded into memory whole, so an
// upload must not be able to claim more than a worker can hold: these
// bound what any real asset Kiln serves needs (avatars have about 10^4
// vertices, scanned props 10^6) with a wide margin.
const (
	DefaultMaxVertices   = 1 << 23 // over all primitives
	DefaultMaxIndices    = 3 << 23 // over all primitives
	DefaultMaxImageBytes = 256 << 20
)

// ReadOptions configures Read. The zero value reads a self-contained GLB
// or .gltf with the default limits.
type ReadOptions struct {
	// Files returns a file that a .gltf refers to by a relative URI (its
	// .bin buffers and textures), for uploads of several files. Nil means
	// no file but the model itself was uploaded.
	Files func(uri string) ([]byte, error)
	// Limits; zero means the default.
	MaxVertices   int
	MaxIndices    int
	MaxImageBytes int
}

func invalid(format string, args ...any) error {
	return kiln.Errorf(kiln.KindUnprocessable, "invalid_model", format, args...)
}

// Read decodes a GLB, or a .gltf whose buffers and images are data URIs
// or files given by opts.Files, into a Scene. Every way in which the
// input can be corrupt, truncated, compressed with an extension Kiln
// cannot decode, or too large gives a kiln error of kind Unprocessable
// and code invalid_model whose message names the part at fault; no
// input makes it panic or allocate more than the input and the limits
// justify.
func Read(data []byte, opts ReadOptions) (*Scene, error) {
	return ReadContext(context.Background(), data, opts)
}

// ReadContext is Read that stops when ctx ends: it looks at ctx before
// each buffer view, image, mesh primitive, accessor, skin and animation,
// so that a job past its deadline does not decode a large file to the
// end. The error then wraps ctx.Err() and is not of kind Unprocessable:
// the file is not at fault.
func ReadContext(ctx context.Context, data []byte, opts ReadOptions) (*Scene, error) {
	if opts.MaxVertices <= 0 {
		opts.MaxVertices = DefaultMaxVertices
	}
	if opts.MaxIndices <= 0 {
		opts.MaxIndices = DefaultMaxIndices
	}
	if opts.MaxImageBytes <= 0 {
		opts.MaxImageBytes = DefaultMaxImageBytes
	}
	jsonChunk, bin, isGLB, err := splitContainer(data)
	if err != nil {
		return nil, err
	}
	doc, err := decodeJSON(jsonChunk)
	if err != nil {
		return nil, err
	}
	r := &reader{
		ctx:   ctx,
		doc:   doc,
		opts:  opts,
		uses:  make(map[int]int),
		flt:   make(map[int][]float32),
		ints:  make(map[int][]uint32),
		input: len(data),
	}
	if err := r.checkExtensions(); err != nil {
		return nil, err
	}
	if err := r.loadBuffers(bin, isGLB); err != nil {
		return nil, err
	}
	// Decoded arrays may be larger than their source (quantized or shared
	// data) but never without bound: the budget grows with the bytes that
	// were actually supplied.
	r.budget = 64<<20 + 32*(r.input+r.external) - r.inflated
	s, err := r.scene()
	if err != nil {
		return nil, err
	}
	if err := r.stopped("checking the scene"); err != nil {
		return nil, err
	}
	if err := s.check(); err != nil {
		return nil, invalid("%v", err)
	}
	return s, nil
}

const (
	glbMagic     = 0x46546C67 // "glTF"
	glbChunkJSON = 0x4E4F534A
	glbChunkBIN  = 0x004E4942
)

// splitContainer returns the JSON and the binary chunk of a GLB, or the
// whole input as JSON for a .gltf.
func splitContainer(data []byte) (jsonChunk, bin []byte, isGLB bool, err error) {
	if len(data) == 0 {
		return nil, nil, false, invalid("the file is empty")
	}
	if len(data) >= 4 && binary.LittleEndian.Uint32(data) == glbMagic {
		if len(data) < 12 {
			return nil, nil, true, invalid("truncated GLB: the 12-byte header is incomplete (%d bytes)", len(data))
		}
		if v := binary.LittleEndian.Uint32(data[4:]); v != 2 {
			return nil, nil, true, invalid("GLB version %d is not supported: only glTF 2.0 (GLB version 2) is", v)
		}
		length := uint64(binary.LittleEndian.Uint32(data[8:]))
		if length > uint64(len(data)) {
			return nil, nil, true, invalid("truncated GLB: the header declares %d bytes but the file has %d", length, len(data))
		}
		data = data[:length]
		for off, n := 12, 0; off < len(data); n++ {
			if len(data)-off < 8 {
				return nil, nil, true, invalid("truncated GLB: chunk %d has an incomplete header", n)
			}
			clen := uint64(binary.LittleEndian.Uint32(data[off:]))
			ctype := binary.LittleEndian.Uint32(data[off+4:])
			off += 8
			if clen > uint64(len(data)-off) {
				return nil, nil, true, invalid("GLB chunk %d declares %d bytes but only %d remain in the file", n, clen, len(data)-off)
			}
			chunk := data[off : off+int(clen)]
			off += int(clen)
			switch {
			case n == 0 && ctype != glbChunkJSON:
				return nil, nil, true, invalid("the first GLB chunk is not JSON (type 0x%08X)", ctype)
			case n == 0:
				jsonChunk = chunk
			case n == 1 && ctype == glbChunkBIN:
				bin = chunk
			}
		}
		if jsonChunk == nil {
			return nil, nil, true, invalid("the GLB has no JSON chunk")
		}
		// Some exporters pad the JSON chunk with NULs instead of spaces.
		return bytes.TrimRight(jsonChunk, "\x00 "), bin, true, nil
	}
	text := bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF"))
	text = bytes.TrimLeft(text, " \t\r\n")
	if len(text) == 0 || text[0] != '{' {
		return nil, nil, false, invalid("not a glTF model: the file is neither a GLB nor glTF JSON")
	}
	return text, nil, false, nil
}

// decodeJSON parses the document with qmuntal's types. Their custom
// unmarshalers are not written for hostile input, so a panic among them
// becomes an error like any other parse failure.
func decodeJSON(text []byte) (doc *gltf.Document, err error) {
	defer func() {
		if p := recover(); p != nil {
			doc, err = nil, invalid("the glTF JSON could not be parsed: %v", p)
		}
	}()
	doc = new(gltf.Document)
	if err := json.Unmarshal(text, doc); err != nil {
		return nil, invalid("the glTF JSON is invalid: %s", strings.TrimPrefix(err.Error(), "gltf: "))
	}
	if !strings.HasPrefix(doc.Asset.Version, "2.") {
		return nil, invalid("glTF version %q is not supported: only 2.0 is", doc.Asset.Version)
	}
	return doc, nil
}

// Extensions whose data Kiln cannot decode. A file that requires them
// carries geometry only in compressed form.
var undecodable = map[string]string{
	"KHR_draco_mesh_compression": "Draco-compressed geometry",
	"KHR_meshopt_compression":    "meshoptimizer-compressed buffers",
	"EXT_mesh_gpu_instancing":    "GPU instancing",
}

type reader struct {
	ctx      context.Context
	doc      *gltf.Document
	opts     ReadOptions
	bufs     [][]byte
	input    int // bytes of the upload
	external int // bytes of files read through opts.Files
	budget   int // decoded bytes still allowed

	vertices, indices, imageBytes int
	uses                          map[int]int // accessor → number of primitive streams that read it
	flt                           map[int][]float32
	ints                          map[int][]uint32
	// decoded holds the EXT_meshopt_compression views, decompressed;
	// inflated counts their bytes against the budget.
	decoded  map[int][]byte
	inflated int
}

func (r *reader) checkExtensions() error {
	for _, name := range r.doc.ExtensionsRequired {
		if what, ok := undecodable[name]; ok {
			return invalid("the model requires %s (%s), which Kiln cannot decode; export it without that compression", name, what)
		}
	}
	return nil
}

// stopped reports, as an error wrapping ctx.Err(), that the reading was
// stopped before what.
func (r *reader) stopped(what string) error {
	if err := r.ctx.Err(); err != nil {
		return fmt.Errorf("scene.Read: stopped before %s: %w", what, err)
	}
	return nil
}

func (r *reader) spend(n int, what string) error {
	if n < 0 || n > r.budget {
		return invalid("%s needs more memory than a model of %d bytes can justify", what, r.input+r.external)
	}
	r.budget -= n
	return nil
}

// file resolves a relative URI of a .gltf through opts.Files.
func (r *reader) file(uri, what string) ([]byte, error) {
	if u, err := url.Parse(uri); err == nil && u.Scheme != "" {
		return nil, invalid("%s refers to %q, a URL: Kiln reads only files uploaded with the model", what, uri)
	}
	name, err := url.PathUnescape(strings.ReplaceAll(uri, "\\", "/"))
	if err != nil {
		return nil, invalid("%s has a malformed uri %q", what, uri)
	}
	name = path.Clean(name)
	if path.IsAbs(name) || name == ".." || strings.HasPrefix(name, "../") {
		return nil, invalid("%s refers to %q, outside the uploaded files", what, uri)
	}
	if r.opts.Files == nil {
		return nil, invalid("%s refers to the external file %q, which was not uploaded with the model", what, name)
	}
	data, err := r.opts.Files(name)
	if err != nil {
		return nil, invalid("%s refers to the external file %q, which was not uploaded with the model (%v)", what, name, err)
	}
	r.external += len(data)
	return data, nil
}

// dataURI decodes "data:[<mime>][;base64],<payload>".
func dataURI(uri string) (mime string, data []byte, ok bool, err error) {
	rest, found := strings.CutPrefix(uri, "data:")
	if !found {
		return "", nil, false, nil
	}
	meta, payload, found := strings.Cut(rest, ",")
	if !found {
		return "", nil, true, fmt.Errorf("the data URI has no comma")
	}
	mime, isBase64 := strings.CutSuffix(meta, ";base64")
	if isBase64 {
		data, err = base64.StdEncoding.DecodeString(payload)
		if err != nil {
			data, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(payload, "="))
		}
	} else {
		var s string
		s, err = url.PathUnescape(payload)
		data = []byte(s)
	}
	return mime, data, true, err
}

func (r *reader) loadBuffers(bin []byte, isGLB bool) error {
	r.bufs = make([][]byte, len(r.doc.Buffers))
	for i, b := range r.doc.Buffers {
		what := fmt.Sprintf("buffer %d", i)
		if err := r.stopped(what); err != nil {
			return err
		}
		var data []byte
		switch {
		case b.URI == "" && isGLB && i == 0:
			if bin == nil {
				return invalid("buffer 0 is the GLB binary chunk, which is missing")
			}
			data = bin
		case b.URI == "":
			if _, ok := b.Extensions["EXT_meshopt_compression"]; ok {
				// A fallback with no data: every view into it is compressed
				// and decoded by decodeMeshopt.
				if b.ByteLength < 0 {
					return invalid("buffer %d declares %d bytes", i, b.ByteLength)
				}
				continue
			}
			return invalid("buffer %d has neither a uri nor the GLB binary chunk", i)
		default:
			_, d, ok, err := dataURI(b.URI)
			if err != nil {
				return invalid("buffer %d has a corrupt data URI: %v", i, err)
			}
			if !ok {
				if d, err = r.file(b.URI, what); err != nil {
					return err
				}
			}
			data = d
		}
		if b.ByteLength < 0 || len(data) < b.ByteLength {
			return invalid("buffer %d declares %d bytes but holds %d", i, b.ByteLength, len(data))
		}
		r.bufs[i] = data[:b.ByteLength]
	}
	for i, v := range r.doc.BufferViews {
		if err := r.stopped(fmt.Sprintf("buffer view %d", i)); err != nil {
			return err
		}
		if v.Buffer < 0 || v.Buffer >= len(r.bufs) {
			return invalid("buffer view %d refers to buffer %d, which does not exist", i, v.Buffer)
		}
		if _, ok := v.Extensions["EXT_meshopt_compression"]; ok && !r.required("EXT_meshopt_compression") && r.bufs[v.Buffer] != nil {
			// The view's own buffer holds the uncompressed fallback.
			delete(v.Extensions, "EXT_meshopt_compression")
		}
		if _, ok := v.Extensions["EXT_meshopt_compression"]; ok {
			if err := r.decodeMeshopt(i); err != nil {
				return err
			}
			continue
		}
		if r.bufs[v.Buffer] == nil {
			return invalid("buffer view %d refers to buffer %d, a fallback without data, but is not compressed", i, v.Buffer)
		}
		n := len(r.bufs[v.Buffer])
		if v.ByteOffset < 0 || v.ByteLength < 0 || v.ByteOffset > n || v.ByteLength > n-v.ByteOffset {
			return invalid("buffer view %d (bytes %d to %d) reaches past the end of buffer %d (%d bytes)", i, v.ByteOffset, v.ByteOffset+v.ByteLength, v.Buffer, n)
		}
		if v.ByteStride != 0 && (v.ByteStride < 4 || v.ByteStride > 252) {
			return invalid("buffer view %d has an invalid byteStride %d", i, v.ByteStride)
		}
	}
	return nil
}

func (r *reader) required(ext string) bool {
	for _, e := range r.doc.ExtensionsRequired {
		if e == ext {
			return true
		}
	}
	return false
}

func (r *reader) view(i int) []byte {
	if d, ok := r.decoded[i]; ok {
		return d
	}
	v := r.doc.BufferViews[i]
	return r.bufs[v.Buffer][v.ByteOffset : v.ByteOffset+v.ByteLength]
}

func (r *reader) accessor(i int, what string) (*gltf.Accessor, error) {
	if i < 0 || i >= len(r.doc.Accessors) {
		return nil, invalid("%s refers to accessor %d, which does not exist", what, i)
	}
	return r.doc.Accessors[i], nil
}

// located adds an accessor's number to what it is used for, the form of
// every error message about accessor data.
func located(i int, what string) string { return fmt.Sprintf("accessor %d (%s)", i, what) }

// raw calls fn for every component of accessor i (sparse substitution
// included) after checking that all of it lies inside its buffer views.
// fn receives the element index, the component index and the bytes of
// the component.
func (r *reader) raw(i int, acc *gltf.Accessor, what string, fn func(elem, comp int, b []byte)) error {
	size := acc.ComponentType.ByteSize()
	comps := acc.Type.Components()
	elem := size * comps
	if size == 0 || comps == 0 {
		return invalid("%s has an unknown component type or type", located(i, what))
	}
	if acc.BufferView != nil {
		bv := *acc.BufferView
		if bv < 0 || bv >= len(r.doc.BufferViews) {
			return invalid("%s refers to buffer view %d, which does not exist", located(i, what), bv)
		}
		data := r.view(bv)
		stride := r.doc.BufferViews[bv].ByteStride
		if stride == 0 {
			stride = elem
		}
		if stride < elem {
			return invalid("%s has %d-byte elements but buffer view %d a byteStride of %d", located(i, what), elem, bv, stride)
		}
		if acc.ByteOffset < 0 || acc.ByteOffset > len(data) || len(data)-acc.ByteOffset < elem || acc.Count-1 > (len(data)-acc.ByteOffset-elem)/stride {
			return invalid("%s reads past the end of buffer view %d", located(i, what), bv)
		}
		for e := 0; e < acc.Count; e++ {
			base := acc.ByteOffset + e*stride
			for c := 0; c < comps; c++ {
				fn(e, c, data[base+c*size:base+c*size+size])
			}
		}
	} else {
		zero := make([]byte, size)
		for e := 0; e < acc.Count; e++ {
			for c := 0; c < comps; c++ {
				fn(e, c, zero)
			}
		}
	}
	sp := acc.Sparse
	if sp == nil {
		return nil
	}
	if sp.Count < 1 || sp.Count > acc.Count {
		return invalid("%s has %d sparse values for %d elements", located(i, what), sp.Count, acc.Count)
	}
	isize := sp.Indices.ComponentType.ByteSize()
	switch sp.Indices.ComponentType {
	case gltf.ComponentUbyte, gltf.ComponentUshort, gltf.ComponentUint:
	default:
		return invalid("%s has sparse indices of a signed or float type", located(i, what))
	}
	for _, part := range []struct {
		view, offset, size int
		name               string
	}{{sp.Indices.BufferView, sp.Indices.ByteOffset, isize, "indices"}, {sp.Values.BufferView, sp.Values.ByteOffset, elem, "values"}} {
		if part.view < 0 || part.view >= len(r.doc.BufferViews) {
			return invalid("the sparse %s of %s refer to buffer view %d, which does not exist", part.name, located(i, what), part.view)
		}
		n := len(r.view(part.view))
		if part.offset < 0 || part.offset > n || sp.Count > (n-part.offset)/part.size {
			return invalid("the sparse %s of %s read past the end of buffer view %d", part.name, located(i, what), part.view)
		}
	}
	idx := r.view(sp.Indices.BufferView)[sp.Indices.ByteOffset:]
	vals := r.view(sp.Values.BufferView)[sp.Values.ByteOffset:]
	for k := 0; k < sp.Count; k++ {
		var e uint64
		switch isize {
		case 1:
			e = uint64(idx[k])
		case 2:
			e = uint64(binary.LittleEndian.Uint16(idx[2*k:]))
		default:
			e = uint64(binary.LittleEndian.Uint32(idx[4*k:]))
		}
		if e >= uint64(acc.Count) {
			return invalid("%s has sparse index %d, past its %d elements", located(i, what), e, acc.Count)
		}
		for c := 0; c < comps; c++ {
			off := k*elem + c*size
			fn(int(e), c, vals[off:off+size])
		}
	}
	return nil
}

// checkCount bounds an accessor's count before anything is allocated for
// it: no single accessor may exceed the vertex or index limits.
func (r *reader) checkCount(i int, acc *gltf.Accessor, what string) error {
	limit := max(r.opts.MaxVertices, r.opts.MaxIndices)
	if acc.Count < 1 || acc.Count > limit {
		return invalid("%s has %d elements; at most %d can be processed", located(i, what), acc.Count, limit)
	}
	return nil
}

// floats decodes accessor i as float32 components, dequantizing
// normalized integers as the spec says and converting plain integers
// (KHR_mesh_quantization) to their value. NaN and infinities are
// rejected: nothing downstream (bounds, normals, the validator) survives
// them.
func (r *reader) floats(i int, what string, types ...gltf.AccessorType) ([]float32, *gltf.Accessor, error) {
	acc, err := r.accessor(i, what)
	if err != nil {
		return nil, nil, err
	}
	if !typeIn(acc.Type, types) {
		return nil, nil, invalid("%s is %s; expected %v", located(i, what), acc.Type, types)
	}
	if acc.ComponentType == gltf.ComponentUint {
		return nil, nil, invalid("%s has unsigned int components, which glTF allows only for indices", located(i, what))
	}
	if out, ok := r.flt[i]; ok {
		return out, acc, nil
	}
	if err := r.stopped(located(i, what)); err != nil {
		return nil, nil, err
	}
	if err := r.checkCount(i, acc, what); err != nil {
		return nil, nil, err
	}
	comps := acc.Type.Components()
	if err := r.spend(4*comps*acc.Count, located(i, what)); err != nil {
		return nil, nil, err
	}
	out := make([]float32, comps*acc.Count)
	ct, norm := acc.ComponentType, acc.Normalized
	err = r.raw(i, acc, what, func(e, c int, b []byte) {
		out[e*comps+c] = component(b, ct, norm)
	})
	if err != nil {
		return nil, nil, err
	}
	for k, v := range out {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return nil, nil, invalid("%s holds %v at element %d", located(i, what), v, k/comps)
		}
	}
	r.flt[i] = out
	return out, acc, nil
}

// uints decodes an accessor of unsigned integers (indices, joints).
func (r *reader) uints(i int, what string, types ...gltf.AccessorType) ([]uint32, *gltf.Accessor, error) {
	acc, err := r.accessor(i, what)
	if err != nil {
		return nil, nil, err
	}
	if !typeIn(acc.Type, types) {
		return nil, nil, invalid("%s is %s; expected %v", located(i, what), acc.Type, types)
	}
	switch acc.ComponentType {
	case gltf.ComponentUbyte, gltf.ComponentUshort, gltf.ComponentUint:
	default:
		return nil, nil, invalid("%s must hold unsigned integers, not %s", located(i, what), acc.ComponentType)
	}
	if out, ok := r.ints[i]; ok {
		return out, acc, nil
	}
	if err := r.stopped(located(i, what)); err != nil {
		return nil, nil, err
	}
	if err := r.checkCount(i, acc, what); err != nil {
		return nil, nil, err
	}
	comps := acc.Type.Components()
	if err := r.spend(4*comps*acc.Count, located(i, what)); err != nil {
		return nil, nil, err
	}
	out := make([]uint32, comps*acc.Count)
	err = r.raw(i, acc, what, func(e, c int, b []byte) {
		switch len(b) {
		case 1:
			out[e*comps+c] = uint32(b[0])
		case 2:
			out[e*comps+c] = uint32(binary.LittleEndian.Uint16(b))
		default:
			out[e*comps+c] = binary.LittleEndian.Uint32(b)
		}
	})
	if err != nil {
		return nil, nil, err
	}
	r.ints[i] = out
	return out, acc, nil
}

func typeIn(t gltf.AccessorType, types []gltf.AccessorType) bool {
	for _, x := range types {
		if t == x {
			return true
		}
	}
	return false
}

func component(b []byte, ct gltf.ComponentType, normalized bool) float32 {
	switch ct {
	case gltf.ComponentFloat:
		return math.Float32frombits(binary.LittleEndian.Uint32(b))
	case gltf.ComponentByte:
		v := float32(int8(b[0]))
		if normalized {
			return max(v/127, -1)
		}
		return v
	case gltf.ComponentUbyte:
		v := float32(b[0])
		if normalized {
			return v / 255
		}
		return v
	case gltf.ComponentShort:
		v := float32(int16(binary.LittleEndian.Uint16(b)))
		if normalized {
			return max(v/32767, -1)
		}
		return v
	case gltf.ComponentUshort:
		v := float32(binary.LittleEndian.Uint16(b))
		if normalized {
			return v / 65535
		}
		return v
	}
	return 0
}

func (r *reader) scene() (*Scene, error) {
	d := r.doc
	s := &Scene{
		Asset:              d.Asset,
		ExtensionsRequired: withoutDecoded(d.ExtensionsRequired),
		Extensions:         d.Extensions,
		Extras:             d.Extras,
		Materials:          d.Materials,
		Textures:           d.Textures,
		Samplers:           d.Samplers,
		Nodes:              d.Nodes,
		Scenes:             d.Scenes,
		DefaultScene:       d.Scene,
		Cameras:            d.Cameras,
	}
	for _, n := range s.Nodes {
		if n != nil {
			// Only present when not required (required was refused): the
			// node then renders once, as a loader without it would.
			delete(n.Extensions, "EXT_mesh_gpu_instancing")
		}
	}
	for _, t := range s.Textures {
		if t != nil {
			normalizeTextureSources(t)
		}
	}
	for _, m := range s.Materials {
		if m != nil && m.AlphaMode == gltf.AlphaOpaque {
			// Meaningless for OPAQUE, and qmuntal refuses to write it.
			m.AlphaCutoff = nil
		}
	}
	for i, img := range d.Images {
		im, err := r.image(i, img)
		if err != nil {
			return nil, err
		}
		s.Images = append(s.Images, im)
	}
	r.countUses()
	for i, m := range d.Meshes {
		mesh, err := r.mesh(i, m)
		if err != nil {
			return nil, err
		}
		s.Meshes = append(s.Meshes, mesh)
	}
	for i, sk := range d.Skins {
		skin, err := r.skin(i, sk)
		if err != nil {
			return nil, err
		}
		s.Skins = append(s.Skins, skin)
	}
	for i, a := range d.Animations {
		anim, err := r.animation(i, a)
		if err != nil {
			return nil, err
		}
		s.Animations = append(s.Animations, anim)
	}
	return s, nil
}

// withoutDecoded drops the extensions that Read resolves into plain data,
// so that Write does not claim them. KHR_mesh_quantization stays: its
// values are kept on their integer grid, and Write stores them quantized
// again wherever a pass has not moved them off it (see Write).
func withoutDecoded(req []string) []string {
	var out []string
	for _, e := range req {
		if e != "EXT_meshopt_compression" {
			out = append(out, e)
		}
	}
	return out
}

func (r *reader) image(i int, img *gltf.Image) (*Image, error) {
	if img == nil {
		return nil, invalid("image %d is null", i)
	}
	what := fmt.Sprintf("image %d", i)
	if err := r.stopped(what); err != nil {
		return nil, err
	}
	im := &Image{Name: img.Name, MimeType: img.MimeType, Extras: img.Extras, Extensions: img.Extensions}
	switch {
	case img.BufferView != nil:
		bv := *img.BufferView
		if bv < 0 || bv >= len(r.doc.BufferViews) {
			return nil, invalid("image %d refers to buffer view %d, which does not exist", i, bv)
		}
		im.Data = r.view(bv)
	case img.URI != "":
		mime, data, ok, err := dataURI(img.URI)
		if err != nil {
			return nil, invalid("image %d has a corrupt data URI: %v", i, err)
		}
		if !ok {
			if data, err = r.file(img.URI, what); err != nil {
				return nil, err
			}
		}
		if im.MimeType == "" {
			im.MimeType = mime
		}
		im.Data = data
	default:
		return nil, invalid("image %d has neither a uri nor a buffer view", i)
	}
	if len(im.Data) == 0 {
		return nil, invalid("image %d is empty", i)
	}
	r.imageBytes += len(im.Data)
	if r.imageBytes > r.opts.MaxImageBytes {
		return nil, invalid("the images take more than %d bytes", r.opts.MaxImageBytes)
	}
	// A copy, so that the Scene does not pin the whole upload in memory
	// nor share bytes with the caller's buffer.
	im.Data = bytes.Clone(im.Data)
	if m := imagetype.Sniff(im.Data); m != "" {
		im.MimeType = m
	}
	if im.MimeType == "" {
		return nil, invalid("image %d is in an unknown format (neither PNG, JPEG, WebP nor KTX2)", i)
	}
	return im, nil
}

// countUses counts the primitive streams that read each accessor, so that
// primitives sharing a vertex buffer can each keep only their own
// vertices.
func (r *reader) countUses() {
	for _, m := range r.doc.Meshes {
		if m == nil {
			continue
		}
		for _, p := range m.Primitives {
			if p == nil {
				continue
			}
			for _, a := range p.Attributes {
				r.uses[a]++
			}
			for _, t := range p.Targets {
				for _, a := range t {
					r.uses[a]++
				}
			}
		}
	}
}

func (r *reader) mesh(mi int, m *gltf.Mesh) (*Mesh, error) {
	if m == nil {
		return nil, invalid("mesh %d is null", mi)
	}
	mesh := &Mesh{Name: m.Name, Weights: m.Weights, Extras: m.Extras, Extensions: m.Extensions}
	for pi, p := range m.Primitives {
		if p == nil {
			return nil, invalid("mesh %d primitive %d is null", mi, pi)
		}
		if err := r.stopped(fmt.Sprintf("mesh %d primitive %d", mi, pi)); err != nil {
			return nil, err
		}
		prim, err := r.primitive(mi, pi, p)
		if err != nil {
			return nil, err
		}
		mesh.Primitives = append(mesh.Primitives, prim)
	}
	return mesh, nil
}

// setIndex extracts n from names like TEXCOORD_3.
func setIndex(name, prefix string) (int, bool) {
	rest, ok := strings.CutPrefix(name, prefix)
	if !ok || rest == "" || len(rest) > 2 {
		return 0, false
	}
	n := 0
	for _, c := range rest {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

func grow[T any](s [][]T, n int) [][]T {
	for len(s) <= n {
		s = append(s, nil)
	}
	return s
}

// primitive reads one primitive as a list of steps: the Draco fallback,
// the vertex count, the indices (and the part of a shared vertex buffer
// they use), the model's vertex bound, the attributes, the morph targets.
func (r *reader) primitive(mi, pi int, p *gltf.Primitive) (*Primitive, error) {
	pr := &primReader{r: r, p: p, where: fmt.Sprintf("mesh %d primitive %d", mi, pi),
		prim: &Primitive{Mode: p.Mode, Material: p.Material, Extras: p.Extras, Extensions: p.Extensions}}
	for _, step := range []func() error{
		pr.dracoFallback,
		pr.countVertices,
		pr.readIndices,
		pr.chargeVertices,
		pr.readAttributes,
		pr.readTargets,
	} {
		if err := step(); err != nil {
			return nil, err
		}
	}
	if pr.order != nil {
		remapIndices(pr.prim.Indices, pr.order, pr.count)
	}
	return pr.prim, nil
}

// primReader holds one primitive's reading between its steps.
type primReader struct {
	r     *reader
	p     *gltf.Primitive
	where string
	prim  *Primitive
	// count is the vertex count of the accessors; n the vertices kept,
	// which order lists when the primitive keeps only the part of a
	// shared vertex buffer that its indices use (nil: all of them).
	count, n int
	order    []uint32
}

// dracoFallback refuses Draco-compressed data, which Kiln cannot decode,
// unless the uncompressed fallback is there, which it then reads.
func (pr *primReader) dracoFallback() error {
	if _, ok := pr.p.Extensions["KHR_draco_mesh_compression"]; !ok {
		return nil
	}
	for _, a := range pr.p.Attributes {
		if a >= 0 && a < len(pr.r.doc.Accessors) && pr.r.doc.Accessors[a].BufferView == nil {
			return invalid("%s is compressed with KHR_draco_mesh_compression (Draco), which Kiln cannot decode; export it without Draco compression", pr.where)
		}
	}
	delete(pr.prim.Extensions, "KHR_draco_mesh_compression")
	return nil
}

// countVertices reads the vertex count from POSITION, which every
// primitive needs, and bounds it.
func (pr *primReader) countVertices() error {
	posAcc, ok := pr.p.Attributes[gltf.POSITION]
	if !ok {
		return invalid("%s has no POSITION attribute", pr.where)
	}
	acc, err := pr.r.accessor(posAcc, "POSITION of "+pr.where)
	if err != nil {
		return err
	}
	pr.count, pr.n = acc.Count, acc.Count
	if pr.count < 1 || pr.count > pr.r.opts.MaxVertices {
		return invalid("%s has %d vertices; at most %d can be processed", located(posAcc, "POSITION of "+pr.where), pr.count, pr.r.opts.MaxVertices)
	}
	return nil
}

// readIndices reads and checks the indices, and decides which vertices
// to keep: all of them, unless the vertex buffer is shared with other
// primitives and this one indexes only a part.
func (pr *primReader) readIndices() error {
	r, p := pr.r, pr.p
	if p.Indices == nil {
		return nil
	}
	what := "indices of " + pr.where
	idx, iacc, err := r.uints(*p.Indices, what, gltf.AccessorScalar)
	if err != nil {
		return err
	}
	for k, v := range idx {
		if int64(v) >= int64(pr.count) {
			return invalid("%s has index %d at position %d, but the primitive has %d vertices", located(*p.Indices, what), v, k, pr.count)
		}
	}
	r.indices += iacc.Count
	if r.indices > r.opts.MaxIndices {
		return invalid("the model has more than %d indices", r.opts.MaxIndices)
	}
	if err := r.spend(4*len(idx), what); err != nil {
		return err
	}
	// A copy: the decoded accessor may be shared with another primitive,
	// and passes edit indices in place.
	pr.prim.Indices = append([]uint32(nil), idx...)
	shared := false
	for _, a := range p.Attributes {
		shared = shared || r.uses[a] > 1
	}
	if shared {
		if order := referenced(pr.prim.Indices, pr.count); len(order) != pr.count {
			pr.order, pr.n = order, len(order)
		}
	}
	return nil
}

// chargeVertices counts the kept vertices against the model's bound.
func (pr *primReader) chargeVertices() error {
	pr.r.vertices += pr.n
	if pr.r.vertices > pr.r.opts.MaxVertices {
		return invalid("the model has more than %d vertices", pr.r.opts.MaxVertices)
	}
	return nil
}

var (
	vec2 = []gltf.AccessorType{gltf.AccessorVec2}
	vec3 = []gltf.AccessorType{gltf.AccessorVec3}
	vec4 = []gltf.AccessorType{gltf.AccessorVec4}
	// anyVec is what custom attributes and custom target streams may be.
	anyVec = []gltf.AccessorType{gltf.AccessorScalar, gltf.AccessorVec2, gltf.AccessorVec3, gltf.AccessorVec4}
)

// floats reads a float attribute of as many elements as POSITION and
// charges the memory its kept vertices take.
func (pr *primReader) floats(a int, name string, comps int, types ...gltf.AccessorType) ([]float32, int, error) {
	what := name + " of " + pr.where
	data, acc, err := pr.r.floats(a, what, types...)
	if err != nil {
		return nil, 0, err
	}
	if acc.Count != pr.count {
		return nil, 0, invalid("%s has %d elements but POSITION has %d", located(a, what), acc.Count, pr.count)
	}
	if err := pr.r.spend(4*pr.n*comps, what); err != nil {
		return nil, 0, err
	}
	return data, acc.Type.Components(), nil
}

// readAttributes reads every vertex attribute, in name order, so that
// the first error reported is always the same.
func (pr *primReader) readAttributes() error {
	names := make([]string, 0, len(pr.p.Attributes))
	for name := range pr.p.Attributes {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if err := pr.readAttribute(name, pr.p.Attributes[name]); err != nil {
			return err
		}
	}
	return nil
}

// readAttribute reads one attribute into its stream of the primitive.
// Names glTF does not define, and sets with a malformed number, are
// ignored, as loaders do.
func (pr *primReader) readAttribute(name string, a int) error {
	prim, order, n := pr.prim, pr.order, pr.n
	switch {
	case name == gltf.POSITION, name == gltf.NORMAL:
		d, _, err := pr.floats(a, name, 3, vec3...)
		if err != nil {
			return err
		}
		if name == gltf.POSITION {
			prim.Positions = gather3(d, 3, order, n)
		} else {
			prim.Normals = gather3(d, 3, order, n)
		}
	case name == gltf.TANGENT:
		d, _, err := pr.floats(a, name, 4, vec4...)
		if err != nil {
			return err
		}
		prim.Tangents = gather4(d, 4, order, n, 0)
	case strings.HasPrefix(name, "TEXCOORD_"):
		set, ok := setIndex(name, "TEXCOORD_")
		if !ok {
			return nil
		}
		d, _, err := pr.floats(a, name, 2, vec2...)
		if err != nil {
			return err
		}
		prim.TexCoords = grow(prim.TexCoords, set)
		prim.TexCoords[set] = gather2(d, order, n)
	case strings.HasPrefix(name, "COLOR_"):
		set, ok := setIndex(name, "COLOR_")
		if !ok {
			return nil
		}
		d, comps, err := pr.floats(a, name, 4, gltf.AccessorVec3, gltf.AccessorVec4)
		if err != nil {
			return err
		}
		prim.Colors = grow(prim.Colors, set)
		prim.Colors[set] = gather4(d, comps, order, n, 1)
	case strings.HasPrefix(name, "WEIGHTS_"):
		set, ok := setIndex(name, "WEIGHTS_")
		if !ok {
			return nil
		}
		d, _, err := pr.floats(a, name, 4, vec4...)
		if err != nil {
			return err
		}
		prim.Weights = grow(prim.Weights, set)
		prim.Weights[set] = gather4(d, 4, order, n, 0)
	case strings.HasPrefix(name, "JOINTS_"):
		set, ok := setIndex(name, "JOINTS_")
		if !ok {
			return nil
		}
		return pr.readJoints(name, a, set)
	case strings.HasPrefix(name, "_"):
		d, comps, err := pr.floats(a, name, 4, anyVec...)
		if err != nil {
			return err
		}
		if prim.Custom == nil {
			prim.Custom = make(map[string]Stream)
		}
		prim.Custom[name] = Stream{Components: comps, Data: gatherN(d, comps, order, n)}
	}
	return nil
}

// readJoints reads a JOINTS_n set: integers, bytes or shorts only.
func (pr *primReader) readJoints(name string, a, set int) error {
	what := name + " of " + pr.where
	d, jacc, err := pr.r.uints(a, what, vec4...)
	if err != nil {
		return err
	}
	if jacc.ComponentType == gltf.ComponentUint {
		return invalid("%s has unsigned int components; joints are bytes or shorts", located(a, what))
	}
	if jacc.Count != pr.count {
		return invalid("%s has %d elements but POSITION has %d", located(a, what), jacc.Count, pr.count)
	}
	if err := pr.r.spend(8*pr.n, what); err != nil {
		return err
	}
	pr.prim.Joints = grow(pr.prim.Joints, set)
	pr.prim.Joints[set] = gatherJoints(d, pr.order, pr.n)
	return nil
}

// readTargets reads the morph targets, each stream in name order.
func (pr *primReader) readTargets() error {
	for ti, t := range pr.p.Targets {
		tg, err := pr.readTarget(ti, t)
		if err != nil {
			return err
		}
		pr.prim.Targets = append(pr.prim.Targets, tg)
	}
	return nil
}

func (pr *primReader) readTarget(ti int, t map[string]int) (Target, error) {
	var tg Target
	names := make([]string, 0, len(t))
	for name := range t {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		a := t[name]
		tname := fmt.Sprintf("%s of morph target %d", name, ti)
		if name != gltf.POSITION && name != gltf.NORMAL && name != gltf.TANGENT {
			d, comps, err := pr.floats(a, tname, 4, anyVec...)
			if err != nil {
				return tg, err
			}
			if tg.Custom == nil {
				tg.Custom = make(map[string]Stream)
			}
			tg.Custom[name] = Stream{Components: comps, Data: gatherN(d, comps, pr.order, pr.n)}
			continue
		}
		d, _, err := pr.floats(a, tname, 3, vec3...)
		if err != nil {
			return tg, err
		}
		v := gather3(d, 3, pr.order, pr.n)
		switch name {
		case gltf.POSITION:
			tg.Positions = v
		case gltf.NORMAL:
			tg.Normals = v
		default:
			tg.Tangents = v
		}
	}
	return tg, nil
}

// referenced lists the vertices that indices use, in ascending order, so
// that a compacted primitive keeps the original vertex order. A table as
// long as the shared buffer costs the buffer's length per primitive: a
// file of many small primitives on one large buffer made that quadratic,
// so few indices are sorted instead.
func referenced(indices []uint32, count int) []uint32 {
	if sparse(len(indices), count) {
		order := slices.Clone(indices)
		slices.Sort(order)
		return slices.Compact(order)
	}
	used := make([]bool, count)
	for _, v := range indices {
		used[v] = true
	}
	var order []uint32
	for v, u := range used {
		if u {
			order = append(order, uint32(v))
		}
	}
	return order
}

// sparse reports whether n indices into count vertices are few enough
// that sorting them costs less than a table of count entries.
func sparse(n, count int) bool { return n*8 < count }

// remapIndices rewrites indices into positions in order.
func remapIndices(indices, order []uint32, count int) {
	if sparse(len(indices), count) {
		for k, v := range indices {
			i, _ := slices.BinarySearch(order, v)
			indices[k] = uint32(i)
		}
		return
	}
	pos := make([]uint32, count)
	for k, v := range order {
		pos[v] = uint32(k)
	}
	for k, v := range indices {
		indices[k] = pos[v]
	}
}

func src(order []uint32, i int) int {
	if order == nil {
		return i
	}
	return int(order[i])
}

func gather2(d []float32, order []uint32, n int) [][2]float32 {
	out := make([][2]float32, n)
	for i := range out {
		copy(out[i][:], d[2*src(order, i):])
	}
	return out
}

func gather3(d []float32, comps int, order []uint32, n int) [][3]float32 {
	out := make([][3]float32, n)
	for i := range out {
		copy(out[i][:], d[comps*src(order, i):comps*src(order, i)+comps])
	}
	return out
}

// gather4 widens VEC3 colours to VEC4 with the given fourth component.
func gather4(d []float32, comps int, order []uint32, n int, w float32) [][4]float32 {
	out := make([][4]float32, n)
	for i := range out {
		out[i][3] = w
		copy(out[i][:], d[comps*src(order, i):comps*src(order, i)+comps])
	}
	return out
}

func gatherN(d []float32, comps int, order []uint32, n int) []float32 {
	out := make([]float32, n*comps)
	for i := 0; i < n; i++ {
		copy(out[i*comps:], d[comps*src(order, i):comps*src(order, i)+comps])
	}
	return out
}

func gatherJoints(d []uint32, order []uint32, n int) [][4]uint16 {
	out := make([][4]uint16, n)
	for i := range out {
		s := 4 * src(order, i)
		out[i] = [4]uint16{uint16(d[s]), uint16(d[s+1]), uint16(d[s+2]), uint16(d[s+3])}
	}
	return out
}

func (r *reader) skin(i int, sk *gltf.Skin) (*Skin, error) {
	if sk == nil {
		return nil, invalid("skin %d is null", i)
	}
	if err := r.stopped(fmt.Sprintf("skin %d", i)); err != nil {
		return nil, err
	}
	skin := &Skin{Name: sk.Name, Joints: sk.Joints, Skeleton: sk.Skeleton, Extras: sk.Extras, Extensions: sk.Extensions}
	if sk.InverseBindMatrices != nil {
		what := fmt.Sprintf("inverse bind matrices of skin %d", i)
		d, acc, err := r.floats(*sk.InverseBindMatrices, what, gltf.AccessorMat4)
		if err != nil {
			return nil, err
		}
		if acc.ComponentType != gltf.ComponentFloat {
			return nil, invalid("%s is not float", located(*sk.InverseBindMatrices, what))
		}
		if acc.Count < len(sk.Joints) {
			return nil, invalid("%s has %d matrices for %d joints", located(*sk.InverseBindMatrices, what), acc.Count, len(sk.Joints))
		}
		skin.InverseBindMatrices = make([][16]float32, len(sk.Joints))
		for j := range skin.InverseBindMatrices {
			copy(skin.InverseBindMatrices[j][:], d[16*j:])
		}
	}
	return skin, nil
}

func (r *reader) animation(i int, a *gltf.Animation) (*Animation, error) {
	if a == nil {
		return nil, invalid("animation %d is null", i)
	}
	if err := r.stopped(fmt.Sprintf("animation %d", i)); err != nil {
		return nil, err
	}
	anim := &Animation{Name: a.Name, Extras: a.Extras, Extensions: a.Extensions}
	for si, sm := range a.Samplers {
		if sm == nil {
			return nil, invalid("animation %d sampler %d is null", i, si)
		}
		where := fmt.Sprintf("animation %d sampler %d", i, si)
		in, iacc, err := r.floats(sm.Input, "input of "+where, gltf.AccessorScalar)
		if err != nil {
			return nil, err
		}
		out, oacc, err := r.floats(sm.Output, "output of "+where, gltf.AccessorScalar, gltf.AccessorVec3, gltf.AccessorVec4)
		if err != nil {
			return nil, err
		}
		if iacc.ComponentType != gltf.ComponentFloat {
			return nil, invalid("%s is not float", located(sm.Input, "input of "+where))
		}
		if sm.Interpolation == gltf.InterpolationCubicSpline && oacc.Count%3 != 0 {
			return nil, invalid("%s is CUBICSPLINE but its output count %d is not a multiple of 3", where, oacc.Count)
		}
		if err := r.spend(4*(len(in)+len(out)), where); err != nil {
			return nil, err
		}
		anim.Samplers = append(anim.Samplers, AnimationSampler{
			Interpolation: sm.Interpolation,
			Input:         append([]float32(nil), in...),
			Output:        append([]float32(nil), out...),
			Extras:        sm.Extras,
			Extensions:    sm.Extensions,
		})
	}
	for ci, c := range a.Channels {
		if c == nil {
			return nil, invalid("animation %d channel %d is null", i, ci)
		}
		switch c.Target.Path {
		case gltf.TRSTranslation, gltf.TRSRotation, gltf.TRSScale, gltf.TRSWeights:
		default:
			return nil, invalid("animation %d channel %d animates %q, which is not supported", i, ci, c.Target.Path)
		}
		anim.Channels = append(anim.Channels, Channel{
			Sampler: c.Sampler, Node: c.Target.Node, Path: c.Target.Path,
			Extras: c.Extras, Extensions: c.Extensions,
		})
	}
	return anim, nil
}
