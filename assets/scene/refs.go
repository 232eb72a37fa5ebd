package scene

import (
	"encoding/json"
	"strings"

	"github.com/qmuntal/gltf"
)

// Extensions carry references too: KHR_materials_* texture infos name
// textures ("clearcoatTexture": {"index": 2}), and EXT_texture_webp,
// KHR_texture_basisu and their kind name images ("source": 3). Pruning or
// merging textures and images must rewrite them, yet qmuntal leaves
// unknown extensions as raw JSON; these helpers walk that JSON
// generically, by the naming rules all Khronos extensions follow.

// generic turns an extension value of any Go form (json.RawMessage, a
// registered struct, a map) into plain JSON values.
func generic(v any) (any, bool) {
	var raw []byte
	switch v := v.(type) {
	case json.RawMessage:
		raw = v
	case map[string]any:
		return v, true
	default:
		var err error
		if raw, err = json.Marshal(v); err != nil {
			return nil, false
		}
	}
	var out any
	if json.Unmarshal(raw, &out) != nil {
		return nil, false
	}
	return out, true
}

// asIndex reads a JSON number that must be a non-negative integer.
func asIndex(v any) (int, bool) {
	switch n := v.(type) {
	case float64:
		if n >= 0 && n == float64(int(n)) {
			return int(n), true
		}
	case int:
		return n, n >= 0
	}
	return -1, false
}

// walkTextureInfos calls fn with the index of every texture info inside
// v: an object under a key ending in "Texture" with an "index". fn
// returns the new index; it reports whether anything changed.
func walkTextureInfos(v any, fn func(int) int) bool {
	changed := false
	switch v := v.(type) {
	case map[string]any:
		for k, child := range v {
			if obj, ok := child.(map[string]any); ok && strings.HasSuffix(k, "Texture") {
				if idx, ok := asIndex(obj["index"]); ok {
					if n := fn(idx); n != idx {
						obj["index"] = n
						changed = true
					}
					continue
				} else if _, has := obj["index"]; has {
					fn(-1) // an index that is not one: reported as out of range
				}
			}
			changed = walkTextureInfos(child, fn) || changed
		}
	case []any:
		for _, child := range v {
			changed = walkTextureInfos(child, fn) || changed
		}
	}
	return changed
}

// materialTextures calls fn for every texture a material uses, core or
// extension, and stores the index fn returns.
func materialTextures(m *gltf.Material, fn func(int) int) {
	if pbr := m.PBRMetallicRoughness; pbr != nil {
		if t := pbr.BaseColorTexture; t != nil {
			t.Index = fn(t.Index)
		}
		if t := pbr.MetallicRoughnessTexture; t != nil {
			t.Index = fn(t.Index)
		}
	}
	if t := m.NormalTexture; t != nil && t.Index != nil {
		t.Index = gltf.Index(fn(*t.Index))
	}
	if t := m.OcclusionTexture; t != nil && t.Index != nil {
		t.Index = gltf.Index(fn(*t.Index))
	}
	if t := m.EmissiveTexture; t != nil {
		t.Index = fn(t.Index)
	}
	rewriteExtensions(m.Extensions, func(v any) bool { return walkTextureInfos(v, fn) })
}

// rewriteExtensions applies walk to the generic form of every extension
// value and stores the result back (as raw JSON) only where walk changed
// something, so untouched extensions keep their Go form.
func rewriteExtensions(exts gltf.Extensions, walk func(any) bool) {
	for name, v := range exts {
		g, ok := generic(v)
		if !ok {
			continue
		}
		if walk(g) {
			if raw, err := json.Marshal(g); err == nil {
				exts[name] = json.RawMessage(raw)
			}
		}
	}
}

// textureImages calls fn for every image a texture uses: its core source
// and the "source" of extensions such as EXT_texture_webp.
func textureImages(t *gltf.Texture, fn func(int) int) {
	normalizeTextureSources(t)
	if t.Source != nil {
		t.Source = gltf.Index(fn(*t.Source))
	}
	for _, v := range t.Extensions {
		obj, ok := v.(map[string]any)
		if !ok {
			continue
		}
		if idx, ok := asIndex(obj["source"]); ok {
			obj["source"] = fn(idx)
		} else if _, has := obj["source"]; has {
			fn(-1)
		}
	}
}

// normalizeTextureSources turns texture extensions that name an image
// into map[string]any, the form textureImages edits and NOTES.md tells
// passes to write (EXT_texture_webp as a plain map).
func normalizeTextureSources(t *gltf.Texture) {
	for name, v := range t.Extensions {
		g, ok := generic(v)
		if !ok {
			continue
		}
		if obj, ok := g.(map[string]any); ok {
			if _, has := obj["source"]; has {
				if idx, ok := asIndex(obj["source"]); ok {
					obj["source"] = idx
				}
				t.Extensions[name] = obj
			}
		}
	}
}

// primitiveMaterials calls fn for the primitive's material and the
// materials of its KHR_materials_variants mappings.
func primitiveMaterials(p *Primitive, fn func(int) int) {
	if p.Material != nil {
		p.Material = gltf.Index(fn(*p.Material))
	}
	if v, ok := p.Extensions["KHR_materials_variants"]; ok {
		g, ok := generic(v)
		if !ok {
			return
		}
		obj, _ := g.(map[string]any)
		maps, _ := obj["mappings"].([]any)
		changed := false
		for _, m := range maps {
			mo, _ := m.(map[string]any)
			if idx, ok := asIndex(mo["material"]); ok {
				if n := fn(idx); n != idx {
					mo["material"] = n
					changed = true
				}
			}
		}
		if changed {
			if raw, err := json.Marshal(obj); err == nil {
				p.Extensions["KHR_materials_variants"] = json.RawMessage(raw)
			}
		}
	}
}
