package atlas

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/ext/texturetransform"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/scene/scenetest"
	"github.com/kilnhq/kiln/assets/srgb"
	"github.com/kilnhq/kiln/assets/texture"
	"github.com/kilnhq/kiln/internal/gltfcheck"
)

// pattern encodes a w×h PNG with smooth gradients and a few hard
// blocks, so that a misplaced, flipped or smeared rectangle shows in the
// numbers; alpha (when not 255) varies across x.
func pattern(w, h int, tint color.NRGBA, alpha bool) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			fx, fy := float64(x)/float64(w), float64(y)/float64(h)
			c := color.NRGBA{uint8(255 * fx), uint8(255 * fy), tint.B, 255}
			if (x*4/w+y*4/h)%2 == 0 {
				c.B = tint.R
			}
			if alpha {
				c.A = uint8(255 * fx)
			}
			img.SetNRGBA(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// quad is a unit square in the XY plane at x offset dx with the given
// UV range.
func quad(dx float32, uv0, uv1 float32, material int) *scene.Primitive {
	return &scene.Primitive{
		Mode:      gltf.PrimitiveTriangles,
		Material:  gltf.Index(material),
		Indices:   []uint32{0, 1, 2, 0, 2, 3},
		Positions: [][3]float32{{dx, 0, 0}, {dx + 1, 0, 0}, {dx + 1, 1, 0}, {dx, 1, 0}},
		Normals:   [][3]float32{{0, 0, 1}, {0, 0, 1}, {0, 0, 1}, {0, 0, 1}},
		TexCoords: [][][2]float32{{{uv0, uv1}, {uv1, uv1}, {uv1, uv0}, {uv0, uv0}}},
	}
}

// textured adds an image, a texture and a material using it as base
// colour, and returns the material index.
func textured(s *scene.Scene, name string, png []byte, edit func(*gltf.Material)) int {
	s.Images = append(s.Images, &scene.Image{Name: name, MimeType: "image/png", Data: png})
	s.Textures = append(s.Textures, &gltf.Texture{Source: gltf.Index(len(s.Images) - 1)})
	m := &gltf.Material{Name: name, PBRMetallicRoughness: &gltf.PBRMetallicRoughness{
		BaseColorTexture: &gltf.TextureInfo{Index: len(s.Textures) - 1},
		MetallicFactor:   gltf.Float(0),
	}}
	if edit != nil {
		edit(m)
	}
	s.Materials = append(s.Materials, m)
	return len(s.Materials) - 1
}

// fixture is a scene of quads, one node each.
func fixture(prims ...*scene.Primitive) *scene.Scene {
	s := &scene.Scene{Asset: gltf.Asset{Version: "2.0"}, Scenes: []*gltf.Scene{{}}}
	for i, p := range prims {
		s.Meshes = append(s.Meshes, &scene.Mesh{Primitives: []*scene.Primitive{p}})
		s.Nodes = append(s.Nodes, &gltf.Node{Mesh: gltf.Index(i)})
		s.Scenes[0].Nodes = append(s.Scenes[0].Nodes, i)
	}
	return s
}

// mixed is the generated fixture: two opaque textured materials of
// different sizes (one with a factor and a normal map), a tiling one, one
// with KHR_texture_transform, a BLEND one, a flat one and a primitive
// without material.
func mixed() *scene.Scene {
	s := &scene.Scene{}
	big := textured(s, "big", pattern(256, 128, color.NRGBA{R: 200, B: 40}, false), nil)
	small := textured(s, "small", pattern(64, 64, color.NRGBA{R: 30, B: 220}, false), func(m *gltf.Material) {
		m.PBRMetallicRoughness.BaseColorFactor = &[4]float64{1, 0.5, 0.5, 1}
	})
	s.Images = append(s.Images, &scene.Image{MimeType: "image/png", Data: pattern(32, 32, color.NRGBA{R: 128, B: 128}, false)})
	s.Textures = append(s.Textures, &gltf.Texture{Source: gltf.Index(len(s.Images) - 1)})
	s.Materials[small].NormalTexture = &gltf.NormalTexture{Index: gltf.Index(len(s.Textures) - 1)}
	tiling := textured(s, "tiling", scenetest.PNG(16, 16, color.NRGBA{255, 0, 0, 255}, color.NRGBA{0, 0, 255, 255}), nil)
	moved := textured(s, "moved", pattern(32, 32, color.NRGBA{R: 90}, false), func(m *gltf.Material) {
		m.PBRMetallicRoughness.BaseColorTexture.Extensions = gltf.Extensions{
			texturetransform.ExtensionName: &texturetransform.TextureTransform{Scale: [2]float64{2, 2}},
		}
	})
	glass := textured(s, "glass", pattern(128, 128, color.NRGBA{R: 10, B: 250}, true), func(m *gltf.Material) {
		m.AlphaMode = gltf.AlphaBlend
		m.DoubleSided = true
	})
	s.Materials = append(s.Materials, &gltf.Material{Name: "flat", PBRMetallicRoughness: &gltf.PBRMetallicRoughness{
		BaseColorFactor: &[4]float64{0.2, 0.6, 0.1, 1}, RoughnessFactor: gltf.Float(0.3),
	}})
	flat := len(s.Materials) - 1
	none := quad(7, 0, 1, 0)
	none.Material = nil
	none.TexCoords = nil
	out := fixture(quad(0, 0, 1, big), quad(1, 0.25, 0.75, small), quad(2, 0, 3, tiling), quad(3, 0, 1, moved),
		quad(4, 0, 1, glass), quad(5, 0, 1, flat), none)
	out.Images, out.Textures, out.Materials = s.Images, s.Textures, s.Materials
	return out
}

func write(t *testing.T, s *scene.Scene) []byte {
	t.Helper()
	glb, err := scene.Write(s)
	if err != nil {
		t.Fatalf("Write: %v", err)
	}
	gltfcheck.RequireValid(t, glb)
	return glb
}

func TestBuildRejectsBadSizes(t *testing.T) {
	for _, size := range []int{0, -64, 32, 63, 100, 1000, 4096} {
		_, err := Build(context.Background(), mixed(), size)
		if kiln.KindOf(err) != kiln.KindInvalid {
			t.Errorf("size %d: %v, want an invalid-input error", size, err)
		}
	}
	for _, size := range []int{64, 128, 2048} {
		if _, err := Build(context.Background(), mixed(), size); err != nil {
			t.Errorf("size %d: %v", size, err)
		}
	}
}

func TestBuildHonoursCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Build(ctx, mixed(), 256); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
}

