package scene

import (
	"context"
	"slices"
	"testing"

	"github.com/qmuntal/gltf"
)

func TestDropDegenerate(t *testing.T) {
	quad := [][3]float32{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}}
	many := make([]uint32, 0, 300000)
	for range 100000 {
		many = append(many, 0, 1, 2)
	}
	tests := []struct {
		name      string
		positions [][3]float32
		indices   []uint32
		targets   bool
		want      []uint32
		vertices  int
	}{
		{"100,000 faces on three vertices", quad[:3], many, false, []uint32{0, 1, 2}, 3},
		{"rotations are one triangle", quad[:3], []uint32{0, 1, 2, 1, 2, 0, 2, 0, 1}, false, []uint32{0, 1, 2}, 3},
		{"the back face stays", quad[:3], []uint32{0, 1, 2, 0, 2, 1}, false, []uint32{0, 1, 2, 0, 2, 1}, 3},
		{"a repeated corner goes", quad, []uint32{0, 1, 2, 0, 0, 3, 3, 2, 2}, false, []uint32{0, 1, 2}, 3},
		{"split vertices at one place are one corner", append(slices.Clone(quad), quad[0]), []uint32{0, 1, 2, 4, 1, 2, 0, 4, 3}, false, []uint32{0, 1, 2}, 3},
		{"morphed twins stay apart", append(slices.Clone(quad), quad[0]), []uint32{0, 4, 1, 0, 1, 2, 0, 1, 2}, true, []uint32{0, 3, 1, 0, 1, 2}, 4},
		{"nothing to drop", quad, []uint32{0, 1, 2, 0, 2, 3}, false, []uint32{0, 1, 2, 0, 2, 3}, 4},
		{"only degenerate: one stays", quad, []uint32{0, 0, 1, 2, 2, 2}, false, []uint32{0, 0, 1}, 2},
		{"unindexed duplicates", [][3]float32{quad[0], quad[1], quad[2], quad[0], quad[1], quad[2]}, nil, false, []uint32{0, 1, 2}, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &Primitive{Mode: gltf.PrimitiveTriangles, Positions: slices.Clone(tc.positions), Indices: slices.Clone(tc.indices)}
			if tc.targets {
				d := make([][3]float32, len(tc.positions))
				d[len(d)-1] = [3]float32{0, 0, 1}
				p.Targets = []Target{{Positions: d}}
			}
			s := &Scene{Meshes: []*Mesh{{Primitives: []*Primitive{p}}}}
			n, err := s.DropDegenerate(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			before := len(tc.indices)
			if tc.indices == nil {
				before = len(tc.positions)
			}
			if !slices.Equal(p.Indices, tc.want) || n != (before-len(tc.want))/3 || p.VertexCount() != tc.vertices {
				t.Fatalf("indices %v (dropped %d), %d vertices; want %v, %d vertices", p.Indices, n, p.VertexCount(), tc.want, tc.vertices)
			}
			if _, err := Write(s); err != nil {
				t.Fatalf("write after cleaning: %v", err)
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s := &Scene{Meshes: []*Mesh{{Primitives: []*Primitive{{Mode: gltf.PrimitiveTriangles, Positions: quad[:3], Indices: many}}}}}
	if _, err := s.DropDegenerate(ctx); err == nil {
		t.Fatal("a cancelled context did not stop the pass")
	}
}
