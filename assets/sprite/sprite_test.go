package sprite

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math"
	"testing"

	"github.com/chai2010/webp"
	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/internal/gltfcheck"
)

// picture is a w×h image: a red disc on a clear, half-clear or white
// background.
func picture(w, h int, background color.NRGBA) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	r := float64(min(w, h)) / 2
	for y := range h {
		for x := range w {
			c := background
			if math.Hypot(float64(x)-float64(w)/2, float64(y)-float64(h)/2) < r*0.8 {
				c = color.NRGBA{200, 30, 30, 255}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	return img
}

func encode(t *testing.T, format string, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	var err error
	switch format {
	case "png":
		err = png.Encode(&b, img)
	case "jpeg":
		err = jpeg.Encode(&b, img, &jpeg.Options{Quality: 90})
	case "webp":
		err = webp.Encode(&b, img, &webp.Options{Lossless: true})
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestSprite(t *testing.T) {
	clear := color.NRGBA{}
	half := color.NRGBA{0, 0, 255, 128}
	white := color.NRGBA{255, 255, 255, 255}
	for _, tc := range []struct {
		name, format string
		w, h         int
		bg           color.NRGBA
		mode         string
		textureMime  string
		thumbW       int
		thumbH       int
	}{
		{"png cut-out", "png", 600, 300, clear, Mask, "image/png", 256, 128},
		{"png soft edges", "png", 100, 400, half, Blend, "image/png", 64, 256},
		{"jpeg opaque", "jpeg", 640, 480, white, Opaque, "image/jpeg", 256, 192},
		{"webp cut-out becomes png", "webp", 120, 80, clear, Mask, "image/png", 120, 80},
		{"tiny", "png", 1, 1, white, Opaque, "image/png", 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			im, err := Decode(encode(t, tc.format, picture(tc.w, tc.h, tc.bg)))
			if err != nil {
				t.Fatal(err)
			}
			if im.Format != tc.format {
				t.Errorf("format %s, want %s", im.Format, tc.format)
			}
			if got := im.AlphaMode(); got != tc.mode {
				t.Errorf("alpha mode %s, want %s", got, tc.mode)
			}
			glb, err := im.GLB("Sprite")
			if err != nil {
				t.Fatal(err)
			}
			gltfcheck.RequireValid(t, glb)
			s, err := scene.Read(glb, scene.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			m := s.Materials[0]
			wantMode := map[string]string{Opaque: "", Mask: "MASK", Blend: "BLEND"}[tc.mode]
			if got := alphaName(m.AlphaMode); got != wantMode || !m.DoubleSided {
				t.Errorf("material alphaMode %q doubleSided %v, want %q and true", got, m.DoubleSided, wantMode)
			}
			if len(s.Images) != 1 || s.Images[0].MimeType != tc.textureMime {
				t.Errorf("texture %v, want one %s", s.Images, tc.textureMime)
			}
			p := s.Meshes[0].Primitives[0]
			lo, hi := extent(p.Positions)
			wantW := float32(tc.w) / float32(tc.h)
			if math.Abs(float64(hi[0]-lo[0]-wantW)) > 1e-5 || hi[1]-lo[1] != 1 || lo[1] != 0 || hi[2] != lo[2] {
				t.Errorf("quad from %v to %v, want %g wide, 1 high, standing on y=0", lo, hi, wantW)
			}
			if len(p.Indices) != 6 {
				t.Errorf("%d indices, want two triangles", len(p.Indices))
			}
			th, err := im.Thumbnail(ThumbnailSide)
			if err != nil {
				t.Fatal(err)
			}
			cfg, err := png.DecodeConfig(bytes.NewReader(th))
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Width != tc.thumbW || cfg.Height != tc.thumbH {
				t.Errorf("thumbnail %dx%d, want %dx%d", cfg.Width, cfg.Height, tc.thumbW, tc.thumbH)
			}
		})
	}
}

func alphaName(m gltf.AlphaMode) string {
	switch m {
	case gltf.AlphaMask:
		return "MASK"
	case gltf.AlphaBlend:
		return "BLEND"
	}
	return ""
}

func extent(p [][3]float32) (lo, hi [3]float32) {
	lo, hi = p[0], p[0]
	for _, v := range p {
		for i := range 3 {
			lo[i], hi[i] = min(lo[i], v[i]), max(hi[i], v[i])
		}
	}
	return lo, hi
}

// TestThumbnailKeepsCutOutColours checks the premultiplied average: a
// thumbnail pixel half over a red opaque pixel and half over clear black
// ones stays red, at half alpha.
func TestThumbnailKeepsCutOutColours(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 512, 2))
	for y := range 2 {
		for x := 0; x < 512; x += 2 {
			img.SetNRGBA(x, y, color.NRGBA{255, 0, 0, 255})
		}
	}
	im, err := Decode(encode(t, "png", img))
	if err != nil {
		t.Fatal(err)
	}
	th, err := im.Thumbnail(256)
	if err != nil {
		t.Fatal(err)
	}
	out, err := png.Decode(bytes.NewReader(th))
	if err != nil {
		t.Fatal(err)
	}
	if c := color.NRGBAModel.Convert(out.At(10, 0)).(color.NRGBA); c.R != 255 || c.G != 0 || c.A < 127 || c.A > 128 {
		t.Errorf("thumbnail pixel %v, want red at half alpha", c)
	}
}

func TestDecodeRejects(t *testing.T) {
	big := encode(t, "png", image.NewGray(image.Rect(0, 0, MaxSide+1, 1)))
	for _, tc := range []struct {
		name string
		data []byte
		code string
	}{
		{"empty", nil, "invalid_image"},
		{"text", []byte("hello, this is not an image"), "invalid_image"},
		{"gif", []byte("GIF89a\x01\x00\x01\x00\x00\x00\x00;"), "invalid_image"},
		{"truncated png", encode(t, "png", picture(64, 64, color.NRGBA{}))[:100], "invalid_image"},
		{"too wide", big, "image_too_large"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decode(tc.data)
			if code, msg := kiln.CodeOf(err); kiln.KindOf(err) != kiln.KindInvalid || code != tc.code || msg == "" {
				t.Fatalf("got %v (%s), want invalid %s", err, code, tc.code)
			}
		})
	}
}