// atlasImage decodes the atlas image of a channel.
func atlasImage(t *testing.T, s *scene.Scene, rep Report, channel string) *image.NRGBA {
	t.Helper()
	ti, ok := rep.Textures[channel]
	if !ok {
		return nil
	}
	im := s.Images[*s.Textures[ti].Source]
	img, err := texture.Decode(im.Data)
	if err != nil {
		t.Fatalf("%s atlas does not decode: %v", channel, err)
	}
	return img
}

func TestBuildOnGeneratedFixture(t *testing.T) {
	for _, size := range []int{64, 256, 1024} {
		t.Run(strconv.Itoa(size), func(t *testing.T) {
			s := mixed()
			before := mixed()
			prims := map[string]*scene.Primitive{}
			for _, m := range s.Meshes {
				p := m.Primitives[0]
				name := "none"
				if p.Material != nil {
					name = s.Materials[*p.Material].Name
				}
				prims[name] = p
			}
			copyOfBig := *prims["big"]
			rep, err := Build(context.Background(), s, size)
			if err != nil {
				t.Fatal(err)
			}
			write(t, s)
			checkAtlasImages(t, s, rep)

			kept := map[string]string{}
			for _, k := range rep.KeptOut {
				kept[k.Name] = k.Reason
			}
			// The tiling material (UVs 0..3) has its repeats baked and joins
			// the atlas, and so does the transformed one (its transform
			// applied to its UVs, then baked the same way).
			if len(kept) != 0 {
				t.Errorf("kept out %v, want none", kept)
			}
			if rep.Opaque == nil || rep.Transparent == nil || rep.AlphaMode != "BLEND" || !rep.TransparentDoubleSided || rep.OpaqueDoubleSided {
				t.Fatalf("atlas materials: %+v", rep)
			}
			for _, name := range []string{"big", "small", "flat", "none", "tiling", "moved"} {
				if p := prims[name]; *p.Material != *rep.Opaque {
					t.Errorf("%s uses material %d, want the opaque atlas %d", name, *p.Material, *rep.Opaque)
				}
			}
			if *prims["glass"].Material != *rep.Transparent {
				t.Errorf("glass is not on the transparent atlas material")
			}
			if _, ok := rep.Textures[ChannelNormal]; !ok {
				t.Errorf("no normal atlas though one material has a normal map")
			}
			if _, ok := rep.Textures[ChannelORM]; !ok {
				t.Errorf("no ORM atlas though roughness and metalness factors differ")
			}
			// The shallow copy taken before keeps its UVs.
			if copyOfBig.TexCoords[0][1] != [2]float32{1, 1} {
				t.Errorf("Build changed the UVs of a copy: %v", copyOfBig.TexCoords[0])
			}

			base := atlasImage(t, s, rep, ChannelBaseColor)
			regions := map[string]Region{}
			for _, r := range rep.Regions {
				regions[r.Name] = r
			}
			// Every remapped UV lies in its material's rectangle.
			for name, r := range regions {
				p := prims[name]
				if name == "" {
					p = prims["none"]
				}
				for _, uv := range p.TexCoords[0] {
					x, y := float64(uv[0])*float64(rep.Width), float64(uv[1])*float64(rep.Height)
					if x < float64(r.Rect.Min.X)-1e-3 || x > float64(r.Rect.Max.X)+1e-3 || y < float64(r.Rect.Min.Y)-1e-3 || y > float64(r.Rect.Max.Y)+1e-3 {
						t.Errorf("%s: UV %v (%.1f, %.1f px) outside %v", name, uv, x, y, r.Rect)
					}
				}
			}
			// Fidelity: each textured rectangle against its source texture
			// scaled to its size by an independent resampler.
			src := map[string]*image.NRGBA{}
			for _, m := range before.Materials {
				if pbr := m.PBRMetallicRoughness; pbr != nil && pbr.BaseColorTexture != nil {
					im := before.Images[*before.Textures[pbr.BaseColorTexture.Index].Source]
					src[m.Name], _ = texture.Decode(im.Data)
				}
			}
			for _, name := range []string{"big", "glass"} {
				r := regions[name]
				ref := reference(src[name], r.Rect.Dx(), r.Rect.Dy())
				got := base.SubImage(r.Rect).(*image.NRGBA)
				if p := psnr(ref, got, name == "glass"); p < 30 {
					t.Errorf("%s: PSNR %.1f dB < 30 (rect %v)", name, p, r.Rect)
				} else {
					t.Logf("%s: %v → %v, PSNR %.1f dB", name, src[name].Rect.Size(), r.Rect.Size(), p)
				}
			}
			// The factor of "small" is baked: green and blue halved in
			// linear light.
			r := regions["small"]
			c := base.NRGBAAt(r.Rect.Min.X+r.Rect.Dx()/2, r.Rect.Min.Y+r.Rect.Dy()/2)
			ref := reference(src["small"], r.Rect.Dx(), r.Rect.Dy()).NRGBAAt(r.Rect.Dx()/2, r.Rect.Dy()/2)
			if want := srgb.Encode(float64(srgb.Linear(ref.G)) * 0.5); absDiff(c.G, want) > 6 || absDiff(c.R, ref.R) > 6 {
				t.Errorf("small: baked colour %v, want R %d G %d", c, ref.R, want)
			}
			// The flat material is its factor's colour; roughness 0.3 is in G
			// of the ORM atlas.
			r = regions["flat"]
			c = base.NRGBAAt(r.Rect.Min.X+1, r.Rect.Min.Y+1)
			if want := (color.NRGBA{srgb.Encode(0.2), srgb.Encode(0.6), srgb.Encode(0.1), 255}); c != want {
				t.Errorf("flat: %v, want %v", c, want)
			}
			orm := atlasImage(t, s, rep, ChannelORM)
			if g := orm.NRGBAAt(r.Rect.Min.X+1, r.Rect.Min.Y+1).G; absDiff(g, 77) > 1 {
				t.Errorf("flat: roughness %d, want 77", g)
			}
			// Padding repeats the edge.
			for _, r := range rep.Regions {
				checkPadding(t, base, r, rep.Padding)
			}
		})
	}
}

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

