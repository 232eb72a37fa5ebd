package avatar

import (
	"testing"
	"time"
)

// partBenchConfig is the creator's avatar a pick lands on: a hoodie (whose
// hood a hair part fits to lift long hair over it), shorts, boots and a
// goatee, with the hair and the hat of the case.
func partBenchConfig(hair, hat string) Config {
	cfg := Config{Version: "1"}.resolve()
	cfg.Hair.Style = hair
	cfg.FacialHair.Style = "goatee"
	cfg.Outfit.Top.Style = "hoodie"
	cfg.Outfit.Bottom.Style = "shorts"
	cfg.Outfit.Footwear.Style = "boots"
	cfg.Headwear.Style = hat
	return cfg
}

// benchPart runs BuildPart for one case and reports the CPU time per part
// (cpu-ms/op: all cores, the background painting included), which on this
// shared machine says more than the wall time. The texture cache is
// emptied before each part: a style never built has none of its
// textures cached.
func benchPart(b *testing.B, cfg Config, category string) {
	b.Helper()
	if _, err := BuildPart(cfg, category, ""); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	start := cpuTime()
	for range b.N {
		textures.reset()
		if _, err := BuildPart(cfg, category, ""); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}

// BenchmarkHeadwearPart is the creator's hat pick: the headwear part (the
// hat and the hair pressed under it) for every hat and hair style, on a
// hoodie. Issue 20's goal: a pick shows within 800 ms.
//
//	go test ./assets/avatar -run '^$' -bench HeadwearPart -benchtime 3x
func BenchmarkHeadwearPart(b *testing.B) {
	for _, hat := range headwearStyles {
		if hat == "none" {
			continue
		}
		for _, hair := range hairStyles {
			b.Run(hat+"/"+hair, func(b *testing.B) { benchPart(b, partBenchConfig(hair, hat), "headwear") })
		}
	}
}

// BenchmarkTopPart is the creator's top pick, for every top.
func BenchmarkTopPart(b *testing.B) {
	for _, top := range topStyles {
		cfg := partBenchConfig("long", "none")
		cfg.Outfit.Top.Style = top
		b.Run(top, func(b *testing.B) { benchPart(b, cfg, "top") })
	}
}
