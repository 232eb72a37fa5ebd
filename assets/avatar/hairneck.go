package avatar

import "math"

// Hair beside the neck. MakeHuman's long cut is about ten layered
// sheets. Below the jaw the inner sheets' front ends come forward round
// the neck further than the outer sheet's and hang on to the collar,
// each ending a little apart from the next, so from the front and the
// quarter a tuft of uneven card ends shows at each side of the neck
// (issue 22's panels: long hair "clips jaggedly at the shoulders", "a
// tuft of uneven card ends"). raiseNeckEnds shortens those ends the way
// taperHairEnds shapes the tips: it raises the hair in front of the
// shoulders, most at the bottom and not at all from the jaw up, so the
// sheets' front ends finish at the jaw's side and the hair falls behind
// the neck. Nothing is cut and nothing is turned: folding the inner
// sheets back round the neck crumpled them into faceted pleats, trimming
// them opened gaps to the collar, and smoothing their edges left the
// tuft (sessions 23's tuft23 and shoulder23). The back, where the hair
// covers the shoulders and the cloth, is not moved.

// Neck ends (metres from the Neck joint's height; angles in degrees
// round the head from straight in front): the hair from neckEndsLow to
// neckEndsHigh is raised by up to neckEndsRise at the bottom, less going
// up, none at neckEndsHigh; the hair under neckEndsLow by the whole
// rise. The whole rise in front of neckEndsFront round the head, fading
// out by neckEndsSide, so the hair hanging behind the shoulders stays
// where it is, and the raised ends slope down toward the back instead of
// ending in a level cut (faded from 80 degrees, they left one 6.9 cm
// long under a hat, TestHatHairEnds). The rise is under the stretch's
// height, so the hair keeps its order up and down and no triangle folds
// over.
const (
	neckEndsLow   = -0.01
	neckEndsHigh  = 0.11
	neckEndsRise  = 0.07
	neckEndsFront = 45.0
	neckEndsSide  = 110.0
)

// raiseNeckEnds raises long hair's front ends beside the neck (see
// above). It runs on the hair taperHairEnds has tapered, before
// thickenHair's rims, which follow their edges.
func raiseNeckEnds(hair *part, joints map[string][3]float32, style string) {
	if !tapered(style) || len(hair.tris) == 0 {
		return
	}
	neckY := float64(joints["Neck"][1])
	h := joints["Head"]
	cx, cz := float64(h[0]), float64(h[2])-0.01
	lo, hi := neckY+neckEndsLow, neckY+neckEndsHigh
	front, side := neckEndsFront*math.Pi/180, neckEndsSide*math.Pi/180
	for i, p := range hair.pos {
		y := float64(p[1])
		if y >= hi {
			continue
		}
		dx, dz := float64(p[0])-cx, float64(p[2])-cz
		w := 1 - smoothstep(front, side, math.Atan2(math.Abs(dx), dz))
		if w == 0 {
			continue
		}
		t := math.Max(0, (y-lo)/(hi-lo))
		hair.pos[i][1] = float32(y + w*neckEndsRise*(1-t))
	}
}