// checkAtlasImages asserts that the atlas images are PNGs no larger than
// asked, of powers of two, and all of one size.
func checkAtlasImages(t *testing.T, s *scene.Scene, rep Report) {
	t.Helper()
	if len(rep.Regions) == 0 {
		return
	}
	if rep.Width > rep.Size || rep.Height > rep.Size || rep.Width&(rep.Width-1) != 0 || rep.Height&(rep.Height-1) != 0 {
		t.Errorf("atlas %dx%d for size %d", rep.Width, rep.Height, rep.Size)
	}
	for ch, ti := range rep.Textures {
		im := s.Images[*s.Textures[ti].Source]
		cfg, format, err := image.DecodeConfig(bytes.NewReader(im.Data))
		if err != nil || format != "png" || cfg.Width != rep.Width || cfg.Height != rep.Height {
			t.Errorf("%s atlas: %s %dx%d %v, want png %dx%d", ch, format, cfg.Width, cfg.Height, err, rep.Width, rep.Height)
		}
	}
}

// checkPadding asserts that the ring of padding around r repeats the
// nearest edge pixel.
func checkPadding(t *testing.T, img *image.NRGBA, r Region, pad int) {
	t.Helper()
	outer := r.Rect.Inset(-pad).Intersect(img.Rect)
	for y := outer.Min.Y; y < outer.Max.Y; y++ {
		for x := outer.Min.X; x < outer.Max.X; x++ {
			if image.Pt(x, y).In(r.Rect) {
				continue
			}
			ex := min(max(x, r.Rect.Min.X), r.Rect.Max.X-1)
			ey := min(max(y, r.Rect.Min.Y), r.Rect.Max.Y-1)
			if img.NRGBAAt(x, y) != img.NRGBAAt(ex, ey) {
				t.Errorf("%s: padding pixel (%d,%d) %v is not the edge pixel %v", r.Name, x, y, img.NRGBAAt(x, y), img.NRGBAAt(ex, ey))
				return
			}
		}
	}
}

