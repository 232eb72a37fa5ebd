package paint

import (
	"math"
	"testing"
)

// curlySphere is a head-sized sphere raised in curls as the avatar's
// sculpted curly cut is (hairshell.go: CurlAt's curls round the
// sphere's centre, each a dome 1 - (1 - Middle)² up to 1 cm high, as
// curlDome), with vertices about 6 mm apart like that shell's.
func curlySphere() Surface {
	s := sphere([3]float32{0, 1.6, 0}, 0.1, 96)
	c := curlCentreOf(s)
	for i, p := range s.Pos {
		q := [3]float64{float64(p[0]), float64(p[1]), float64(p[2])}
		cu := CurlAt(q, c)
		h := 0.01 * (1 - (1-cu.Middle)*(1-cu.Middle))
		s.Pos[i] = [3]float32{float32(q[0] + h*cu.Dir[0]), float32(q[1] + h*cu.Dir[1]), float32(q[2] + h*cu.Dir[2])}
	}
	return s
}

// TestCurlyHairFollowsItsCurls paints curly hair (CurlyHair) over
// curlySphere and asks whether its light and dark follow the curls the
// shell is raised in: the correlation, over the texels, between a
// texel's luma and how high its curl raises it. Issue 22's panel (p12)
// called curly hair grainy and lumpy (random-08, -09, -14): its paint
// was a network of grooves a few millimetres across, finer than the
// 1.2 cm curls of the shell and blind to them, so at 512 px it read as
// grain over lumps. Before: 0.09 (blonde), 0.07 (dark brown); the
// painted shade must now follow the curls (0.3 or more), the hollows
// between them darker.
func TestCurlyHairFollowsItsCurls(t *testing.T) {
	s := curlySphere()
	for _, c := range []struct {
		name  string
		color RGB
	}{
		{"blonde", RGB{0.584, 0.356, 0.102}},
		{"white", RGB{0.807, 0.791, 0.753}},
		{"dark-brown", RGB{0.06, 0.035, 0.02}},
	} {
		t.Run(c.name, func(t *testing.T) {
			const n = 256
			img := decode(t, CurlyHair(s, c.color, 9, n).Base)
			m := surfaceMap(s, n, nil)
			defer release(m)
			var sl, sh, sll, shh, slh float64
			k := 0
			for y := range n {
				for x := range n {
					tx := m[y*n+x]
					p := img.NRGBAAt(x, y)
					if !tx.ok || p.A < 128 {
						continue
					}
					d := [3]float64{tx.pos[0], tx.pos[1] - 1.6, tx.pos[2]}
					r := math.Sqrt(d[0]*d[0] + d[1]*d[1] + d[2]*d[2])
					l := 0.2126*srgbToLinear(p.R) + 0.7152*srgbToLinear(p.G) + 0.0722*srgbToLinear(p.B)
					sl, sh, sll, shh, slh = sl+l, sh+r, sll+l*l, shh+r*r, slh+l*r
					k++
				}
			}
			f := float64(k)
			corr := (slh/f - sl/f*sh/f) / math.Sqrt((sll/f-sl/f*sl/f)*(shh/f-sh/f*sh/f))
			t.Logf("%s: luma against the curls' height: correlation %.2f", c.name, corr)
			if corr < 0.3 {
				t.Errorf("%s: the paint's light follows the curls by %.2f, want 0.3 or more (hollows between curls darker)", c.name, corr)
			}
		})
	}
}
