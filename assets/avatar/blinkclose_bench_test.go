package avatar

import (
	"testing"
	"time"

	"github.com/kilnhq/kiln/assets/avatar/human"
)

// BenchmarkClosedBlinks measures closedBlinks, which every build runs
// (Generate), on the heads of BenchmarkBuild's first three
// configurations: beside BenchmarkBuild's figure for the same
// configuration it is the share of a build that closing the blinks
// takes. CPU time beside wall time, as BenchmarkBuild reports it.
func BenchmarkClosedBlinks(b *testing.B) {
	for _, c := range benchConfigs()[:3] {
		b.Run(c.name, func(b *testing.B) {
			body, err := standingBody(c.cfg.resolve())
			if err != nil {
				b.Fatal(err)
			}
			head, _ := bodyParts(body, make([]bool, len(human.BodyMesh().Tris)))
			head.closeLips()
			eyes := fittedEyes(b, body)
			xOf := func(v int32) float64 { return float64(body.Pos[v][0]) }
			var cpu time.Duration
			for b.Loop() {
				cpu0 := cpuTime()
				closedBlinks(head, eyes, xOf)
				cpu += cpuTime() - cpu0
			}
			reportCPU(b, cpu)
		})
	}
}
