package avatar

import (
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
)

// BenchmarkBuild measures warm builds (Generate and scene.Write, what the
// avatar job does before storing) of the configurations issue 26 names:
// the default and three random ones. The once-per-process mouth mask is
// made before the timing; a cold build (one kiln avatar process) pays it
// on top, and bench/avatar-build measures both. It reports CPU time per
// build beside the wall time: the machine is shared, and CPU time moves
// less with the load than wall time.
func BenchmarkBuild(b *testing.B) {
	mouthMask()
	for _, c := range []struct {
		name string
		cfg  Config
	}{
		{"default", Default(Masculine)},
		{"random-1", Random(1)},
		{"random-2", Random(2)},
		{"random-3", Random(3)},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			cpu0 := cpuTime()
			for b.Loop() {
				s, err := Generate(c.cfg)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := scene.Write(s); err != nil {
					b.Fatal(err)
				}
			}
			if cpu := cpuTime() - cpu0; cpu > 0 {
				b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
			}
		})
	}
}
