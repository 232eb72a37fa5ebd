package avatar

import "math"

// The bob's ends as locks. Drawn as one shell (bobHair) the bob ended
// in one even curve round the head and a straight fringe: issue 22's
// panel (p16) called it a "helmet bob", "hard-edged", a "bowl cut". The
// leader's hair ends in clumps of different lengths with dark gaps
// between them. bobLock shapes the shell into locks: each lock's end
// tapers to a rounded tip, the gap between two locks ends higher, is
// sunk into the hair and lies in shade from the crown down, the locks
// are not all one length (a layered cut) and the shorter ones lie over
// the longer. The locks are whole multiples of the shell's columns
// (bobCols), so every lock has a tip column, shoulder columns and a gap
// column: the tips stay round, not the saw-tooth curl15's notched ends
// drew (TestBobIsClean).

const (
	// bobLocks is how many locks go round the head: 30° each, six of
	// the shell's columns, about 5 cm at the ends, as big and readable
	// as the leader's locks. At 18 (20°, four columns) a groove deep
	// enough to see turned the faces beside it past TestBobIsClean's
	// facets (4.5 mm: 21° at the 90th percentile), and the ends read
	// as one rim (p21's "helmet").
	bobLocks = 12
	// bobLockTaper is how much higher the gap between two locks ends
	// than their tips (metres); 8 mm read as a ripple in one rim.
	bobLockTaper = 0.018
	// bobLockLayer is how much the locks' lengths differ (metres): the
	// ends of a layered cut, not a line.
	bobLockLayer = 0.009
	// bobLockGroove is how far the gap between two locks is sunk into
	// the hair at the ends (metres), less toward the crown
	// (bobLockSink): enough for the light to part the locks, little
	// enough that no two faces turn sharply (TestBobIsClean's facets,
	// 16-17° at the 90th percentile of 20; 4.5 mm made them 18-19° and
	// TestHairShadesSmooth's bun 15.0° of 15).
	bobLockGroove = 0.0035
	// bobLockShade is how much of the hair's light the gap keeps at the
	// ends (COLOR_0), the shade between two locks.
	bobLockShade = 0.45
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
	return (bobLockTaper*(1-shape) + bobLockLayer*layer) * smooth(bobLockFront, bobLockFront+math.Pi/9, math.Abs(a))
}

// bobLockFront is the azimuth (radians from the front) within which the
// lower edge has no lock tips: the fringe, to past the brows' ends.
const bobLockFront = 50 * math.Pi / 180

// bobLockSink is how far (metres) the shell is sunk at azimuth a and
// row fraction t (0 at the crown, 1 at the lower edge; less than 0
// where a lock's end stands out), and how much of
// its light it keeps there: the gap between two locks, from the crown
// to the ends. Sunk from about the ears down only, the grooves left the
// top half one smooth dome (p21's "stiff solid shell", "helmet"); the
// leader's locks are parted by shadow from the crown down. Near the
// crown, where the columns meet, the groove fades out
// (bobLockCrown), and it deepens toward the ends (bobLockTop of its
// depth at the top), as locks part more the farther they fall.
func bobLockSink(a, t float64) (sink, light float64) {
	shape, layer := bobLock(a)
	w := (1 - shape) * smooth(0, bobLockCrown, t) * (bobLockTop + (1-bobLockTop)*smooth(bobLockCrown, 1, t))
	// A shorter lock lies over its longer neighbours: its end stands
	// out of the cut's line (bobLockFlare), so the ends read as pieces
	// laid over one another, not one rim.
	out := bobLockFlare * shape * layer * smooth(bobLockFlareFrom, 1, t) * smooth(bobLockFront, bobLockFront+math.Pi/9, math.Abs(a))
	return bobLockGroove*w - out, 1 - (1-bobLockShade)*w
}

const (
	// bobLockCrown is the row fraction (from the crown) by which the
	// grooves have come in: about 33° of elevation below the crown,
	// where the locks' gaps are some 3 cm apart.
	bobLockCrown = 0.25
	// bobLockTop is how much of its depth and shade a groove has where
	// it comes in below the crown.
	bobLockTop = 0.45
	// bobLockFlare is how far (metres) the shortest lock's end stands
	// out of the cut's line, from the row fraction bobLockFlareFrom
	// down.
	bobLockFlare     = 0.004
	bobLockFlareFrom = 0.6
)
