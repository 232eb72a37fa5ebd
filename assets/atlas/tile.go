package atlas

import (
	"bytes"
	"image"
	"image/png"
	"math"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/texture"
)

// maxTiles bounds how many repeats of a texture untile bakes: beyond it
// the baked texture would need more pixels than any atlas rectangle gets,
// and the material stays out of the atlas.
const maxTiles = 16

// untile bakes the repeats of a tiling material into its textures, so it
// can join the atlas instead of staying a draw call of its own: the
// texture is drawn ku×kv times into a new image, and the material's UVs
// are remapped from [u0, u0+ku]×[v0, v0+kv] onto 0..1. Only whole
// repeats of REPEAT-wrapped textures are baked; it reports false (and
// changes nothing) for anything else, such as mirrored wrapping.
func untile(s *scene.Scene, m *source) bool {
	lo := [2]float64{math.Inf(1), math.Inf(1)}
	hi := [2]float64{math.Inf(-1), math.Inf(-1)}
	for _, p := range m.prims {
		if len(p.TexCoords) == 0 {
			continue
		}
		for _, uv := range p.TexCoords[0] {
			for k := range 2 {
				lo[k] = math.Min(lo[k], float64(uv[k]))
				hi[k] = math.Max(hi[k], float64(uv[k]))
			}
		}
	}
	var origin, tiles [2]float64
	for k := range 2 {
		origin[k] = math.Floor(lo[k] + uvEpsilon)
		tiles[k] = math.Max(1, math.Ceil(hi[k]-uvEpsilon)-origin[k])
	}
	if math.IsNaN(origin[0]+origin[1]) || tiles[0]*tiles[1] > maxTiles {
		return false
	}
	infos := textureIndices(m.mat)
	for _, ti := range infos {
		if *ti < 0 || *ti >= len(s.Textures) || !repeats(s, s.Textures[*ti]) {
			return false
		}
	}
	// Bake every texture first, so that a failure leaves the scene as it was.
	baked := map[int]int{} // old texture → new texture
	var images []*scene.Image
	var textures []*gltf.Texture
	for _, ti := range infos {
		if _, ok := baked[*ti]; ok {
			continue
		}
		tex := s.Textures[*ti]
		src, ok := textureImage(tex)
		if !ok || src >= len(s.Images) {
			return false
		}
		img, err := texture.Decode(s.Images[src].Data)
		if err != nil {
			return false
		}
		data, err := tile(img, int(tiles[0]), int(tiles[1]))
		if err != nil {
			return false
		}
		images = append(images, &scene.Image{Name: s.Images[src].Name, MimeType: "image/png", Data: data})
		nt := *tex
		nt.Source = gltf.Index(len(s.Images) + len(images) - 1)
		nt.Extensions = nil
		textures = append(textures, &nt)
		baked[*ti] = len(s.Textures) + len(textures) - 1
	}
	s.Images = append(s.Images, images...)
	s.Textures = append(s.Textures, textures...)
	for _, ti := range infos {
		*ti = baked[*ti]
	}
	for _, p := range m.prims {
		if len(p.TexCoords) == 0 {
			continue
		}
		uvs := make([][2]float32, len(p.TexCoords[0]))
		for i, uv := range p.TexCoords[0] {
			for k := range 2 {
				uvs[i][k] = float32((float64(uv[k]) - origin[k]) / tiles[k])
			}
		}
		p.TexCoords[0] = uvs
	}
	return true
}

// textureIndices points at every texture index of a material.
func textureIndices(mat *gltf.Material) []*int {
	var out []*int
	if pbr := mat.PBRMetallicRoughness; pbr != nil {
		if t := pbr.BaseColorTexture; t != nil {
			out = append(out, &t.Index)
		}
		if t := pbr.MetallicRoughnessTexture; t != nil {
			out = append(out, &t.Index)
		}
	}
	if t := mat.NormalTexture; t != nil && t.Index != nil {
		out = append(out, t.Index)
	}
	if t := mat.OcclusionTexture; t != nil && t.Index != nil {
		out = append(out, t.Index)
	}
	if t := mat.EmissiveTexture; t != nil {
		out = append(out, &t.Index)
	}
	return out
}

// repeats reports whether a texture wraps by repeating on both axes.
func repeats(s *scene.Scene, t *gltf.Texture) bool {
	if t.Sampler == nil {
		return true
	}
	if *t.Sampler < 0 || *t.Sampler >= len(s.Samplers) {
		return false
	}
	sm := s.Samplers[*t.Sampler]
	return sm.WrapS == gltf.WrapRepeat && sm.WrapT == gltf.WrapRepeat
}

// tile draws img ku×kv times into one PNG no larger than MaxSize a side,
// sampling the nearest source pixel (the atlas resamples it again).
func tile(img *image.NRGBA, ku, kv int) ([]byte, error) {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	ow, oh := min(w*ku, MaxSize), min(h*kv, MaxSize)
	out := image.NewNRGBA(image.Rect(0, 0, ow, oh))
	for y := range oh {
		sy := (y * h * kv / oh) % h
		for x := range ow {
			sx := (x * w * ku / ow) % w
			copy(out.Pix[y*out.Stride+4*x:y*out.Stride+4*x+4], img.Pix[sy*img.Stride+4*sx:])
		}
	}
	var b bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&b, out); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
