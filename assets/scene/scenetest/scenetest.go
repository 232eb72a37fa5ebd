// Package scenetest makes small glTF models that exercise what real files
// contain (skins, morph targets, animations, quantized attributes, sparse
// accessors, interleaved and shared buffer views). They are written with
// qmuntal/gltf directly, byte by byte, so that they test scene.Read
// rather than scene.Write, and they are small enough to build in every
// test and to seed the fuzzer.
package scenetest

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/png"
	"math"

	"github.com/qmuntal/gltf"
)

// Fixtures returns every model of this package by name.
func Fixtures() map[string][]byte {
	return map[string][]byte{
		"skinned":     Skinned(),
		"quantized":   Quantized(),
		"sparse":      Sparse(),
		"interleaved": Interleaved(),
	}
}

// PNG encodes a w×h image: a two-colour checker, so that a texture that
// loses its data or its orientation is visible.
func PNG(w, h int, a, b color.NRGBA) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := a
			if (x+y)%2 == 1 {
				c = b
			}
			img.SetNRGBA(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		panic(err) // encoding to memory does not fail
	}
	return buf.Bytes()
}

// builder appends data to one buffer and creates views and accessors.
type builder struct {
	doc *gltf.Document
	bin []byte
}

func newBuilder() *builder {
	doc := gltf.NewDocument()
	doc.Asset.Generator = "kiln scenetest"
	return &builder{doc: doc}
}

func (b *builder) align() {
	for len(b.bin)%4 != 0 {
		b.bin = append(b.bin, 0)
	}
}

// view appends data as a buffer view and returns its index.
func (b *builder) view(data []byte, stride int, target gltf.Target) int {
	b.align()
	b.doc.BufferViews = append(b.doc.BufferViews, &gltf.BufferView{
		ByteOffset: len(b.bin), ByteLength: len(data), ByteStride: stride, Target: target,
	})
	b.bin = append(b.bin, data...)
	return len(b.doc.BufferViews) - 1
}

func (b *builder) accessor(a gltf.Accessor) int {
	b.doc.Accessors = append(b.doc.Accessors, &a)
	return len(b.doc.Accessors) - 1
}

// floats writes float32 data as its own view and accessor.
func (b *builder) floats(v []float32, typ gltf.AccessorType, target gltf.Target, minmax bool) int {
	view := b.view(f32(v...), 0, target)
	a := gltf.Accessor{BufferView: gltf.Index(view), ComponentType: gltf.ComponentFloat, Type: typ, Count: len(v) / typ.Components()}
	if minmax {
		a.Min, a.Max = bounds(v, typ.Components())
	}
	return b.accessor(a)
}

func (b *builder) indices(idx ...uint16) int {
	var data []byte
	for _, v := range idx {
		data = binary.LittleEndian.AppendUint16(data, v)
	}
	view := b.view(data, 0, gltf.TargetElementArrayBuffer)
	return b.accessor(gltf.Accessor{BufferView: gltf.Index(view), ComponentType: gltf.ComponentUshort, Type: gltf.AccessorScalar, Count: len(idx)})
}

func (b *builder) image(data []byte) int {
	view := b.view(data, 0, gltf.TargetNone)
	b.doc.Images = append(b.doc.Images, &gltf.Image{BufferView: gltf.Index(view), MimeType: "image/png"})
	return len(b.doc.Images) - 1
}

// glb encodes the document with qmuntal's encoder.
func (b *builder) glb() []byte {
	b.align()
	b.doc.Buffers = []*gltf.Buffer{{ByteLength: len(b.bin), Data: b.bin}}
	var out bytes.Buffer
	if err := gltf.NewEncoder(&out).Encode(b.doc); err != nil {
		panic(err) // a fixture that does not encode is a bug in this file
	}
	return out.Bytes()
}

func f32(v ...float32) []byte {
	out := make([]byte, 0, 4*len(v))
	for _, x := range v {
		out = binary.LittleEndian.AppendUint32(out, math.Float32bits(x))
	}
	return out
}

func bounds(v []float32, comps int) (lo, hi []float64) {
	lo, hi = make([]float64, comps), make([]float64, comps)
	for c := range lo {
		lo[c], hi[c] = math.Inf(1), math.Inf(-1)
	}
	for i, x := range v {
		lo[i%comps] = math.Min(lo[i%comps], float64(x))
		hi[i%comps] = math.Max(hi[i%comps], float64(x))
	}
	return lo, hi
}

