package scene

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"math"
	"slices"
	"unsafe"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln/assets/imagetype"
	"github.com/kilnhq/kiln/assets/meshopt"
	"github.com/kilnhq/kiln/internal/bufpool"
)

// Write encodes the scene as one self-contained GLB, the form Kiln stores
// and serves. Buffers are laid out from scratch: one binary chunk, one
// 4-byte-aligned view per accessor, identical accessors written once,
// nothing written that the scene no longer uses. Geometry is written as
// float32 (indices as the smallest type that holds them), except in a
// scene that requires KHR_mesh_quantization (quantized input, or the
// output of assets/quantize): there each vertex stream takes the
// narrowest integer type that holds all its values exactly, and float
// where none does (a pass moved it off its grid), so quantized input
// stays quantized unless the output needs float. extensionsUsed and
// extensionsRequired list exactly the extensions that the output contains.
func Write(s *Scene) ([]byte, error) {
	return WriteWith(s, WriteOptions{})
}

// WriteOptions changes how Write lays out the buffers.
type WriteOptions struct {
	// Meshopt compresses every geometry and animation view with
	// EXT_meshopt_compression (required, with a fallback buffer that
	// holds no data). The codecs are lossless; the filters (octahedral
	// for normals and tangents, quaternion for rotations, exponential for
	// translations and scales) are used only where they give back every
	// value within one unit of its last place, the error the extension
	// allows decoders. Quantize first (assets/quantize) for small files.
	Meshopt bool
	// Draco compresses each triangle primitive's indices and base
	// attributes with KHR_draco_mesh_compression (required, no fallback),
	// quantized at DracoBits; morph targets stay plain accessors, which
	// the extension does not cover. It excludes Meshopt.
	Draco bool
}

// WriteWith is Write with options.
func WriteWith(s *Scene, opts WriteOptions) ([]byte, error) {
	if err := s.check(); err != nil {
		return nil, fmt.Errorf("scene.Write: %w", err)
	}
	if opts.Draco && opts.Meshopt {
		return nil, fmt.Errorf("scene.Write: Draco and Meshopt exclude each other")
	}
	w := &writer{
		bin:       binPool.Get(),
		opts:      opts,
		quantized: slices.Contains(s.ExtensionsRequired, quantizationExt),
		doc: &gltf.Document{
			Asset: gltf.Asset{
				Version:    "2.0",
				Generator:  "Kiln",
				Copyright:  s.Asset.Copyright,
				MinVersion: s.Asset.MinVersion,
				Extras:     s.Asset.Extras,
				Extensions: s.Asset.Extensions,
			},
			Extensions: s.Extensions,
			Extras:     s.Extras,
			Materials:  s.Materials,
			Textures:   s.Textures,
			Samplers:   s.Samplers,
			Nodes:      s.Nodes,
			Scenes:     s.Scenes,
			Scene:      s.DefaultScene,
			Cameras:    s.Cameras,
		},
	}
	for i, im := range s.Images {
		mime := imagetype.Sniff(im.Data)
		if mime == "" {
			mime = im.MimeType
		}
		if mime == "" {
			return nil, fmt.Errorf("scene.Write: image %d is in a format that is neither PNG, JPEG, WebP nor KTX2", i)
		}
		view := w.view(im.Data, gltf.TargetNone, 0, viewInfo{})
		w.doc.Images = append(w.doc.Images, &gltf.Image{
			Name: im.Name, MimeType: mime, BufferView: &view,
			Extras: im.Extras, Extensions: im.Extensions,
		})
	}
	for _, m := range s.Meshes {
		gm := &gltf.Mesh{Name: m.Name, Weights: m.Weights, Extras: m.Extras, Extensions: m.Extensions}
		for _, p := range m.Primitives {
			gp, err := w.primitive(p)
			if err != nil {
				return nil, fmt.Errorf("scene.Write: mesh %q: %w", m.Name, err)
			}
			gm.Primitives = append(gm.Primitives, gp)
		}
		w.doc.Meshes = append(w.doc.Meshes, gm)
	}
	for _, sk := range s.Skins {
		gs := &gltf.Skin{Name: sk.Name, Joints: sk.Joints, Skeleton: sk.Skeleton, Extras: sk.Extras, Extensions: sk.Extensions}
		if sk.InverseBindMatrices != nil {
			b := make([]byte, 0, 64*len(sk.InverseBindMatrices))
			for _, m := range sk.InverseBindMatrices {
				b = appendFloats(b, m[:]...)
			}
			gs.InverseBindMatrices = gltf.Index(w.accessor(b, accSpec{ct: gltf.ComponentFloat, typ: gltf.AccessorMat4, count: len(sk.InverseBindMatrices),
				info: viewInfo{mode: meshopt.ModeAttributes, stride: 64, count: len(sk.InverseBindMatrices)}}, nil))
		}
		w.doc.Skins = append(w.doc.Skins, gs)
	}
	for _, a := range s.Animations {
		w.doc.Animations = append(w.doc.Animations, w.animation(s, a))
	}
	if opts.Meshopt {
		if err := w.compress(); err != nil {
			return nil, fmt.Errorf("scene.Write: %w", err)
		}
		w.doc.Nodes = shortNodes(w.doc.Nodes)
	}
	if len(w.bin) > 0 {
		w.doc.Buffers = append([]*gltf.Buffer{{ByteLength: len(w.bin)}}, w.doc.Buffers...)
	}
	if err := w.extensions(s); err != nil {
		return nil, fmt.Errorf("scene.Write: %w", err)
	}
	text, err := json.Marshal(w.doc)
	if err != nil {
		return nil, fmt.Errorf("scene.Write: %w", err)
	}
	out := glb(text, w.bin)
	binPool.Put(w.bin)
	return out, nil
}

