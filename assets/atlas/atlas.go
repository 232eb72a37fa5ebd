// Package atlas packs the textures of a model into one atlas per channel
// (textureAtlasSize): every material becomes one rectangle of the
// atlas, the same rectangle in every channel, so that one UV remap serves
// base colour, normal, metallic-roughness, occlusion and emissive alike,
// and the model's materials collapse into at most two: one opaque, one
// for BLEND and MASK (three when both BLEND and MASK occur). That is
// what lets the mesh merge (assets/merge) draw a whole avatar in two
// calls, the way Ready Player Me's atlased avatars do.
//
// Decisions, each for a reason:
//
//   - Factors are baked into the pixels (base colour and emissive in
//     linear light, then back to sRGB), so materials with different
//     factors can share one material whose factors are 1. A material
//     without a channel's texture gets its factor as a flat colour, or the
//     channel's neutral value: normal (128,128,255), occlusion white.
//   - Occlusion goes into the red channel of the metallic-roughness atlas
//     (glTF's ORM packing: R occlusion, G roughness, B metalness), which
//     glTF allows and saves one image: five channels, at most four images.
//     A channel nothing needs (no texture, one common factor) gets no
//     image: the atlas material keeps that factor.
//   - Each rectangle keeps its texture's aspect ratio and is scaled by
//     sqrt of the UV area its triangles cover (so a texture whose faces use
//     all of it gets more room than one mostly unused), times one global
//     scale found by binary search so that everything fits the asked size;
//     never above the texture's own resolution.
//   - A KHR_texture_transform that every texture of a material shares is
//     applied to the material's UVs and dropped, so the material packs
//     like any other (its repeats baked when it tiles, see untile).
//   - Textures that tile (UVs beyond 0..1 by more than uvEpsilon) in a
//     way untile cannot bake, that a KHR_texture_transform of their own
//     moves (one texture of a material but not another, or another
//     transform), that read another TEXCOORD set, that
//     sample with NEAREST (pixel art, palettes: resampling would blur
//     them), that cannot be decoded (KTX2), or whose materials carry
//     extensions (KHR_materials_*: one atlas material could not hold
//     them), keep their own material and textures: the Report says which
//     and why. Nothing is ever smeared across a neighbour's rectangle.
//   - Padding of a few pixels around each rectangle repeats its edge
//     pixels, so that bilinear filtering and the first mip levels never
//     read a neighbour; rectangles start on multiples of 4 pixels.
//   - Transparent group: MASK materials keep MASK, their alpha
//     remapped so that each one's cutoff lands on 0.5 (the group's
//     cutoff); BLEND materials alone make it BLEND. BLEND beside MASK
//     gets a third group and material of its own (Wolf3D_Avatar_Blend,
//     Kiln_Atlas_Blend), a third draw call only then: turned BLEND with
//     them, the MASK parts (an avatar's brows, lashes and beard beside
//     its glasses' lenses) would be drawn without writing depth, and
//     their cards would sort wrongly over each other. doubleSided is
//     true for a group as soon as one of its materials is: showing back
//     faces that were culled costs little, culling faces that were meant
//     to be seen loses geometry.
//   - Atlases are written as PNG at the fastest compression: the texture
//     format pass re-encodes them to the asked format afterwards.
package atlas

import (
	"context"
	"encoding/json"
	"fmt"
	"image"
	"math"
	"math/bits"
	"sort"
	"strings"

	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/ext/texturetransform"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/scene"
)

// MinSize and MaxSize bound textureAtlasSize (kiln.Variant checks it).
const (
	MinSize = 64
	MaxSize = 2048
)

// uvEpsilon is how far beyond 0..1 a texture coordinate may go before
// the texture counts as tiling: exporters leave values like -0.0004 or
// 1.0007 from float error, and those land in the padding, which repeats
// the edge, as a clamped sampler would.
const uvEpsilon = 0.002

// minCoverage floors the UV area a material's faces are counted for, so
// that a texture whose triangles are tiny or degenerate (a colour picked
// from a swatch) still gets a quarter of its resolution.
const minCoverage = 1.0 / 16

