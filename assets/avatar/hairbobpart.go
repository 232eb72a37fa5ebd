package avatar

import "math"

// The bob's side parting. Drawn from the crown as one even dome, its
// strands all running straight down from the top of the head, the bob
// read in issue 22's panel (p18) as a "bowl-cut shell", "helmet-like",
// "bowl hair" on all five bun avatars. The leader's hair has a clear
// parting and direction: strands sweep from the parting outward and
// down. Each step below is a function of the azimuth a round the head
// (0 in front, +π/2 on the avatar's left, the parting's side) and the
// row fraction t (0 at the crown, 1 at the lower edge):
//   - bobSweep turns the strands: over the front and top they run from
//     the parting's side diagonally across the head and down the
//     forehead, as a swept fringe does, instead of from the crown's
//     point straight down;
//   - bobPartRise lifts the fringe on the parting's side, so its edge
//     slopes away from the parting more steeply than braid01's cut;
//   - bobParting shades a line from the crown toward the front on the
//     parting's side, where the hair falls away from it. Sunk 3 mm into
//     the shell as well, its narrow groove turned the shading sharply
//     (TestHairShadesSmooth's bun: 3.1% of steps at 30° or more).
//
// Drawing the ends in toward the jaw was tried and left off: the tuck
// (bobTuck) already turns them in 15-20 mm from the outline at the ears,
// and pulling the shell further in shortened the bob by 8 mm.

const (
	// bobSweepMax is how far round the head (radians) the strands at
	// the crown lie from where they end at the lower edge, over the
	// front: about 30°, so the fringe's strands cross the forehead at
	// a slant a portrait reads as swept, not as a whorl.
	bobSweepMax = 30 * math.Pi / 180
	// bobPartRiseMax is how much higher (metres) the fringe ends on the
	// parting's side than on the other, over about 10 cm of forehead.
	bobPartRiseMax = 0.016
	// bobPartAz is the parting's azimuth (radians, toward the avatar's
	// left), bobPartWidth its half width round the head and
	// bobPartShade how much light it keeps (COLOR_0), over the rows
	// from the crown to bobPartEnd.
	bobPartAz    = 22 * math.Pi / 180
	bobPartWidth = 6 * math.Pi / 180
	bobPartShade = 0.6
	bobPartEnd   = 0.55
)

// bobSweep is how far round the head (radians) a strand that ends at
// azimuth a lies at row fraction t: most over the front (where the
// fringe shows it), none behind, falling linearly from the crown to the
// edge so the strand's slant is even down its length.
func bobSweep(a, t float64) float64 {
	front := (1 + math.Cos(a)) / 2
	return bobSweepMax * front * (1 - t)
}

// bobPartRise is how much higher (metres) the fringe ends at azimuth a:
// nothing on the far side of the face, bobPartRiseMax past the parting,
// and nothing beside the face (past bobLockFront): raised there, the
// side's ends stood out beyond a hat's rim (TestBobUnderHat).
func bobPartRise(a float64) float64 {
	return bobPartRiseMax * smooth(-0.6, 0.6, math.Sin(a)) * smooth(bobLockFront, bobLockFront-math.Pi/12, math.Abs(a))
}

// bobParting is how much light the shell keeps at azimuth a and row
// fraction t: less along the parting.
func bobParting(a, t float64) float64 {
	d := math.Abs(math.Remainder(a-bobPartAz, 2*math.Pi)) / bobPartWidth
	w := math.Max(0, 1-d*d) * smooth(0.02, 0.12, t) * smooth(bobPartEnd, bobPartEnd-0.15, t)
	return 1 - (1-bobPartShade)*w
}
