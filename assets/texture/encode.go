package texture

import (
	"bytes"
	"context"
	"image"
	"image/jpeg"
	"image/png"

	"github.com/chai2010/webp"

	"github.com/kilnhq/kiln/assets/imagetype"
	"github.com/kilnhq/kiln/assets/pngenc"
	"github.com/kilnhq/kiln/assets/scene"
)

// Qualities per role. See bench/texture-webp/README.md for the
// measurements behind them.
var (
	// webpQuality is libwebp's lossy quality. Colour at 80 matches
	// glTF-Transform's default. Normal maps get 90: on DamagedHelmet's
	// at 1024² the mean angle error is 1.04° (q80: 1.22°; even q100
	// keeps 0.86°, from 4:2:0 chroma) in 62 KB and 0.1 s, where lossless
	// WebP takes 584 KB and 0.9 s. Data maps 85: the metallic-roughness
	// map's SSIM goes from 0.958 at q80 to 0.974.
	webpQuality = map[Role]float32{RoleColor: 80, RoleData: 85, RoleNormal: 90}
	// jpegQuality for compat: Go's encoder always subsamples chroma
	// 4:2:0, so normal maps, whose chroma is the signal, get the most.
	jpegQuality = map[Role]int{RoleColor: 88, RoleData: 90, RoleNormal: 95}
)

// pngEncoder trades a little size for speed: on DamagedHelmet's five
// textures at 1024², BestSpeed encoded in 0.48 s what the default level
// took 1.44 s for, at 12% more bytes (4.89 against 4.37 MB); png and
// compat output are about being lossless and universal, not smallest.
var pngEncoder = png.Encoder{CompressionLevel: png.BestSpeed}

// bloatSlack is what an image file may hold beyond its pixels: chunks of
// metadata, an ICC profile, a JPEG's thumbnail.
const bloatSlack = 1 << 20

// Bloated reports whether an image file of n bytes is far larger than its
// w×h pixels justify: more than their raw RGBA and a MiB besides, which
// no encoder produces (the worst PNG of noise is its raw bytes and a byte
// a row). Such a file carries junk (appended after the image's end, or in
// ancillary chunks the decoder skips): a 2×2 PNG padded to 75 MB.
func Bloated(n, w, h int) bool {
	return int64(n) > 4*int64(w)*int64(h)+bloatSlack
}

// Slim re-encodes, in their own format and size, the images of s that
// are Bloated, and leaves the others as they are: an upload's lod 0
// keeps its images, but not the junk a hostile file pads them with.
func Slim(ctx context.Context, s *scene.Scene) (Report, error) {
	for _, im := range s.Images {
		if im == nil {
			continue
		}
		if w, h, err := size(im.Data); err == nil && Bloated(len(im.Data), w, h) {
			return Convert(ctx, s, Options{Format: FormatKeep, MaxSize: noCap})
		}
	}
	return Report{}, nil // nothing to re-encode, nothing decoded
}

// noCap is a MaxSize no image reaches (Decode refuses more than 8192²).
const noCap = 1 << 30

// result is one converted image.
type result struct {
	data          []byte
	mime          string
	before, after [2]int
	alphaUsed     bool
	kept          bool
}

