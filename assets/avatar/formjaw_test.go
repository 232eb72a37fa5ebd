package avatar

import (
	"math"
	"testing"

	"github.com/kilnhq/kiln/assets/avatar/human"
)

// formJawFlicker is how much the form shade s (0..1) of the head part
// differs from one vertex to its neighbours under the jaw (the skin
// where formJawWeights is 1 at top: from formJawFade under it down to
// formJawKeep above the part's lowest point): the root mean square, over
// those vertices, of each one's shade less its neighbours' mean on the
// mesh. A shade that
// darkens smoothly down the throat differs little from its neighbours'
// mean (a slope cancels either side); one cast from each vertex alone
// flips from one vertex to the next where the chin's edge crosses the
// mesh, and each flip counts in full.
func formJawFlicker(head *part, top float64, s []float32) float64 {
	g := graphOf(head)
	v := make([]float64, len(g.at))
	for i, k := range g.node {
		v[k] = float64(s[i])
	}
	w := formJawWeights(head, top)
	var sq, n float64
	for i, k := range g.node {
		if w[i] < 1 || len(g.nbr[k]) == 0 {
			continue
		}
		var m float64
		for _, j := range g.nbr[k] {
			m += v[j]
		}
		d := v[k] - m/float64(len(g.nbr[k]))
		sq += d * d
		n++
	}
	return math.Sqrt(sq / n)
}

// TestFormShadeSoftUnderJaw asks the form's shade under the jaw (where
// headFormShade takes it softened in full) on every panel face to differ from vertex to vertex by at
// most formJawFlickerMax (formJawFlicker). Under the chin most rays
// toward the key light meet the chin within formReach, and whether one
// does flipped from vertex to vertex: baked, a fan of darker streaks
// along the mesh's edges under the chin, the panels' "blotchy neck
// shading" on random-13 and -16. Unsoftened (formShade alone) the twenty
// faces flicker 0.027 to 0.041, softened 0.006 to 0.011.
func TestFormShadeSoftUnderJaw(t *testing.T) {
	for _, c := range panelFaces() {
		t.Run(c.name, func(t *testing.T) {
			head, _ := bodyParts(shapeBody(c.cfg), make([]bool, len(human.BodyMesh().Tris)))
			head.closeLips()
			mo := head.mouthFrame()
			if mo == nil {
				t.Fatal("no mouth")
			}
			top := mo.Centre[1] - 0.01
			d := formJawFlicker(head, top, headFormShade(head, mo))
			t.Logf("form shade under the jaw flickers %.4f (formShade alone %.4f)", d, formJawFlicker(head, top, formShade(head)))
			if d > formJawFlickerMax {
				t.Errorf("the form shade under the jaw differs %.4f from its neighbours' mean, want %.3f or less (streaks in the baked skin)", d, formJawFlickerMax)
			}
		})
	}
}

// formJawFlickerMax is the most TestFormShadeSoftUnderJaw allows.
const formJawFlickerMax = 0.015
