package atlas

import (
	"context"
	"image/color"
	"math"
	"testing"

	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/ext/texturetransform"

	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/texture"
)

func transformed(t texturetransform.TextureTransform) gltf.Extensions {
	return gltf.Extensions{texturetransform.ExtensionName: &t}
}

// TestBakeTransformSpecExample: the extension's own example (the lower
// left quadrant of the image, turned 90 degrees) lands where the
// extension says, and the extension is gone from the texture.
func TestBakeTransformSpecExample(t *testing.T) {
	s := &scene.Scene{}
	mi := textured(s, "quadrant", pattern(8, 8, color.NRGBA{R: 9}, false), func(m *gltf.Material) {
		m.PBRMetallicRoughness.BaseColorTexture.Extensions = transformed(texturetransform.TextureTransform{
			Offset: [2]float64{0, 1}, Rotation: math.Pi / 2, Scale: [2]float64{0.5, 0.5},
		})
	})
	p := quad(0, 0, 1, mi) // UVs (0,1) (1,1) (1,0) (0,0)
	m := &source{mat: s.Materials[mi], prims: []*scene.Primitive{p}}
	if !bakeTransform(m) {
		t.Fatal("not baked")
	}
	want := [][2]float32{{0.5, 1}, {0.5, 0.5}, {0, 0.5}, {0, 1}}
	for i, uv := range p.TexCoords[0] {
		if math.Abs(float64(uv[0]-want[i][0])) > 1e-6 || math.Abs(float64(uv[1]-want[i][1])) > 1e-6 {
			t.Errorf("corner %d: %v, want %v", i, uv, want[i])
		}
	}
	if ext := s.Materials[mi].PBRMetallicRoughness.BaseColorTexture.Extensions; ext != nil {
		t.Errorf("extension left: %v", ext)
	}
}

// TestBakeTransformOnlyWhenShared: a material whose textures do not all
// carry one transform on TEXCOORD_0 keeps it, and its UVs.
func TestBakeTransformOnlyWhenShared(t *testing.T) {
	for name, edit := range map[string]func(m *gltf.Material){
		"normal map without it": func(m *gltf.Material) {
			m.PBRMetallicRoughness.BaseColorTexture.Extensions = transformed(texturetransform.TextureTransform{Scale: [2]float64{2, 2}})
			m.NormalTexture = &gltf.NormalTexture{Index: gltf.Index(0)}
		},
		"two transforms": func(m *gltf.Material) {
			m.PBRMetallicRoughness.BaseColorTexture.Extensions = transformed(texturetransform.TextureTransform{Scale: [2]float64{2, 2}})
			m.EmissiveTexture = &gltf.TextureInfo{Index: 0, Extensions: transformed(texturetransform.TextureTransform{Scale: [2]float64{3, 3}})}
		},
		"another TEXCOORD": func(m *gltf.Material) {
			m.PBRMetallicRoughness.BaseColorTexture.Extensions = transformed(texturetransform.TextureTransform{Scale: [2]float64{2, 2}, TexCoord: gltf.Index(1)})
		},
	} {
		s := &scene.Scene{}
		mi := textured(s, name, pattern(8, 8, color.NRGBA{R: 9}, false), edit)
		p := quad(0, 0, 1, mi)
		before := p.TexCoords[0]
		if bakeTransform(&source{mat: s.Materials[mi], prims: []*scene.Primitive{p}}) {
			t.Errorf("%s: baked", name)
		}
		if &p.TexCoords[0][0] != &before[0] {
			t.Errorf("%s: UVs replaced", name)
		}
	}
}

