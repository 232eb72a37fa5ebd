package paint

import (
	"slices"
	"testing"
)

// TestCurlyHairGrooves paints curls (CurlyHair) on a head-sized sphere
// and asks what shape the dark between them has: of the darkest 15% of
// the texels, the share with at least two lighter texels among their
// four neighbours. A groove between curls, a texel or two wide, is
// nearly all edge; a round pit is edge only round its rim. Issue 22's
// panel called blonde curls a "sponge": the curls were a lit network
// of crests with round dark pits between them. Before: 0.40 for blonde
// and white, 0.43 for dark brown; now 0.68, 0.68 and 0.56.
func TestCurlyHairGrooves(t *testing.T) {
	s := sphere([3]float32{0, 1.6, 0}, 0.1, 24)
	for _, c := range []struct {
		name  string
		color RGB
	}{
		{"blonde", RGB{0.584, 0.356, 0.102}},
		{"white", RGB{0.807, 0.791, 0.753}},
		{"dark-brown", RGB{0.06, 0.035, 0.02}},
	} {
		t.Run(c.name, func(t *testing.T) {
			img := decode(t, CurlyHair(s, c.color, 9, 256).Base)
			n := img.Bounds().Dx()
			luma := make([]float64, n*n)
			var sorted []float64
			for y := range n {
				for x := range n {
					p := img.NRGBAAt(x, y)
					luma[y*n+x] = -1 // clear: off the hair
					if p.A < 128 {
						continue
					}
					l := 0.2126*float64(p.R) + 0.7152*float64(p.G) + 0.0722*float64(p.B)
					luma[y*n+x] = l
					sorted = append(sorted, l)
				}
			}
			slices.Sort(sorted)
			cut := sorted[len(sorted)*15/100]
			dark, edge := 0, 0
			for y := 1; y < n-1; y++ {
				for x := 1; x < n-1; x++ {
					if l := luma[y*n+x]; l < 0 || l > cut {
						continue
					}
					dark++
					lit := 0
					for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
						if luma[(y+d[1])*n+x+d[0]] > cut {
							lit++
						}
					}
					if lit >= 2 {
						edge++
					}
				}
			}
			share := float64(edge) / float64(dark)
			t.Logf("%s curls: %.2f of the dark texels are a groove's edge", c.name, share)
			if share < 0.5 {
				t.Errorf("%s curls: only %.2f of the dark texels are a groove's edge, want 0.5 or more: round pits (a sponge), not grooves between curls", c.name, share)
			}
		})
	}
}
