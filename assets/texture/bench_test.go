package texture

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
)

// BenchmarkConvertDamagedHelmet converts the issue 5 anchor model (five
// JPEG textures of 2048²) to WebP at the size glTF-Transform keeps (2048)
// and at Kiln's default cap; bench/texture-webp runs the comparison with
// glTF-Transform itself. Reading the GLB is part of each iteration: Convert
// replaces the scene's images.
func BenchmarkConvertDamagedHelmet(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "testdata", "DamagedHelmet.glb"))
	if err != nil {
		b.Skipf("shared test model: %v", err)
	}
	for _, max := range []int{2048, DefaultMaxSize} {
		b.Run(fmt.Sprintf("webp/max%d", max), func(b *testing.B) {
			var out int
			for b.Loop() {
				s, err := scene.Read(data, scene.ReadOptions{})
				if err != nil {
					b.Fatal(err)
				}
				rep, err := Convert(context.Background(), s, Options{Format: FormatWebP, MaxSize: max})
				if err != nil {
					b.Fatal(err)
				}
				out = rep.BytesAfter()
			}
			b.ReportMetric(float64(out), "image-bytes")
		})
	}
}
