package avatar

import (
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
)

// meshTriangles is how many triangles each mesh of a scene has.
func meshTriangles(sc *scene.Scene) map[string]int {
	out := map[string]int{}
	for _, m := range sc.Meshes {
		for _, p := range m.Primitives {
			out[m.Name] += len(p.Indices) / 3
		}
	}
	return out
}

// TestBudgetKeepsTheBody: one body and outfit under different hair,
// beards, headwear and glasses keeps the same body and garments (their
// triangle counts, as the budget simplifies them), and every one stays
// under the lod 0 ceiling, also the one that stacks all four (a bun, a
// full beard, a fedora and glasses), the only one whose body may give. When the hair shared the body's ratio and
// the triangles added after the budget were taken from the body and
// garments, the long hair's tapered ends changed the top (6146a78).
func TestBudgetKeepsTheBody(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a dozen avatars")
	}
	for _, base := range []Config{Default(Feminine), Default(Masculine).WithStyle("top", "tank")} {
		var want map[string]int
		for _, tc := range []struct {
			hair, beard, hat, specs string
			stacked                 bool
		}{
			{"bald", "none", "none", "none", false},
			{base.Hair.Style, "none", "none", "none", false},
			{"long", "none", "none", "round", false},
			{"bun", "full-beard", "fedora", "square", true},
			{"ponytail", "none", "cap", "none", false},
			{"short", "full-beard", "none", "round", false},
			{"buzz", "goatee", "beanie", "round", false},
		} {
			cfg := base.WithStyle("hair", tc.hair).WithStyle("facialHair", tc.beard).WithStyle("headwear", tc.hat).WithStyle("glasses", tc.specs)
			sc, err := Generate(cfg)
			if err != nil {
				t.Fatal(err)
			}
			got := meshTriangles(sc)
			total := sc.Stats().Triangles
			t.Logf("%s %s/%s/%s/%s: body %d, top %d, hair %d, total %d", base.Body.Type, tc.hair, tc.beard, tc.hat, tc.specs,
				got["Wolf3D_Body"], got["Wolf3D_Outfit_Top"], got["Wolf3D_Hair"], total)
			if total > 32000 {
				t.Errorf("%s %+v: %d triangles, over the lod 0 ceiling 32,000", base.Body.Type, tc, total)
			}
			if want == nil {
				want = got
				continue
			}
			if tc.stacked {
				continue
			}
			for _, name := range []string{"Wolf3D_Body", "Wolf3D_Outfit_Top", "Wolf3D_Outfit_Bottom", "Wolf3D_Outfit_Footwear"} {
				if got[name] != want[name] {
					t.Errorf("%s %+v: %s has %d triangles, %d bald and bare-headed", base.Body.Type, tc, name, got[name], want[name])
				}
			}
		}
	}
}