// reference scales src to w×h by supersampling: the alpha-weighted mean
// of 8×8 point samples (nearest texel) spread over each destination
// pixel, written apart from the package's area filter so that the two
// check each other.
func reference(src *image.NRGBA, w, h int) *image.NRGBA {
	sw, sh := src.Rect.Dx(), src.Rect.Dy()
	out := image.NewNRGBA(image.Rect(0, 0, w, h))
	const n = 8
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			var acc [4]float64
			for j := 0; j < n; j++ {
				for i := 0; i < n; i++ {
					sx := int((float64(x) + (float64(i)+0.5)/n) * float64(sw) / float64(w))
					sy := int((float64(y) + (float64(j)+0.5)/n) * float64(sh) / float64(h))
					p := src.Pix[min(sy, sh-1)*src.Stride+4*min(sx, sw-1):]
					a := float64(p[3])
					for c := 0; c < 3; c++ {
						acc[c] += float64(p[c]) * a
					}
					acc[3] += a
				}
			}
			p := out.Pix[y*out.Stride+4*x:]
			for c := 0; c < 3; c++ {
				if acc[3] > 0 {
					p[c] = uint8(math.Round(min(max(acc[c]/acc[3], 0), 255)))
				}
			}
			p[3] = uint8(math.Round(acc[3] / n / n))
		}
	}
	return out
}