// binPool keeps the binary chunk's buffer for the next Write: it is
// copied into the GLB at the end, and grew by doubling from nothing on
// every Write (an avatar's was some 18 MB of allocation a build).
var binPool bufpool.Bytes

type writer struct {
	doc  *gltf.Document
	bin  []byte
	seen map[uint64][]int // hash of an accessor's spec and bytes → accessors
	seed maphash.Seed
	// sparse finds a sparse accessor written before by its layout and
	// bytes, so identical targets are stored once as dense ones are.
	sparse map[string]int

	opts WriteOptions
	// quantized: store vertex streams in the narrowest exact type;
	// usedQuantization: some stream took a type only
	// KHR_mesh_quantization allows.
	quantized, usedQuantization bool
	// info describes each buffer view for compression, by view index.
	info []viewInfo
	// scratch holds an accessor's bytes on their way to bin; the sparse
	// ones are sparseFloatAttr's.
	scratch                          []byte
	moved                            []uint32
	sparseIdx, sparseVals, sparseKey []byte
}

// accSpec is what, besides its bytes, makes two accessors the same.
type accSpec struct {
	ct         gltf.ComponentType
	typ        gltf.AccessorType
	normalized bool
	count      int
	target     gltf.Target
	// stride is the element size padded to 4 bytes when it differs from
	// the packed size (quantized VEC3 and VEC2 streams), else 0.
	stride int
	// info is how the view compresses; it does not tell accessors apart.
	info viewInfo
}

// view appends data to the binary chunk at a 4-byte boundary, which every
// component type and KHR_mesh_quantization's attribute rule require.
func (w *writer) view(data []byte, target gltf.Target, stride int, info viewInfo) int {
	for len(w.bin)%4 != 0 {
		w.bin = append(w.bin, 0)
	}
	w.doc.BufferViews = append(w.doc.BufferViews, &gltf.BufferView{
		ByteOffset: len(w.bin), ByteLength: len(data), Target: target, ByteStride: stride,
	})
	w.bin = append(w.bin, data...)
	w.info = append(w.info, info)
	return len(w.doc.BufferViews) - 1
}