// minSide is the smallest side of a rectangle, and the side of a flat
// (untextured) material's rectangle.
const minSide = 4

// Channel names, as in the Report and the atlas image names.
const (
	ChannelBaseColor = "baseColor"
	ChannelNormal    = "normal"
	// ChannelORM is occlusion (R), roughness (G) and metalness (B).
	ChannelORM      = "occlusionRoughnessMetallic"
	ChannelEmissive = "emissive"
)

// Report says what Build did. Material indices in Regions and KeptOut
// are those of the scene before Build (-1 is glTF's default material,
// for primitives without one); the indices of the atlas materials and
// textures are those of the scene after.
type Report struct {
	Size int `json:"size"` // as asked
	// Width and Height of every atlas image: at most Size, powers of two,
	// smaller when everything fits at its own resolution.
	Width  int `json:"width"`
	Height int `json:"height"`
	// Scale is the global factor every rectangle was scaled by (before
	// each one's coverage and the cap at its texture's resolution); 4,
	// the largest, means every rectangle has its texture's own resolution.
	Scale   float64   `json:"scale"`
	Padding int       `json:"padding"`
	Regions []Region  `json:"regions"`
	KeptOut []KeptOut `json:"keptOut,omitempty"`
	// Textures maps a channel name to the atlas texture of that channel;
	// occlusion and metallic-roughness share ChannelORM.
	Textures map[string]int `json:"textures"`
	// Opaque and Transparent are the atlas materials (nil when no source
	// material went into that group); Blend is the BLEND material when
	// BLEND materials were packed beside MASK ones (Transparent is then
	// MASK).
	Opaque      *int `json:"opaque,omitempty"`
	Transparent *int `json:"transparent,omitempty"`
	Blend       *int `json:"blend,omitempty"`
	// AlphaMode of the transparent atlas material, DoubleSided of each.
	AlphaMode              string `json:"alphaMode,omitempty"`
	OpaqueDoubleSided      bool   `json:"opaqueDoubleSided"`
	TransparentDoubleSided bool   `json:"transparentDoubleSided"`
	BlendDoubleSided       bool   `json:"blendDoubleSided,omitempty"`
}

// Region is one material's rectangle, in pixels of the atlas (padding
// excluded).
type Region struct {
	Material int             `json:"material"`
	Name     string          `json:"name"`
	Rect     image.Rectangle `json:"rect"`
	// Source is the resolution of the material's largest texture (zero
	// for a flat material), Coverage the UV area its triangles cover.
	Source      image.Point `json:"source"`
	Coverage    float64     `json:"coverage"`
	Transparent bool        `json:"transparent"`
}

// KeptOut is a material left with its own textures.
type KeptOut struct {
	Material int    `json:"material"`
	Name     string `json:"name"`
	Reason   string `json:"reason"`
}

// channel indices of a source material's textures.
const (
	cBase = iota
	cNormal
	cMR
	cOcc
	cEmissive
	nChannels
)

// source is one material of the scene and what the atlas needs of it.
type source struct {
	index int // in s.Materials; -1 for the default material
	mat   *gltf.Material
	prims []*scene.Primitive
	// image index of each channel's texture, -1 when the channel has none
	img         [nChannels]int
	transparent bool
	coverage    float64
	// points: every triangle has zero UV area, so the material picks
	// single texels (a palette or colour swatch, as MagicaVoxel exports):
	// any resampling would blend neighbouring swatches, so its rectangle
	// keeps the texture's exact resolution.
	points bool
	res    image.Point // largest texture, zero when flat
	reason string      // why it stays out; "" when packed
	tiling bool        // out because its texture coordinates leave 0..1
	rect   image.Rectangle
}

// flat reports a material without any texture: one colour per channel.
func (m *source) flat() bool {
	for _, i := range m.img {
		if i >= 0 {
			return false
		}
	}
	return true
}

