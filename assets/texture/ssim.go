package texture

import "image"

// SSIM is the structural similarity (Wang et al. 2004) of two images of
// the same size, on luminance, averaged over 8×8 windows that overlap by
// half: Kiln's tests and benchmarks state texture fidelity in it, because
// it tracks visible damage (blocking, blur, ringing) better than PSNR. It
// is 1 for identical pixels and 0 when the sizes differ. Alpha is ignored.
func SSIM(a, b *image.NRGBA) float64 {
	w, h := a.Rect.Dx(), a.Rect.Dy()
	if w != b.Rect.Dx() || h != b.Rect.Dy() || w == 0 || h == 0 {
		return 0
	}
	la, lb := luma(a), luma(b)
	win := min(8, w, h)
	step := max(win/2, 1)
	const (
		c1 = (0.01 * 255) * (0.01 * 255)
		c2 = (0.03 * 255) * (0.03 * 255)
	)
	var sum float64
	n := 0
	for y0 := 0; y0+win <= h; y0 += step {
		for x0 := 0; x0+win <= w; x0 += step {
			var sa, sb, saa, sbb, sab float64
			for y := y0; y < y0+win; y++ {
				ra, rb := la[y*w+x0:y*w+x0+win], lb[y*w+x0:y*w+x0+win]
				for i := range ra {
					p, q := float64(ra[i]), float64(rb[i])
					sa += p
					sb += q
					saa += p * p
					sbb += q * q
					sab += p * q
				}
			}
			k := float64(win * win)
			ma, mb := sa/k, sb/k
			va, vb := saa/k-ma*ma, sbb/k-mb*mb
			cov := sab/k - ma*mb
			sum += (2*ma*mb + c1) * (2*cov + c2) / ((ma*ma + mb*mb + c1) * (va + vb + c2))
			n++
		}
	}
	return sum / float64(n)
}

// luma is Rec. 601 luminance of the stored (sRGB) values, as image
// quality metrics use.
func luma(m *image.NRGBA) []float32 {
	w, h := m.Rect.Dx(), m.Rect.Dy()
	out := make([]float32, w*h)
	for y := 0; y < h; y++ {
		row := m.Pix[y*m.Stride : y*m.Stride+4*w]
		for x := 0; x < w; x++ {
			out[y*w+x] = 0.299*float32(row[4*x]) + 0.587*float32(row[4*x+1]) + 0.114*float32(row[4*x+2])
		}
	}
	return out
}

// Scale resizes m to w×h with the filter Convert uses for the role: area
// averaging, in linear light for colour, alpha-weighted when alphaUsed,
// normals renormalized. Tests and benchmarks build their references
// with it.
func Scale(m *image.NRGBA, w, h int, role Role, alphaUsed bool) *image.NRGBA {
	return resize(m, w, h, role, alphaUsed)
}
