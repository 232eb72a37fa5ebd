package render

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/chai2010/webp"
	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln/assets"
	"github.com/kilnhq/kiln/assets/avatar"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/scene/scenetest"
)

const testdata = "/work/shared/testdata"

func readModel(tb testing.TB, name string) *scene.Scene {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join(testdata, name))
	if err != nil {
		tb.Skipf("testdata absent: %v", err)
	}
	s, err := assets.Read(data)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// dump writes the image where a human can look at it when KILN_RENDER_DUMP
// names a directory.
func dump(t *testing.T, name string, m *image.NRGBA) {
	dir := os.Getenv("KILN_RENDER_DUMP")
	if dir == "" {
		return
	}
	f, err := os.Create(filepath.Join(dir, name+".png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, m); err != nil {
		t.Fatal(err)
	}
}

func TestDump(t *testing.T) {
	if os.Getenv("KILN_RENDER_DUMP") == "" {
		t.Skip("writes pictures of the testdata models for a person to look at: set KILN_RENDER_DUMP=1")
	}
	entries, _ := os.ReadDir(testdata)
	for _, e := range entries {
		if filepath.Ext(e.Name()) != ".glb" {
			continue
		}
		s := readModel(t, e.Name())
		for _, cam := range []string{"full", "portrait"} {
			m, err := Render(context.Background(), s, Options{Size: 256, Camera: cam})
			if err != nil {
				t.Fatal(err)
			}
			dump(t, e.Name()+"-"+cam, m)
		}
	}
	for _, g := range []string{"feminine", "masculine"} {
		s, err := avatar.Generate(avatar.Default(g))
		if err != nil {
			t.Fatal(err)
		}
		for _, cam := range []string{"full", "portrait"} {
			m, err := Render(context.Background(), s, Options{Size: 256, Camera: cam, Background: &color.NRGBA{200, 210, 220, 255}})
			if err != nil {
				t.Fatal(err)
			}
			dump(t, "avatar-"+g+"-"+cam, m)
		}
	}
}

// quad is a unit square in the XY plane facing +Z, with UV (0,0) at its
// top-left corner as glTF maps images.
func quad(x0, x1, y0, y1 float32, mat int) *scene.Primitive {
	m := mat
	return &scene.Primitive{
		Mode:      gltf.PrimitiveTriangles,
		Material:  &m,
		Indices:   []uint32{0, 1, 2, 0, 2, 3},
		Positions: [][3]float32{{x0, y0, 0}, {x1, y0, 0}, {x1, y1, 0}, {x0, y1, 0}},
		Normals:   [][3]float32{{0, 0, 1}, {0, 0, 1}, {0, 0, 1}, {0, 0, 1}},
		TexCoords: [][][2]float32{{{0, 1}, {1, 1}, {1, 0}, {0, 0}}},
	}
}

// cube is a box from -h to h with flat normals.
func cube(h float32, mat int) *scene.Primitive {
	m := mat
	p := &scene.Primitive{Mode: gltf.PrimitiveTriangles, Material: &m}
	faces := [6][3]float32{{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}}
	for _, n := range faces {
		// Two axes perpendicular to n span the face.
		var u, v [3]float32
		switch {
		case n[0] != 0:
			u, v = [3]float32{0, 1, 0}, [3]float32{0, 0, 1}
		case n[1] != 0:
			u, v = [3]float32{0, 0, 1}, [3]float32{1, 0, 0}
		default:
			u, v = [3]float32{1, 0, 0}, [3]float32{0, 1, 0}
		}
		base := uint32(len(p.Positions))
		for _, c := range [4][2]float32{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}} {
			var q [3]float32
			for k := 0; k < 3; k++ {
				q[k] = (n[k] + c[0]*u[k] + c[1]*v[k]) * h
			}
			p.Positions = append(p.Positions, q)
			p.Normals = append(p.Normals, n)
		}
		p.Indices = append(p.Indices, base, base+1, base+2, base, base+2, base+3)
	}
	return p
}

func oneMesh(mats []*gltf.Material, prims ...*scene.Primitive) *scene.Scene {
	zero := 0
	return &scene.Scene{
		Meshes:       []*scene.Mesh{{Primitives: prims}},
		Materials:    mats,
		Nodes:        []*gltf.Node{{Mesh: &zero}},
		Scenes:       []*gltf.Scene{{Nodes: []int{0}}},
		DefaultScene: &zero,
	}
}

func pbr(r, g, b, a float64) *gltf.Material {
	metal, rough := 0.0, 1.0
	return &gltf.Material{PBRMetallicRoughness: &gltf.PBRMetallicRoughness{
		BaseColorFactor: &[4]float64{r, g, b, a}, MetallicFactor: &metal, RoughnessFactor: &rough}}
}

