package avatar

import "math"

// The beard and the lips. A beard grows up to the lips' edge and never
// on them: the red of the lips is bare in every style.
//
// The lips were first found by lipMask, the lip volume dials' move,
// which is under 0.75 on the lips' inner rim and on the upper lip's
// underside where it meets the lower one (0.6 in the middle): the beard
// kept half its weight there, and the shell over the region's
// triangles, which reached onto the lips with weight-0 corners, drew a
// dark tuft through the middle of the lower lip (issue 22's panel,
// random-06). lipColour, what the skin painter colours red, is 0.9 and
// more on all of it.

// beardLipSoft is the lip colour (lipColour) at which the beard starts
// thinning toward the lips, and beardLipBare the colour from which a
// vertex is bare lip: in the middle of the mouth (the first of each
// pair), where the moustache meets the upper lip's top, and toward the
// corners (the second), where the smile, stretch and funnel shapes pull
// the lips out under the cheek's hair. With the middle's values at the
// corners, hair there lay up to 3.2 mm in front of the lips under
// mouthLeft; with the corners' in the middle, the moustache was gone
// (the skin under the nose is a third lip colour).
var (
	beardLipSoft = [2]float64{0.3, 0.15}
	beardLipBare = [2]float64{0.6, 0.45}
)

// beardLipGap is the distance from the bare lips, metres, over which
// the beard's weight rises from nothing (middle, corners as
// beardLipSoft): hair at the mouth's corners, on skin that mouthFunnel
// and mouthPucker pull forward beside the lips, lay 2.8 mm in front of
// the lips' corners.
var beardLipGap = [2]float64{0.002, 0.004}

// beardCornerGap is how much wider the gap is over the mouth's corners
// (cornerGap): since the corners sit back in the cheeks (wrapMouth),
// mouthSmile draws them up and back past the hair beside and over them
// (a full beard's 6.7 mm in front of them, 11 mm over the lips' middle,
// at the 4 mm gap). A gap that also reached under the parting (or a
// wider gap all along the lips' sides) thinned the beard under the
// lower lip (TestBeardMeetsLowerLip's goatee 0.44 -> 0.40, the
// bound).
const beardCornerGap = 0.006

// cornerGap is 1 toward the mouth's corners (lipSide) from 0.05 to 0.1
// face units (4-7 mm) over the lips' middle, where mouthSmile draws the
// corners, fading to 0 at the parting and at 0.25 units over it.
func cornerGap(p [3]float32, f faceFrame) float64 {
	y := (float64(p[1]) - f.lip[1]) / f.unit
	return lipSide(p, f) * (1 - smoothstep(0.1, 0.25, y)) * smoothstep(0, 0.05, y)
}

// lipSide is 0 in the middle of the mouth (within 1.1 cm of the face's
// midline, 0.15 face units) and 1 toward its corners (from 0.3 units).
func lipSide(p [3]float32, f faceFrame) float64 {
	return smoothstep(0.15, 0.3, math.Abs(float64(p[0]))/f.unit)
}

// mix is the pair's first value at s = 0, its second at 1.
func mix(pair [2]float64, s float64) float64 { return pair[0] + s*(pair[1]-pair[0]) }

// onLips is, per head vertex, whether it is bare lip (lipColour at or
// over beardLipBare). The beard's region leaves out every triangle with
// such a corner, so no shell lies over the lips.
func onLips(head *part, f faceFrame) []bool {
	lc := lipColour()
	out := make([]bool, len(head.pos))
	for i, v := range head.base {
		out[i] = float64(lc[v]) >= mix(beardLipBare, lipSide(head.pos[i], f))
	}
	return out
}

// underLip is, per head vertex, whether it is bare lip (bare) below the
// lips' middle: the lower lip. A beard's shell may have a corner there
// (beardPart), so it meets the lower lip's edge. Left out with every
// triangle that touched the lips, the shells stopped short of the lower
// lip on the head's 5-8 mm quads: rectangles of the darker roots showed
// beside a tongue of hair under the lip (issue 22's panel at p16,
// "blocky, patchy goatee", "jagged, blocky edges around the mouth").
// The upper lip keeps the old rule: the moustache's edge there is
// clean, and corners on it left specks of hair along its border.
func underLip(head *part, f faceFrame, bare []bool) []bool {
	out := make([]bool, len(head.pos))
	for i, b := range bare {
		out[i] = b && float64(head.pos[i][1]) < f.lip[1]
	}
	return out
}

// lipCornerMask is the region weight a beard shell's corner on the lower
// lip (underLip) takes instead of its own 0: paint.Beard draws the
// beard's edge where the weight, interpolated across a triangle, is
// 0.3, so with 0 at the lip corner the hair reached half-way to the
// lip across the triangle, over the lip under mouthLowerDownLeft
// (TestBeardClearOfLips); with -1 the edge lies two thirds of the way
// out to the skin corners, clear of the lip as on whole triangles.
const lipCornerMask = -1

// lipThinning is the share of the beard's weight a vertex of lip colour
// lc, at distance d from the bare lips, side lipSide and corner
// cornerGap, keeps: 1 on
// the skin, 0 on the lips and at their edge.
func lipThinning(lc float32, d, side, corner float64) float64 {
	return (1 - smoothstep(mix(beardLipSoft, side), mix(beardLipBare, side), float64(lc))) * smoothstep(0, mix(beardLipGap, side)+beardCornerGap*corner, d)
}

// beardLipTrim is how far from the lips, metres, the beard grows to its
// full length; nearer, its hair is shorter, down to the first shell's
// height at the lips' edge. Hair standing its full length there (up to
// 9.5 mm out along the skin's normal, and drooping) hung over the lips:
// the shells at the upper lip's border lay 11 mm in front of it, and at
// the mouth's corners 6 mm in front of the lower lip under viseme_aa.
// A trimmed lip line is also how a groomed beard meets the mouth, as
// the leader's does.
const beardLipTrim = 0.01

// lipTrims is, per vertex of the beard's region, the share of its hair
// length it keeps for its distance to the bare lips (0 at the lips, 1
// from beardLipTrim on).
func lipTrims(region, head *part, bare []bool) []float64 {
	out := lipDistances(region.pos, head, bare)
	for i, d := range out {
		out[i] = smoothstep(0, beardLipTrim, d)
	}
	return out
}

// lipDistances is, per point, its distance to the nearest bare-lip
// vertex of the head, up to beardLipTrim.
func lipDistances(pts [][3]float32, head *part, bare []bool) []float64 {
	var lips [][3]float32
	for i, b := range bare {
		if b {
			lips = append(lips, head.pos[i])
		}
	}
	out := make([]float64, len(pts))
	for i, p := range pts {
		d := beardLipTrim
		for _, q := range lips {
			dx, dy, dz := float64(p[0]-q[0]), float64(p[1]-q[1]), float64(p[2]-q[2])
			d = math.Min(d, math.Sqrt(dx*dx+dy*dy+dz*dz))
		}
		out[i] = d
	}
	return out
}
