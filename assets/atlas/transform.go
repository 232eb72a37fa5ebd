package atlas

import (
	"encoding/json"
	"math"

	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/ext/texturetransform"

	"github.com/kilnhq/kiln/assets/scene"
)

// bakeTransform applies a material's KHR_texture_transform to the
// TEXCOORD_0 of its primitives and removes the extension, so that the
// material can join the atlas like any other (or, when the transformed
// coordinates leave 0..1, be untiled first, as tiling UVs are). It only
// does so when every texture of the material carries the same transform
// on TEXCOORD_0: one UV set then serves them all, and what renders does
// not change. It reports whether it baked; new UV slices are made, so
// shallow copies of a primitive (other levels) keep theirs.
func bakeTransform(m *source) bool {
	infos := textureInfoExtensions(m.mat)
	if len(infos) == 0 {
		return false
	}
	var t *texturetransform.TextureTransform
	for _, exts := range infos {
		tr, ok := transformOf(*exts)
		if !ok || tr.TexCoord != nil && *tr.TexCoord != 0 {
			return false
		}
		if t != nil && (tr.Offset != t.Offset || tr.Rotation != t.Rotation || tr.Scale != t.Scale) {
			return false
		}
		t = tr
	}
	for _, p := range m.prims {
		applyTransform(p, t)
	}
	for _, exts := range infos {
		delete(*exts, texturetransform.ExtensionName)
		if len(*exts) == 0 {
			*exts = nil
		}
	}
	return true
}

// applyTransform replaces the primitive's TEXCOORD_0 by its transform,
// as the extension defines it: uv' = offset + R(rotation) · (scale ∘ uv),
// where a positive rotation turns the UVs counter-clockwise (u' = cos·x +
// sin·y, v' = −sin·x + cos·y). A primitive without TEXCOORD_0 samples
// (0, 0) everywhere, which moves to the offset.
func applyTransform(p *scene.Primitive, t *texturetransform.TextureTransform) {
	var src [][2]float32
	if len(p.TexCoords) > 0 {
		src = p.TexCoords[0]
	}
	sin, cos := math.Sincos(t.Rotation)
	uv := make([][2]float32, p.VertexCount())
	for i := range uv {
		var x, y float64
		if src != nil {
			x, y = float64(src[i][0])*t.Scale[0], float64(src[i][1])*t.Scale[1]
		}
		uv[i] = [2]float32{float32(t.Offset[0] + cos*x + sin*y), float32(t.Offset[1] - sin*x + cos*y)}
	}
	sets := make([][][2]float32, max(len(p.TexCoords), 1))
	copy(sets, p.TexCoords)
	sets[0] = uv
	p.TexCoords = sets
}

// textureInfoExtensions points at the extensions of every texture info
// of a material.
func textureInfoExtensions(mat *gltf.Material) []*gltf.Extensions {
	var out []*gltf.Extensions
	if pbr := mat.PBRMetallicRoughness; pbr != nil {
		if t := pbr.BaseColorTexture; t != nil {
			out = append(out, &t.Extensions)
		}
		if t := pbr.MetallicRoughnessTexture; t != nil {
			out = append(out, &t.Extensions)
		}
	}
	if t := mat.NormalTexture; t != nil && t.Index != nil {
		out = append(out, &t.Extensions)
	}
	if t := mat.OcclusionTexture; t != nil && t.Index != nil {
		out = append(out, &t.Extensions)
	}
	if t := mat.EmissiveTexture; t != nil {
		out = append(out, &t.Extensions)
	}
	return out
}

// transformOf reads a texture info's KHR_texture_transform, whatever Go
// form it has: the decoded struct when the scene was read, raw JSON or a
// map when a pass built it.
func transformOf(exts gltf.Extensions) (*texturetransform.TextureTransform, bool) {
	v, ok := exts[texturetransform.ExtensionName]
	if !ok {
		return nil, false
	}
	if t, ok := v.(*texturetransform.TextureTransform); ok {
		return t, true
	}
	raw, ok := v.(json.RawMessage)
	if !ok {
		var err error
		if raw, err = json.Marshal(v); err != nil {
			return nil, false
		}
	}
	t := &texturetransform.TextureTransform{}
	if err := json.Unmarshal(raw, t); err != nil {
		return nil, false
	}
	return t, true
}
