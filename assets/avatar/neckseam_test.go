package avatar

import (
	"math"
	"testing"

	"github.com/kilnhq/kiln/assets/avatar/face"
	"github.com/kilnhq/kiln/assets/scene"
)

// TestNeckSeamHolds builds an avatar in a tank top and measures, on the border between
// Wolf3D_Head (which carries the face shapes) and Wolf3D_Body (which
// carries none), how far each head vertex sits from the body vertex at
// the same place: at rest, and at full weight of every face shape. A gap
// there is a crack and a step of shading at the base of the neck, the
// seam line the blind panel saw (2.2 mm under jawOpen, 0.35 mm at rest
// before the fade).
func TestNeckSeamHolds(t *testing.T) {
	c := Default(Feminine)
	c.Outfit.Top.Style = "tank" // the lowest neckline: the most border in sight
	sc, err := Generate(c)
	if err != nil {
		t.Fatal(err)
	}
	var head, body *scene.Primitive
	var names []string
	for _, m := range sc.Meshes {
		switch m.Name {
		case "Wolf3D_Head":
			head, names = m.Primitives[0], m.TargetNames()
		case "Wolf3D_Body":
			body = m.Primitives[0]
		}
	}
	if head == nil || body == nil || len(names) != len(face.All()) {
		t.Fatalf("head %v, body %v, %d face shapes", head != nil, body != nil, len(names))
	}
	// The border: head vertices within 0.5 mm of a body vertex.
	type pair struct{ h, b int }
	var border []pair
	rest := 0.0
	for i, p := range head.Positions {
		j, best := -1, 0.0005
		for k, q := range body.Positions {
			if d := dist3(p, q); d < best {
				j, best = k, d
			}
		}
		if j >= 0 {
			border = append(border, pair{i, j})
			rest = math.Max(rest, best)
		}
	}
	if len(border) < 20 {
		t.Fatalf("%d head vertices on the body's border, want the neck's ring of 20 or more", len(border))
	}
	if rest > 0.00005 {
		t.Errorf("at rest the head's border is %.2f mm off the body's, want under 0.05 mm", rest*1000)
	}
	worst, which := 0.0, ""
	for ti, tg := range head.Targets {
		for _, pr := range border {
			d := tg.Positions[pr.h]
			if m := math.Sqrt(float64(d[0]*d[0] + d[1]*d[1] + d[2]*d[2])); m > worst {
				worst, which = m, names[ti]
			}
		}
	}
	if worst > 0.00005 {
		t.Errorf("%s moves the head's border %.2f mm off the body, want under 0.05 mm", which, worst*1000)
	}
	t.Logf("%d border vertices; at rest %.3f mm apart; largest move of a face shape there %.3f mm (%s)", len(border), rest*1000, worst*1000, which)
}
