package avatar

import (
	"math"
	"testing"

	"github.com/kilnhq/kiln/assets/avatar/human"
)

// jawShadeStep is the steepest the jaw's shade (jawShade, 0..1) changes
// along an edge of the head's mesh on the skin facing the viewer (normal
// z over 0.3: the chin's front and its lower edge, not the throat under
// it), per centimetre: a shade that ends softly changes by a few tenths
// over a centimetre; one that ends at the mesh's edges jumps from one
// vertex to the next, a line in the baked skin.
func jawShadeStep(t *testing.T, cfg Config) float64 {
	t.Helper()
	body := shapeBody(cfg)
	head, _ := bodyParts(body, make([]bool, len(human.BodyMesh().Tris)))
	head.closeLips()
	mo := head.mouthFrame()
	if mo == nil {
		t.Fatal("no mouth")
	}
	s := jawShade(head, mo.Centre[1]-0.01)
	var worst float64
	for _, tri := range head.tris {
		for k := range 3 {
			a, b := tri[k], tri[(k+1)%3]
			if head.nrm[a][2] < 0.3 || head.nrm[b][2] < 0.3 {
				continue
			}
			l := v3(head.pos[a]).sub(v3(head.pos[b])).len()
			if l < 1e-4 {
				continue
			}
			worst = math.Max(worst, math.Abs(float64(s[a]-s[b]))/(100*l))
		}
	}
	return worst
}

// TestJawShadeSoft asks the jaw's shade on every panel face (the
// defaults and random-01..18 of configs -n 18 -seed 1) to change by
// at most jawShadeStepMax per centimetre on the skin facing the viewer.
// Cast from each vertex alone, it ended along the mesh's edges, a
// zigzag of lines at the chin's lower edge in the baked skin (p14's
// "smudgy chin shading" on random-15): 0.65 to 1.19 per centimetre on
// the twenty faces, 0.11 to 0.32 softened (jawShadeSoften).
func TestJawShadeSoft(t *testing.T) {
	for _, c := range panelFaces() {
		t.Run(c.name, func(t *testing.T) {
			d := jawShadeStep(t, c.cfg)
			t.Logf("jaw shade step %.3f per cm", d)
			if d > jawShadeStepMax {
				t.Errorf("jaw shade changes %.3f per cm along an edge, want %.2f or less (a line in the baked skin)", d, jawShadeStepMax)
			}
		})
	}
}

// jawShadeStepMax is the most TestJawShadeSoft allows, per centimetre.
const jawShadeStepMax = 0.5
