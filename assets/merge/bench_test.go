package merge

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/kilnhq/kiln/assets/atlas"
	"github.com/kilnhq/kiln/assets/scene"
)

// BenchmarkAtlasMergeRPM measures the atlas (1024) and the merge of a
// Ready Player Me avatar, the two stages of the issue 5 variant (lod 1,
// webp, atlas 1024, merged: under 2 s cold) that this package owns; the
// scene is read afresh for each run, outside the timer, since both stages
// rewrite it.
func BenchmarkAtlasMergeRPM(b *testing.B) {
	data := readFile(b, filepath.Join("..", "..", "..", "shared", "testdata", "rpm-avatar-casual.glb"))
	for _, stage := range []string{"atlas+merge", "merge"} {
		b.Run(stage, func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				s := read(b, data)
				b.StartTimer()
				if stage == "atlas+merge" {
					if _, err := atlas.Build(context.Background(), s, 1024); err != nil {
						b.Fatal(err)
					}
				}
				if _, err := Meshes(s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("read+atlas+merge+write", func(b *testing.B) {
		for b.Loop() {
			s := read(b, data)
			if _, err := atlas.Build(context.Background(), s, 1024); err != nil {
				b.Fatal(err)
			}
			if _, err := Meshes(s); err != nil {
				b.Fatal(err)
			}
			if _, err := scene.Write(s); err != nil {
				b.Fatal(err)
			}
		}
	})
}
