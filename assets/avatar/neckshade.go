package avatar

import (
	"math"

	"github.com/kilnhq/kiln/assets/avatar/paint"
)

// neckShadeDepth is how much of the jaw's full shade (Surface.Shade 1,
// jawShadeDepth) a light skin's neck takes all along, from under the
// chin down to its base: the leader's neck is baked a step darker than
// its face down to the collar. Ours had its shade only in the head's
// part (the jaw's, faded out over the part's last 2 cm) and the body's
// neck below was as light as the cheeks: a shaded top of the neck over a
// pale band at the neckline (random-16's V, default-female's open
// collar; TestNeckShaded).
const neckShadeDepth = 0.6

// neckToneShare is how much of neckShadeDepth a skin of this tone takes
// (0..1), from its linear luminance: all for medium tones and lighter
// (0.3 and up), none from brown down (0.1). In a room portrait the
// darker tones' necks already read darker than their cheeks (0.50 to
// 0.64 of the cheeks' luma at random-04, -05, -17, whose cheeks' sheen
// is a larger share of what is seen) than the leader's (0.73, 0.84) and
// our light tones' (0.82 to 0.86): shading them more read muddy.
func neckToneShare(tone paint.RGB) float64 {
	return smoothstep(0.1, 0.3, paint.Luma(tone))
}

// Where the neck's shade lies, metres: it fades in from neckBaseLow to
// neckBaseHigh under the neck joint (the neck's base, where the
// collarbones and the trapezius begin), within neckRadius of the neck's
// axis and fading out to neckRadiusOut (the shoulders stay unshaded), and
// up to the chin (fading out over chinFade above its lowest point).
const (
	neckBaseLow   = 0.11
	neckBaseHigh  = 0.02
	neckRadius    = 0.07
	neckRadiusOut = 0.12
	chinFade      = 0.01
)

// neckShade is, per vertex of p, how much of the neck's shade it takes
// (0..depth): the neck under the chin, in the shade of the head over
// it. It is a function of where a vertex is alone (the neck joint and
// the chin's lowest point), so the head's part and the body's, which
// meet on a ring round the neck, take the same shade either side of the
// ring, and its fades are wide (9 cm down the neck's base, 5 cm round
// its sides): the body's triangles are 2-4 cm across, and over a
// narrower fade their straight edges showed in the shade.
func neckShade(p *part, neck [3]float32, chin, depth float64) []float32 {
	out := make([]float32, len(p.pos))
	for v, q := range p.pos {
		y := float64(q[1])
		r := math.Hypot(float64(q[0]-neck[0]), float64(q[2]-neck[2]))
		w := smoothstep(float64(neck[1])-neckBaseLow, float64(neck[1])-neckBaseHigh, y) *
			smoothstep(neckRadiusOut, neckRadius, r) *
			smoothstep(chin+chinFade, chin, y)
		out[v] = float32(depth * w)
	}
	return out
}

// chinBottom is the lowest point of the chin: the lowest vertex of the
// head part within 2 cm of the middle and within 2.5 cm behind the lips'
// front (mo, the mouth's frame).
func chinBottom(p *part, mo [2]float64, front float64) float64 {
	low := mo[1]
	for _, q := range p.pos {
		if math.Abs(float64(q[0])-mo[0]) < 0.02 && float64(q[2]) > front-0.025 {
			low = math.Min(low, float64(q[1]))
		}
	}
	return low
}

// addShade is a and b together, as two shades over one another: each
// lets through what the other leaves.
func addShade(a, b []float32) []float32 {
	out := make([]float32, len(a))
	for i := range a {
		out[i] = 1 - (1-a[i])*(1-b[i])
	}
	return out
}