// column is a vertical strip of quads, 1 wide and 2 high, in the XY
// plane facing +Z: the smallest mesh that bends at a joint.
var (
	columnPositions = []float32{
		0, 0, 0, 1, 0, 0,
		0, 1, 0, 1, 1, 0,
		0, 2, 0, 1, 2, 0,
	}
	columnNormals   = []float32{0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1}
	columnTexCoords = []float32{0, 1, 1, 1, 0, 0.5, 1, 0.5, 0, 0, 1, 0}
	columnIndices   = []uint16{0, 1, 3, 0, 3, 2, 2, 3, 5, 2, 5, 4}
)

// Skinned is a textured column skinned to two named joints, with two
// named morph targets (mesh weights and extras.targetNames), and one
// clip that bends the upper joint (LINEAR rotation) and switches the
// morph weights (STEP).
func Skinned() []byte {
	b := newBuilder()
	pos := b.floats(columnPositions, gltf.AccessorVec3, gltf.TargetArrayBuffer, true)
	nrm := b.floats(columnNormals, gltf.AccessorVec3, gltf.TargetArrayBuffer, false)
	uv := b.floats(columnTexCoords, gltf.AccessorVec2, gltf.TargetArrayBuffer, false)
	jv := b.view([]byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, 0, gltf.TargetArrayBuffer)
	joints := b.accessor(gltf.Accessor{BufferView: gltf.Index(jv), ComponentType: gltf.ComponentUbyte, Type: gltf.AccessorVec4, Count: 6})
	weights := b.floats([]float32{
		1, 0, 0, 0, 1, 0, 0, 0,
		0.5, 0.5, 0, 0, 0.5, 0.5, 0, 0,
		1, 0, 0, 0, 1, 0, 0, 0,
	}, gltf.AccessorVec4, gltf.TargetArrayBuffer, false)
	smile := b.floats([]float32{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -0.2, 0.1, 0, 0.2, 0.1, 0}, gltf.AccessorVec3, gltf.TargetArrayBuffer, true)
	open := b.floats([]float32{0, 0, 0, 0, 0, 0, 0, -0.3, 0, 0, -0.3, 0, 0, 0, 0, 0, 0, 0}, gltf.AccessorVec3, gltf.TargetArrayBuffer, true)
	idx := b.indices(columnIndices...)
	ibm := b.floats([]float32{
		1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1,
		1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1,
	}, gltf.AccessorMat4, gltf.TargetNone, false)
	img := b.image(PNG(4, 4, color.NRGBA{200, 40, 40, 255}, color.NRGBA{240, 240, 240, 255}))
	d := b.doc
	d.Samplers = []*gltf.Sampler{{MagFilter: gltf.MagNearest, MinFilter: gltf.MinNearest}}
	d.Textures = []*gltf.Texture{{Sampler: gltf.Index(0), Source: gltf.Index(img)}}
	d.Materials = []*gltf.Material{{
		Name:                 "Skin",
		PBRMetallicRoughness: &gltf.PBRMetallicRoughness{BaseColorTexture: &gltf.TextureInfo{Index: 0}, MetallicFactor: gltf.Float(0)},
	}}
	d.Meshes = []*gltf.Mesh{{
		Name: "Body",
		Primitives: []*gltf.Primitive{{
			Attributes: gltf.PrimitiveAttributes{gltf.POSITION: pos, gltf.NORMAL: nrm, gltf.TEXCOORD_0: uv, gltf.JOINTS_0: joints, gltf.WEIGHTS_0: weights},
			Indices:    gltf.Index(idx),
			Material:   gltf.Index(0),
			Targets:    []gltf.PrimitiveAttributes{{gltf.POSITION: smile}, {gltf.POSITION: open}},
		}},
		Weights: []float64{0, 0.5},
		Extras:  map[string]any{"targetNames": []string{"mouthSmile", "mouthOpen"}},
	}}
	d.Nodes = []*gltf.Node{
		{Name: "Armature", Children: []int{1, 3}},
		{Name: "Hips", Children: []int{2}},
		{Name: "Spine", Translation: [3]float64{0, 1, 0}},
		{Name: "Body", Mesh: gltf.Index(0), Skin: gltf.Index(0)},
	}
	d.Skins = []*gltf.Skin{{Name: "Armature", Joints: []int{1, 2}, Skeleton: gltf.Index(1), InverseBindMatrices: gltf.Index(ibm)}}
	d.Scenes[0].Nodes = []int{0}
	times := b.floats([]float32{0, 0.5, 1}, gltf.AccessorScalar, gltf.TargetNone, true)
	s := float32(math.Sin(math.Pi / 8))
	c := float32(math.Cos(math.Pi / 8))
	rot := b.floats([]float32{0, 0, 0, 1, 0, 0, s, c, 0, 0, 0, 1}, gltf.AccessorVec4, gltf.TargetNone, false)
	wts := b.floats([]float32{0, 0, 1, 0, 0, 1}, gltf.AccessorScalar, gltf.TargetNone, false)
	d.Animations = []*gltf.Animation{{
		Name: "Wave",
		Samplers: []*gltf.AnimationSampler{
			{Input: times, Output: rot, Interpolation: gltf.InterpolationLinear},
			{Input: times, Output: wts, Interpolation: gltf.InterpolationStep},
		},
		Channels: []*gltf.AnimationChannel{
			{Sampler: 0, Target: gltf.AnimationChannelTarget{Node: gltf.Index(2), Path: gltf.TRSRotation}},
			{Sampler: 1, Target: gltf.AnimationChannelTarget{Node: gltf.Index(3), Path: gltf.TRSWeights}},
		},
	}}
	return b.glb()
}

