package avatar

import (
	"math"
	"testing"
)

// TestCollarPointsMirrored checks that an open collar's two points
// mirror each other: the p27 and collar24 judges saw the collar
// lopsided, its point on the viewer's left sunk under the shirt's front,
// "soft", "blunt", with no contact line. Measured on the top as the
// build readies it (fitted, sleeves cut, collarTop), by the collar's
// edges that a viewer in front sees (g.edges, which the cloth painter
// shades): each side's seen edge must be at least 0.6 of the other's
// length, and its lowest end 3 cm or more from the middle, the point's
// tip, on the left within 3 mm of the right one's mirror image. (The
// shirt's front under the collar is not quite symmetric either, so the
// seen lengths still differ: 0.71-0.82 left of right; before, 0.13 and
// 0.28 on default-female and random-13, none on random-14, and the
// masculine shirt's tip 16 mm out.)
func TestCollarPointsMirrored(t *testing.T) {
	masc := Default(Masculine)
	masc.Outfit.Top.Style = "shirt"
	for _, c := range []namedConfig{
		{"default-female", Default(Feminine)},
		{"masculine-shirt", masc},
		{"random-13", Random(13)},
		{"random-14", Random(14)},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := c.cfg.resolve()
			if !openCollar(cfg.Outfit.Top.Style) {
				t.Fatalf("%s wears a %s, not an open collar", c.name, cfg.Outfit.Top.Style)
			}
			body, err := standingBody(cfg)
			if err != nil {
				t.Fatal(err)
			}
			f, err := body.Fit("top/" + cfg.Outfit.Top.Style)
			if err != nil {
				t.Fatal(err)
			}
			g := fittedPart(f)
			endSleeves(g, body.Joints())
			neck := body.Joints()["Neck"]
			collarTop(g, cfg.Outfit.Top.Style, neck)
			var seen [2]float64
			var tips [2]vec3
			found := [2]bool{}
			for _, e := range g.edges {
				side := 0
				if e.A[0]+e.B[0] > 2*float64(neck[0]) {
					side = 1
				}
				seen[side] += vec3(e.B).sub(e.A).len()
				for _, p := range []vec3{e.A, e.B} {
					if math.Abs(p[0]-float64(neck[0])) >= 0.03 && (!found[side] || p[1] < tips[side][1]) {
						tips[side], found[side] = p, true
					}
				}
			}
			if !found[0] || !found[1] {
				t.Fatalf("%s: a seen collar edge on the left %v, on the right %v", c.name, found[0], found[1])
			}
			miss := tips[0].sub(vec3{2*float64(neck[0]) - tips[1][0], tips[1][1], tips[1][2]}).len()
			t.Logf("%s: seen collar edge %.1f mm left, %.1f mm right; left tip %.1f mm from the right one's mirror image", c.name, seen[0]*1000, seen[1]*1000, miss*1000)
			if seen[0] < 0.6*seen[1] || seen[1] < 0.6*seen[0] {
				t.Errorf("%s: the collar's seen edge is %.1f mm on the left, %.1f mm on the right, want each at least 0.6 of the other", c.name, seen[0]*1000, seen[1]*1000)
			}
			if miss > 0.003 {
				t.Errorf("%s: the left collar point's tip is %.1f mm from the right one's mirror image, want at most 3 mm", c.name, miss*1000)
			}
		})
	}
}
