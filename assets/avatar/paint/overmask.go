package paint

// overMask repaints the base colour of a painted skin (m, made over the
// same UV layout as s) where s.Mask reaches 0.01 and over: each such
// texel's colour, decoded to linear, goes through paint with the texel
// under it, and the result is written back. The skin under facial hair
// (Stubble, Roots) and under head hair (Scalp) is painted so.
func overMask(m Maps, s Surface, paint func(t texel, c rgb) rgb) {
	overMaskAt(m, s, func(_ int, t texel, c rgb) rgb { return paint(t, c) })
}

// overMaskAt is overMask for a painter that also reads a second map of
// the same surface: paint gets the texel's index in the n×n map (row by
// row) too.
func overMaskAt(m Maps, s Surface, paint func(i int, t texel, c rgb) rgb) {
	n := m.Base.Rect.Dx()
	sm := surfaceMap(s, n, nil)
	defer release(sm)
	parallel(n, func(y0, y1 int) {
		for y := y0; y < y1; y++ {
			for x := 0; x < n; x++ {
				t := sm[y*n+x]
				if !t.ok || t.mask < 0.01 {
					continue
				}
				o := m.Base.PixOffset(x, y)
				px := m.Base.Pix[o : o+3 : o+3]
				c := paint(y*n+x, t, rgb{srgbToLinear(px[0]), srgbToLinear(px[1]), srgbToLinear(px[2])})
				px[0], px[1], px[2] = linearToSRGB(c[0]), linearToSRGB(c[1]), linearToSRGB(c[2])
			}
		}
	})
}
