package avatar

import "math"

// The beard and the lips. A beard grows up to the lips' edge and never
// on them: the red of the lips is bare in every style but where a
// moustache hangs over the upper lip's top.
//
// The lips were first found by lipMask, the lip volume dials' move,
// which is under 0.75 on the lips' inner rim and on the upper lip's
// underside where it meets the lower one (0.6 in the middle): the beard
// kept half its weight there, and the shell over the region's
// triangles, which reached onto the lips with weight-0 corners, drew a
// dark tuft through the middle of the lower lip (issue 22's panel,
// random-06). lipColour, what the skin painter colours red, is 0.9 and
// more on all of it.

// beardLipBare is the lip colour (lipColour) from which a vertex is
// bare lip, and beardLipSoft where the beard starts thinning toward it.
const (
	beardLipSoft = 0.15
	beardLipBare = 0.45
)

// onLips is, per head vertex, whether it is bare lip (lipColour at or
// over beardLipBare). The beard's region leaves out every triangle with
// such a corner, so no shell lies over the lips.
func onLips(head *part) []bool {
	lc := lipColour()
	out := make([]bool, len(head.pos))
	for i, v := range head.base {
		out[i] = float64(lc[v]) >= beardLipBare
	}
	return out
}

// beardLipGap is the distance from the lips, metres, over which the
// beard's weight rises from nothing: the hair at the mouth's corners,
// on skin that mouthFunnel and mouthPucker pull forward beside the
// lips, lay over the lips' corners (2.8 mm in front of them).
const beardLipGap = 0.004

// lipThinning is the share of the beard's weight a vertex of lip colour
// lc at distance d from the bare lips keeps: 1 on the skin, 0 on the
// lips and at their edge.
func lipThinning(lc float32, d float64) float64 {
	return (1 - smooth(beardLipSoft, beardLipBare, float64(lc))) * smooth(0, beardLipGap, d)
}

// beardLipTrim is how far from the lips, metres, the beard grows to its
// full length; nearer, its hair is shorter, down to the first shell's
// height on the lips' edge. Hair standing its full length there (up to
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
		out[i] = smooth(0, beardLipTrim, d)
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
