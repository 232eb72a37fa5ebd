package paint

import (
	"image"
	"math"
	"testing"
)

// TestIrisSoftWithDarkRing paints the palette's green and blue eyes and
// measures the iris on the texture: its mean saturation (sRGB, (max -
// min) / max) between the pupil and the ring, and the limbal ring's
// light (the iris's outer edge, 0.98 of IrisAngle from the front,
// against its middle, 0.65 of it). Issue 22's panel saw bright green irises with no
// edge: the palette's colours painted as they are measured 0.44 (green)
// and 0.56 (blue) saturation and the ring 0.88 of the middle's light; the leader's irises are
// greyed colours ringed near black.
// eyeRing is the mean sRGB luminance and saturation of an eye texture
// painted on sphere's mesh at angle theta from the eye's front, all
// round but for the catchlights (up-left and down-right).
func eyeRing(img *image.NRGBA, theta float64) (lum, sat float64) {
	n := 0.0
	for phi := 0.0; phi < 2*math.Pi; phi += 0.05 {
		if d := math.Mod(phi+2*math.Pi, math.Pi/2); d < 0.5 || d > math.Pi/2-0.5 {
			continue
		}
		c := at(img, 0.5+theta*math.Cos(phi)/(2*math.Pi), 0.5-theta*math.Sin(phi)/math.Pi)
		r, g, b := float64(c[0]), float64(c[1]), float64(c[2])
		hi, lo := math.Max(r, math.Max(g, b)), math.Min(r, math.Min(g, b))
		lum += 0.2126*r + 0.7152*g + 0.0722*b
		if hi > 0 {
			sat += (hi - lo) / hi
		}
		n++
	}
	return lum / n, sat / n
}

func TestIrisSoftWithDarkRing(t *testing.T) {
	eye := sphere([3]float32{0.03, 1.6, 0.08}, 0.012, 48)
	for _, tc := range []struct {
		name string
		iris RGB // the palette's green #4f7a45 and blue #4a77a8, linear
	}{
		{"green", RGB{0.078, 0.195, 0.060}},
		{"blue", RGB{0.069, 0.184, 0.392}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			img := decode(t, Eye(eye, tc.iris, 1, 256).Base)
			mid, sat := eyeRing(img, 0.65*IrisAngle)
			edge, _ := eyeRing(img, 0.98*IrisAngle)
			t.Logf("%s: saturation %.2f, ring at %.2f of the middle's light", tc.name, sat, edge/mid)
			if sat > 0.42 {
				t.Errorf("iris saturation %.2f, want 0.42 or less (soft, not bright)", sat)
			}
			if sat < 0.2 {
				t.Errorf("iris saturation %.2f, want 0.2 or more (still %s)", sat, tc.name)
			}
			if edge/mid > 0.55 {
				t.Errorf("the limbal ring has %.2f of the iris's light, want 0.55 or less (a dark edge)", edge/mid)
			}
		})
	}
}

// TestScleraShadedToTheCorners paints a brown eye and measures its white
// on the texture (eyeRing's sRGB luminance): next to the iris (0.08 rad
// past IrisAngle, past the limbal ring's fade) against the corners of
// the lids' opening (0.95 rad). The leader's white is near white beside
// the iris and a warm grey in the corners (246 to 163 sRGB across it in
// a room close-up); ours was one even grey (0.71 of full light at both
// here), a flat disc behind the lids: it must be 1.2 times as light next
// to the iris as in the corners, and stay under 0.9 there (not paper
// white, the panel's hard gaze).
func TestScleraShadedToTheCorners(t *testing.T) {
	eye := sphere([3]float32{0.03, 1.6, 0.08}, 0.012, 48)
	img := decode(t, Eye(eye, RGB{0.12, 0.06, 0.03}, 1, 256).Base)
	near, _ := eyeRing(img, IrisAngle+0.08)
	corner, _ := eyeRing(img, 0.95)
	near, corner = near/255, corner/255
	t.Logf("the white: %.2f next to the iris, %.2f in the corners (%.2f times)", near, corner, near/corner)
	if near/corner < 1.2 {
		t.Errorf("the white next to the iris is %.2f times as light as in the corners, want 1.2 or more", near/corner)
	}
	if near > 0.9 {
		t.Errorf("the white next to the iris has %.2f of full light, want at most 0.9 (not paper white)", near)
	}
}

// TestPupilEdgeSoft reads the painted eye (eyeTexel) across the pupil's
// edge (pupilShare of IrisAngle from the front): a step of 0.01 rad
// there (a third of a texel on the 256-texel eye) may cross at most 0.3
// of the way from the pupil's black to the iris just outside it (0.06
// rad further out). Cut hard, it
// crossed all of it in one step, a jagged polygon in close-ups.
func TestPupilEdgeSoft(t *testing.T) {
	ir := muted(rgb{0.12, 0.06, 0.03})
	at := func(theta float64) float64 {
		c, _ := eyeTexel(texel{ok: true, pos: [3]float64{0, math.Sin(theta) * math.Sin(1), math.Cos(theta)}}, [3]float64{}, ir, 1)
		return c.luma()
	}
	edge := pupilShare * IrisAngle
	black, iris := at(edge-0.1), at(edge+0.06)
	most := 0.0
	for th := edge - 0.05; th < edge+0.05; th += 0.01 {
		most = math.Max(most, math.Abs(at(th+0.01)-at(th))/(iris-black))
	}
	t.Logf("pupil %.4f, iris %.4f: a 0.01 rad step crosses %.2f of it at most", black, iris, most)
	if most > 0.3 {
		t.Errorf("a 0.01 rad step at the pupil's edge crosses %.2f of the way from black to the iris, want 0.3 or less", most)
	}
}
