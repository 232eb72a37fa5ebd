package avatar

import "testing"

func BenchmarkZZWarm(b *testing.B) {
	mouthMask()
	cfg := Random(1)
	benchBuild(b, cfg)
	b.ResetTimer()
	for b.Loop() {
		benchBuild(b, cfg)
	}
}
