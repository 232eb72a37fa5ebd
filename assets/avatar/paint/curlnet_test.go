package paint

import (
	"image"
	"slices"
	"testing"
)

// creaseNet is how much curly hair's dark gaps join into one network:
// of img's opaque texels (rows between lat0 and lat1 of the texture,
// away from a sphere's poles, where its texels crowd), those darker than
// 0.7 of the lit tops (the 90th percentile of their sRGB-coded luma, as
// curlGaps reads the avatar) are the gaps; the share of them in the largest
// 4-connected group. A net of creases round every curl is one group (1);
// shadows between coils, each its own, are many small ones. dark is the
// gaps' share of the texels.
func creaseNet(img *image.NRGBA, lat0, lat1 float64) (net, dark float64) {
	n := img.Bounds().Dx()
	y0, y1 := int(lat0*float64(n)), int(lat1*float64(n))
	var lumas []float64
	luma := make([]float64, n*n)
	for y := y0; y < y1; y++ {
		for x := range n {
			p := img.NRGBAAt(x, y)
			if p.A < 128 {
				luma[y*n+x] = -1
				continue
			}
			luma[y*n+x] = (0.2126*float64(p.R) + 0.7152*float64(p.G) + 0.0722*float64(p.B)) / 255
			lumas = append(lumas, luma[y*n+x])
		}
	}
	if len(lumas) == 0 {
		return 0, 0
	}
	slices.Sort(lumas)
	cut := 0.7 * lumas[len(lumas)*9/10]
	isDark := func(x, y int) bool {
		return y >= y0 && y < y1 && x >= 0 && x < n && luma[y*n+x] >= 0 && luma[y*n+x] < cut
	}
	seen := make([]bool, n*n)
	total, largest := 0, 0
	var stack []int
	for y := y0; y < y1; y++ {
		for x := range n {
			if seen[y*n+x] || !isDark(x, y) {
				continue
			}
			size := 0
			seen[y*n+x] = true
			stack = append(stack[:0], y*n+x)
			for len(stack) > 0 {
				i := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				size++
				for _, o := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
					xn, yn := i%n+o[0], i/n+o[1]
					if isDark(xn, yn) && !seen[yn*n+xn] {
						seen[yn*n+xn] = true
						stack = append(stack, yn*n+xn)
					}
				}
			}
			total += size
			largest = max(largest, size)
		}
	}
	if total == 0 {
		return 0, 0
	}
	return float64(largest) / float64(total), float64(total) / float64(len(lumas))
}

// TestCurlGapsAreBroken paints curly hair over curlySphere and asks
// whether its dark gaps are shadows between coils or one net of creases
// round cells (creaseNet). Issue 22's panel (p16) saw session 15's
// curls as "lumpy polygons", "blocky and faceted": every curl ringed by
// a dark crease, the creases one network round flat-topped cells (a
// turtle's shell). The gaps must still be there (TestCurlsHaveGaps), but
// broken.
func TestCurlGapsAreBroken(t *testing.T) {
	s := curlySphere()
	for _, c := range []struct {
		name  string
		color RGB
	}{
		{"blonde", RGB{0.423, 0.266, 0.112}},
		{"brown", RGB{0.111, 0.045, 0.017}},
	} {
		t.Run(c.name, func(t *testing.T) {
			img := decode(t, CurlyHair(s, c.color, 9, 256).Base)
			net, dark := creaseNet(img, 0.2, 0.7)
			t.Logf("%s: %.3f of the texels dark, %.3f of them in one network", c.name, dark, net)
			if net > 0.3 {
				t.Errorf("%s curls: %.2f of the dark gaps join in one network, want at most 0.30: creases round cells, not shadows between coils", c.name, net)
			}
			if dark < 0.05 {
				t.Errorf("%s curls: %.3f of the texels dark, want 0.05 or more: no gaps between the curls", c.name, dark)
			}
		})
	}
}