// Quantized stores the column as KHR_mesh_quantization allows: SHORT
// positions (not normalized, scaled back by the node), normalized BYTE
// normals and normalized UNSIGNED_SHORT texture coordinates, each padded
// to 4-byte elements.
func Quantized() []byte {
	b := newBuilder()
	var posData, nrmData, uvData []byte
	for i := 0; i < 6; i++ {
		for c := 0; c < 3; c++ {
			posData = binary.LittleEndian.AppendUint16(posData, uint16(int16(columnPositions[3*i+c]*1000)))
		}
		posData = append(posData, 0, 0)
		nrmData = append(nrmData, 0, 0, 127, 0)
		for c := 0; c < 2; c++ {
			uvData = binary.LittleEndian.AppendUint16(uvData, uint16(columnTexCoords[2*i+c]*65535))
		}
	}
	pv := b.view(posData, 8, gltf.TargetArrayBuffer)
	nv := b.view(nrmData, 4, gltf.TargetArrayBuffer)
	uvv := b.view(uvData, 0, gltf.TargetArrayBuffer)
	pos := b.accessor(gltf.Accessor{BufferView: gltf.Index(pv), ComponentType: gltf.ComponentShort, Type: gltf.AccessorVec3, Count: 6, Min: []float64{0, 0, 0}, Max: []float64{1000, 2000, 0}})
	nrm := b.accessor(gltf.Accessor{BufferView: gltf.Index(nv), ComponentType: gltf.ComponentByte, Normalized: true, Type: gltf.AccessorVec3, Count: 6})
	uv := b.accessor(gltf.Accessor{BufferView: gltf.Index(uvv), ComponentType: gltf.ComponentUshort, Normalized: true, Type: gltf.AccessorVec2, Count: 6})
	idx := b.indices(columnIndices...)
	d := b.doc
	d.ExtensionsUsed = []string{"KHR_mesh_quantization"}
	d.ExtensionsRequired = []string{"KHR_mesh_quantization"}
	d.Materials = []*gltf.Material{{Name: "Grey", PBRMetallicRoughness: &gltf.PBRMetallicRoughness{BaseColorFactor: &[4]float64{0.5, 0.5, 0.5, 1}}}}
	d.Meshes = []*gltf.Mesh{{Name: "Column", Primitives: []*gltf.Primitive{{
		Attributes: gltf.PrimitiveAttributes{gltf.POSITION: pos, gltf.NORMAL: nrm, gltf.TEXCOORD_0: uv},
		Indices:    gltf.Index(idx), Material: gltf.Index(0),
	}}}}
	d.Nodes = []*gltf.Node{{Name: "Column", Mesh: gltf.Index(0), Scale: [3]float64{0.001, 0.001, 0.001}}}
	d.Scenes[0].Nodes = []int{0}
	return b.glb()
}

