package paint

import "math"

// The short cut's tousle. Swept locks that all fan out from one point
// behind the head read as a combed helmet with even stripes (issue 22's
// panel, default-male); the leader's short hair is a tousle: chunky
// locks lying a little every way, each ending in a tip over the root of
// the next. Tousle is that pattern as a function of the point in 3D, so
// the sculpted cut's geometry (its raised locks) and its painter (the
// locks' light and shade) draw the same locks from the same centre
// (SweepCentre) and agree to the millimetre.

// TousleLock is the lock of a tousle at a point.
type TousleLock struct {
	// Rise is how high the lock stands there, 0..1: 0 in the groove
	// between locks and at a lock's root, where it comes out from
	// under the tip of the lock in front of it.
	Rise float64
	// Shade is how much light the lock takes there, 0.3..1: dark in a
	// groove, less dark at a root (shaded by the tip over it, not
	// hidden; painted as dark as its rise, every root was a short dark
	// dash on the top of the head).
	Shade float64
	// Tone is the lock's own lightness, 0.8..1.2.
	Tone float64
	// Angle is the lock's direction at the point, as an angle round
	// the centre: its strands run along the lines of one Angle.
	Angle float64
}

const (
	// tousleWidth is how wide a lock is (radians round the centre):
	// about 2 cm over the top of the head.
	tousleWidth = 0.11
	// tousleLength is how long a lock runs before the next one takes
	// over (metres): three tiers of locks from the forehead to the
	// crown.
	tousleLength = 0.065
)

// tousleSlant is how far each of the two layers of locks turns off the
// sweep (radians round the centre per metre along it): one layer to the
// left, one to the right, about 15° each way over the top, so the locks
// cross as a tousle's do.
var tousleSlant = [2]float64{1.5, -1.3}

// Tousle is the lock of the short cut at p (metres), whose locks sweep
// back from centre: of the two layers, the lock that stands higher.
// Rise and Shade are continuous over the head (each a maximum of
// continuous functions: a lock's profile falls to 0 at its sides and
// its tiers to their floor at both ends): the normal map is their slope,
// and a jump in them was a one-texel cliff, a dark dot in the render.
func Tousle(p, centre [3]float64) TousleLock {
	layers := TousleLayers(p, centre)
	// Where neither layer has a lock (both in a groove) the hair under
	// them shows: in shade, but not a black hole.
	best := layers[2]
	for _, l := range layers[:2] {
		if l.Shade > best.Shade {
			best.Shade, best.Tone, best.Angle = l.Shade, l.Tone, l.Angle
		}
		best.Rise = math.Max(best.Rise, l.Rise)
	}
	return best
}

// TousleLayers is the tousle at p layer by layer: the lock of each of
// the two layers, and last the hair under them (Shade 0.3, Tone 1, Rise
// 0, Angle straight back from centre). Each is continuous over the head
// but for its Tone; Tousle keeps the one in the most light, so its Angle
// jumps where another layer takes over.
func TousleLayers(p, centre [3]float64) [3]TousleLock {
	d := [3]float64{p[0] - centre[0], p[1] - centre[1], p[2] - centre[2]}
	g := math.Sqrt(d[0]*d[0] + d[1]*d[1] + d[2]*d[2])
	phi := math.Atan2(d[0], d[2])
	var out [3]TousleLock
	out[2] = TousleLock{Shade: 0.3, Tone: 1, Angle: phi}
	for layer, slant := range tousleSlant {
		a := phi + slant*(g-0.2)
		u := a/tousleWidth + 0.35*math.Sin(g*55+a*9) + 0.5*float64(layer)
		k := math.Floor(u)
		lock := int(k)
		// Each lock in tiers along its length, staggered from its
		// neighbours'; t runs from a tier's root (its front, farther
		// from the centre) to its tip.
		sg := g/tousleLength + hash3(lock, layer, 0, 41)
		tier := int(math.Floor(sg))
		t := 1 - (sg - math.Floor(sg))
		x := math.Abs(2*(u-k) - 1)
		across := math.Pow(1-x*x, 0.7)
		// Rising from the root, under the tip before it, to a crest,
		// thinning to its own tip, which lies down on the next root.
		along := smooth(0, 0.35, t) * (1 - smooth(0.5, 1, t))
		h := 0.6 + 0.4*hash3(lock, tier, layer, 42)
		out[layer] = TousleLock{
			Rise:  h * across * along,
			Shade: across * (0.4 + 0.6*h*along),
			Tone:  0.8 + 0.4*hash3(lock, tier, layer, 43),
			Angle: a,
		}
	}
	return out
}

// SweepCentre is the point the short cut's locks sweep back from, for a
// hair mesh with vertices pos: behind the head and below its top, so
// over the top the locks run from the forehead back. It is read from the
// mesh's bottom, back and sides only, which the locks' rise does not
// move, so the geometry (before the rise) and the painter (after) find
// the same point.
func SweepCentre(pos [][3]float32) [3]float64 {
	lo, hi := [3]float64{math.Inf(1), math.Inf(1), math.Inf(1)}, [3]float64{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
	for _, p := range pos {
		for a := 0; a < 3; a++ {
			lo[a], hi[a] = math.Min(lo[a], float64(p[a])), math.Max(hi[a], float64(p[a]))
		}
	}
	return [3]float64{(lo[0] + hi[0]) / 2, lo[1] + 0.12, lo[2] - 0.05}
}
