package texture

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"image/png"
	"math"

	"github.com/chai2010/webp"

	"github.com/kilnhq/kiln/assets/imagetype"
	"github.com/kilnhq/kiln/assets/srgb"
)

// maxPixels bounds what one image may decode to (256 MiB as NRGBA): a
// PNG header can claim any size, and the bytes limit of scene.Read does
// not bound the pixels.
const maxPixels = 8192 * 8192

// size reads an image's dimensions from its header.
func size(data []byte) (w, h int, err error) {
	if imagetype.Sniff(data) == "image/webp" {
		w, h, _, err = webp.GetInfo(data)
		return w, h, err
	}
	c, _, err := image.DecodeConfig(bytes.NewReader(data))
	return c.Width, c.Height, err
}

// Decode reads a PNG, JPEG or WebP image as 8-bit non-premultiplied RGBA,
// the one layout the rest of the package works in.
func Decode(data []byte) (*image.NRGBA, error) {
	w, h, err := size(data)
	if err != nil {
		return nil, err
	}
	if w <= 0 || h <= 0 || w*h > maxPixels {
		return nil, fmt.Errorf("%d×%d pixels is more than Kiln decodes", w, h)
	}
	var m image.Image
	switch imagetype.Sniff(data) {
	case "image/png":
		m, err = png.Decode(bytes.NewReader(data))
	case "image/jpeg":
		m, err = jpeg.Decode(bytes.NewReader(data))
	case "image/webp":
		// libwebp's RGBA output is not premultiplied, so the pixels are
		// NRGBA whatever type chai2010/webp wraps them in.
		var rgba *image.RGBA
		if rgba, err = webp.DecodeRGBA(data); err == nil {
			return &image.NRGBA{Pix: rgba.Pix, Stride: rgba.Stride, Rect: rgba.Rect}, nil
		}
	default:
		return nil, errors.New("not a PNG, JPEG or WebP image")
	}
	if err != nil {
		return nil, err
	}
	return toNRGBA(m), nil
}

// toNRGBA converts with fast paths for what the decoders return; the
// generic path of image/draw costs an interface call per pixel.
func toNRGBA(m image.Image) *image.NRGBA {
	b := m.Bounds()
	w, h := b.Dx(), b.Dy()
	out := image.NewNRGBA(image.Rect(0, 0, w, h))
	switch m := m.(type) {
	case *image.NRGBA:
		for y := 0; y < h; y++ {
			copy(out.Pix[y*out.Stride:y*out.Stride+4*w], m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):])
		}
	case *image.YCbCr:
		if (m.SubsampleRatio == image.YCbCrSubsampleRatio420 || m.SubsampleRatio == image.YCbCrSubsampleRatio422) && b.Min == (image.Point{}) {
			fancyYCbCr(m, out)
			break
		}
		for y := 0; y < h; y++ {
			row := out.Pix[y*out.Stride : y*out.Stride+4*w]
			for x := 0; x < w; x++ {
				yi := m.YOffset(b.Min.X+x, b.Min.Y+y)
				ci := m.COffset(b.Min.X+x, b.Min.Y+y)
				r, g, bl := color.YCbCrToRGB(m.Y[yi], m.Cb[ci], m.Cr[ci])
				row[4*x], row[4*x+1], row[4*x+2], row[4*x+3] = r, g, bl, 255
			}
		}
	case *image.Gray:
		for y := 0; y < h; y++ {
			src := m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):]
			row := out.Pix[y*out.Stride : y*out.Stride+4*w]
			for x := 0; x < w; x++ {
				v := src[x]
				row[4*x], row[4*x+1], row[4*x+2], row[4*x+3] = v, v, v, 255
			}
		}
	case *image.RGBA:
		for y := 0; y < h; y++ {
			src := m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):]
			row := out.Pix[y*out.Stride : y*out.Stride+4*w]
			for x := 0; x < 4*w; x += 4 {
				a := src[x+3]
				switch a {
				case 255:
					copy(row[x:x+4], src[x:x+4])
				case 0:
					// fully transparent: colour unknown, left black
				default:
					for c := 0; c < 3; c++ {
						row[x+c] = uint8((uint32(src[x+c])*255 + uint32(a)/2) / uint32(a))
					}
					row[x+3] = a
				}
			}
		}
	case *image.Paletted:
		pal := make([]color.NRGBA, len(m.Palette))
		for i, c := range m.Palette {
			pal[i] = color.NRGBAModel.Convert(c).(color.NRGBA)
		}
		for y := 0; y < h; y++ {
			src := m.Pix[m.PixOffset(b.Min.X, b.Min.Y+y):]
			row := out.Pix[y*out.Stride : y*out.Stride+4*w]
			for x := 0; x < w; x++ {
				var c color.NRGBA
				if int(src[x]) < len(pal) {
					c = pal[src[x]]
				}
				row[4*x], row[4*x+1], row[4*x+2], row[4*x+3] = c.R, c.G, c.B, c.A
			}
		}
	default: // 16-bit, CMYK, gray with alpha: rare in textures
		draw.Draw(out, out.Rect, m, b.Min, draw.Src)
	}
	return out
}

