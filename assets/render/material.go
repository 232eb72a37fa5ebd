package render

import (
	"encoding/json"
	"math"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/srgb"
	"github.com/kilnhq/kiln/assets/texture"
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
	// pixels holds one decoded copy per image and colour space, however
	// many textures use the image: 66 KB of glTF can point a hundred
	// textures at one 8192² PNG.
	pixels map[[2]int]*texImage
}

// maxTexels bounds the texels the renderer keeps of one image (64 MiB of
// float32 RGBA); a larger image is box-filtered down by a whole factor
// as it is decoded. A preview is at most MaxSize pixels across, so finer
// texels would never be seen.
const maxTexels = 2048 * 2048

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
	pk := [2]int{src, key[1]}
	px, ok := l.pixels[pk]
	if !ok {
		px = decodeLinear(s.Images[src].Data, encoded)
		l.pixels[pk] = px
	}
	if px == nil {
		l.cache[key] = nil
		return nil
	}
	// The texture's own copy differs only in its wrap modes; the texels
	// are shared.
	img := &texImage{w: px.w, h: px.h, pix: px.pix}
	if t.Sampler != nil && *t.Sampler >= 0 && *t.Sampler < len(s.Samplers) {
		img.wrapS, img.wrapT = s.Samplers[*t.Sampler].WrapS, s.Samplers[*t.Sampler].WrapT
	}
	l.cache[key] = img
	return img
}

// decodeLinear decodes an image to linear floats (from sRGB when
// encoded), averaging f×f blocks when it has more than maxTexels; nil
// when it cannot be decoded.
func decodeLinear(data []byte, encoded bool) *texImage {
	m, err := texture.Decode(data)
	if err != nil {
		return nil
	}
	sw, sh := m.Rect.Dx(), m.Rect.Dy()
	f := 1
	for (sw/f)*(sh/f) > maxTexels {
		f++
	}
	w, h := max(1, sw/f), max(1, sh/f)
	img := &texImage{w: w, h: h, pix: make([]float32, w*h*4)}
	for y := 0; y < h; y++ {
		out := img.pix[y*w*4 : (y+1)*w*4]
		for x := 0; x < w; x++ {
			var acc [4]float32
			n := 0
			for yy := y * f; yy < min(sh, (y+1)*f); yy++ {
				row := m.Pix[yy*m.Stride:]
				for xx := x * f; xx < min(sw, (x+1)*f); xx++ {
					p := row[xx*4 : xx*4+4]
					if encoded {
						acc[0] += srgb.Linear(p[0])
						acc[1] += srgb.Linear(p[1])
						acc[2] += srgb.Linear(p[2])
					} else {
						acc[0] += float32(p[0]) / 255
						acc[1] += float32(p[1]) / 255
						acc[2] += float32(p[2]) / 255
					}
					acc[3] += float32(p[3]) / 255
					n++
				}
			}
			for c := range acc {
				out[x*4+c] = acc[c] / float32(n)
			}
		}
	}
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
	// The reader leaves it as raw JSON, the stages write it as a map
	// whose source may be an int or a float64: JSON reads them all.
	raw, ok := v.(json.RawMessage)
	if !ok {
		raw, _ = json.Marshal(v)
	}
	_ = json.Unmarshal(raw, &src)
	if src.Source == nil {
		return -1
	}
	return *src.Source
}

func resolveMaterials(s *scene.Scene) []*material {
	l := &texLoader{s: s, cache: map[[2]int]*texImage{}, pixels: map[[2]int]*texImage{}}
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