// accessor writes data as an accessor, or returns an earlier accessor
// with the same spec and bytes: the dedup of accessors happens here, for
// every scene, since sharing identical data never changes what renders.
// minmax computes min and max of float data (required for POSITION and
// animation inputs).
func (w *writer) accessor(data []byte, spec accSpec, minmax []float32) int {
	if w.seen == nil {
		w.seen = make(map[uint64][]int)
	}
	if w.seed == (maphash.Seed{}) {
		w.seed = maphash.MakeSeed()
	}
	var h maphash.Hash
	h.SetSeed(w.seed)
	fmt.Fprintf(&h, "%v/%v/%v/%v/%v/%v/%v;", spec.ct, spec.typ, spec.normalized, spec.count, spec.target, spec.stride, minmax != nil)
	h.Write(data)
	key := h.Sum64()
	for _, i := range w.seen[key] {
		a := w.doc.Accessors[i]
		v := w.doc.BufferViews[*a.BufferView]
		if a.ComponentType == spec.ct && a.Type == spec.typ && a.Normalized == spec.normalized && a.Count == spec.count &&
			v.Target == spec.target && v.ByteStride == spec.stride && (a.Min != nil) == (minmax != nil) && bytes.Equal(w.bin[v.ByteOffset:v.ByteOffset+v.ByteLength], data) {
			return i
		}
	}
	view := w.view(data, spec.target, spec.stride, spec.info)
	acc := &gltf.Accessor{BufferView: &view, ComponentType: spec.ct, Type: spec.typ, Normalized: spec.normalized, Count: spec.count}
	if minmax != nil {
		acc.Min, acc.Max = bounds(minmax, spec.typ.Components())
	}
	w.doc.Accessors = append(w.doc.Accessors, acc)
	w.seen[key] = append(w.seen[key], len(w.doc.Accessors)-1)
	return len(w.doc.Accessors) - 1
}

func bounds(v []float32, comps int) (lo, hi []float64) {
	lo, hi = make([]float64, comps), make([]float64, comps)
	for c := 0; c < comps; c++ {
		lo[c], hi[c] = math.Inf(1), math.Inf(-1)
	}
	// The built-in min and max order -0 below +0 and keep NaN as
	// math.Min and math.Max do (the Go specification), inline: a morph
	// target's bounds went through two calls a component.
	c := 0
	for _, x := range v {
		lo[c] = min(lo[c], float64(x))
		hi[c] = max(hi[c], float64(x))
		if c++; c == comps {
			c = 0
		}
	}
	return lo, hi
}

