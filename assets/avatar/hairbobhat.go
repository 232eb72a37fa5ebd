package avatar

import "math"

// The bob under a hat. pressHair draws the hair a hat covers inside it
// and tucks the hair just under the rim in, but the bob's shell stands
// 2-3 cm off the head all the way down, so under a beanie its sides
// below the cuff stood out wider than the cuff: issue 22's panel (p16)
// saw random-16's grey bob "bulging out under" its beanie. Hair under a
// hat lies flat against the head and falls from under the rim.
// hairUnderHat fits a style's hair under the hat hatPart, seen from the
// head's centre c: a bob is first drawn in below the rim (bobUnderHat),
// then every style is pressed inside the hat (pressHair). The whole
// avatar (assemble) and a part built alone (BuildPartContext) both fit
// their hair here, so the two agree (TestBuildPartMatchesGenerate).
func hairUnderHat(hair, hatPart, head *part, c vec3, style string) {
	if bobbed(style) {
		bobUnderHat(hair, hatPart, c)
	}
	pressHair(hair, hatPart, head, c)
}

// bobUnderHat draws the bob's hair below the hat in toward the head's
// axis, before pressHair, so that no hair stands wider than the hat's
// own side just above it, flaring out a little as it falls.

const (
	// bobHatTuck is how far inside the hat's outside (metres) the hair
	// under its rim lies.
	bobHatTuck = 0.004
	// bobHatFlare is how much wider (metres per metre of fall) the hair
	// may stand the farther below the rim it hangs.
	bobHatFlare = 0.05
	// bobHatSkinGive is how much of the shell's clearance over the
	// skin (bobSkinGap, over the skin's highest in the bins around) a
	// hat may take from the bob: 2 mm, as the hat holds it to the head;
	// the whole 6 mm stood the bob over a masculine ear wider than the
	// cap's visor (TestBobUnderHat).
	bobHatSkinGive = 0.002
	// bobHatBins is the azimuth bins the hat's width and rim are read
	// in: 10° each, wider than the 64 segments hats are drawn in.
	bobHatBins = 36
)

// bobUnderHat draws the bob's shell (bobHair's grid, whole) below the
// hat hatPart, fitted from c, in toward the vertical axis through c: at
// azimuth a and height y no farther out than the farthest point of the
// hat's shell (hatShell: not its visor or brim) at that azimuth, less
// bobHatTuck, plus bobHatFlare times how far below the shell's lowest
// point there y lies, but never in past the skin's clearance under it
// (hair.floor: pressed past it, the tops of the ears stood out through
// the bob under the cap's sides). Below the rim no row is drawn in past
// the limit of a row above it, so the hair falls from under the rim as
// wide as it is over the ears: the skin's clearance rises over the ears
// and the jaw and dips between them, and the rows drawn in to it ran in
// and out by 4-5 mm under the cap, lumps the panel saw as random-16's
// "clumpy grey hair under the cap" (p26). Each column of the grid moves as its
// outside does, so the inside and the tuck keep their thickness. A part
// that is not the whole shell is left as it is.
func bobUnderHat(hair, hatPart *part, c vec3) {
	rows := bobRows + 2 + bobInner
	if len(hair.pos) != (bobCols+1)*(rows+1) {
		return
	}
	wide, rim := make([]float64, bobHatBins), make([]float64, bobHatBins)
	for b := range rim {
		rim[b] = math.Inf(1)
	}
	bin := func(x, z float64) int {
		return min(bobHatBins-1, int((math.Atan2(x, z)+math.Pi)/(2*math.Pi)*bobHatBins))
	}
	for _, q := range hatShell(hatPart) {
		x, z := float64(q[0])-c[0], float64(q[2])-c[2]
		b := bin(x, z)
		wide[b] = math.Max(wide[b], math.Hypot(x, z))
		rim[b] = math.Min(rim[b], float64(q[1]))
	}
	moved := false
	for k := 0; k <= bobCols; k++ {
		scale := make([]float64, rows+1)
		// fall is the widest limit of the rows above it below the rim.
		fall := 0.0
		for i := 0; i <= bobRows; i++ {
			q := hair.pos[k*(rows+1)+i]
			x, z := float64(q[0])-c[0], float64(q[2])-c[2]
			b := bin(x, z)
			if math.IsInf(rim[b], 1) {
				scale[i] = 1
				continue
			}
			limit := wide[b] - bobHatTuck + bobHatFlare*math.Max(0, rim[b]-float64(q[1]))
			if len(hair.floor) == len(hair.pos) {
				// Not in past the skin's clearance: over the ears.
				fl := hair.floor[k*(rows+1)+i]
				limit = math.Max(limit, math.Hypot(float64(fl[0])-c[0], float64(fl[2])-c[2])-bobHatSkinGive)
			}
			if float64(q[1]) < rim[b] {
				limit = math.Max(limit, fall)
				fall = limit
			}
			scale[i] = math.Min(1, limit/math.Max(math.Hypot(x, z), 1e-9))
		}
		// The tuck and the inside were made from the outside's rows
		// (bobHair): the edge's for the tuck, then upward.
		for i := bobRows + 1; i <= rows; i++ {
			scale[i] = scale[bobRows-max(0, i-bobRows-2)]
		}
		for i, s := range scale {
			if s >= 1 {
				continue
			}
			j := k*(rows+1) + i
			q := hair.pos[j]
			hair.pos[j] = [3]float32{float32(c[0] + s*(float64(q[0])-c[0])), q[1], float32(c[2] + s*(float64(q[2])-c[2]))}
			moved = true
		}
	}
	if moved {
		shellNormals(hair)
	}
}

// hatShell is the vertices of the hat's shell (hatPart.shell triangles;
// all when it has no brim or visor): what sits on the head. The cap's
// visor and the fedora's brim stand far out from it, its visor's sides
// curving down to the ears: read as the hat's width and rim, they let
// the bob stand out under the visor's sides as wide as the visor, over
// a rim as low as the visor's tips (p25: random-16's grey hair
// "bunching under the cap", wads wider than the crown above them).
func hatShell(hatPart *part) [][3]float32 {
	if hatPart.shell <= 0 || hatPart.shell >= len(hatPart.tris) {
		return hatPart.pos
	}
	used := make([]bool, len(hatPart.pos))
	var out [][3]float32
	for _, t := range hatPart.tris[:hatPart.shell] {
		for _, v := range t {
			if !used[v] {
				used[v] = true
				out = append(out, hatPart.pos[v])
			}
		}
	}
	return out
}