// figure is the box of the pixels that differ from the background (alpha
// above 0 when transparent).
func figure(m *image.NRGBA, bg *color.NRGBA) image.Rectangle {
	var box image.Rectangle
	for y := 0; y < m.Rect.Dy(); y++ {
		for x := 0; x < m.Rect.Dx(); x++ {
			c := m.NRGBAAt(x, y)
			if (bg == nil && c.A > 0) || (bg != nil && c != *bg) {
				box = box.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	return box
}

func TestRenderFraming(t *testing.T) {
	grey := &color.NRGBA{40, 50, 60, 255}
	redCube := oneMesh([]*gltf.Material{pbr(1, 0, 0, 1)}, cube(0.5, 0))
	tube, err := scene.Read(scenetest.SkinnedTube(), scene.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fem, err := avatar.Generate(avatar.Default("feminine"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		s      *scene.Scene
		opt    Options
		height [2]float64 // share of the image height the figure fills
	}{
		{"cube full", redCube, Options{Size: 64, Camera: "full"}, [2]float64{0.4, 0.95}},
		{"cube background", redCube, Options{Size: 96, Camera: "full", Background: grey}, [2]float64{0.4, 0.95}},
		{"cube portrait", redCube, Options{Size: 64, Camera: "portrait"}, [2]float64{0.4, 1}},
		{"skinned tube", tube, Options{Size: 64, Camera: "full"}, [2]float64{0.4, 0.95}},
		{"avatar full", fem, Options{Size: 128, Camera: "full"}, [2]float64{0.6, 0.95}},
		{"avatar portrait", fem, Options{Size: 128, Camera: "portrait", Background: grey}, [2]float64{0.5, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Render(context.Background(), tt.s, tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			dump(t, tt.name, m)
			if m.Rect.Dx() != tt.opt.Size || m.Rect.Dy() != tt.opt.Size {
				t.Fatalf("size %v, want %d²", m.Rect, tt.opt.Size)
			}
			n := tt.opt.Size - 1
			for _, p := range []image.Point{{0, 0}, {n, 0}, {0, n}, {n, n}} {
				c := m.NRGBAAt(p.X, p.Y)
				// A portrait crops the shoulders at the bottom edge.
				if tt.opt.Camera == "portrait" && p.Y == n {
					continue
				}
				if tt.opt.Background == nil && c.A != 0 {
					t.Errorf("corner %v = %v, want transparent", p, c)
				}
				if tt.opt.Background != nil && c != *tt.opt.Background {
					t.Errorf("corner %v = %v, want the background %v", p, c, *tt.opt.Background)
				}
			}
			box := figure(m, tt.opt.Background)
			size := float64(tt.opt.Size)
			if share := float64(box.Dy()) / size; share < tt.height[0] || share > tt.height[1] {
				t.Errorf("figure %v fills %.2f of the height, want %.2f..%.2f", box, share, tt.height[0], tt.height[1])
			}
			cx := float64(box.Min.X+box.Max.X) / 2 / size
			if cx < 0.4 || cx > 0.6 {
				t.Errorf("figure %v centred at x=%.2f, want within 10%% of the middle", box, cx)
			}
			if tt.opt.Camera == "full" {
				cy := float64(box.Min.Y+box.Max.Y) / 2 / size
				if cy < 0.4 || cy > 0.6 {
					t.Errorf("figure %v centred at y=%.2f, want within 10%% of the middle", box, cy)
				}
			}
		})
	}
}

func TestRenderRedCube(t *testing.T) {
	s := oneMesh([]*gltf.Material{pbr(1, 0, 0, 1)}, cube(0.5, 0))
	m, err := Render(context.Background(), s, Options{Size: 64, Camera: "full"})
	if err != nil {
		t.Fatal(err)
	}
	var covered, red int
	for i := 0; i < len(m.Pix); i += 4 {
		if m.Pix[i+3] == 255 {
			covered++
			if int(m.Pix[i]) > 2*int(m.Pix[i+1])+20 && int(m.Pix[i]) > 2*int(m.Pix[i+2])+20 {
				red++
			}
		}
	}
	if covered == 0 || red < covered*9/10 {
		t.Errorf("%d of %d covered pixels are red-dominant", red, covered)
	}
}

// TestRenderTextureUp maps an image whose top half is red and bottom half
// blue: the top of the rendered quad must be red.
// TestRenderTextureUp draws a texture red above blue, given as a core
// PNG source, and as a WebP source of EXT_texture_webp in each form a
// scene holds it: raw JSON from the reader, a map from the stages.
func TestRenderTextureUp(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 8, 8))
	for y := 0; y < 8; y++ {
		for x := 0; x < 8; x++ {
			c := color.NRGBA{255, 0, 0, 255}
			if y >= 4 {
				c = color.NRGBA{0, 0, 255, 255}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	var pngData bytes.Buffer
	if err := png.Encode(&pngData, img); err != nil {
		t.Fatal(err)
	}
	webpData, err := webp.EncodeRGBA(img, 100)
	if err != nil {
		t.Fatal(err)
	}
	zero := 0
	for _, tt := range []struct {
		name  string
		tex   *gltf.Texture
		image *scene.Image
	}{
		{"png", &gltf.Texture{Source: &zero}, &scene.Image{MimeType: "image/png", Data: pngData.Bytes()}},
		{"webp as read", &gltf.Texture{Extensions: gltf.Extensions{"EXT_texture_webp": json.RawMessage(`{"source":0}`)}},
			&scene.Image{MimeType: "image/webp", Data: webpData}},
		{"webp as a stage writes it", &gltf.Texture{Extensions: gltf.Extensions{"EXT_texture_webp": map[string]any{"source": 0}}},
			&scene.Image{MimeType: "image/webp", Data: webpData}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			mat := pbr(1, 1, 1, 1)
			mat.PBRMetallicRoughness.BaseColorTexture = &gltf.TextureInfo{Index: 0}
			s := oneMesh([]*gltf.Material{mat}, quad(-0.5, 0.5, -0.5, 0.5, 0))
			s.Textures = []*gltf.Texture{tt.tex}
			s.Images = []*scene.Image{tt.image}
			m, err := Render(context.Background(), s, Options{Size: 64, Camera: "full"})
			if err != nil {
				t.Fatal(err)
			}
			top, bottom := m.NRGBAAt(32, 20), m.NRGBAAt(32, 44)
			if top.R < 100 || top.B > 50 || bottom.B < 100 || bottom.R > 50 {
				t.Errorf("top %v, bottom %v: want red above blue", top, bottom)
			}
		})
	}
}

// TestRenderMask cuts out the right quad (alpha 0.3 under the default
// cutoff 0.5) and keeps the left one (alpha 0.7), and draws a BLEND quad
// at half coverage.
func TestRenderMask(t *testing.T) {
	keep, cut, blend := pbr(0, 1, 0, 0.7), pbr(0, 1, 0, 0.3), pbr(0, 0, 1, 0.5)
	keep.AlphaMode, cut.AlphaMode, blend.AlphaMode = gltf.AlphaMask, gltf.AlphaMask, gltf.AlphaBlend
	s := oneMesh([]*gltf.Material{keep, cut, blend},
		quad(-1, 0, 0, 1, 0), quad(0, 1, 0, 1, 1), quad(-1, 1, -1, 0, 2))
	m, err := Render(context.Background(), s, Options{Size: 64, Camera: "full"})
	if err != nil {
		t.Fatal(err)
	}
	if c := m.NRGBAAt(20, 20); c.A != 255 || c.G < 100 {
		t.Errorf("kept MASK pixel %v, want opaque green", c)
	}
	if c := m.NRGBAAt(44, 20); c.A != 0 {
		t.Errorf("cut-out MASK pixel %v, want transparent", c)
	}
	if c := m.NRGBAAt(32, 44); c.A < 100 || c.A > 160 || c.B < 100 {
		t.Errorf("BLEND pixel %v, want blue at about half alpha", c)
	}
}

func TestRenderOptions(t *testing.T) {
	s := oneMesh([]*gltf.Material{pbr(1, 0, 0, 1)}, cube(0.5, 0))
	for _, opt := range []Options{{Size: 0}, {Size: MaxSize + 1}, {Size: 32, Camera: "side"}} {
		if _, err := Render(context.Background(), s, opt); err == nil {
			t.Errorf("%+v: no error", opt)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Render(ctx, s, Options{Size: 32}); err == nil {
		t.Error("cancelled context: no error")
	}
	empty, err := Render(context.Background(), &scene.Scene{}, Options{Size: 16})
	if err != nil || figure(empty, nil) != (image.Rectangle{}) {
		t.Errorf("empty scene: %v, figure %v", err, figure(empty, nil))
	}
}

func TestRenderTestdata(t *testing.T) {
	entries, err := os.ReadDir(testdata)
	if err != nil {
		t.Skipf("testdata absent: %v", err)
	}
	for _, e := range entries {
		if filepath.Ext(e.Name()) != ".glb" {
			continue
		}
		t.Run(e.Name(), func(t *testing.T) {
			s := readModel(t, e.Name())
			for _, cam := range []string{"full", "portrait"} {
				m, err := Render(context.Background(), s, Options{Size: 64, Camera: cam})
				if err != nil {
					t.Fatal(err)
				}
				box := figure(m, nil)
				if max(box.Dx(), box.Dy()) < 64*4/10 {
					t.Errorf("%s: figure %v too small", cam, box)
				}
				if cam == "full" && box.Dy() > 64*95/100 && box.Dx() > 64*95/100 {
					t.Errorf("%s: figure %v fills the frame", cam, box)
				}
			}
		})
	}
}

func BenchmarkRenderRPM512(b *testing.B) {
	s := readModel(b, "rpm-avatar-casual.glb")
	b.ResetTimer()
	for b.Loop() {
		if _, err := Render(context.Background(), s, Options{Size: 512, Camera: "portrait"}); err != nil {
			b.Fatal(err)
		}
	}
}