// fancyYCbCr converts 4:2:0 and 4:2:2 JPEG pixels to RGB with libjpeg's
// "fancy" upsampling: each chroma sample is centred on its 2×2 (or 2×1)
// block, so a full-resolution pixel takes 3/4 of its own block's chroma
// and 1/4 of the nearest neighbour's, in each subsampled direction.
// image/jpeg's At repeats each chroma sample instead, which draws
// 2-pixel staircases along colour edges; those are a visible artefact
// and cost an encoder bits to reproduce.
func fancyYCbCr(m *image.YCbCr, out *image.NRGBA) {
	w, h := m.Rect.Dx(), m.Rect.Dy()
	cw := (w + 1) / 2
	ch := h
	vert := m.SubsampleRatio == image.YCbCrSubsampleRatio420
	if vert {
		ch = (h + 1) / 2
	}
	cb := make([]int32, w) // one row of chroma, upsampled horizontally
	cr := make([]int32, w)
	cb2 := make([]int32, w)
	cr2 := make([]int32, w)
	// hrow upsamples chroma row cy horizontally, times 4.
	hrow := func(cy int, dcb, dcr []int32) {
		rb := m.Cb[cy*m.CStride : cy*m.CStride+cw]
		rr := m.Cr[cy*m.CStride : cy*m.CStride+cw]
		for x := 0; x < w; x++ {
			cx := x / 2
			nx := cx - 1
			if x&1 == 1 {
				nx = cx + 1
			}
			nx = min(max(nx, 0), cw-1)
			dcb[x] = 3*int32(rb[cx]) + int32(rb[nx])
			dcr[x] = 3*int32(rr[cx]) + int32(rr[nx])
		}
	}
	for y := 0; y < h; y++ {
		row := out.Pix[y*out.Stride : y*out.Stride+4*w]
		yrow := m.Y[y*m.YStride : y*m.YStride+w]
		var shift uint
		if vert {
			cy := y / 2
			ny := cy - 1
			if y&1 == 1 {
				ny = cy + 1
			}
			ny = min(max(ny, 0), ch-1)
			hrow(cy, cb, cr)
			hrow(ny, cb2, cr2)
			for x := range cb {
				cb[x] = 3*cb[x] + cb2[x]
				cr[x] = 3*cr[x] + cr2[x]
			}
			shift = 4 // weights sum to 16
		} else {
			hrow(y, cb, cr)
			shift = 2 // weights sum to 4
		}
		half := int32(1) << (shift - 1)
		for x := 0; x < w; x++ {
			r, g, bl := color.YCbCrToRGB(yrow[x], uint8((cb[x]+half)>>shift), uint8((cr[x]+half)>>shift))
			row[4*x], row[4*x+1], row[4*x+2], row[4*x+3] = r, g, bl, 255
		}
	}
}

// opaque reports whether every pixel has full alpha.
func opaque(m *image.NRGBA) bool {
	w, h := m.Rect.Dx(), m.Rect.Dy()
	for y := 0; y < h; y++ {
		row := m.Pix[y*m.Stride : y*m.Stride+4*w]
		for x := 3; x < len(row); x += 4 {
			if row[x] != 255 {
				return false
			}
		}
	}
	return true
}

// gray reports whether every pixel has R = G = B, so that PNG and JPEG can
// store one channel (occlusion maps, masks).
func gray(m *image.NRGBA) bool {
	w, h := m.Rect.Dx(), m.Rect.Dy()
	for y := 0; y < h; y++ {
		row := m.Pix[y*m.Stride : y*m.Stride+4*w]
		for x := 0; x < len(row); x += 4 {
			if row[x] != row[x+1] || row[x] != row[x+2] {
				return false
			}
		}
	}
	return true
}

// setOpaque sets every alpha to 255: alpha that no material reads would
// otherwise cost bytes and keep compat output in PNG.
func setOpaque(m *image.NRGBA) {
	w, h := m.Rect.Dx(), m.Rect.Dy()
	for y := 0; y < h; y++ {
		row := m.Pix[y*m.Stride : y*m.Stride+4*w]
		for x := 3; x < len(row); x += 4 {
			row[x] = 255
		}
	}
}

