package render

import (
	"encoding/json"
	"github.com/kilnhq/kiln/assets/srgb"
	"math"

	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/texture"
	"github.com/qmuntal/gltf"
)

// material is a glTF material resolved for shading: factors as float64,
// textures decoded once to linear floats.
type material struct {
	base            [4]float64
	metallic, rough float64
	emissive        vec3
	baseTex, mrTex  texRef
	normalTex       texRef
	normalScale     float64
	occTex, emisTex texRef
	occStrength     float64
	alphaMode       gltf.AlphaMode
	cutoff          float64
	unlit           bool
}

// texRef is a texture bound to a texture coordinate set; tex is nil when
// the material has none or its image cannot be decoded (a preview then
// shows the factor alone rather than failing).
type texRef struct {
	tex   *texImage
	coord int
	// xf is the texture info's KHR_texture_transform, nil without one.
	xf *uvTransform
}

// texImage holds linear RGBA floats, so that filtering happens in linear
// space as the glTF specification asks for sRGB textures.
type texImage struct {
	w, h         int
	pix          []float32
	wrapS, wrapT gltf.WrappingMode
}

var defaultMaterial = &material{base: [4]float64{1, 1, 1, 1}, metallic: 0, rough: 1, normalScale: 1, occStrength: 1, cutoff: 0.5}

func pickMaterial(mats []*material, i *int) *material {
	if i == nil || *i < 0 || *i >= len(mats) {
		return defaultMaterial
	}
	return mats[*i]
}

type texLoader struct {
	s     *scene.Scene
	cache map[[2]int]*texImage
}

func (l *texLoader) load(index int, encoded bool) *texImage {
	s := l.s
	if index < 0 || index >= len(s.Textures) {
		return nil
	}
	t := s.Textures[index]
	src := -1
	if t.Source != nil {
		src = *t.Source
	}
	// EXT_texture_webp keeps the WebP image in the extension; prefer it,
	// since Kiln decodes WebP too.
	if w := webpSource(t.Extensions); w >= 0 {
		src = w
	}
	if src < 0 || src >= len(s.Images) {
		return nil
	}
	key := [2]int{index, 0}
	if encoded {
		key[1] = 1
	}
	if img, ok := l.cache[key]; ok {
		return img
	}
	m, err := texture.Decode(s.Images[src].Data)
	if err != nil {
		l.cache[key] = nil
		return nil
	}
	w, h := m.Rect.Dx(), m.Rect.Dy()
	img := &texImage{w: w, h: h, pix: make([]float32, w*h*4)}
	if t.Sampler != nil && *t.Sampler >= 0 && *t.Sampler < len(s.Samplers) {
		img.wrapS, img.wrapT = s.Samplers[*t.Sampler].WrapS, s.Samplers[*t.Sampler].WrapT
	}
	for y := 0; y < h; y++ {
		row := m.Pix[y*m.Stride : y*m.Stride+w*4]
		out := img.pix[y*w*4 : (y+1)*w*4]
		for i := 0; i < w*4; i += 4 {
			if encoded {
				out[i], out[i+1], out[i+2] = srgb.Linear(row[i]), srgb.Linear(row[i+1]), srgb.Linear(row[i+2])
			} else {
				out[i], out[i+1], out[i+2] = float32(row[i])/255, float32(row[i+1])/255, float32(row[i+2])/255
			}
			out[i+3] = float32(row[i+3]) / 255
		}
	}
	l.cache[key] = img
	return img
}

func webpSource(ext gltf.Extensions) int {
	v, ok := ext["EXT_texture_webp"]
	if !ok {
		return -1
	}
	var src struct {
		Source *int `json:"source"`
	}
	switch e := v.(type) {
	case json.RawMessage:
		_ = json.Unmarshal(e, &src)
	case map[string]any:
		if f, ok := e["source"].(float64); ok {
			i := int(f)
			src.Source = &i
		}
	}
	if src.Source == nil {
		return -1
	}
	return *src.Source
}

