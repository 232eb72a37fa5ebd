package avatar

import (
	"math"
	"testing"
)

// TestFringeEdgeSmooth counts the notches in the lower edge of the long
// hair's fringe as a viewer in front of the face sees it
// (fringeEdgeHeights in 1 mm columns, 7.5 cm either side of the middle,
// over the edge more than 3 cm above the eyes, where it crosses the
// forehead and turns down at the temples): a notch is a column whose
// edge stands at least 0.5 mm above or below every column out to the
// next that passes it, within 1 cm on both sides, a step or tooth in an
// edge that should run as one curve. Issue 22's panel saw default-female's
// fringe end "in a straight line with small stepped notches and square,
// jagged corners at the temples". Before smoothFringeEdge: 9
// (default-female), 8 (default male), 9 and 7 (random 14, 12 made
// long, feminine), 9 and 6 (masculine); now 2, 2, 3, 3, 1, 0. At most 3.
func TestFringeEdgeSmooth(t *testing.T) {
	cases := []struct {
		name string
		seed int64 // 0: the default of the body
		body string
	}{
		{"default-female", 0, Feminine},
		{"default-male", 0, Masculine},
		{"random-14-feminine", 14, Feminine},
		{"random-12-feminine", 12, Feminine},
		{"random-14-masculine", 14, Masculine},
		{"random-12-masculine", 12, Masculine},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := Default(c.body)
			if c.seed != 0 {
				cfg = Random(c.seed)
				cfg.Body.Type = c.body
			}
			low := longFringeEdge(t, cfg, 0.001, 75)
			at := edgeNotches(low, 0.03, 0.0005, 10)
			t.Logf("%s: %d notches in the fringe's lower edge, at x (mm) %v", c.name, len(at), at)
			if len(at) > 3 {
				t.Errorf("the fringe's lower edge has %d notches at x (mm) %v, want at most 3 (a smooth curve)", len(at), at)
			}
		})
	}
}

// edgeNotches is where (columns from the middle of line) line, an edge's
// height per column, has a tooth or a notch: a column higher (or lower)
// than every column beside it out to reach columns, or out to the first
// that passes it, by at least depth on both sides. Only columns whose
// edge lies above floor count (+Inf: no edge).
func edgeNotches(line []float64, floor, depth float64, reach int) []int {
	half := (len(line) - 1) / 2
	var at []int
	for k := 1; k+1 < len(line); k++ {
		if line[k] < floor || math.IsInf(line[k], 1) {
			continue
		}
		for _, sign := range []float64{1, -1} {
			y := sign * line[k]
			stands := true
			for _, d := range []int{-1, 1} {
				drop := 0.0
				for j := k + d; j >= 0 && j < len(line) && j-k <= reach && k-j <= reach && !math.IsInf(line[j], 1); j += d {
					if sign*line[j] > y {
						break
					}
					drop = math.Max(drop, y-sign*line[j])
				}
				stands = stands && drop >= depth
			}
			if stands {
				at = append(at, k-half)
			}
		}
	}
	return at
}