// psnr compares the colour of two images of one size (and alpha too when
// withAlpha), in dB.
func psnr(a, b *image.NRGBA, withAlpha bool) float64 {
	var se float64
	var n int
	w, h := a.Rect.Dx(), a.Rect.Dy()
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			pa := a.Pix[(y)*a.Stride+4*x:]
			pb := b.Pix[(y)*b.Stride+4*x:]
			chans := 3
			if withAlpha {
				chans = 4
			}
			for c := 0; c < chans; c++ {
				// Colour under nearly zero alpha is invisible and undefined.
				if withAlpha && c < 3 && min(pa[3], pb[3]) < 8 {
					continue
				}
				d := float64(pa[c]) - float64(pb[c])
				se += d * d
				n++
			}
		}
	}
	if se == 0 {
		return math.Inf(1)
	}
	return 10 * math.Log10(255*255/(se/float64(n)))
}

// sharedModels lists the third-party models in ../shared/testdata, which
// a fresh clone does not have.
func sharedModels(t *testing.T) []string {
	files, _ := filepath.Glob(filepath.Join("..", "..", "..", "shared", "testdata", "*.glb"))
	if len(files) == 0 {
		t.Skip("no shared test models in ../shared/testdata")
	}
	return files
}

func readModel(t testing.TB, path string) *scene.Scene {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("%s: %v", path, err)
	}
	s, err := scene.Read(data, scene.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// sourceBaseColors decodes, per material index, the base colour texture
// of the scene as it is before Build (when its factor is 1, so that the
// rectangle should be the texture scaled).
func sourceBaseColors(t *testing.T, s *scene.Scene) map[int]*image.NRGBA {
	t.Helper()
	out := map[int]*image.NRGBA{}
	for i, m := range s.Materials {
		pbr := m.PBRMetallicRoughness
		if pbr == nil || pbr.BaseColorTexture == nil || pbr.BaseColorFactorOrDefault() != [4]float64{1, 1, 1, 1} {
			continue
		}
		im := s.Images[*s.Textures[pbr.BaseColorTexture.Index].Source]
		img, err := texture.Decode(im.Data)
		if err != nil {
			t.Fatalf("source image of %s: %v", m.Name, err)
		}
		out[i] = img
	}
	return out
}

func TestBuildOnSharedModels(t *testing.T) {
	for _, path := range sharedModels(t) {
		for _, size := range []int{256, 1024} {
			t.Run(filepath.Base(path)+"/"+strconv.Itoa(size), func(t *testing.T) {
				s := readModel(t, path)
				src := sourceBaseColors(t, s)
				srcMaterials := len(s.Materials)
				rep, err := Build(context.Background(), s, size)
				if err != nil {
					t.Fatal(err)
				}
				write(t, s)
				checkAtlasImages(t, s, rep)
				if want := len(rep.KeptOut) + btoi(rep.Opaque != nil) + btoi(rep.Transparent != nil); len(s.Materials) != want && len(rep.Regions) > 0 {
					t.Errorf("%d materials after Build (from %d), want %d", len(s.Materials), srcMaterials, want)
				}
				base := atlasImage(t, s, rep, ChannelBaseColor)
				// KILN_ATLAS_DIR=/tmp/x keeps the atlases, to look at them.
				if dir := os.Getenv("KILN_ATLAS_DIR"); dir != "" {
					for ch, ti := range rep.Textures {
						name := strings.TrimSuffix(filepath.Base(path), ".glb") + "-" + strconv.Itoa(size) + "-" + ch + ".png"
						if err := os.WriteFile(filepath.Join(dir, name), s.Images[*s.Textures[ti].Source].Data, 0o644); err != nil {
							t.Fatal(err)
						}
					}
				}
				worst := math.Inf(1)
				for _, r := range rep.Regions {
					checkPadding(t, base, r, rep.Padding)
					img, ok := src[r.Material]
					if !ok || r.Transparent {
						continue
					}
					p := psnr(reference(img, r.Rect.Dx(), r.Rect.Dy()), base.SubImage(r.Rect).(*image.NRGBA), false)
					worst = min(worst, p)
					if p < 30 {
						t.Errorf("%s: PSNR %.1f dB < 30 (%v → %v)", r.Name, p, img.Rect.Size(), r.Rect.Size())
					}
				}
				t.Logf("%d regions in %dx%d (scale %.2f), %d kept out, worst base colour PSNR %.1f dB", len(rep.Regions), rep.Width, rep.Height, rep.Scale, len(rep.KeptOut), worst)
			})
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Alpha is settled per group: opaque regions are opaque, MASK regions
// keep their own cutoff's verdict under the atlas's 0.5, BLEND regions
// keep their alpha. BLEND beside MASK gets a BLEND material of its own,
// the MASK material staying MASK (before: one BLEND material, the MASK
// regions' alpha thresholded, and a renderer drew the cut-outs without
// writing depth). pattern's alpha grows with x.
func TestBuildSettlesAlphaPerGroup(t *testing.T) {
	mat := func(mode gltf.AlphaMode, cutoff float64) func(*gltf.Material) {
		return func(m *gltf.Material) {
			m.AlphaMode = mode
			if mode == gltf.AlphaMask {
				m.AlphaCutoff = gltf.Float(cutoff)
			}
		}
	}
	type part struct {
		mode   gltf.AlphaMode
		cutoff float64
	}
	for _, tc := range []struct {
		name  string
		parts []part
		want  string // transparent atlas material's alphaMode, "" for none
		blend bool   // a BLEND atlas material of its own
	}{
		{"opaque ignores alpha", []part{{gltf.AlphaOpaque, 0}}, "", false},
		{"mask only keeps each cutoff", []part{{gltf.AlphaMask, 0.3}, {gltf.AlphaMask, 0.7}}, "MASK", false},
		{"blend only blends", []part{{gltf.AlphaBlend, 0}, {gltf.AlphaOpaque, 0}}, "BLEND", false},
		{"mask with blend stays mask", []part{{gltf.AlphaMask, 0.6}, {gltf.AlphaBlend, 0}, {gltf.AlphaOpaque, 0}}, "MASK", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &scene.Scene{}
			var prims []*scene.Primitive
			for i, p := range tc.parts {
				m := textured(s, "part"+strconv.Itoa(i), pattern(64, 64, color.NRGBA{R: 100, B: 50}, true), mat(p.mode, p.cutoff))
				prims = append(prims, quad(float32(i), 0, 1, m))
			}
			fx := fixture(prims...)
			fx.Images, fx.Textures, fx.Materials = s.Images, s.Textures, s.Materials
			rep, err := Build(context.Background(), fx, 256)
			if err != nil {
				t.Fatal(err)
			}
			write(t, fx)
			if rep.AlphaMode != tc.want {
				t.Fatalf("alphaMode %q, want %q", rep.AlphaMode, tc.want)
			}
			if tc.want == "MASK" && fx.Materials[*rep.Transparent].AlphaCutoff != nil {
				t.Errorf("MASK atlas material has cutoff %v, want the default 0.5", *fx.Materials[*rep.Transparent].AlphaCutoff)
			}
			if (rep.Blend != nil) != tc.blend {
				t.Fatalf("BLEND atlas material %v, want one: %t", rep.Blend, tc.blend)
			}
			// Each primitive draws with its group's material.
			for i, p := range tc.parts {
				want := rep.Opaque
				switch {
				case p.mode == gltf.AlphaBlend && tc.blend:
					want = rep.Blend
				case p.mode != gltf.AlphaOpaque:
					want = rep.Transparent
				}
				got := fx.Meshes[i].Primitives[0].Material
				if want == nil || got == nil || *got != *want {
					t.Errorf("part %d (%v) draws with material %v, want %v", i, p.mode, got, want)
				} else if p.mode != gltf.AlphaOpaque && fx.Materials[*got].AlphaMode != p.mode {
					t.Errorf("part %d (%v) draws with a %v material", i, p.mode, fx.Materials[*got].AlphaMode)
				}
			}
			base := atlasImage(t, fx, rep, ChannelBaseColor)
			for i, r := range rep.Regions {
				p := tc.parts[i]
				for x := r.Rect.Min.X; x < r.Rect.Max.X; x++ {
					a := base.NRGBAAt(x, r.Rect.Min.Y+r.Rect.Dy()/2).A
					src := (float64(x-r.Rect.Min.X) + 0.5) / float64(r.Rect.Dx()) // pattern's alpha, 0..1
					switch {
					case p.mode == gltf.AlphaOpaque:
						if a != 255 {
							t.Fatalf("opaque region has alpha %d", a)
						}
					case p.mode == gltf.AlphaBlend:
						if math.Abs(float64(a)/255-src) > 0.03 {
							t.Fatalf("BLEND region at source alpha %.2f has %d", src, a)
						}
					case p.mode == gltf.AlphaMask:
						if math.Abs(src-p.cutoff) > 0.05 && (a >= 128) != (src >= p.cutoff) {
							t.Fatalf("at source alpha %.2f (cutoff %.2f) got %d, which the 0.5 cutoff reads otherwise", src, p.cutoff, a)
						}
					}
				}
			}
		})
	}
}

// A palette (UVs that pick single texels, as voxel exporters write)
// keeps its exact texels, and stays out when it cannot fit unscaled.
func TestBuildKeepsPalettesExact(t *testing.T) {
	for _, tc := range []struct {
		width, size int
		packed      bool
	}{{16, 64, true}, {64, 64, false}, {64, 128, true}} {
		t.Run(strconv.Itoa(tc.width)+"in"+strconv.Itoa(tc.size), func(t *testing.T) {
			palette := image.NewNRGBA(image.Rect(0, 0, tc.width, 1))
			for x := 0; x < tc.width; x++ {
				palette.SetNRGBA(x, 0, color.NRGBA{uint8(x * 37), uint8(255 - x*11), uint8(x * 5), 255})
			}
			var buf bytes.Buffer
			if err := png.Encode(&buf, palette); err != nil {
				t.Fatal(err)
			}
			s := &scene.Scene{}
			m := textured(s, "palette", buf.Bytes(), nil)
			var prims []*scene.Primitive
			for i := 0; i < tc.width; i += 3 {
				p := quad(float32(i), 0, 1, m)
				u := (float32(i) + 0.5) / float32(tc.width)
				p.TexCoords[0] = [][2]float32{{u, 0.5}, {u, 0.5}, {u, 0.5}, {u, 0.5}}
				prims = append(prims, p)
			}
			fx := fixture(prims...)
			fx.Images, fx.Textures, fx.Materials = s.Images, s.Textures, s.Materials
			rep, err := Build(context.Background(), fx, tc.size)
			if err != nil {
				t.Fatal(err)
			}
			write(t, fx)
			if !tc.packed {
				if len(rep.KeptOut) != 1 || !strings.Contains(rep.KeptOut[0].Reason, "palette") {
					t.Fatalf("kept out %v, want the palette", rep.KeptOut)
				}
				return
			}
			if len(rep.Regions) != 1 || rep.Regions[0].Rect.Dx() != tc.width {
				t.Fatalf("regions %+v, want one of width %d", rep.Regions, tc.width)
			}
			base := atlasImage(t, fx, rep, ChannelBaseColor)
			for k, p := range prims {
				uv := p.TexCoords[0][0]
				got := base.NRGBAAt(int(uv[0]*float32(rep.Width)), int(uv[1]*float32(rep.Height)))
				if want := palette.NRGBAAt(k*3, 0); got != want {
					t.Errorf("swatch %d: %v, want %v", k*3, got, want)
				}
			}
		})
	}
}
