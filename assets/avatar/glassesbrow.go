package avatar

import "math"

// browClear is how far the rim's outside stays under the brows' middle
// line above it, metres.
const browClear = 0.0015

// underBrows fits a rim of half width rw and half height rh round
// (cx, cy) under the brows: its bottom stays where it was (on the upper
// cheek, under the eye) and its top comes down until every point of the
// rim's top (from 45 to 135 degrees), the frame's tube (radius tube)
// included, is browClear under the brows' middle line (their vertices'
// mean height within 2 mm of its width). The brow's tail, which falls
// to 3 mm over the eye at the face's side, may pass behind the rim's
// outer corner, as the leader's do: kept clear of it, the rim was cut
// to a slit. A lens cut under minLens of its height moves down instead. It returns
// the new half height and centre; a rim already clear is left as it
// was. square rims are superellipses (see glasses), whose upper
// corners stand higher than an ellipse's.
func underBrows(brows [][3]float32, cx, cy, rw, rh, tube float64, square bool) (float64, float64) {
	bottom := cy - rh
	fit := rh
	for i := 1; i < browSamples; i++ {
		a := math.Pi * float64(i) / browSamples
		ca, sa := math.Cos(a), math.Sin(a)
		if sa < 0.7 {
			continue
		}
		if square {
			ca = math.Copysign(math.Pow(math.Abs(ca), 0.5), ca)
			sa = math.Pow(sa, 0.5)
		}
		x := cx + rw*ca
		low, n := 0.0, 0.0
		for _, p := range brows {
			if p[0] > 0 && math.Abs(float64(p[0])-x) < 0.002 {
				low += float64(p[1])
				n++
			}
		}
		if n == 0 {
			continue
		}
		low /= n
		// The rim's top at this angle is bottom + h·(1 + sa) + tube.
		fit = math.Min(fit, (low-browClear-tube-bottom)/(1+sa))
	}
	if fit >= minLens*rh {
		return fit, bottom + fit
	}
	// Under low brows the top comes down and the bottom goes lower on
	// the cheek, so the lens stays tall enough to frame the eye: cut to
	// the brows alone, a square rim under a low brow was a slit of
	// reading glasses across the lids.
	top := bottom + 2*fit
	return minLens * rh, top - minLens*rh
}

// browSamples is how many points of the rim's upper half are fitted
// under the brows, about 0.4 mm apart across its top. The brows' middle
// line is read from the few brow vertices within 2 mm of a width, and
// dips where only the brow's lower edge lies there: at 40 points, 2 to
// 4 mm apart, the fit stepped over such a dip on the fringe wearer
// (TestGlassesUnderBrows, Random(3) with round frames, under head-oval
// 0.2: one vertex 1.0 mm under its neighbours' mean), and the rim's top
// stood 0.9 mm under the brows' line there where the fit meant
// browClear, 1.5.
const browSamples = 200

// minLens is the least a rim's half height is cut to under the brows,
// of its own.
const minLens = 0.8
