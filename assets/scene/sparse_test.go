package scene

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/kilnhq/kiln/assets/scene/scenetest"
	"github.com/kilnhq/kiln/internal/gltfcheck"
)

// TestSparseMorphTargets writes a morph target that moves few vertices
// as a sparse accessor (and one that moves most of them dense), which
// validates and reads back to the same deltas; quantized and compressed
// scenes keep dense streams.
func TestSparseMorphTargets(t *testing.T) {
	s, err := Read(scenetest.SparseMorph(), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p := s.Meshes[0].Primitives[0]
	moved := p.Targets[0].Positions
	everywhere := make([][3]float32, len(p.Positions))
	for i := range everywhere {
		everywhere[i] = [3]float32{0, 0.01 * float32(i%7+1), 0}
	}
	p.Targets = append(p.Targets, Target{Positions: everywhere})
	if m := s.Meshes[0]; m.Weights != nil {
		m.Weights = append(m.Weights, 0)
	}

	out, err := Write(s)
	if err != nil {
		t.Fatal(err)
	}
	gltfcheck.RequireValid(t, out)
	var doc struct {
		Meshes []struct {
			Primitives []struct {
				Targets []map[string]int `json:"targets"`
			} `json:"primitives"`
		} `json:"meshes"`
		Accessors []struct {
			BufferView *int            `json:"bufferView"`
			Sparse     json.RawMessage `json:"sparse"`
		} `json:"accessors"`
	}
	text, _, _, err := splitContainer(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(text, &doc); err != nil {
		t.Fatal(err)
	}
	targets := doc.Meshes[0].Primitives[0].Targets
	if a := doc.Accessors[targets[0]["POSITION"]]; a.Sparse == nil || a.BufferView != nil {
		t.Errorf("a target moving a few vertices is written dense: %+v", a)
	}
	if a := doc.Accessors[targets[1]["POSITION"]]; a.Sparse != nil {
		t.Errorf("a target moving every vertex is written sparse")
	}
	back, err := Read(out, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := back.Meshes[0].Primitives[0].Targets
	if !slices.Equal(got[0].Positions, moved) || !slices.Equal(got[1].Positions, everywhere) {
		t.Error("targets read back differ from those written")
	}

	compressed, err := WriteWith(s, WriteOptions{Meshopt: true})
	if err != nil {
		t.Fatal(err)
	}
	text, _, _, err = splitContainer(compressed)
	if err != nil {
		t.Fatal(err)
	}
	var packed struct {
		Accessors []struct {
			Sparse json.RawMessage `json:"sparse"`
		} `json:"accessors"`
	}
	if err := json.Unmarshal(text, &packed); err != nil {
		t.Fatal(err)
	}
	for _, a := range packed.Accessors {
		if a.Sparse != nil {
			t.Error("a compressed scene has a sparse accessor")
		}
	}
}
