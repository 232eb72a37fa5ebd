// Package sprite turns a 2D image into a 3D object: a GLB of one upright
// textured quad, one metre high and as wide as the image's aspect, with
// the image's transparency kept, plus a small PNG thumbnail. Sprites are
// cut-outs (people, plants, signs) placed in a space next to real models.
package sprite

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/draw"
	_ "image/jpeg" // registers the JPEG decoder for image.Decode
	"image/png"

	_ "github.com/chai2010/webp" // registers the WebP decoder for image.Decode
	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/scene"
)

// Limits of a sprite image. Decoding costs 4 bytes per pixel, so the
// side is checked from the header before any pixel is decoded; 4096 is
// also the largest texture every WebGL device loads.
const (
	MaxSide       = 4096
	ThumbnailSide = 256
	Height        = 1.0 // metres
)

// Alpha modes of glTF materials.
const (
	Opaque = "OPAQUE"
	Mask   = "MASK"
	Blend  = "BLEND"
)

// Image is a decoded sprite image.
type Image struct {
	// Format is png, jpeg or webp.
	Format string
	// Pixels is premultiplied RGBA, the form the scaling and alpha checks
	// read directly.
	Pixels *image.RGBA
	// embed is the file itself when a glTF loader can read it as a
	// texture, else nil.
	embed []byte
}

// Decode reads a PNG, JPEG or WebP image. Any other content, a corrupt
// file or a side over MaxSide is a KindInvalid error that names the
// problem, since the client sent it.
func Decode(data []byte) (*Image, error) {
	if len(data) == 0 {
		return nil, invalid("invalid_image", "the file is empty; send a PNG, JPEG or WebP image")
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, invalid("invalid_image", "the file is not a PNG, JPEG or WebP image (%v)", err)
	}
	if format != "png" && format != "jpeg" && format != "webp" {
		return nil, invalid("invalid_image", "images of format %s are not supported; send PNG, JPEG or WebP", format)
	}
	if cfg.Width < 1 || cfg.Height < 1 || cfg.Width > MaxSide || cfg.Height > MaxSide {
		return nil, invalid("image_too_large", "the image is %dx%d pixels; each side must be from 1 to %d", cfg.Width, cfg.Height, MaxSide)
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, invalid("invalid_image", "the %s image is corrupt: %v", format, err)
	}
	b := img.Bounds()
	rgba := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(rgba, rgba.Rect, img, b.Min, draw.Src)
	im := &Image{Format: format, Pixels: rgba}
	switch img.(type) {
	case *image.YCbCr, *image.Gray:
		// Baseline JPEG; a CMYK one is converted, as some loaders show it
		// with wrong colours.
		im.embed = data
	default:
		if format == "png" {
			im.embed = data
		}
	}
	return im, nil
}

func invalid(code, format string, args ...any) error {
	return kiln.Errorf(kiln.KindInvalid, code, format, args...)
}

// AlphaMode is how the quad's material treats the image's alpha: OPAQUE
// when every pixel is opaque, MASK when every pixel is either fully
// opaque or fully clear (crisp cut-outs, no sorting needed), BLEND when
// some are partly transparent.
func (im *Image) AlphaMode() string {
	mode := Opaque
	pix := im.Pixels.Pix
	for i := 3; i < len(pix); i += 4 {
		switch pix[i] {
		case 255:
		case 0:
			mode = Mask
		default:
			return Blend
		}
	}
	return mode
}

// Size is the quad's width and height in metres: Height high, as wide as
// the image's aspect ratio.
func (im *Image) Size() (w, h float64) {
	r := im.Pixels.Rect
	return Height * float64(r.Dx()) / float64(r.Dy()), Height
}