// Build packs the textures of s into atlases of at most size×size and
// rewrites s in place: new atlas images, textures and materials, UVs
// (TEXCOORD_0) remapped on every primitive of a packed material, and the
// source materials, textures and images that nothing uses any more
// removed (scene.Prune). size must be a power of two in 64..2048.
func Build(ctx context.Context, s *scene.Scene, size int) (Report, error) {
	if size < MinSize || size > MaxSize || bits.OnesCount(uint(size)) != 1 {
		return Report{}, kiln.Errorf(kiln.KindInvalid, "invalid_texture_atlas_size",
			"textureAtlasSize must be a power of two from %d to %d, got %d", MinSize, MaxSize, size)
	}
	rep := Report{Size: size, Padding: padding(size), Textures: map[string]int{}}
	srcs := collect(s)
	if len(srcs) == 0 {
		return rep, nil
	}
	decoded, err := decodeImages(ctx, s, srcs)
	if err != nil {
		return rep, err
	}
	var packed []*source
	for _, m := range srcs {
		if m.reason == "" {
			packed = append(packed, m)
		}
	}
	scale, w, h := layout(packed, size, rep.Padding)
	// Materials that found no room even at the smallest scale were marked
	// kept out by layout.
	var inAtlas []*source
	for _, m := range srcs {
		if m.reason == "" {
			inAtlas = append(inAtlas, m)
		} else {
			rep.KeptOut = append(rep.KeptOut, KeptOut{Material: m.index, Name: m.mat.Name, Reason: m.reason})
		}
	}
	if len(inAtlas) == 0 {
		return rep, nil
	}
	rep.Scale, rep.Width, rep.Height = scale, w, h
	for _, m := range inAtlas {
		rep.Regions = append(rep.Regions, Region{
			Material: m.index, Name: m.mat.Name, Rect: m.rect, Source: m.res,
			Coverage: m.coverage, Transparent: m.transparent,
		})
	}

	groups := newGroups(inAtlas)
	need := needed(inAtlas)
	pix, err := paint(ctx, inAtlas, decoded, need, groups, w, h, rep.Padding)
	if err != nil {
		return rep, err
	}
	textures, err := addAtlases(s, pix)
	if err != nil {
		return rep, err
	}
	mats := groups.materials(s, inAtlas, need, textures)
	for _, m := range inAtlas {
		remapUVs(m, w, h)
	}
	s.Prune()

	// Prune renumbers: find the atlas's objects again by identity.
	for i, mt := range s.Materials {
		if mt == mats[0] {
			rep.Opaque = gltf.Index(i)
		}
		if mt == mats[1] {
			rep.Transparent = gltf.Index(i)
		}
		if mt == mats[gBlend] && mt != nil {
			rep.Blend = gltf.Index(i)
		}
	}
	for name, t := range textures {
		for i, st := range s.Textures {
			if st == t {
				rep.Textures[name] = i
			}
		}
	}
	if mats[1] != nil {
		rep.AlphaMode = mats[1].AlphaMode.String()
		rep.TransparentDoubleSided = mats[1].DoubleSided
	}
	if mats[0] != nil {
		rep.OpaqueDoubleSided = mats[0].DoubleSided
	}
	if mats[gBlend] != nil {
		rep.BlendDoubleSided = mats[gBlend].DoubleSided
	}
	return rep, nil
}

// padding is the margin around each rectangle: enough for bilinear
// filtering and a few mip levels at the asked size.
func padding(size int) int {
	return min(max(size/256, 2), 8)
}

// collect lists the materials the scene's primitives use, with their
// primitives, textures and coverage, and decides which ones stay out.
func collect(s *scene.Scene) []*source {
	byIndex := map[int]*source{}
	var order []*source
	seen := map[*scene.Primitive]bool{}
	for _, mesh := range s.Meshes {
		for _, p := range mesh.Primitives {
			if seen[p] {
				continue
			}
			seen[p] = true
			idx := -1
			if p.Material != nil {
				idx = *p.Material
			}
			m := byIndex[idx]
			if m == nil {
				mat := &gltf.Material{}
				if idx >= 0 && idx < len(s.Materials) {
					mat = s.Materials[idx]
				}
				m = &source{index: idx, mat: mat, img: [nChannels]int{-1, -1, -1, -1, -1}}
				byIndex[idx] = m
				order = append(order, m)
			}
			m.prims = append(m.prims, p)
			if _, ok := p.Extensions["KHR_materials_variants"]; ok && m.reason == "" {
				m.reason = "a primitive switches materials (KHR_materials_variants)"
			}
		}
	}
	for _, m := range order {
		if m.reason == "" {
			bakeTransform(m)
			m.reason = inspect(s, m)
		}
		if m.tiling && untile(s, m) {
			m.tiling = false
			m.img = [nChannels]int{-1, -1, -1, -1, -1}
			m.reason = inspect(s, m)
		}
		if m.reason == "" {
			m.transparent = m.transparent && seesThrough(s, m)
			var area float64
			m.coverage, area = coverage(m)
			m.points = area < 1e-9
		}
	}
	return order
}

