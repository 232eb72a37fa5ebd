package avatar

import (
	"math"
	"testing"
)

// lipShape measures the lips at rest as a profile and a portrait show
// them: the painted lips' height in the middle (lipColour at least 0.5,
// within 3 mm of x = 0) over their width (corner to corner), and how far
// the lower lip's front stands ahead of the upper lip's (the most
// forward lip vertex within 4 mm of the middle, lower by lowerLipMask).
func lipShape(t *testing.T, cfg Config) (hw, lowerAhead float64) {
	t.Helper()
	_, head := restingHead(t, cfg.resolve())
	lips, lower, full := lipColour(), lowerLipMask(), lipMask()
	var corner float64
	lo, hi := math.Inf(1), math.Inf(-1)
	upFront, lowFront := math.Inf(-1), math.Inf(-1)
	for i, v := range head.base {
		p := head.pos[i]
		x := math.Abs(float64(p[0]))
		if lips[v] >= 0.5 {
			corner = math.Max(corner, x)
			if x < 0.003 {
				lo, hi = math.Min(lo, float64(p[1])), math.Max(hi, float64(p[1]))
			}
		}
		if full[v] >= 0.5 && x < 0.004 {
			if lower[v] >= 0.5 {
				lowFront = math.Max(lowFront, float64(p[2]))
			} else {
				upFront = math.Max(upFront, float64(p[2]))
			}
		}
	}
	return (hi - lo) / (2 * corner), lowFront - upFront
}

// TestLipsNaturalSizeAtRest checks the lips at rest over the blind
// panel's twenty faces (panelFaces): their height in the middle at most
// 0.33 of their width and at least 0.10 (lips no fuller than the
// leader's, and not a slit), and at most 2 mm ahead of the E-line.
// Before the seed drew the lips' height (mouth scale-vert, upper- and
// lower-lip height) at full spread, and before the house face's thinner
// lips, feminine faces' lips were up to 0.39 of their width and 2.6 mm
// ahead of the E-line (an older panel's faces, Random(101..118): the
// judges' "pursed", "puffy", "big lips"). The bound was 0.28 while
// widenMouth stretched every mouth 14% wider than its lips were tall;
// the mouth is now the leader's width (TestMouthWideAtRest) with the
// same lips. This measure counts the lips' colour over the rolled-in
// inner lip too; seen from the front (facemeasure's LipHeight over
// Mouth) the leader's casual's lips are 0.33 of their width. On the
// panel's faces at 96b648d: 0.180 (random-08) to 0.285 (random-06),
// every lip at least 1.5 mm behind the E-line. (The test named
// Random(101..118) "random-01..18" until then, not the faces the
// panel showed.)
func TestLipsNaturalSizeAtRest(t *testing.T) {
	for _, f := range panelFaces() {
		hw, la := lipShape(t, f.cfg)
		a := lipsAhead(t, f.cfg)
		t.Logf("%-15s %-9s lips %.3f as high as wide, lower lip %+.1f mm ahead of the upper, %+.1f mm ahead of the E-line", f.name, f.cfg.Body.Type, hw, 1000*la, 1000*a)
		if hw > 0.33 || hw < 0.10 {
			t.Errorf("%s: lips %.3f as high as wide, want 0.10 to 0.33", f.name, hw)
		}
		if a > 0.002 {
			t.Errorf("%s: lips %.1f mm ahead of the E-line, want at most 2", f.name, 1000*a)
		}
	}
}
