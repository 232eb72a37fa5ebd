package atlas

import (
	"image"
	"math"
)

// tap is one source pixel's weight in a destination pixel.
type tap struct {
	i int
	w float32
}

// taps returns, for each of n destination pixels, the source pixels of a
// line of m that it averages: the exact overlap of its footprint with each
// source pixel (an area filter, the right one for downscaling, which is
// what an atlas does), widened to one source pixel when enlarging, which
// makes it a linear interpolation.
func taps(m, n int) [][]tap {
	out := make([][]tap, n)
	scale := float64(m) / float64(n)
	r := math.Max(scale, 1) / 2
	for x := range out {
		c := (float64(x) + 0.5) * scale
		lo, hi := c-r, c+r
		var sum float32
		var list []tap
		for i := int(math.Floor(lo)); float64(i) < hi; i++ {
			w := float32(math.Min(hi, float64(i+1)) - math.Max(lo, float64(i)))
			if w <= 0 {
				continue
			}
			list = append(list, tap{min(max(i, 0), m-1), w})
			sum += w
		}
		for k := range list {
			list[k].w /= sum
		}
		out[x] = list
	}
	return out
}

// resize resamples src to w×h. Colour is averaged weighted by alpha, so
// the invisible colour of transparent texels never darkens a visible edge.
func resize(src *image.NRGBA, w, h int) *image.NRGBA {
	sw, sh := src.Rect.Dx(), src.Rect.Dy()
	dst := image.NewNRGBA(image.Rect(0, 0, w, h))
	if sw == w && sh == h {
		copy(dst.Pix, src.Pix)
		return dst
	}
	tx, ty := taps(sw, w), taps(sh, h)
	// Horizontal pass, premultiplied, into w×sh floats.
	tmp := make([]float32, 4*w*sh)
	for y := 0; y < sh; y++ {
		row := src.Pix[y*src.Stride:]
		out := tmp[4*w*y:]
		for x, list := range tx {
			var r, g, b, a float32
			for _, t := range list {
				p := row[4*t.i : 4*t.i+4 : 4*t.i+4]
				al := float32(p[3]) * t.w
				r += float32(p[0]) * al
				g += float32(p[1]) * al
				b += float32(p[2]) * al
				a += al
			}
			out[4*x], out[4*x+1], out[4*x+2], out[4*x+3] = r, g, b, a
		}
	}
	// Vertical pass, then back to straight alpha.
	for y, list := range ty {
		row := dst.Pix[y*dst.Stride:]
		for x := 0; x < w; x++ {
			var r, g, b, a float32
			for _, t := range list {
				p := tmp[4*(w*t.i+x):]
				r += p[0] * t.w
				g += p[1] * t.w
				b += p[2] * t.w
				a += p[3] * t.w
			}
			if a > 0 {
				row[4*x] = clamp8(r / a)
				row[4*x+1] = clamp8(g / a)
				row[4*x+2] = clamp8(b / a)
			}
			row[4*x+3] = clamp8(a)
		}
	}
	return dst
}

func clamp8(v float32) uint8 {
	v += 0.5
	if v <= 0 {
		return 0
	}
	if v >= 255 {
		return 255
	}
	return uint8(v)
}