// convertImage decodes, caps and encodes one image for the uses u.
func convertImage(im *scene.Image, u use, opt Options) (result, error) {
	src := imagetype.Sniff(im.Data)
	if src == "" {
		src = im.MimeType
	}
	keep := result{data: im.Data, mime: src, kept: true, alphaUsed: u.alphaUsed && src != "image/jpeg"}
	if src == "image/ktx2" {
		// GPU-compressed textures stay as they are: Kiln has no KTX2
		// decoder, and their texture keeps its KHR_texture_basisu.
		return keep, nil
	}
	w, h, err := size(im.Data)
	if err != nil {
		return result{}, err
	}
	keep.before, keep.after = [2]int{w, h}, [2]int{w, h}
	nw, nh, scale := capped(w, h, opt.MaxSize)
	// Already in the target format and within the cap: re-encoding would
	// cost time and, for lossy formats, quality. A bloated file is
	// re-encoded all the same, or its junk would be copied into every
	// level and variant.
	if !scale && !Bloated(len(im.Data), w, h) && (opt.Format == FormatKeep ||
		opt.Format == FormatWebP && src == "image/webp" ||
		opt.Format == FormatPNG && src == "image/png" ||
		opt.Format == FormatCompat && src == "image/jpeg") {
		return keep, nil
	}
	m, err := Decode(im.Data)
	if err != nil {
		return result{}, err
	}
	alpha := u.alphaUsed && !opaque(m)
	if !alpha {
		setOpaque(m)
	}
	if !scale && opt.Format == FormatCompat && src == "image/png" && alpha {
		keep.alphaUsed = true
		return keep, nil // PNG is what compat wants for alpha
	}
	if scale {
		m = resize(m, nw, nh, u.role, alpha)
	}
	target := opt.Format
	if target == FormatKeep {
		target = map[string]string{"image/png": FormatPNG, "image/jpeg": "jpeg", "image/webp": FormatWebP}[src]
	}
	if target == FormatCompat {
		target = "jpeg"
		if alpha {
			target = FormatPNG
		}
	}
	r := result{before: [2]int{w, h}, after: [2]int{nw, nh}, alphaUsed: alpha}
	wq, jq := webpQuality[u.role], jpegQuality[u.role]
	if opt.Quality > 0 {
		wq, jq = opt.Quality, int(opt.Quality+0.5)
	}
	switch target {
	case FormatWebP:
		r.mime = "image/webp"
		r.data, err = encodeWebP(m, wq, alpha)
	case FormatPNG:
		r.mime = "image/png"
		r.data, err = encodePNG(m)
	default:
		r.mime = "image/jpeg"
		r.data, err = encodeJPEG(m, jq)
	}
	return r, err
}

// encodeWebP encodes lossy, handing libwebp RGB when alpha is unused (it
// then writes no alpha plane).
func encodeWebP(m *image.NRGBA, quality float32, alpha bool) ([]byte, error) {
	if alpha {
		// libwebp's RGBA input is not premultiplied: NRGBA's layout.
		return webp.EncodeRGBA(&image.RGBA{Pix: m.Pix, Stride: m.Stride, Rect: m.Rect}, quality)
	}
	return webp.EncodeRGB(rgb(m), quality)
}

// rgb packs the colour channels; chai2010/webp's own conversion goes
// through image.Image.At per pixel.
func rgb(m *image.NRGBA) *webp.RGBImage {
	w, h := m.Rect.Dx(), m.Rect.Dy()
	out := webp.NewRGBImage(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		src := m.Pix[y*m.Stride : y*m.Stride+4*w]
		dst := out.XPix[y*out.XStride : y*out.XStride+3*w]
		for x := 0; x < w; x++ {
			dst[3*x], dst[3*x+1], dst[3*x+2] = src[4*x], src[4*x+1], src[4*x+2]
		}
	}
	return out
}

// grayOf keeps one channel of an image whose channels are equal.
func grayOf(m *image.NRGBA) *image.Gray {
	w, h := m.Rect.Dx(), m.Rect.Dy()
	out := image.NewGray(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		src := m.Pix[y*m.Stride : y*m.Stride+4*w]
		dst := out.Pix[y*out.Stride : y*out.Stride+w]
		for x := range dst {
			dst[x] = src[4*x]
		}
	}
	return out
}

// encodePNG writes gray images as one channel and opaque ones without
// alpha (image/png drops an all-opaque alpha channel by itself).
// Colour images go through pngenc, which writes pngEncoder's bytes in
// about three quarters of its time.
func encodePNG(m *image.NRGBA) ([]byte, error) {
	var buf bytes.Buffer
	if opaque(m) && gray(m) {
		err := pngEncoder.Encode(&buf, grayOf(m))
		return buf.Bytes(), err
	}
	err := pngenc.Encode(&buf, m)
	return buf.Bytes(), err
}

// encodeJPEG expects an opaque image.
func encodeJPEG(m *image.NRGBA, quality int) ([]byte, error) {
	var img image.Image
	if gray(m) {
		img = grayOf(m)
	} else {
		// Opaque NRGBA and RGBA share a layout; image/jpeg has a fast
		// path for *image.RGBA only.
		img = &image.RGBA{Pix: m.Pix, Stride: m.Stride, Rect: m.Rect}
	}
	var buf bytes.Buffer
	err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: quality})
	return buf.Bytes(), err
}
