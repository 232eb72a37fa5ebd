package render

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/png"
	"testing"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln/assets/scene"
)

// TestRenderOneCopyPerImage points 40 textures at one image larger than
// the renderer keeps: every texture shares one reduced copy, and the
// picture still shows the image.
func TestRenderOneCopyPerImage(t *testing.T) {
	const side = 2100 // over maxTexels: halved to 1050
	img := image.NewNRGBA(image.Rect(0, 0, side, side))
	for y := 0; y < side; y++ {
		c := color.NRGBA{255, 0, 0, 255}
		if y >= side/2 {
			c = color.NRGBA{0, 0, 255, 255}
		}
		for x := 0; x < side; x++ {
			img.SetNRGBA(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	const n = 40
	var mats []*gltf.Material
	s := oneMesh(nil, quad(-0.5, 0.5, -0.5, 0.5, n-1))
	zero := 0
	for i := range n {
		m := pbr(1, 1, 1, 1)
		m.PBRMetallicRoughness.BaseColorTexture = &gltf.TextureInfo{Index: i}
		mats = append(mats, m)
		s.Textures = append(s.Textures, &gltf.Texture{Source: &zero})
	}
	s.Materials = mats
	s.Images = []*scene.Image{{MimeType: "image/png", Data: buf.Bytes()}}

	resolved := resolveMaterials(s)
	first := resolved[0].baseTex.tex
	if first == nil || first.w != side/2 || first.h != side/2 {
		t.Fatalf("decoded texture %+v, want %d² texels", first, side/2)
	}
	for i, m := range resolved {
		if tex := m.baseTex.tex; tex == nil || &tex.pix[0] != &first.pix[0] {
			t.Fatalf("texture %d has its own copy of the image", i)
		}
	}
	m, err := Render(context.Background(), s, Options{Size: 64, Camera: "full"})
	if err != nil {
		t.Fatal(err)
	}
	top, bottom := m.NRGBAAt(32, 20), m.NRGBAAt(32, 44)
	if top.R < 100 || top.B > 50 || bottom.B < 100 || bottom.R > 50 {
		t.Errorf("top %v, bottom %v: want red above blue", top, bottom)
	}
}

// TestRenderBoundsCost stacks 100,000 faces on one large triangle: the
// renderer refuses at once instead of drawing it 100,000 times, and the
// same scene cleaned of its repeats draws.
func TestRenderBoundsCost(t *testing.T) {
	p := quad(-0.5, 0.5, -0.5, 0.5, 0)
	p.Indices = nil
	for range 100000 {
		p.Indices = append(p.Indices, 0, 1, 2)
	}
	s := oneMesh([]*gltf.Material{pbr(1, 0, 0, 1)}, p)
	_, err := Render(context.Background(), s, Options{Size: 256, Camera: "full"})
	if !errors.Is(err, ErrTooCostly) {
		t.Fatalf("rendering 100,000 stacked faces: %v, want ErrTooCostly", err)
	}
	if _, err := s.DropDegenerate(context.Background()); err != nil {
		t.Fatal(err)
	}
	m, err := Render(context.Background(), s, Options{Size: 256, Camera: "full"})
	if err != nil {
		t.Fatal(err)
	}
	if figure(m, nil).Empty() {
		t.Fatal("the cleaned triangle draws nothing")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Render(ctx, s, Options{Size: 256, Camera: "full"}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled render: %v", err)
	}
}
