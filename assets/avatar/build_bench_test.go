package avatar

import (
	"testing"
	"time"

	"github.com/kilnhq/kiln/assets/scene"
)

// benchConfigs are the configurations issue 26 names: the defaults
// (masculine and feminine) and three random ones.
func benchConfigs() []struct {
	name string
	cfg  Config
} {
	return []struct {
		name string
		cfg  Config
	}{
		{"default", Default(Masculine)},
		{"default-female", Default(Feminine)},
		{"random-1", Random(1)},
		{"random-2", Random(2)},
		{"random-3", Random(3)},
	}
}

// BenchmarkBuild measures warm builds (Generate and scene.Write, what the
// avatar job does before storing) of a configuration never built before:
// the texture cache is emptied before each, so every texture is painted
// and encoded. The once-per-process mouth mask is made before the timing;
// a cold build (one kiln avatar process) pays it on top, and
// bench/avatar-build measures both. It reports CPU time per build beside
// the wall time: the machine is shared, and CPU time moves less with the
// load than wall time.
func BenchmarkBuild(b *testing.B) {
	mouthMask()
	for _, c := range benchConfigs() {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			var cpu time.Duration
			for b.Loop() {
				b.StopTimer()
				textures.reset()
				b.StartTimer()
				cpu0 := cpuTime()
				benchBuild(b, c.cfg)
				cpu += cpuTime() - cpu0
			}
			reportCPU(b, cpu)
		})
	}
}

// BenchmarkBuildCached measures builds with the texture cache holding
// what their changes left: "same" rebuilds the configuration as it was
// (the creator's reload), "hair-colour" and "top-colour" build it with one
// setting changed after building it as it was (the creator's usual
// step), so only the textures that setting reaches are painted.
func BenchmarkBuildCached(b *testing.B) {
	mouthMask()
	for _, c := range benchConfigs() {
		for _, ch := range []struct {
			name   string
			change func(*Config)
		}{
			{"same", func(*Config) {}},
			{"hair-colour", func(c *Config) {
				c.Hair.Color = map[bool]string{true: "blonde", false: "black"}[c.Hair.Color != "blonde"]
			}},
			{"top-colour", func(c *Config) {
				c.Outfit.Top.Color = map[bool]string{true: "red", false: "green"}[c.Outfit.Top.Color != "red"]
			}},
		} {
			b.Run(c.name+"/"+ch.name, func(b *testing.B) {
				b.ReportAllocs()
				next := c.cfg
				ch.change(&next)
				var cpu time.Duration
				for b.Loop() {
					b.StopTimer()
					textures.reset()
					benchBuild(b, c.cfg)
					b.StartTimer()
					cpu0 := cpuTime()
					benchBuild(b, next)
					cpu += cpuTime() - cpu0
				}
				reportCPU(b, cpu)
			})
		}
	}
}

func benchBuild(b *testing.B, cfg Config) {
	s, err := Generate(cfg)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := scene.Write(s); err != nil {
		b.Fatal(err)
	}
}

func reportCPU(b *testing.B, cpu time.Duration) {
	if cpu > 0 && b.N > 0 {
		b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
	}
}
