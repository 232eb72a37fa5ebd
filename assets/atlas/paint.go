package atlas

import (
	"bytes"
	"context"
	"fmt"
	"github.com/kilnhq/kiln/assets/srgb"
	"image"
	"image/png"
	"math"
	"runtime"
	"sync"

	// Decoders of the formats glTF textures come in: PNG and JPEG (core)
	// and WebP (EXT_texture_webp; chai2010/webp is already the project's
	// WebP library, and it decodes too).
	_ "image/jpeg"

	_ "github.com/chai2010/webp"
	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/texture"
)

// parallel runs fn(0..n-1) on as many goroutines as there are CPUs.
func parallel(n int, fn func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	var wg sync.WaitGroup
	next := make(chan int)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				fn(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

// decodeImages decodes every image a candidate material uses, once, and
// sets each material's resolution; a material whose image does not decode
// is kept out, with the decoder's reason.
func decodeImages(ctx context.Context, s *scene.Scene, srcs []*source) (map[int]*image.NRGBA, error) {
	var list []int
	want := map[int]bool{}
	for _, m := range srcs {
		if m.reason != "" {
			continue
		}
		for _, i := range m.img {
			if i >= 0 && !want[i] {
				want[i] = true
				list = append(list, i)
			}
		}
	}
	imgs := make([]*image.NRGBA, len(list))
	errs := make([]error, len(list))
	parallel(len(list), func(k int) {
		if ctx.Err() != nil {
			return
		}
		imgs[k], errs[k] = texture.Decode(s.Images[list[k]].Data)
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := make(map[int]*image.NRGBA, len(list))
	bad := map[int]error{}
	for k, i := range list {
		if errs[k] != nil {
			bad[i] = errs[k]
		} else {
			out[i] = imgs[k]
		}
	}
	for _, m := range srcs {
		if m.reason != "" {
			continue
		}
		for _, i := range m.img {
			if i < 0 {
				continue
			}
			if err := bad[i]; err != nil {
				m.reason = fmt.Sprintf("image %d (%s) does not decode: %v", i, s.Images[i].MimeType, err)
				break
			}
			r := out[i].Rect.Size()
			if r.X*r.Y > m.res.X*m.res.Y {
				m.res = r
			}
		}
	}
	return out, nil
}

// need says which atlas images the packed materials require and which
// material slots read them.
type need struct {
	normal, orm, emissive bool
	// mr and occ: whether the atlas material reads roughness and
	// metalness, and occlusion, from the ORM image (else common factors).
	mr, occ bool
}

func needed(ms []*source) need {
	var n need
	first := ms[0].mat
	for _, m := range ms {
		n.normal = n.normal || m.img[cNormal] >= 0
		n.mr = n.mr || m.img[cMR] >= 0 ||
			metallic(m.mat) != metallic(first) || roughness(m.mat) != roughness(first)
		n.occ = n.occ || m.img[cOcc] >= 0
		n.emissive = n.emissive || m.img[cEmissive] >= 0 || m.mat.EmissiveFactor != first.EmissiveFactor
	}
	n.orm = n.mr || n.occ
	return n
}

func metallic(m *gltf.Material) float64 {
	if m.PBRMetallicRoughness == nil {
		return 1
	}
	return m.PBRMetallicRoughness.MetallicFactorOrDefault()
}

func roughness(m *gltf.Material) float64 {
	if m.PBRMetallicRoughness == nil {
		return 1
	}
	return m.PBRMetallicRoughness.RoughnessFactorOrDefault()
}

func baseFactor(m *gltf.Material) [4]float64 {
	if m.PBRMetallicRoughness == nil {
		return [4]float64{1, 1, 1, 1}
	}
	return m.PBRMetallicRoughness.BaseColorFactorOrDefault()
}

// The atlas materials' groups: opaque, transparent (MASK, or BLEND when
// no material is MASK) and BLEND beside MASK.
const (
	gOpaque = iota
	gTransparent
	gBlend
	nGroups
)

// groups is the atlas materials' settings, by group.
type groups struct {
	has    [nGroups]bool
	double [nGroups]bool
	// mask: some packed material is MASK, so BLEND ones go to gBlend.
	mask bool
	// blend: the transparent group is BLEND (it has no MASK material).
	blend bool
}

func newGroups(ms []*source) groups {
	var g groups
	for _, m := range ms {
		g.mask = g.mask || m.transparent && m.mat.AlphaMode == gltf.AlphaMask
	}
	for _, m := range ms {
		i := g.of(m)
		g.blend = g.blend || i == gTransparent && m.mat.AlphaMode == gltf.AlphaBlend
		g.has[i] = true
		g.double[i] = g.double[i] || m.mat.DoubleSided
	}
	return g
}

// of is the group of a packed material.
func (g groups) of(m *source) int {
	switch {
	case !m.transparent:
		return gOpaque
	case m.mat.AlphaMode == gltf.AlphaBlend && g.mask:
		return gBlend
	}
	return gTransparent
}

// Atlas images by index in paint's result.
const (
	iBase = iota
	iNormal
	iORM
	iEmissive
	nImages
)

var imageChannel = [nImages]string{ChannelBaseColor, ChannelNormal, ChannelORM, ChannelEmissive}

// paint draws every material's rectangle into the atlas images it
// needs, each rectangle's edge pixels repeated into its padding.
func paint(ctx context.Context, ms []*source, decoded map[int]*image.NRGBA, n need, g groups, w, h, pad int) ([nImages]*image.NRGBA, error) {
	var pix [nImages]*image.NRGBA
	enabled := [nImages]bool{true, n.normal, n.orm, n.emissive}
	// Unused space holds each channel's neutral value, so that the
	// smallest mip levels, which average everything, stay plausible; an
	// opaque-only base colour atlas stays opaque, so it can become a JPEG.
	background := [nImages][4]uint8{{0, 0, 0, 0}, {128, 128, 255, 255}, {255, 255, 0, 255}, {0, 0, 0, 255}}
	if !g.has[gTransparent] && !g.has[gBlend] {
		background[iBase] = [4]uint8{0, 0, 0, 255}
	}
	for i := range pix {
		if !enabled[i] {
			continue
		}
		pix[i] = image.NewNRGBA(image.Rect(0, 0, w, h))
		fill(pix[i], background[i])
	}
	parallel(len(ms), func(k int) {
		if ctx.Err() != nil {
			return
		}
		m := ms[k]
		resized := map[int]*image.NRGBA{}
		get := func(c int) *image.NRGBA {
			i := m.img[c]
			if i < 0 {
				return nil
			}
			if r, ok := resized[i]; ok {
				return r
			}
			r := resize(decoded[i], m.rect.Dx(), m.rect.Dy())
			resized[i] = r
			return r
		}
		for i := range pix {
			if pix[i] == nil {
				continue
			}
			var region *image.NRGBA
			switch i {
			case iBase:
				region = bakeBase(get(cBase), m, m.rect.Size())
			case iNormal:
				region = bakeNormal(get(cNormal), m.mat, m.rect.Size())
			case iORM:
				region = bakeORM(get(cOcc), get(cMR), m.mat, m.rect.Size())
			case iEmissive:
				region = bakeEmissive(get(cEmissive), m.mat, m.rect.Size())
			}
			place(pix[i], region, m.rect, pad)
		}
	})
	return pix, ctx.Err()
}

func fill(img *image.NRGBA, c [4]uint8) {
	for i := 0; i < len(img.Pix); i += 4 {
		copy(img.Pix[i:i+4], c[:])
	}
}

// place copies region into dst at r and repeats its edge pixels pad
// pixels outwards.
func place(dst, region *image.NRGBA, r image.Rectangle, pad int) {
	outer := image.Rectangle{Min: r.Min.Sub(image.Pt(pad, pad)), Max: r.Max.Add(image.Pt(pad, pad))}.Intersect(dst.Rect)
	for y := outer.Min.Y; y < outer.Max.Y; y++ {
		sy := min(max(y, r.Min.Y), r.Max.Y-1) - r.Min.Y
		srow := region.Pix[sy*region.Stride:]
		drow := dst.Pix[y*dst.Stride:]
		for x := outer.Min.X; x < outer.Max.X; x++ {
			sx := min(max(x, r.Min.X), r.Max.X-1) - r.Min.X
			copy(drow[4*x:4*x+4], srow[4*sx:4*sx+4])
		}
	}
}

// solid returns a size image of one colour.
func solid(size image.Point, c [4]uint8) *image.NRGBA {
	img := image.NewNRGBA(image.Rectangle{Max: size})
	fill(img, c)
	return img
}

// bakeBase multiplies the base colour texture by the factor in linear
// light and settles alpha for the group: opaque materials get 255; MASK
// materials (whose group is all MASK) have their alpha remapped so their
// cutoff falls on 0.5.
func bakeBase(tex *image.NRGBA, m *source, size image.Point) *image.NRGBA {
	f := baseFactor(m.mat)
	var out *image.NRGBA
	if tex == nil {
		out = solid(size, [4]uint8{srgb.Encode(f[0]), srgb.Encode(f[1]), srgb.Encode(f[2]), clamp8(float32(f[3] * 255))})
	} else {
		out = copyOf(tex) // another channel may read the same image
		if f != [4]float64{1, 1, 1, 1} {
			for i := 0; i < len(out.Pix); i += 4 {
				p := out.Pix[i : i+4 : i+4]
				for c := range 3 {
					p[c] = srgb.Encode(float64(srgb.Linear(p[c])) * f[c])
				}
				p[3] = clamp8(float32(float64(p[3]) * f[3]))
			}
		}
	}
	alpha := func(a uint8) uint8 { return a }
	switch {
	case !m.transparent:
		alpha = func(uint8) uint8 { return 255 }
	case m.mat.AlphaMode == gltf.AlphaMask:
		cut := min(max(m.mat.AlphaCutoffOrDefault(), 1.0/255), 254.0/255)
		alpha = func(a uint8) uint8 {
			v := float64(a) / 255
			if v < cut {
				v = v / cut * 0.5
			} else {
				v = 0.5 + (v-cut)/(1-cut)*0.5
			}
			return uint8(math.Round(v * 255))
		}
	}
	if !m.transparent || m.mat.AlphaMode == gltf.AlphaMask {
		for i := 3; i < len(out.Pix); i += 4 {
			out.Pix[i] = alpha(out.Pix[i])
		}
	}
	return out
}

// bakeNormal applies the normal scale (x and y scaled, renormalized),
// so the atlas material's scale is 1; no texture is the flat normal.
func bakeNormal(tex *image.NRGBA, mat *gltf.Material, size image.Point) *image.NRGBA {
	if tex == nil {
		return solid(size, [4]uint8{128, 128, 255, 255})
	}
	scale := 1.0
	if mat.NormalTexture != nil {
		scale = mat.NormalTexture.ScaleOrDefault()
	}
	out := copyOf(tex)
	for i := 0; i < len(out.Pix); i += 4 {
		p := out.Pix[i : i+4 : i+4]
		p[3] = 255
		if scale == 1 {
			continue
		}
		x := (float64(p[0])/255*2 - 1) * scale
		y := (float64(p[1])/255*2 - 1) * scale
		z := float64(p[2])/255*2 - 1
		l := math.Sqrt(x*x + y*y + z*z)
		if l == 0 {
			x, y, z, l = 0, 0, 1, 1
		}
		p[0] = clamp8(float32((x/l + 1) / 2 * 255))
		p[1] = clamp8(float32((y/l + 1) / 2 * 255))
		p[2] = clamp8(float32((z/l + 1) / 2 * 255))
	}
	return out
}

// bakeORM writes occlusion (strength applied) into R and roughness and
// metalness (factors applied) into G and B.
func bakeORM(occ, mr *image.NRGBA, mat *gltf.Material, size image.Point) *image.NRGBA {
	rough, metal := roughness(mat), metallic(mat)
	strength := 1.0
	if mat.OcclusionTexture != nil {
		strength = mat.OcclusionTexture.StrengthOrDefault()
	}
	out := solid(size, [4]uint8{255, clamp8(float32(rough * 255)), clamp8(float32(metal * 255)), 255})
	for i := 0; i < len(out.Pix); i += 4 {
		p := out.Pix[i : i+4 : i+4]
		if occ != nil {
			o := float64(occ.Pix[i]) / 255
			p[0] = clamp8(float32((1 + strength*(o-1)) * 255))
		}
		if mr != nil {
			p[1] = clamp8(float32(float64(mr.Pix[i+1]) * rough))
			p[2] = clamp8(float32(float64(mr.Pix[i+2]) * metal))
		}
	}
	return out
}

// bakeEmissive multiplies the emissive texture by the factor in linear
// light; no texture is the factor's flat colour.
func bakeEmissive(tex *image.NRGBA, mat *gltf.Material, size image.Point) *image.NRGBA {
	f := mat.EmissiveFactor
	if tex == nil {
		return solid(size, [4]uint8{srgb.Encode(f[0]), srgb.Encode(f[1]), srgb.Encode(f[2]), 255})
	}
	out := copyOf(tex)
	for i := 0; i < len(out.Pix); i += 4 {
		p := out.Pix[i : i+4 : i+4]
		for c := range 3 {
			p[c] = srgb.Encode(float64(srgb.Linear(p[c])) * f[c])
		}
		p[3] = 255
	}
	return out
}

func copyOf(img *image.NRGBA) *image.NRGBA {
	out := image.NewNRGBA(img.Rect)
	copy(out.Pix, img.Pix)
	return out
}

// addAtlases encodes the atlas images as PNG (fastest compression: the
// texture format pass re-encodes them) and adds them to the scene with one
// clamped, mipmapped sampler and one texture each.
func addAtlases(s *scene.Scene, pix [nImages]*image.NRGBA) (map[string]*gltf.Texture, error) {
	data := make([][]byte, nImages)
	errs := make([]error, nImages)
	parallel(nImages, func(i int) {
		if pix[i] == nil {
			return
		}
		var buf bytes.Buffer
		enc := png.Encoder{CompressionLevel: png.BestSpeed}
		errs[i] = enc.Encode(&buf, pix[i])
		data[i] = buf.Bytes()
	})
	sampler := len(s.Samplers)
	s.Samplers = append(s.Samplers, &gltf.Sampler{
		MagFilter: gltf.MagLinear, MinFilter: gltf.MinLinearMipMapLinear,
		WrapS: gltf.WrapClampToEdge, WrapT: gltf.WrapClampToEdge,
	})
	out := map[string]*gltf.Texture{}
	for i := range pix {
		if pix[i] == nil {
			continue
		}
		if errs[i] != nil {
			return nil, errs[i]
		}
		s.Images = append(s.Images, &scene.Image{Name: "atlas_" + imageChannel[i], MimeType: "image/png", Data: data[i]})
		t := &gltf.Texture{Name: "atlas_" + imageChannel[i], Sampler: gltf.Index(sampler), Source: gltf.Index(len(s.Images) - 1)}
		s.Textures = append(s.Textures, t)
		out[imageChannel[i]] = t
	}
	return out, nil
}

// materials adds the atlas material of each group (only if some packed
// material is of it) and points every packed primitive at its group's
// material. It returns them, nil for an absent group.
func (g groups) materials(s *scene.Scene, ms []*source, n need, tex map[string]*gltf.Texture) [nGroups]*gltf.Material {
	index := map[*gltf.Texture]int{}
	for i, t := range s.Textures {
		index[t] = i
	}
	first := ms[0].mat
	names := materialNames(s)
	var out [nGroups]*gltf.Material
	var at [nGroups]int
	for i := range out {
		if !g.has[i] {
			continue
		}
		mat := &gltf.Material{
			Name:        names[i],
			DoubleSided: g.double[i],
			PBRMetallicRoughness: &gltf.PBRMetallicRoughness{
				BaseColorTexture: &gltf.TextureInfo{Index: index[tex[ChannelBaseColor]]},
			},
		}
		pbr := mat.PBRMetallicRoughness
		if n.mr {
			pbr.MetallicRoughnessTexture = &gltf.TextureInfo{Index: index[tex[ChannelORM]]}
		} else {
			if v := metallic(first); v != 1 {
				pbr.MetallicFactor = gltf.Float(v)
			}
			if v := roughness(first); v != 1 {
				pbr.RoughnessFactor = gltf.Float(v)
			}
		}
		if n.occ {
			mat.OcclusionTexture = &gltf.OcclusionTexture{Index: gltf.Index(index[tex[ChannelORM]])}
		}
		if n.normal {
			mat.NormalTexture = &gltf.NormalTexture{Index: gltf.Index(index[tex[ChannelNormal]])}
		}
		if n.emissive {
			mat.EmissiveTexture = &gltf.TextureInfo{Index: index[tex[ChannelEmissive]]}
			mat.EmissiveFactor = [3]float64{1, 1, 1}
		} else {
			mat.EmissiveFactor = first.EmissiveFactor
		}
		switch {
		case i == gBlend, i == gTransparent && g.blend:
			mat.AlphaMode = gltf.AlphaBlend
		case i == gTransparent:
			mat.AlphaMode = gltf.AlphaMask
		}
		out[i] = mat
		at[i] = len(s.Materials)
		s.Materials = append(s.Materials, mat)
	}
	for _, m := range ms {
		for _, p := range m.prims {
			p.Material = gltf.Index(at[g.of(m)])
		}
	}
	return out
}

// materialNames follows Ready Player Me for its avatars (whose parts are
// all named Wolf3D_*: their atlased avatars have one material named like
// the merged mesh; the BLEND group's is named like Kiln's third merged
// mesh, assets/merge) and uses Kiln's own names for everything else.
func materialNames(s *scene.Scene) [nGroups]string {
	if IsWolf3D(s) {
		return [nGroups]string{"Wolf3D_Avatar", "Wolf3D_Avatar_Transparent", "Wolf3D_Avatar_Blend"}
	}
	return [nGroups]string{"Kiln_Atlas", "Kiln_Atlas_Transparent", "Kiln_Atlas_Blend"}
}

// IsWolf3D reports a Ready Player Me avatar: a mesh named Wolf3D_*.
func IsWolf3D(s *scene.Scene) bool {
	for _, m := range s.Meshes {
		if len(m.Name) > 7 && m.Name[:7] == "Wolf3D_" {
			return true
		}
	}
	return false
}