func appendFloats(b []byte, v ...float32) []byte {
	for _, x := range v {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	return b
}

func flat2(v [][2]float32) []float32 {
	out := make([]float32, 0, 2*len(v))
	for _, e := range v {
		out = append(out, e[:]...)
	}
	return out
}

func flat3(v [][3]float32) []float32 {
	out := make([]float32, 0, 3*len(v))
	for _, e := range v {
		out = append(out, e[:]...)
	}
	return out
}

// view3 is v's components as one slice over v's own memory, for streams
// only read: the morph targets' copies were some 5 MB a build of an
// avatar with its fifty face shapes.
func view3(v [][3]float32) []float32 {
	if len(v) == 0 {
		return []float32{}
	}
	return unsafe.Slice(&v[0][0], 3*len(v))
}

func flat4(v [][4]float32, comps int) []float32 {
	out := make([]float32, 0, comps*len(v))
	for _, e := range v {
		out = append(out, e[:comps]...)
	}
	return out
}

var vecType = [...]gltf.AccessorType{1: gltf.AccessorScalar, 2: gltf.AccessorVec2, 3: gltf.AccessorVec3, 4: gltf.AccessorVec4}

// floatAttr writes float32 vertex data of comps components.
func (w *writer) floatAttr(v []float32, comps int, minmax bool) int {
	spec := accSpec{ct: gltf.ComponentFloat, typ: vecType[comps], count: len(v) / comps, target: gltf.TargetArrayBuffer,
		info: viewInfo{mode: meshopt.ModeAttributes, stride: 4 * comps, count: len(v) / comps}}
	var mm []float32
	if minmax {
		mm = v
	}
	// The bytes go through a scratch buffer of the writer: accessor
	// copies them into the binary chunk and keeps no reference.
	w.scratch = appendFloats(w.scratch[:0], v...)
	return w.accessor(w.scratch, spec, mm)
}

func (w *writer) primitive(p *Primitive) (*gltf.Primitive, error) {
	gp := &gltf.Primitive{
		Attributes: gltf.PrimitiveAttributes{},
		Mode:       p.Mode,
		Material:   p.Material,
		Extras:     p.Extras,
		Extensions: p.Extensions,
	}
	compressed := false
	if w.opts.Draco {
		var err error
		if compressed, err = w.dracoPrimitive(p, gp); err != nil {
			return nil, err
		}
	}
	if !compressed {
		w.baseAttributes(p, gp)
	}
	at := gp.Attributes
	for _, name := range sortedKeys(p.Custom) {
		st := p.Custom[name]
		at[name] = w.floatAttr(st.Data, st.Components, false)
	}
	for _, t := range p.Targets {
		ga := gltf.PrimitiveAttributes{}
		if t.Positions != nil {
			ga[gltf.POSITION] = w.targetAttr(semTargetPosition, view3(t.Positions), 3, true)
		}
		if t.Normals != nil {
			ga[gltf.NORMAL] = w.targetAttr(semTargetDirection, view3(t.Normals), 3, false)
		}
		if t.Tangents != nil {
			ga[gltf.TANGENT] = w.targetAttr(semTargetDirection, view3(t.Tangents), 3, false)
		}
		for _, name := range sortedKeys(t.Custom) {
			st := t.Custom[name]
			ga[name] = w.floatAttr(st.Data, st.Components, false)
		}
		gp.Targets = append(gp.Targets, ga)
	}
	if p.Indices != nil && !compressed {
		mode := meshopt.ModeIndices
		if p.Mode == gltf.PrimitiveTriangles && len(p.Indices)%3 == 0 {
			mode = meshopt.ModeTriangles
		}
		gp.Indices = gltf.Index(w.indices(p.Indices, len(p.Positions), mode))
	}
	return gp, nil
}

// baseAttributes writes p's vertex streams other than the application
// ones as accessors.
func (w *writer) baseAttributes(p *Primitive, gp *gltf.Primitive) {
	at := gp.Attributes
	at[gltf.POSITION] = w.vertexAttr(semPosition, flat3(p.Positions), 3, true)
	if p.Normals != nil {
		at[gltf.NORMAL] = w.unitAttr(semNormal, flat3(p.Normals), flat3(unitNormals(p.Normals)), 3)
	}
	if p.Tangents != nil {
		at[gltf.TANGENT] = w.unitAttr(semTangent, flat4(p.Tangents, 4), flat4(unitTangents(p.Tangents), 4), 4)
	}
	for i, t := range p.TexCoords {
		if t != nil {
			at[fmt.Sprintf("TEXCOORD_%d", i)] = w.vertexAttr(semTexcoord, flat2(t), 2, false)
		}
	}
	for i, c := range p.Colors {
		if c == nil {
			continue
		}
		comps := 3
		for _, e := range c {
			if e[3] != 1 {
				comps = 4
				break
			}
		}
		at[fmt.Sprintf("COLOR_%d", i)] = w.vertexAttr(semColor, flat4(c, comps), comps, false)
	}
	for i, j := range p.Joints {
		if j != nil {
			at[fmt.Sprintf("JOINTS_%d", i)] = w.joints(j)
		}
	}
	for i, wt := range p.Weights {
		if wt != nil {
			at[fmt.Sprintf("WEIGHTS_%d", i)] = w.vertexAttr(semWeights, flat4(wt, 4), 4, false)
		}
	}
}

func sortedKeys(m map[string]Stream) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// indices uses 16 bits when every index fits below 65535, the value that
// would mean "primitive restart" to some APIs and is therefore banned.
func (w *writer) indices(idx []uint32, vertices int, mode meshopt.Mode) int {
	spec := accSpec{ct: gltf.ComponentUint, typ: gltf.AccessorScalar, count: len(idx), target: gltf.TargetElementArrayBuffer,
		info: viewInfo{mode: mode, stride: 4, count: len(idx), indices: idx}}
	var b []byte
	if vertices <= 65535 {
		spec.ct = gltf.ComponentUshort
		spec.info.stride = 2
		b = make([]byte, 0, 2*len(idx))
		for _, v := range idx {
			b = binary.LittleEndian.AppendUint16(b, uint16(v))
		}
	} else {
		b = make([]byte, 0, 4*len(idx))
		for _, v := range idx {
			b = binary.LittleEndian.AppendUint32(b, v)
		}
	}
	return w.accessor(b, spec, nil)
}

func (w *writer) joints(j [][4]uint16) int {
	big := false
	for _, e := range j {
		big = big || e[0] > 255 || e[1] > 255 || e[2] > 255 || e[3] > 255
	}
	spec := accSpec{ct: gltf.ComponentUbyte, typ: gltf.AccessorVec4, count: len(j), target: gltf.TargetArrayBuffer,
		info: viewInfo{mode: meshopt.ModeAttributes, stride: 4, count: len(j)}}
	b := make([]byte, 0, 8*len(j))
	for _, e := range j {
		for _, v := range e {
			if big {
				b = binary.LittleEndian.AppendUint16(b, v)
			} else {
				b = append(b, byte(v))
			}
		}
	}
	if big {
		spec.ct = gltf.ComponentUshort
		spec.info.stride = 8
	}
	return w.accessor(b, spec, nil)
}

// unitNormals renormalizes normals whose length strays from 1 by more
// than float rounding: dequantized byte normals (KHR_mesh_quantization)
// are off by up to 1%, which the validator reports as an error once they
// are stored as floats. Zero vectors stay as they are.
func unitNormals(n [][3]float32) [][3]float32 {
	out := n
	for i, v := range n {
		l := math.Sqrt(float64(v[0])*float64(v[0]) + float64(v[1])*float64(v[1]) + float64(v[2])*float64(v[2]))
		if l == 0 || math.Abs(l-1) < 1e-6 {
			continue
		}
		if &out[0] == &n[0] {
			out = slices.Clone(n)
		}
		out[i] = [3]float32{float32(float64(v[0]) / l), float32(float64(v[1]) / l), float32(float64(v[2]) / l)}
	}
	return out
}

// unitTangents does for tangents' xyz what unitNormals does, and snaps w
// to the sign ±1 the spec allows.
func unitTangents(t [][4]float32) [][4]float32 {
	out := slices.Clone(t)
	for i, v := range t {
		l := math.Sqrt(float64(v[0])*float64(v[0]) + float64(v[1])*float64(v[1]) + float64(v[2])*float64(v[2]))
		if l != 0 && math.Abs(l-1) >= 1e-6 {
			out[i] = [4]float32{float32(float64(v[0]) / l), float32(float64(v[1]) / l), float32(float64(v[2]) / l), v[3]}
		}
		if v[3] < 0 {
			out[i][3] = -1
		} else {
			out[i][3] = 1
		}
	}
	return out
}

func (w *writer) animation(s *Scene, a *Animation) *gltf.Animation {
	ga := &gltf.Animation{Name: a.Name, Extras: a.Extras, Extensions: a.Extensions}
	// The output type follows from the path of a channel that uses the
	// sampler; check has made sure all such channels agree on the width.
	width := make([]int, len(a.Samplers))
	// A sampler's output can be stored as normalized rotations only when
	// every channel that uses it drives a rotation.
	rotation := make([]bool, len(a.Samplers))
	other := make([]bool, len(a.Samplers))
	for _, c := range a.Channels {
		if c.Path == gltf.TRSRotation {
			rotation[c.Sampler] = !other[c.Sampler]
		} else {
			rotation[c.Sampler], other[c.Sampler] = false, true
		}
		k := 1
		if c.Path != gltf.TRSWeights {
			k, _ = s.pathWidth(c)
		}
		width[c.Sampler] = k
	}
	for i, sm := range a.Samplers {
		inSpec := accSpec{ct: gltf.ComponentFloat, typ: gltf.AccessorScalar, count: len(sm.Input),
			info: viewInfo{mode: meshopt.ModeAttributes, stride: 4, count: len(sm.Input)}}
		if w.opts.Meshopt {
			// Exact or not at all: keyframe times must not move.
			if enc, ok := meshopt.EncodeExponentialShared(sm.Input); ok {
				inSpec.info.filter, inSpec.info.filtered = meshopt.FilterExponential, enc
			}
		}
		in := w.accessor(appendFloats(nil, sm.Input...), inSpec, sm.Input)
		k := max(width[i], 1)
		if len(sm.Output)%k != 0 {
			k = 1
		}
		out := w.animOutput(sm.Output, k, rotation[i])
		ga.Samplers = append(ga.Samplers, &gltf.AnimationSampler{
			Input: in, Output: out, Interpolation: sm.Interpolation,
			Extras: sm.Extras, Extensions: sm.Extensions,
		})
	}
	for _, c := range a.Channels {
		ga.Channels = append(ga.Channels, &gltf.AnimationChannel{
			Sampler: c.Sampler,
			Target:  gltf.AnimationChannelTarget{Node: c.Node, Path: c.Path},
			Extras:  c.Extras, Extensions: c.Extensions,
		})
	}
	return ga
}

// Extensions that only carry an image under a new format; a texture that
// has no core source then depends on them.
var imageFormatExtensions = map[string]bool{
	"EXT_texture_webp":   true,
	"KHR_texture_basisu": true,
	"EXT_texture_avif":   true,
	"MSFT_texture_dds":   true,
}

// extensions sets extensionsUsed to the extensions that the document
// contains, found by walking its JSON (outside extras), and
// extensionsRequired to those of them that the source required plus the
// image formats a texture has no fallback for.
func (w *writer) extensions(s *Scene) error {
	text, err := json.Marshal(w.doc)
	if err != nil {
		return err
	}
	var tree any
	if err := json.Unmarshal(text, &tree); err != nil {
		return err
	}
	used := map[string]bool{}
	collectExtensions(tree, used)
	req := map[string]bool{}
	for _, e := range s.ExtensionsRequired {
		if used[e] {
			req[e] = true
		}
	}
	for _, t := range s.Textures {
		if t.Source != nil {
			continue
		}
		for name := range t.Extensions {
			if imageFormatExtensions[name] {
				req[name] = true
			}
		}
	}
	if w.usedQuantization {
		used[quantizationExt], req[quantizationExt] = true, true
	}
	if w.opts.Meshopt && used[meshoptExt] {
		req[meshoptExt] = true
	}
	if w.opts.Draco && used[dracoExt] {
		req[dracoExt] = true
	}
	w.doc.ExtensionsUsed = sortedSet(used)
	w.doc.ExtensionsRequired = sortedSet(req)
	return nil
}

func collectExtensions(v any, used map[string]bool) {
	switch v := v.(type) {
	case map[string]any:
		for k, child := range v {
			switch k {
			case "extras":
				continue
			case "extensions":
				if m, ok := child.(map[string]any); ok {
					for name := range m {
						used[name] = true
					}
				}
			}
			collectExtensions(child, used)
		}
	case []any:
		for _, child := range v {
			collectExtensions(child, used)
		}
	}
}

func sortedSet(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// glb assembles the container: header, JSON chunk padded with spaces, BIN
// chunk padded with zeros, as the GLB spec requires.
func glb(text, bin []byte) []byte {
	for len(text)%4 != 0 {
		text = append(text, ' ')
	}
	for len(bin)%4 != 0 {
		bin = append(bin, 0)
	}
	total := 12 + 8 + len(text)
	if len(bin) > 0 {
		total += 8 + len(bin)
	}
	out := make([]byte, 0, total)
	out = binary.LittleEndian.AppendUint32(out, glbMagic)
	out = binary.LittleEndian.AppendUint32(out, 2)
	out = binary.LittleEndian.AppendUint32(out, uint32(total))
	out = binary.LittleEndian.AppendUint32(out, uint32(len(text)))
	out = binary.LittleEndian.AppendUint32(out, glbChunkJSON)
	out = append(out, text...)
	if len(bin) > 0 {
		out = binary.LittleEndian.AppendUint32(out, uint32(len(bin)))
		out = binary.LittleEndian.AppendUint32(out, glbChunkBIN)
		out = append(out, bin...)
	}
	return out
}
