package paint

import (
	"math"
	"testing"
)

// TestShortCutPaintContinuous: the short cut's paint (locks.tousled)
// has no jumps where one layer of its tousle's locks gives way to the
// other or to the hair under them. A jump in a lock's shape or its
// strands is a one-texel cliff in the height the normal map is the
// slope of, and a line of them along a lock drew a dotted seam down the
// cut's sides in three.js (issue 22, session 22: default-male,
// random-10, -13 in quarter view). Measured over a head-sized sphere's
// top, at points 0.01 mm apart (a fiftieth of a texel) round it and
// down it: the share of pairs whose shape or strand differs by more
// than 0.05 (continuous, they differ by at most about 0.02 there, where
// a lock's side falls steepest). On the old code 0.083% of 360,000
// pairs, the largest jump 0.75; now none, the largest step 0.02.
func TestShortCutPaintContinuous(t *testing.T) {
	const r, step = 0.09, 0.00001
	s := sphere([3]float32{0, 1.6, 0}, r, 48)
	l := newLocks(s, 512, true)
	nm := newLockNoise(5)
	point := func(lat, lon float64) [3]float64 {
		return [3]float64{r * math.Sin(lat) * math.Sin(lon), 1.6 + r*math.Cos(lat), r * math.Sin(lat) * math.Cos(lon)}
	}
	look := func(p [3]float64) (shape, strand float64) {
		shape, _, strand, _ = l.at(p, 5, &nm)
		return shape, strand
	}
	var jumps, pairs int
	worst := 0.0
	for i := 0; i < 300; i++ {
		lat := 0.15 + 1.6*float64(i)/300
		for j := 0; j < 600; j++ {
			lon := 2*math.Pi*float64(j)/600 - math.Pi
			a, as := look(point(lat, lon))
			for _, q := range [][3]float64{point(lat, lon+step/(r*math.Sin(lat))), point(lat+step/r, lon)} {
				b, bs := look(q)
				d := math.Max(math.Abs(a-b), math.Abs(as-bs))
				worst = math.Max(worst, d)
				pairs++
				if d > 0.05 {
					jumps++
				}
			}
		}
	}
	share := float64(jumps) / float64(pairs)
	t.Logf("short cut's paint: %.3f%% of %d pairs 0.01 mm apart jump, the largest by %.2f", 100*share, pairs, worst)
	if jumps > 0 {
		t.Errorf("the short cut's locks or strands jump by more than 0.05 between points 0.01 mm apart at %.3f%% of the pairs (largest %.2f), want none: one-texel cliffs in its normal map, a dotted seam", 100*share, worst)
	}
}
