package paint

import (
	"image"
	"math"
	"testing"
)

// grain is the high-frequency luma variation of the opaque texels of
// img: the RMS of each texel's linear luma less the mean of its 5×5
// neighbourhood (only texels whose whole neighbourhood is opaque), over
// the mean luma. Speckle ("salt and pepper", the panel's "grainy" white
// curls) is this; locks and curls a few texels across are mostly not.
func grain(img *image.NRGBA) float64 {
	n := img.Bounds().Dx()
	l := make([]float64, n*n)
	on := make([]bool, n*n)
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			p := img.NRGBAAt(x, y)
			on[y*n+x] = p.A >= 128
			l[y*n+x] = 0.2126*srgbToLinear(p.R) + 0.7152*srgbToLinear(p.G) + 0.0722*srgbToLinear(p.B)
		}
	}
	var ss, sum float64
	k := 0
	for y := 2; y < n-2; y++ {
	texel:
		for x := 2; x < n-2; x++ {
			m := 0.0
			for dy := -2; dy <= 2; dy++ {
				for dx := -2; dx <= 2; dx++ {
					j := (y+dy)*n + x + dx
					if !on[j] {
						continue texel
					}
					m += l[j]
				}
			}
			m /= 25
			d := l[y*n+x] - m
			ss += d * d
			sum += l[y*n+x]
			k++
		}
	}
	if k == 0 {
		return 0
	}
	return math.Sqrt(ss/float64(k)) / (sum / float64(k))
}

// TestLightHairGrain paints curly and scalp hair in white, grey and dark
// brown on a head-sized sphere and measures its grain: light hair read
// as grainy "cotton wool" and salt-and-pepper (issue 22's panel) where
// dark specks a texel or two wide broke up its light top. Light hair
// must be no grainier than dark hair; its value changes are in curls and
// locks, which this measure leaves out.
func TestLightHairGrain(t *testing.T) {
	s := sphere([3]float32{0, 1.6, 0}, 0.1, 24)
	colours := []struct {
		name  string
		color RGB
	}{
		{"white", RGB{0.807, 0.791, 0.753}},
		{"grey", RGB{0.262, 0.254, 0.238}},
		{"dark-brown", RGB{0.06, 0.035, 0.02}},
	}
	for _, p := range []struct {
		name  string
		paint func(Surface, RGB, uint64, int) Maps
		bound float64
	}{
		{"curly", CurlyHair, 0.12},
		{"scalp", ScalpHair, 0.12},
	} {
		g := map[string]float64{}
		for _, c := range colours {
			g[c.name] = grain(decode(t, p.paint(s, c.color, 9, 256).Base))
		}
		t.Logf("%s: grain white %.3f, grey %.3f, dark-brown %.3f", p.name, g["white"], g["grey"], g["dark-brown"])
		for _, c := range []string{"white", "grey"} {
			if g[c] > p.bound {
				t.Errorf("%s %s: grain %.3f, want under %.3f", p.name, c, g[c], p.bound)
			}
		}
	}
}
