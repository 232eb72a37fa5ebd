package human_test

import (
	"testing"

	"github.com/kilnhq/kiln/assets/avatar/human"
)

// BenchmarkShape is the body part of a cold avatar: shape, joints, and
// the fits of a typical outfit.
func BenchmarkShape(b *testing.B) {
	p := human.Params{Gender: 0.3, Age: 0.2, Muscle: 0.6, Weight: 0.4, Proportions: 0.7, Stature: 1.7,
		Face: map[string]float64{"nose/nose-scale-horiz": 0.4, "chin/chin-width": -0.3}}
	for b.Loop() {
		body := human.Shape(p)
		body.Joints()
		for _, id := range []string{"top/tshirt", "bottom/jeans", "footwear/sneakers", "hair/long", "eyes/left", "eyes/right", "teeth/default"} {
			f, err := body.Fit(id)
			if err != nil {
				b.Fatal(err)
			}
			f.Weights()
		}
	}
}
