package morph

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/internal/gltfcheck"
)

// twoMeshes is a scene of two triangles with morph targets [a b c] and
// [b], default weights on the mesh and on the node, and a clip that
// animates the first mesh's weights.
func twoMeshes() *scene.Scene {
	tri := func(names ...string) *scene.Mesh {
		p := &scene.Primitive{Mode: gltf.PrimitiveTriangles, Positions: [][3]float32{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}}
		list := make([]any, len(names))
		for i, n := range names {
			// target i moves vertex 2 up by i+1
			p.Targets = append(p.Targets, scene.Target{Positions: [][3]float32{{}, {}, {0, float32(i + 1), 0}}})
			list[i] = n
		}
		return &scene.Mesh{Primitives: []*scene.Primitive{p}, Extras: map[string]any{"targetNames": list, "author": "test"}}
	}
	m0, m1 := tri("a", "b", "c"), tri("b")
	m0.Weights = []float64{0.1, 0.2, 0.3}
	return &scene.Scene{
		Asset:  gltf.Asset{Version: "2.0"},
		Meshes: []*scene.Mesh{m0, m1},
		Nodes: []*gltf.Node{
			{Name: "first", Mesh: gltf.Index(0), Weights: []float64{1, 2, 3}},
			{Name: "second", Mesh: gltf.Index(1), Weights: []float64{0.5}},
		},
		Scenes:       []*gltf.Scene{{Nodes: []int{0, 1}}},
		DefaultScene: gltf.Index(0),
		Animations: []*scene.Animation{{Name: "talk",
			Samplers: []scene.AnimationSampler{
				{Interpolation: gltf.InterpolationLinear, Input: []float32{0, 1}, Output: []float32{0, 0.1, 0.2, 1, 0.9, 0.8}},
				{Interpolation: gltf.InterpolationLinear, Input: []float32{0, 1}, Output: []float32{0, 1}},
			},
			Channels: []scene.Channel{
				{Sampler: 0, Node: gltf.Index(0), Path: gltf.TRSWeights},
				{Sampler: 1, Node: gltf.Index(1), Path: gltf.TRSWeights},
			},
		}},
	}
}

func TestKeep(t *testing.T) {
	for _, tc := range []struct {
		keep      []string
		kept      []string
		first     []string  // names left on the first mesh
		weights   []float64 // its mesh weights
		node      []float64 // its node weights
		clip      []float32 // its animated weights
		second    []string
		channels  int
		deltaOfB0 float32 // the first mesh's delta of the first kept target
	}{
		{keep: []string{"c", "a"}, kept: []string{"a", "c"}, first: []string{"a", "c"}, weights: []float64{0.1, 0.3}, node: []float64{1, 3}, clip: []float32{0, 0.2, 1, 0.8}, channels: 1, deltaOfB0: 1},
		{keep: []string{"b"}, kept: []string{"b"}, first: []string{"b"}, weights: []float64{0.2}, node: []float64{2}, clip: []float32{0.1, 0.9}, second: []string{"b"}, channels: 2, deltaOfB0: 2},
		{keep: []string{"a", "b", "c", "zzz"}, kept: []string{"a", "b", "c"}, first: []string{"a", "b", "c"}, weights: []float64{0.1, 0.2, 0.3}, node: []float64{1, 2, 3}, clip: []float32{0, 0.1, 0.2, 1, 0.9, 0.8}, second: []string{"b"}, channels: 2, deltaOfB0: 1},
		{keep: nil, channels: 0},
	} {
		s := twoMeshes()
		kept := Keep(s, tc.keep)
		m0, m1 := s.Meshes[0], s.Meshes[1]
		if !slices.Equal(kept, tc.kept) || !slices.Equal(m0.TargetNames(), tc.first) || !slices.Equal(m1.TargetNames(), tc.second) {
			t.Errorf("keep %v: kept %v, meshes %v %v", tc.keep, kept, m0.TargetNames(), m1.TargetNames())
		}
		if len(m0.Primitives[0].Targets) != len(tc.first) || len(m1.Primitives[0].Targets) != len(tc.second) {
			t.Errorf("keep %v: %d and %d targets left", tc.keep, len(m0.Primitives[0].Targets), len(m1.Primitives[0].Targets))
		}
		if len(tc.first) > 0 && m0.Primitives[0].Targets[0].Positions[2][1] != tc.deltaOfB0 {
			t.Errorf("keep %v: first target moves by %v", tc.keep, m0.Primitives[0].Targets[0].Positions[2])
		}
		if !slices.Equal(m0.Weights, tc.weights) || !slices.Equal(s.Nodes[0].Weights, tc.node) {
			t.Errorf("keep %v: weights %v, node weights %v", tc.keep, m0.Weights, s.Nodes[0].Weights)
		}
		channels := 0
		for _, a := range s.Animations {
			channels += len(a.Channels)
		}
		if channels != tc.channels {
			t.Errorf("keep %v: %d weight channels left", tc.keep, channels)
		}
		if tc.clip != nil && !slices.Equal(s.Animations[0].Samplers[0].Output, tc.clip) {
			t.Errorf("keep %v: clip values %v", tc.keep, s.Animations[0].Samplers[0].Output)
		}
		if ex, _ := m0.Extras.(map[string]any); ex["author"] != "test" {
			t.Errorf("keep %v: other extras lost: %v", tc.keep, m0.Extras)
		}
		s.Prune()
		glb, err := scene.Write(s)
		if err != nil {
			t.Fatal(err)
		}
		gltfcheck.RequireValid(t, glb)
	}
}

// On the leader's avatars: the kept shape moves what it moved before.
func TestKeepLeaderAvatar(t *testing.T) {
	path := filepath.Join("..", "..", "..", "shared", "testdata", "rpm-avatar-office.glb")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Skip("no leader avatar:", err)
	}
	before, err := scene.Read(data, scene.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := scene.Read(data, scene.ReadOptions{})
	if kept := Keep(s, []string{"mouthSmile", "eyeBlinkLeft"}); !slices.Equal(kept, []string{"mouthSmile"}) {
		t.Errorf("kept %v", kept)
	}
	for mi, m := range s.Meshes {
		if before.Meshes[mi].TargetNames() == nil {
			continue
		}
		if !slices.Equal(m.TargetNames(), []string{"mouthSmile"}) || len(m.Primitives[0].Targets) != 1 {
			t.Fatalf("%s: %v", m.Name, m.TargetNames())
		}
		if !slices.Equal(m.Primitives[0].Targets[0].Positions, before.Meshes[mi].Primitives[0].Targets[1].Positions) {
			t.Errorf("%s: mouthSmile changed", m.Name)
		}
	}
	glb, err := scene.Write(s)
	if err != nil {
		t.Fatal(err)
	}
	gltfcheck.RequireValid(t, glb)
}
