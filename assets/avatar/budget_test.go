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
// count that was not the hair's. The buzz cut, a thin sculpted shell
// (TestBuzzLiesOnTheScalp), gets no rims from thickenHair any more.
func TestBudgetCountsTheHairItKeeps(t *testing.T) {
	for _, c := range []struct {
		style string
		ratio float64 // the budget's common ratio the filler forces
	}{
		{"long", 0.78},
		{"long", 1},
		{"ponytail", 0.78},
		{"ponytail", 0.63},
		{"ponytail", 1},
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
			counted, _ := budget(parts, 0, func(h *part) int { return thickTriangles(h, joints, c.style) })
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

// TestBudgetCountsWhatIsBuilt: the triangles the budget counted for an
// avatar are the ones the built avatar has, within budgetSlack, for
// avatars whose budget simplifies (tops with and without sleeves, hair
// with rims, glasses, a hood). Counting the body's skin the garments
// hide after the budget and the lower lashes, it counted 1,340 to 1,670
// triangles more than were built and took them from the body and
// garments for nothing. Not yet counted: the hair a hat presses away
// (pressHair), about 1,800 under a cap.
func TestBudgetCountsWhatIsBuilt(t *testing.T) {
	tank := Default(Masculine)
	tank.Outfit.Top.Style, tank.Outfit.Bottom.Style, tank.Body.Build = "tank", "jeans", 0.3
	tank.Hair.Style, tank.Glasses.Style, tank.FacialHair.Style = "ponytail", "round", "goatee"
	hoodie := Default(Feminine)
	hoodie.Outfit.Top.Style = "hoodie"
	blouse := Default(Feminine)
	blouse.Outfit.Top.Style, blouse.Hair.Style, blouse.Glasses.Style = "blouse", "long", "square"
	for _, c := range []struct {
		name string
		cfg  Config
	}{
		{"default-masculine", Default(Masculine)},
		{"default-feminine", Default(Feminine)},
		{"tank-ponytail-glasses", tank},
		{"hoodie", hoodie},
		{"blouse-long-glasses", blouse},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := c.cfg.resolve()
			if err := cfg.Validate(); err != nil {
				t.Fatal(err)
			}
			b, err := assemble(cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			built := b.sc.Stats().Triangles
			t.Logf("%s: the budget counted %d triangles, %d built", c.name, b.budgeted, built)
			if d := b.budgeted - built; d > budgetSlack || d < -budgetSlack {
				t.Errorf("%s: the budget counted %d triangles, the avatar has %d (%+d, more than %d apart)", c.name, b.budgeted, built, d, budgetSlack)
			}
		})
	}
}

// budgetSlack is how far the built triangles may be from the budget's
// count: the simplifier stops near its target, not on it, and the skin
// hidden is found on the body before it is simplified.
const budgetSlack = 500
