package lod

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/simplify/simplifytest"
)

// TestChainStopsAtDeadline gives the chain of a 720,000-triangle grid a
// deadline far shorter than its simplification: it ends with the
// deadline's error, having emitted lod 0 only.
func TestChainStopsAtDeadline(t *testing.T) {
	g := simplifytest.Terrain(600)
	p := &scene.Primitive{Mode: gltf.PrimitiveTriangles, Indices: g.Indices}
	for i := 0; i+2 < len(g.Positions); i += 3 {
		p.Positions = append(p.Positions, [3]float32{g.Positions[i], g.Positions[i+1], g.Positions[i+2]})
	}
	zero := 0
	s := &scene.Scene{Meshes: []*scene.Mesh{{Primitives: []*scene.Primitive{p}}},
		Nodes: []*gltf.Node{{Mesh: &zero}}, Scenes: []*gltf.Scene{{Nodes: []int{0}}}, DefaultScene: &zero}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	var levels []int
	err := Chain(ctx, s, Max, func(l Level, _ *scene.Scene) error {
		levels = append(levels, l.Level)
		return nil
	})
	if !errors.Is(err, context.DeadlineExceeded) || len(levels) != 1 {
		t.Fatalf("chain past its deadline: %v after levels %v", err, levels)
	}
}
