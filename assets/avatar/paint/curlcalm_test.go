package paint

import (
	"image"
	"math"
	"testing"
)

// mottle is how blotchy the opaque texels of img are at the scale of a
// few texels: the RMS of each texel's neighbourhood mean (3×3) less the
// mean of the wider neighbourhood round it (11×11), over the mean luma,
// texels whose whole wider neighbourhood is opaque and marked in keep
// (nil for all). grain (each texel against its 5×5 mean) is the speckle
// finer than this.
func mottle(img *image.NRGBA, keep []bool) float64 {
	n := img.Bounds().Dx()
	l := make([]float64, n*n)
	on := make([]bool, n*n)
	for y := range n {
		for x := range n {
			p := img.NRGBAAt(x, y)
			on[y*n+x] = p.A >= 128 && (keep == nil || keep[y*n+x])
			l[y*n+x] = 0.2126*srgbToLinear(p.R) + 0.7152*srgbToLinear(p.G) + 0.0722*srgbToLinear(p.B)
		}
	}
	mean := func(x, y, r int) (float64, bool) {
		s := 0.0
		for dy := -r; dy <= r; dy++ {
			for dx := -r; dx <= r; dx++ {
				j := (y+dy)*n + x + dx
				if !on[j] {
					return 0, false
				}
				s += l[j]
			}
		}
		return s / float64((2*r+1)*(2*r+1)), true
	}
	var ss, sum float64
	k := 0
	for y := 5; y < n-5; y++ {
		for x := 5; x < n-5; x++ {
			wide, ok := mean(x, y, 5)
			if !ok {
				continue
			}
			near, _ := mean(x, y, 1)
			ss += (near - wide) * (near - wide)
			sum += l[y*n+x]
			k++
		}
	}
	if k == 0 {
		return 0
	}
	return math.Sqrt(ss/float64(k)) / (sum / float64(k))
}

// TestCurlyHairCalm paints curly hair over a head-sized sphere and
// measures its mottle within the curls (over their tops, where CurlAt's
// Middle is 0.25 or more), the blotches the paint makes on its own: issue
// 22's panel (p13) read blonde and brown curls as a lumpy "sponge"
// (random-03, -08, -09, -14), the paint's own curls and clumps
// blotching each of the shell's curls, where the leader's hair is big
// clean clumps with smooth shading. Before (curls 110 per metre, 0.4
// deep, clumps 90 per metre, over the whole sphere): blonde 0.047,
// brown 0.050; then 0.018, 0.035; within the curls painted from the
// shell's own (CurlAt), with one soft highlight a curl, 0.006, 0.009
// (brown 0.056 with the sheen's streaks); with each curl shaded as a
// dome (curlShade, its light falling toward its crease, which this
// counts), 0.013, 0.018. The creases between the curls are dark on
// purpose (TestCurlsNoDarkNet) and left out.
//
// p35's judges then saw those calm curls as "lumpy clay", smooth lumps
// with no hair in them, and the curls now hold ringlets 1.2 cm across,
// dark between them and drawn as coiling strands (RingletAt,
// ringletHairs): structure at this measure's own scale, on purpose,
// 0.079 and 0.085 (0.015 and 0.020 before; the ringlets' creases
// cannot be left out as the curls' are: no 11-texel neighbourhood lies
// wholly inside a ringlet's top). The bound is 0.11: the noise blotches of p13's "sponge" on top
// of the ringlets still fail it. Whether the ringlets read as a sponge
// again is the blind A/B's to say (session curls).
func TestCurlyHairCalm(t *testing.T) {
	s := sphere([3]float32{0, 1.6, 0}, 0.1, 96)
	const n = 256
	m := surfaceMap(s, n, nil)
	defer release(m)
	c := curlCentreOf(s)
	keep := make([]bool, n*n)
	for i, tx := range m {
		keep[i] = tx.ok && CurlAt(tx.pos, c).Middle >= 0.25
	}
	for _, c := range []struct {
		name  string
		color RGB
		max   float64
	}{
		{"blonde", RGB{0.423, 0.266, 0.112}, 0.11},
		{"brown", RGB{0.111, 0.045, 0.017}, 0.11},
	} {
		t.Run(c.name, func(t *testing.T) {
			img := decode(t, CurlyHair(s, c.color, 9, n).Base)
			m := mottle(img, keep)
			t.Logf("%s: mottle within the curls %.3f", c.name, m)
			if m > c.max {
				t.Errorf("%s curls: mottle %.3f within them, want at most %.3f", c.name, m, c.max)
			}
		})
	}
}