// GLB builds the sprite model: one quad standing on the ground (y = 0),
// centred on x, facing +z, double-sided so it shows from behind too. The
// texture is the uploaded file itself when it is a PNG or a baseline
// JPEG, which every glTF loader reads, and a lossless PNG of it otherwise
// (a WebP would need EXT_texture_webp). The material is unlit
// (KHR_materials_unlit, optional) so the image shows with its own colours;
// loaders without the extension fall back to a rough non-metal.
func (im *Image) GLB(name string) ([]byte, error) {
	texture, mime := im.embed, "image/"+im.Format
	if texture == nil {
		var b bytes.Buffer
		if err := png.Encode(&b, im.Pixels); err != nil {
			return nil, fmt.Errorf("sprite.GLB: %w", err)
		}
		texture, mime = b.Bytes(), "image/png"
	}
	w, h := im.Size()
	x, y := float32(w/2), float32(h)
	mode := im.AlphaMode()
	mat := &gltf.Material{
		Name:        name,
		DoubleSided: true,
		PBRMetallicRoughness: &gltf.PBRMetallicRoughness{
			BaseColorTexture: &gltf.TextureInfo{Index: 0},
			MetallicFactor:   gltf.Float(0),
			RoughnessFactor:  gltf.Float(1),
		},
		Extensions: gltf.Extensions{"KHR_materials_unlit": json.RawMessage(`{}`)},
	}
	switch mode {
	case Mask:
		mat.AlphaMode = gltf.AlphaMask
		mat.AlphaCutoff = gltf.Float(0.5)
	case Blend:
		mat.AlphaMode = gltf.AlphaBlend
	}
	s := &scene.Scene{
		Asset: gltf.Asset{Version: "2.0"},
		Meshes: []*scene.Mesh{{
			Name: name,
			Primitives: []*scene.Primitive{{
				Mode:     gltf.PrimitiveTriangles,
				Material: gltf.Index(0),
				// Counter-clockwise seen from +z.
				Indices:   []uint32{0, 1, 2, 0, 2, 3},
				Positions: [][3]float32{{-x, 0, 0}, {x, 0, 0}, {x, y, 0}, {-x, y, 0}},
				Normals:   [][3]float32{{0, 0, 1}, {0, 0, 1}, {0, 0, 1}, {0, 0, 1}},
				// glTF's UV origin is the image's top left corner.
				TexCoords: [][][2]float32{{{0, 1}, {1, 1}, {1, 0}, {0, 0}}},
			}},
		}},
		Materials: []*gltf.Material{mat},
		Textures:  []*gltf.Texture{{Sampler: gltf.Index(0), Source: gltf.Index(0)}},
		// Clamped, so the border pixels do not bleed into the opposite edge.
		Samplers: []*gltf.Sampler{{
			MagFilter: gltf.MagLinear, MinFilter: gltf.MinLinearMipMapLinear,
			WrapS: gltf.WrapClampToEdge, WrapT: gltf.WrapClampToEdge,
		}},
		Images:       []*scene.Image{{Name: name, MimeType: mime, Data: texture}},
		Nodes:        []*gltf.Node{{Name: name, Mesh: gltf.Index(0)}},
		Scenes:       []*gltf.Scene{{Nodes: []int{0}}},
		DefaultScene: gltf.Index(0),
	}
	glb, err := scene.Write(s)
	if err != nil {
		return nil, fmt.Errorf("sprite.GLB: %w", err)
	}
	return glb, nil
}

// Thumbnail is the image scaled down to at most side pixels on its longer
// side (never up), as PNG. Each thumbnail pixel averages the source
// pixels it covers, in premultiplied alpha so that clear pixels do not
// darken the edges of a cut-out.
func (im *Image) Thumbnail(side int) ([]byte, error) {
	src := im.Pixels
	sw, sh := src.Rect.Dx(), src.Rect.Dy()
	dw, dh := sw, sh
	if sw > side || sh > side {
		if sw >= sh {
			dw, dh = side, max(1, (sh*side+sw/2)/sw)
		} else {
			dw, dh = max(1, (sw*side+sh/2)/sh), side
		}
	}
	dst := image.NewNRGBA(image.Rect(0, 0, dw, dh))
	for y := range dh {
		y0, y1 := y*sh/dh, max((y+1)*sh/dh, y*sh/dh+1)
		for x := range dw {
			x0, x1 := x*sw/dw, max((x+1)*sw/dw, x*sw/dw+1)
			var sum [4]uint64
			for sy := y0; sy < y1; sy++ {
				row := src.Pix[sy*src.Stride+x0*4 : sy*src.Stride+x1*4]
				for i := 0; i < len(row); i += 4 {
					sum[0] += uint64(row[i])
					sum[1] += uint64(row[i+1])
					sum[2] += uint64(row[i+2])
					sum[3] += uint64(row[i+3])
				}
			}
			n := uint64((y1 - y0) * (x1 - x0))
			o := dst.PixOffset(x, y)
			a := (sum[3] + n/2) / n
			dst.Pix[o+3] = uint8(a)
			if a == 0 {
				continue
			}
			// Un-premultiply: colour = sum(premultiplied) / sum(alpha).
			for c := range 3 {
				dst.Pix[o+c] = uint8(min(255, (sum[c]*255+sum[3]/2)/sum[3]))
			}
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, dst); err != nil {
		return nil, fmt.Errorf("sprite.Thumbnail: %w", err)
	}
	return b.Bytes(), nil
}