// Sparse overrides one vertex of the column's positions through a sparse
// accessor on top of a buffer view, and stores its morph target as a
// sparse accessor without a buffer view (zeros but for two vertices).
func Sparse() []byte {
	b := newBuilder()
	moved := append([]float32(nil), columnPositions...)
	moved[3*5+2] = 0.25 // vertex 5 after the sparse substitution
	base := b.view(f32(columnPositions...), 0, gltf.TargetArrayBuffer)
	lo, hi := bounds(moved, 3)
	si := b.view([]byte{5, 0}, 0, gltf.TargetNone)
	sv := b.view(f32(1, 2, 0.25), 0, gltf.TargetNone)
	pos := b.accessor(gltf.Accessor{
		BufferView: gltf.Index(base), ComponentType: gltf.ComponentFloat, Type: gltf.AccessorVec3, Count: 6, Min: lo, Max: hi,
		Sparse: &gltf.Sparse{Count: 1, Indices: gltf.SparseIndices{BufferView: si, ComponentType: gltf.ComponentUshort}, Values: gltf.SparseValues{BufferView: sv}},
	})
	ti := b.view([]byte{4, 5}, 0, gltf.TargetNone)
	tv := b.view(f32(0, 0, 0.5, 0, 0, 0.5), 0, gltf.TargetNone)
	target := b.accessor(gltf.Accessor{
		ComponentType: gltf.ComponentFloat, Type: gltf.AccessorVec3, Count: 6, Min: []float64{0, 0, 0}, Max: []float64{0, 0, 0.5},
		Sparse: &gltf.Sparse{Count: 2, Indices: gltf.SparseIndices{BufferView: ti, ComponentType: gltf.ComponentUbyte}, Values: gltf.SparseValues{BufferView: tv}},
	})
	idx := b.indices(columnIndices...)
	d := b.doc
	d.Meshes = []*gltf.Mesh{{Name: "Sparse", Weights: []float64{1}, Primitives: []*gltf.Primitive{{
		Attributes: gltf.PrimitiveAttributes{gltf.POSITION: pos},
		Indices:    gltf.Index(idx),
		Targets:    []gltf.PrimitiveAttributes{{gltf.POSITION: target}},
	}}}}
	d.Nodes = []*gltf.Node{{Name: "Sparse", Mesh: gltf.Index(0)}}
	d.Scenes[0].Nodes = []int{0}
	return b.glb()
}

// Interleaved keeps POSITION, NORMAL and TEXCOORD_0 in one buffer view
// with a 32-byte stride, shared by two primitives (lower and upper quad)
// with different materials, and draws the mesh from two nodes.
func Interleaved() []byte {
	b := newBuilder()
	var data []byte
	for i := 0; i < 6; i++ {
		data = append(data, f32(columnPositions[3*i:3*i+3]...)...)
		data = append(data, f32(columnNormals[3*i:3*i+3]...)...)
		data = append(data, f32(columnTexCoords[2*i:2*i+2]...)...)
	}
	v := b.view(data, 32, gltf.TargetArrayBuffer)
	lo, hi := bounds(columnPositions, 3)
	pos := b.accessor(gltf.Accessor{BufferView: gltf.Index(v), ComponentType: gltf.ComponentFloat, Type: gltf.AccessorVec3, Count: 6, Min: lo, Max: hi})
	nrm := b.accessor(gltf.Accessor{BufferView: gltf.Index(v), ByteOffset: 12, ComponentType: gltf.ComponentFloat, Type: gltf.AccessorVec3, Count: 6})
	uv := b.accessor(gltf.Accessor{BufferView: gltf.Index(v), ByteOffset: 24, ComponentType: gltf.ComponentFloat, Type: gltf.AccessorVec2, Count: 6})
	lower := b.indices(columnIndices[:6]...)
	upper := b.indices(columnIndices[6:]...)
	attrs := func() gltf.PrimitiveAttributes {
		return gltf.PrimitiveAttributes{gltf.POSITION: pos, gltf.NORMAL: nrm, gltf.TEXCOORD_0: uv}
	}
	d := b.doc
	d.Materials = []*gltf.Material{
		{Name: "Red", PBRMetallicRoughness: &gltf.PBRMetallicRoughness{BaseColorFactor: &[4]float64{1, 0, 0, 1}}},
		{Name: "Blue", PBRMetallicRoughness: &gltf.PBRMetallicRoughness{BaseColorFactor: &[4]float64{0, 0, 1, 1}}},
	}
	d.Meshes = []*gltf.Mesh{{Name: "TwoTone", Primitives: []*gltf.Primitive{
		{Attributes: attrs(), Indices: gltf.Index(lower), Material: gltf.Index(0)},
		{Attributes: attrs(), Indices: gltf.Index(upper), Material: gltf.Index(1)},
	}}}
	d.Nodes = []*gltf.Node{
		{Name: "Left", Mesh: gltf.Index(0)},
		{Name: "Right", Mesh: gltf.Index(0), Translation: [3]float64{2, 0, 0}},
	}
	d.Scenes[0].Nodes = []int{0, 1}
	return b.glb()
}