// inspect fills the material's textures and returns why it cannot go
// into the atlas, or "".
func inspect(s *scene.Scene, m *source) string {
	mat := m.mat
	if m.index >= len(s.Materials) {
		return "material index out of range"
	}
	if len(mat.Extensions) > 0 {
		return "material extensions " + strings.Join(keys(mat.Extensions), ", ") + " cannot be shared by an atlas material"
	}
	m.transparent = mat.AlphaMode == gltf.AlphaBlend || mat.AlphaMode == gltf.AlphaMask
	type info struct {
		c        int
		index    *int
		texCoord int
		exts     gltf.Extensions
	}
	var infos []info
	if pbr := mat.PBRMetallicRoughness; pbr != nil {
		if t := pbr.BaseColorTexture; t != nil {
			infos = append(infos, info{cBase, &t.Index, t.TexCoord, t.Extensions})
		}
		if t := pbr.MetallicRoughnessTexture; t != nil {
			infos = append(infos, info{cMR, &t.Index, t.TexCoord, t.Extensions})
		}
	}
	if t := mat.NormalTexture; t != nil && t.Index != nil {
		infos = append(infos, info{cNormal, t.Index, t.TexCoord, t.Extensions})
	}
	if t := mat.OcclusionTexture; t != nil && t.Index != nil {
		infos = append(infos, info{cOcc, t.Index, t.TexCoord, t.Extensions})
	}
	if t := mat.EmissiveTexture; t != nil {
		infos = append(infos, info{cEmissive, &t.Index, t.TexCoord, t.Extensions})
	}
	for _, in := range infos {
		if _, ok := in.exts[texturetransform.ExtensionName]; ok {
			return "its textures have different KHR_texture_transforms (one UV set cannot serve them)"
		}
		if len(in.exts) > 0 {
			return "a texture info has extensions " + strings.Join(keys(in.exts), ", ")
		}
		if in.texCoord != 0 {
			return fmt.Sprintf("a texture reads TEXCOORD_%d", in.texCoord)
		}
		ti := *in.index
		if ti < 0 || ti >= len(s.Textures) {
			return "texture index out of range"
		}
		tex := s.Textures[ti]
		if tex.Sampler != nil && *tex.Sampler >= 0 && *tex.Sampler < len(s.Samplers) {
			sm := s.Samplers[*tex.Sampler]
			if sm.MagFilter == gltf.MagNearest || sm.MinFilter == gltf.MinNearest || sm.MinFilter == gltf.MinNearestMipMapNearest {
				return "a texture samples with NEAREST filtering (pixel art or palette)"
			}
		}
		img, ok := textureImage(tex)
		if !ok || img >= len(s.Images) {
			return "a texture has no image Kiln can decode"
		}
		m.img[in.c] = img
	}
	if len(infos) == 0 {
		return "" // flat: its UVs are replaced, whatever they were
	}
	// Tiling: any texture coordinate outside 0..1.
	for _, p := range m.prims {
		if len(p.TexCoords) == 0 || p.TexCoords[0] == nil {
			continue // UV (0,0) everywhere: inside
		}
		for _, uv := range p.TexCoords[0] {
			if uv[0] < -uvEpsilon || uv[0] > 1+uvEpsilon || uv[1] < -uvEpsilon || uv[1] > 1+uvEpsilon ||
				uv[0] != uv[0] || uv[1] != uv[1] {
				m.tiling = true
				return fmt.Sprintf("texture coordinates outside 0..1 (%.3g, %.3g): the texture tiles", uv[0], uv[1])
			}
		}
	}
	return ""
}

