package avatar

import (
	"math"
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
)

// chinSeamStep is how far either side of the chin's middle chinSeam
// reads the normal, metres: one and two steps out, past the mesh's
// middle column of vertices (its neighbours stand 3 mm out) and within
// the chin's front.
const chinSeamStep = 0.004

// chinSeam is how far the normal down the chin's middle strays from the
// one a rounded chin would have there, in degrees, as a viewer's shading
// interpolates it: the head drawn from the front (frontNormals), and
// along each row from 2 mm over the chin's lowest point to 0.35
// eye-distances under the mouth's middle (chinPlate's rows), the
// normal's tilt up or down at the middle against the parabola through
// its tilts one and two chinSeamSteps either side, and its turn across
// the middle (over ±1 step) against half its turn over ±2 steps (the
// same turn per millimetre); the mean over the rows of the two
// together. On a rounded chin both are 0; a groove down the middle
// tilts the normal there down (MakeHuman's chin cleft), a ridge turns
// it across the middle all at once (a pointed chin), and in a room
// light either shades as a line down the chin, one side lighter than
// the other (p24's "a seam down the chin").
func chinSeam(t *testing.T, s *scene.Scene) float64 {
	t.Helper()
	head, mouth, chin, ipd := chinFrame(t, s)
	const px = chinLinePixel
	// An odd number of pixels, the middle one centred on x = 0.
	half := 2*chinSeamStep + px/2
	img := frontNormals(head, -half, chin, half+px/4, mouth, px)
	mid := len(img[0]) / 2
	k := int(math.Round(chinSeamStep / px))
	tilt := func(n vec3) float64 { return math.Atan2(n[1], n[2]) }
	turn := func(n vec3) float64 { return math.Atan2(n[0], n[2]) }
	var sum float64
	var rows int
	for j, row := range img {
		if y := chin + (float64(j)+0.5)*px; y < chin+0.002 || y > mouth-0.35*ipd {
			continue
		}
		a, b, c, d, e := row[mid-2*k], row[mid-k], row[mid], row[mid+k], row[mid+2*k]
		// Only on skin facing the viewer.
		if min(a[2], b[2], c[2], d[2], e[2]) < 0.2 {
			continue
		}
		// The parabola through the tilts at ±1 and ±2 steps, at 0.
		near, far := (tilt(b)+tilt(d))/2, (tilt(a)+tilt(e))/2
		dip := tilt(c) - (4*near-far)/3
		kink := (turn(d)-turn(b))/2 - (turn(e)-turn(a))/4
		sum += math.Hypot(dip, kink)
		rows++
	}
	if rows == 0 {
		t.Fatal("no row of the chin faces the viewer")
	}
	return sum / float64(rows) * 180 / math.Pi
}

// chinSeamMax is the most TestChinShading allows of chinSeam: the
// leader's casual face's (0.65 degrees; office 0.45) and half again.
const chinSeamMax = 1.0
