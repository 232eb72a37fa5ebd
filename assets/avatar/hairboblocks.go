package avatar

import "math"

// The bob's ends as locks. Drawn as one shell (bobHair) the bob ended
// in one even curve round the head and a straight fringe: issue 22's
// panel (p16) called it a "helmet bob", "hard-edged", a "bowl cut". The
// leader's hair ends in clumps of different lengths with dark gaps
// between them. bobLock shapes the shell's lowest rows into locks: each
// lock's end tapers to a rounded tip, the gap between two locks ends
// higher, is sunk a little into the hair and lies in shade, and the
// locks are not all one length (a layered cut). The locks are whole
// multiples of the shell's columns (bobCols), so every lock has a tip
// column, two shoulder columns and a gap column: the tips stay round,
// not the saw-tooth curl15's notched ends drew (TestBobIsClean).

const (
	// bobLocks is how many locks go round the head: 20° each, four of
	// the shell's columns, about 3.5 cm at the ends (the leader's clumps
	// are 2-4 cm in a portrait).
	bobLocks = 18
	// bobLockTaper is how much higher the gap between two locks ends
	// than their tips (metres).
	bobLockTaper = 0.008
	// bobLockLayer is how much the locks' lengths differ (metres): the
	// ends of a layered cut, not a line.
	bobLockLayer = 0.004
	// bobLockGroove is how far the gap between two locks is sunk into
	// the hair at the ends (metres), fading out toward the crown: enough
	// for the light to part the locks, little enough that no two faces
	// turn sharply (TestBobIsClean's facets).
	bobLockGroove = 0.002
	// bobLockShade is how much of the hair's light the gap keeps at the
	// ends (COLOR_0), the shade between two locks.
	bobLockShade = 0.62
	// bobFringeFloor is the height over the eyes' centres (metres) the
	// fringe's lock tips end at, clear of the brows' top (2.3 cm over
	// the eyes on the bun avatars; at raiseFringe's 1.6 cm the fringe's
	// sweep covered the brows' outer halves: random-05's "bowl cut
	// covers the eyebrows").
	bobFringeFloor = 0.027
)

// bobLock is the lock at azimuth a round the head (radians, 0 in front):
// shape is 1 at a lock's tip falling to 0 in the gap beside it, and
// layer how much shorter than the longest this lock is (0..1).
func bobLock(a float64) (shape, layer float64) {
	u := (a + math.Pi) / (2 * math.Pi) * bobLocks
	k := math.Floor(u)
	shape = math.Sin(math.Pi * (u - k))
	// The lengths, fixed per lock: a golden-ratio walk spreads them
	// evenly, with no two neighbours alike.
	id := (int(k)%bobLocks + bobLocks) % bobLocks
	layer = math.Mod(float64(id)*0.618034, 1)
	return shape, layer
}

// bobLockRise is how much higher (metres) the lower edge ends at
// azimuth a than the cut's smooth line: the gaps and the shorter locks,
// round the sides and back. Over the face (within bobLockFront of the
// front) the fringe keeps its one sweep: cut into the same tips, its
// gaps read as notches in a diagonal edge (as curl15's did).
func bobLockRise(a float64) float64 {
	shape, layer := bobLock(a)
	return (bobLockTaper*(1-shape) + bobLockLayer*layer) * smoothstep(bobLockFront, bobLockFront+math.Pi/9, math.Abs(a))
}

// bobLockFront is the azimuth (radians from the front) within which the
// lower edge has no lock tips: the fringe, to past the brows' ends.
const bobLockFront = 50 * math.Pi / 180

// bobLockSink is how far (metres) the shell is sunk at azimuth a and
// row fraction t (0 at the crown, 1 at the lower edge), and how much of
// its light it keeps there: the gap between two locks, from the ends
// up to about the ears.
func bobLockSink(a, t float64) (sink, light float64) {
	shape, _ := bobLock(a)
	w := (1 - shape) * smoothstep(0.35, 1, t)
	return bobLockGroove * w, 1 - (1-bobLockShade)*w
}