// textureImage is the image a texture samples: its core source, else
// the source of an extension such as EXT_texture_webp.
func textureImage(t *gltf.Texture) (int, bool) {
	if t.Source != nil && *t.Source >= 0 {
		return *t.Source, true
	}
	for _, name := range keys(t.Extensions) {
		var obj struct {
			Source *int `json:"source"`
		}
		var raw []byte
		switch v := t.Extensions[name].(type) {
		case json.RawMessage:
			raw = v
		default:
			raw, _ = json.Marshal(v)
		}
		if json.Unmarshal(raw, &obj) == nil && obj.Source != nil && *obj.Source >= 0 {
			return *obj.Source, true
		}
	}
	return -1, false
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// coverage is the UV area the material's triangles cover, clamped to
// minCoverage..1 (mirrored or overlapping halves count twice, so the sum
// can exceed the unit square), and the area before clamping.
func coverage(m *source) (float64, float64) {
	var area float64
	for _, p := range m.prims {
		if len(p.TexCoords) == 0 || p.TexCoords[0] == nil {
			continue
		}
		uv := p.TexCoords[0]
		tri := func(a, b, c uint32) {
			if int(a) >= len(uv) || int(b) >= len(uv) || int(c) >= len(uv) {
				return
			}
			ax, ay := float64(uv[a][0]), float64(uv[a][1])
			bx, by := float64(uv[b][0])-ax, float64(uv[b][1])-ay
			cx, cy := float64(uv[c][0])-ax, float64(uv[c][1])-ay
			area += math.Abs(bx*cy-by*cx) / 2
		}
		eachTriangle(p, tri)
	}
	return min(max(area, minCoverage), 1), area
}

// eachTriangle calls fn with the vertex indices of every triangle of p
// (lists, strips and fans; nothing for points and lines).
func eachTriangle(p *scene.Primitive, fn func(a, b, c uint32)) {
	n := len(p.Indices)
	at := func(i int) uint32 { return p.Indices[i] }
	if p.Indices == nil {
		n = len(p.Positions)
		at = func(i int) uint32 { return uint32(i) }
	}
	switch p.Mode {
	case gltf.PrimitiveTriangles:
		for i := 0; i+2 < n; i += 3 {
			fn(at(i), at(i+1), at(i+2))
		}
	case gltf.PrimitiveTriangleStrip:
		for i := 0; i+2 < n; i++ {
			if i%2 == 0 {
				fn(at(i), at(i+1), at(i+2))
			} else {
				fn(at(i+1), at(i), at(i+2))
			}
		}
	case gltf.PrimitiveTriangleFan:
		for i := 1; i+1 < n; i++ {
			fn(at(0), at(i), at(i+1))
		}
	}
}

// remapUVs moves TEXCOORD_0 of every primitive of m into its rectangle.
// A primitive without TEXCOORD_0 sampled (0,0) everywhere; it gets the
// rectangle's corner (a flat material's centre). New slices are built,
// so shallow copies of the primitive (other levels of detail) keep theirs.
func remapUVs(m *source, w, h int) {
	r := m.rect
	x0, y0 := float64(r.Min.X)/float64(w), float64(r.Min.Y)/float64(h)
	sx, sy := float64(r.Dx())/float64(w), float64(r.Dy())/float64(h)
	for _, p := range m.prims {
		n := p.VertexCount()
		var src [][2]float32
		if len(p.TexCoords) > 0 {
			src = p.TexCoords[0]
		}
		uv := make([][2]float32, n)
		for i := range uv {
			u, v := 0.5, 0.5 // a flat material's centre
			if !m.flat() {
				u, v = 0, 0
				if src != nil {
					u, v = float64(src[i][0]), float64(src[i][1])
				}
			}
			uv[i] = [2]float32{float32(x0 + u*sx), float32(y0 + v*sy)}
		}
		sets := make([][][2]float32, max(len(p.TexCoords), 1))
		copy(sets, p.TexCoords)
		sets[0] = uv
		p.TexCoords = sets
	}
}