func resolveMaterials(s *scene.Scene) []*material {
	l := &texLoader{s: s, cache: map[[2]int]*texImage{}}
	out := make([]*material, len(s.Materials))
	for i, g := range s.Materials {
		m := *defaultMaterial
		m.metallic = 1
		if pbr := g.PBRMetallicRoughness; pbr != nil {
			if pbr.BaseColorFactor != nil {
				m.base = *pbr.BaseColorFactor
			}
			m.metallic = pbr.MetallicFactorOrDefault()
			m.rough = pbr.RoughnessFactorOrDefault()
			if t := pbr.BaseColorTexture; t != nil {
				m.baseTex = newTexRef(l.load(t.Index, true), t.TexCoord, t.Extensions)
			}
			if t := pbr.MetallicRoughnessTexture; t != nil {
				m.mrTex = newTexRef(l.load(t.Index, false), t.TexCoord, t.Extensions)
			}
		}
		if t := g.NormalTexture; t != nil && t.Index != nil {
			m.normalTex = newTexRef(l.load(*t.Index, false), t.TexCoord, t.Extensions)
			m.normalScale = t.ScaleOrDefault()
		}
		if t := g.OcclusionTexture; t != nil && t.Index != nil {
			m.occTex = newTexRef(l.load(*t.Index, false), t.TexCoord, t.Extensions)
			m.occStrength = t.StrengthOrDefault()
		}
		if t := g.EmissiveTexture; t != nil {
			m.emisTex = newTexRef(l.load(t.Index, true), t.TexCoord, t.Extensions)
		}
		m.emissive = vec3(g.EmissiveFactor)
		if strength := emissiveStrength(g.Extensions); strength > 0 {
			m.emissive = m.emissive.mul(strength)
		}
		m.alphaMode = g.AlphaMode
		if g.AlphaCutoff != nil {
			m.cutoff = *g.AlphaCutoff
		}
		_, m.unlit = g.Extensions["KHR_materials_unlit"]
		out[i] = &m
	}
	return out
}

func emissiveStrength(ext gltf.Extensions) float64 {
	v, ok := ext["KHR_materials_emissive_strength"]
	if !ok {
		return 0
	}
	var e struct {
		EmissiveStrength float64 `json:"emissiveStrength"`
	}
	switch x := v.(type) {
	case json.RawMessage:
		_ = json.Unmarshal(x, &e)
	case map[string]any:
		e.EmissiveStrength, _ = x["emissiveStrength"].(float64)
	default:
		// qmuntal decodes the extension into its own struct when its
		// package is imported; round-trip through JSON to read it.
		if b, err := json.Marshal(x); err == nil {
			_ = json.Unmarshal(b, &e)
		}
	}
	return e.EmissiveStrength
}

// sample filters bilinearly. glTF's UV (0,0) is the top-left corner of
// the image, the same origin as image rows, so v indexes rows directly.
func (t *texImage) sample(u, v float64) [4]float64 {
	x := u*float64(t.w) - 0.5
	y := v*float64(t.h) - 0.5
	x0, y0 := math.Floor(x), math.Floor(y)
	fx, fy := x-x0, y-y0
	ix0, ix1 := wrap(int(x0), t.w, t.wrapS), wrap(int(x0)+1, t.w, t.wrapS)
	iy0, iy1 := wrap(int(y0), t.h, t.wrapT), wrap(int(y0)+1, t.h, t.wrapT)
	var out [4]float64
	p00, p10 := (iy0*t.w+ix0)*4, (iy0*t.w+ix1)*4
	p01, p11 := (iy1*t.w+ix0)*4, (iy1*t.w+ix1)*4
	for c := 0; c < 4; c++ {
		a := float64(t.pix[p00+c])*(1-fx) + float64(t.pix[p10+c])*fx
		b := float64(t.pix[p01+c])*(1-fx) + float64(t.pix[p11+c])*fx
		out[c] = a*(1-fy) + b*fy
	}
	return out
}

func wrap(i, n int, mode gltf.WrappingMode) int {
	switch mode {
	case gltf.WrapClampToEdge:
		if i < 0 {
			return 0
		}
		if i >= n {
			return n - 1
		}
		return i
	case gltf.WrapMirroredRepeat:
		p := 2 * n
		i %= p
		if i < 0 {
			i += p
		}
		if i >= n {
			i = p - 1 - i
		}
		return i
	default:
		i %= n
		if i < 0 {
			i += n
		}
		return i
	}
}
