package avatar

import (
	"fmt"
	"testing"

	"github.com/kilnhq/kiln/assets/avatar/human"
)

// TestBudgetCountsTheHairItKeeps: what the budget counts for the hair's
// rims is what thickenHair then adds to the hair it kept, for every
// style that gets rims, with the hair simplified as in a full avatar
// (about 0.78 of it) and not simplified at all. Counted on the whole
// hair before it was simplified, a bun's rims were 2,326 triangles where
// 3,024 were built, and the body and garments were simplified for a
// count that was not the hair's.
func TestBudgetCountsTheHairItKeeps(t *testing.T) {
	for _, c := range []struct {
		style string
		ratio float64 // the budget's common ratio the filler forces
	}{
		{"long", 0.78},
		{"long", 1},
		{"ponytail", 0.78},
		{"bun", 0.78},
		{"bun", 0.63},
		{"bun", 1},
		{"buzz", 0.78},
	} {
		t.Run(fmt.Sprintf("%s/%.2f", c.style, c.ratio), func(t *testing.T) {
			cfg := Default(Feminine)
			cfg.Hair.Style = c.style
			cfg = cfg.resolve()
			body, err := standingBody(cfg)
			if err != nil {
				t.Fatal(err)
			}
			joints := body.Joints()
			head, _ := bodyParts(body, make([]bool, len(human.BodyMesh().Tris)))
			f, err := body.Fit("hair/" + c.style)
			if err != nil {
				t.Fatal(err)
			}
			hair := fittedPart(f)
			trimHairline(hair, head, joints)
			whole := thickTriangles(hair, joints, c.style)
			before := len(hair.tris)
			// A part the budget cannot simplify, as large as makes the common
			// ratio c.ratio: fixed + ratio*hair = maxTriangles.
			filler := &part{minKeep: 1}
			if c.ratio < 1 {
				filler.tris = make([][3]uint32, maxTriangles-int(c.ratio*float64(before))-len(head.tris))
			}
			parts := map[string]*part{"head": head, "hair": hair, "filler": filler}
			counted := budget(parts, 0, func(h *part) int { return thickTriangles(h, joints, c.style) })
			kept := len(hair.tris)
			thickenHair(hair, joints, c.style)
			built := len(hair.tris) - kept
			t.Logf("%s at %.2f: hair %d -> %d triangles; rims counted on the whole hair %d, by the budget %d, built %d",
				c.style, c.ratio, before, kept, whole, counted, built)
			if counted != built {
				t.Errorf("%s at %.2f: the budget counted %d rim triangles, thickenHair built %d", c.style, c.ratio, counted, built)
			}
			if built == 0 {
				t.Errorf("%s: no rims built: the case tests nothing", c.style)
			}
			if c.ratio < 1 && before >= 1000 && kept >= before {
				t.Errorf("%s at %.2f: the hair was not simplified (%d triangles)", c.style, c.ratio, kept)
			}
		})
	}
}