// TestAtlasDrawsTransformedTextures: a material tiled by its
// KHR_texture_transform joins the atlas beside the others, so the model
// is down to its two atlas materials (merge then draws at most twice),
// and inside its triangles the atlas shows what the transform showed.
func TestAtlasDrawsTransformedTextures(t *testing.T) {
	for _, tr := range []texturetransform.TextureTransform{
		{Scale: [2]float64{2, 2}},
		{Offset: [2]float64{0.25, 0.5}, Rotation: 0.4, Scale: [2]float64{1.5, 0.75}},
	} {
		s := &scene.Scene{}
		src := pattern(32, 32, color.NRGBA{R: 90}, false)
		moved := textured(s, "moved", src, func(m *gltf.Material) {
			m.PBRMetallicRoughness.BaseColorTexture.Extensions = transformed(tr)
		})
		plain := textured(s, "plain", pattern(64, 64, color.NRGBA{R: 30, B: 200}, false), nil)
		glass := textured(s, "glass", pattern(32, 32, color.NRGBA{B: 250}, true), func(m *gltf.Material) { m.AlphaMode = gltf.AlphaBlend })
		out := fixture(quad(0, 0, 1, moved), quad(1, 0, 1, plain), quad(2, 0, 1, glass))
		out.Images, out.Textures, out.Materials = s.Images, s.Textures, s.Materials
		p := out.Meshes[0].Primitives[0]
		srcUV := p.TexCoords[0]

		rep, err := Build(context.Background(), out, 256)
		if err != nil {
			t.Fatal(err)
		}
		write(t, out)
		if len(rep.KeptOut) != 0 {
			t.Fatalf("%+v: kept out %+v", tr, rep.KeptOut)
		}
		used := map[int]bool{}
		for _, m := range out.Meshes {
			used[*m.Primitives[0].Material] = true
		}
		if len(used) != 2 {
			t.Errorf("%+v: %d materials after the atlas, want 2", tr, len(used))
		}

		img, err := texture.Decode(src)
		if err != nil {
			t.Fatal(err)
		}
		base := atlasImage(t, out, rep, ChannelBaseColor)
		sample := func(u, v float64, w, h int, at func(x, y int) color.NRGBA) color.NRGBA {
			x := int(math.Floor((u - math.Floor(u)) * float64(w)))
			y := int(math.Floor((v - math.Floor(v)) * float64(h)))
			return at(min(x, w-1), min(y, h-1))
		}
		sin, cos := math.Sincos(tr.Rotation)
		worst := 0
		// points inside the quad, away from its corners
		for _, f := range [][2]float64{{0.3, 0.3}, {0.5, 0.5}, {0.7, 0.2}, {0.2, 0.7}, {0.6, 0.4}} {
			lerp := func(uv [][2]float32) (float64, float64) {
				// the quad's corners 0..3 span a square: bilinear over it
				a, b, c, d := uv[3], uv[2], uv[1], uv[0] // (0,0) (1,0) (1,1) (0,1) in position
				u := (1-f[0])*(1-f[1])*float64(a[0]) + f[0]*(1-f[1])*float64(b[0]) + f[0]*f[1]*float64(c[0]) + (1-f[0])*f[1]*float64(d[0])
				v := (1-f[0])*(1-f[1])*float64(a[1]) + f[0]*(1-f[1])*float64(b[1]) + f[0]*f[1]*float64(c[1]) + (1-f[0])*f[1]*float64(d[1])
				return u, v
			}
			u, v := lerp(srcUV)
			x, y := u*tr.Scale[0], v*tr.Scale[1]
			tu, tv := tr.Offset[0]+cos*x+sin*y, tr.Offset[1]-sin*x+cos*y
			want := sample(tu, tv, 32, 32, img.NRGBAAt)
			au, av := lerp(p.TexCoords[0])
			got := sample(au, av, base.Rect.Dx(), base.Rect.Dy(), base.NRGBAAt)
			// R and G are smooth ramps across the texture: resampling
			// moves them little
			worst = max(worst, absDiff(want.R, got.R), absDiff(want.G, got.G))
		}
		if worst > 24 {
			t.Errorf("%+v: the atlas differs from the transformed texture by %d of 255", tr, worst)
		}
		t.Logf("%+v: atlas %dx%d, largest difference %d of 255", tr, rep.Width, rep.Height, worst)
	}
}
