package avatar

import (
	"math"
	"testing"
)

// rowFade walks out from the midline along rows of a bearded face seen
// from the front (beardSeen), at heights ys over the lips' middle in
// face units, from x0 to x1 face units out on each side, and returns
// per row the beard's ink at each step (0 the bare cheek's luma at the
// row's end, 1 the beard's: the median of the hair it crossed).
func rowFade(t *testing.T, cfg Config, ys []float64, x0, x1 float64) (inks [][]float64, step float64) {
	t.Helper()
	f, seen := beardSeen(t, cfg)
	step = 0.0005
	for _, y := range ys {
		for _, sx := range []float64{-1, 1} {
			var pts [][2]float64
			for x := x0 * f.unit; x < x1*f.unit; x += step {
				pts = append(pts, [2]float64{sx * x, f.lip[1] + y*f.unit})
			}
			// A row ending off the head has no bare cheek to measure by
			// (its inks all NaN).
			if l := inkLine(seen, pts); l != nil && !math.IsNaN(l[len(l)-1]) {
				inks = append(inks, l)
			}
		}
	}
	return inks, step
}

// TestGoateeMoustacheFade: a goatee's sides and a moustache's ends fade
// into the cheek, as a full beard's cheek line does (TestBeardCheekFades),
// where the beard is darker than the skin. Seen from the front, out
// along rows across the moustache (0.12 and 0.18 face units over the
// lips' middle) and across the goatee's chin (0.3 and 0.4 under it),
// the beard's steepest fall of ink over 1 mm between the last step at
// 0.9 and the first at 0.1 past it. With the roots' mask the shells'
// own at those edges, the roots ended under the shells' alpha-cut edge:
// the worst row fell 0.61 (random-08's moustache), 1.01 (its chin),
// 1.08 and 0.65 (black goatee on light skin), 1.05 and 0.64 (brown on
// tan), 1.08 (black moustache, light), 1.05 (brown moustache, dark) per
// mm. With rootsSideReach's band 0.34, 0.34, 0.27, 0.30, 0.28, 0.31,
// 0.27, 0.27 (the bound 0.35 a little over the cheek's 0.3: the rows
// cross the roots' dots, which break the fade). A light beard on a
// darker skin keeps the hard edge (newBeard; TestLightBeardNoCheekHaze).
func TestGoateeMoustacheFade(t *testing.T) {
	rows := map[string][]float64{
		"moustache": {0.12, 0.18},
		"chin":      {-0.25, -0.35},
	}
	for _, c := range []struct {
		name, style, color, skin string
		rows                     []string
	}{
		{"random-08", "", "", "", []string{"moustache", "chin"}},
		{"goatee-black-light", "goatee", "black", "light", []string{"moustache", "chin"}},
		{"goatee-brown-tan", "goatee", "brown", "tan", []string{"moustache", "chin"}},
		{"moustache-black-light", "moustache", "black", "light", []string{"moustache"}},
		{"moustache-brown-dark", "moustache", "brown", "dark", []string{"moustache"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := Default(Masculine)
			if c.name == "random-08" {
				cfg = Random(8)
			} else {
				cfg.FacialHair = FacialHair{Style: c.style, Color: c.color}
				cfg.Skin.Tone = c.skin
			}
			for _, r := range c.rows {
				inks, step := rowFade(t, cfg, rows[r], 0, 0.8)
				if len(inks) < 2 {
					t.Fatalf("%s: only %d rows cross the %s's edge", c.name, len(inks), r)
				}
				var worst, sum float64
				for _, ink := range inks {
					_, j := fadeWidth(ink, step)
					worst = math.Max(worst, j)
					sum += j
				}
				t.Logf("%s %s: the beard's ink falls at most %.2f per mm at its side (worst of %d rows; mean %.2f)", c.name, r, worst, len(inks), sum/float64(len(inks)))
				if worst > 0.35 {
					t.Errorf("%s %s: the beard's ink falls %.2f per mm at its side, want 0.35 or less: a hard outline", c.name, r, worst)
				}
			}
		})
	}
}