// capped returns the size of a w×h image whose longer side is at most
// max, aspect kept, and whether that is a change.
func capped(w, h, max int) (int, int, bool) {
	if w <= max && h <= max {
		return w, h, false
	}
	if w >= h {
		return max, clampDim(int(math.Round(float64(h) * float64(max) / float64(w)))), true
	}
	return clampDim(int(math.Round(float64(w) * float64(max) / float64(h)))), max, true
}

func clampDim(n int) int { return max(n, 1) }

// tap is one source pixel's share of a destination pixel.
type tap struct {
	src int
	w   float32
}

// areaTaps gives each of dst output pixels the source pixels it covers
// when src pixels are squeezed into dst, weighted by overlap: a box filter
// for integer factors, exact area averaging otherwise, which unlike
// bilinear sampling never skips source pixels however large the factor.
func areaTaps(src, dst int) [][]tap {
	out := make([][]tap, dst)
	scale := float64(src) / float64(dst)
	for i := range out {
		lo, hi := float64(i)*scale, float64(i+1)*scale
		for j := int(lo); j < src && float64(j) < hi; j++ {
			ov := math.Min(hi, float64(j+1)) - math.Max(lo, float64(j))
			if ov > 1e-9 {
				out[i] = append(out[i], tap{j, float32(ov / scale)})
			}
		}
	}
	return out
}

// resize scales m down to w×h by area averaging, in linear light for
// colour, with alpha weighting when alpha is used (so transparent pixels'
// colour does not bleed in), and renormalizing normal vectors, which
// averaging shortens.
func resize(m *image.NRGBA, w, h int, role Role, alphaUsed bool) *image.NRGBA {
	sw, sh := m.Rect.Dx(), m.Rect.Dy()
	xt, yt := areaTaps(sw, w), areaTaps(sh, h)
	// Horizontal pass into tmp (sh rows of w premultiplied pixels).
	tmp := make([]float32, sh*w*4)
	row := make([]float32, sw*4)
	for y := 0; y < sh; y++ {
		src := m.Pix[y*m.Stride : y*m.Stride+4*sw]
		for x := 0; x < sw; x++ {
			p := src[4*x : 4*x+4]
			a := float32(1)
			if alphaUsed {
				a = float32(p[3]) / 255
			}
			var r, g, b float32
			if role == RoleColor {
				r, g, b = srgb.Linear(p[0]), srgb.Linear(p[1]), srgb.Linear(p[2])
			} else {
				r, g, b = float32(p[0])/255, float32(p[1])/255, float32(p[2])/255
			}
			row[4*x], row[4*x+1], row[4*x+2], row[4*x+3] = r*a, g*a, b*a, a
		}
		dst := tmp[y*w*4 : (y+1)*w*4]
		for x, taps := range xt {
			var r, g, b, a float32
			for _, t := range taps {
				q := row[4*t.src : 4*t.src+4]
				r += q[0] * t.w
				g += q[1] * t.w
				b += q[2] * t.w
				a += q[3] * t.w
			}
			dst[4*x], dst[4*x+1], dst[4*x+2], dst[4*x+3] = r, g, b, a
		}
	}
	out := image.NewNRGBA(image.Rect(0, 0, w, h))
	acc := make([]float32, w*4)
	for y, taps := range yt {
		clear(acc)
		for _, t := range taps {
			src := tmp[t.src*w*4 : (t.src+1)*w*4]
			for i, v := range src {
				acc[i] += v * t.w
			}
		}
		dst := out.Pix[y*out.Stride : y*out.Stride+4*w]
		for x := 0; x < w; x++ {
			r, g, b, a := acc[4*x], acc[4*x+1], acc[4*x+2], acc[4*x+3]
			if a <= 0 {
				dst[4*x+3] = 0
				continue
			}
			r, g, b = r/a, g/a, b/a
			switch role {
			case RoleColor:
				dst[4*x], dst[4*x+1], dst[4*x+2] = srgb.Encode32(r), srgb.Encode32(g), srgb.Encode32(b)
			case RoleNormal:
				nx, ny, nz := 2*r-1, 2*g-1, 2*b-1
				if l := float32(math.Sqrt(float64(nx*nx + ny*ny + nz*nz))); l > 1e-6 {
					nx, ny, nz = nx/l, ny/l, nz/l
				}
				dst[4*x], dst[4*x+1], dst[4*x+2] = unit8((nx+1)/2), unit8((ny+1)/2), unit8((nz+1)/2)
			default:
				dst[4*x], dst[4*x+1], dst[4*x+2] = unit8(r), unit8(g), unit8(b)
			}
			if alphaUsed {
				dst[4*x+3] = unit8(a)
			} else {
				dst[4*x+3] = 255
			}
		}
	}
	return out
}

func unit8(v float32) uint8 {
	return uint8(min(max(v, 0), 1)*255 + 0.5)
}
