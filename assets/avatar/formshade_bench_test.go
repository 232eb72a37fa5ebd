package avatar

import (
	"testing"

	"github.com/kilnhq/kiln/assets/avatar/human"
)

// BenchmarkFormShade is the key light's shade on the default masculine
// head (formShade), a step of every build.
func BenchmarkFormShade(b *testing.B) {
	body, err := standingBody(Default(Masculine).resolve())
	if err != nil {
		b.Fatal(err)
	}
	head, _ := bodyParts(body, make([]bool, len(human.BodyMesh().Tris)))
	b.ReportMetric(float64(len(head.pos)), "vertices")
	for b.Loop() {
		formShade(head)
	}
}
