package merge

import (
	"context"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/atlas"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/scene/scenetest"
	"github.com/kilnhq/kiln/assets/xform"
)

func TestLocalMatchesTRS(t *testing.T) {
	n := &gltf.Node{Translation: [3]float64{1, 2, 3}, Rotation: axisAngle(0, 0, 1, 90), Scale: [3]float64{2, 1, 1}}
	// x scaled by 2, turned 90° about z onto y, moved.
	got := apply(xform.Local(n), [3]float64{1, 0, 0})
	if want := [3]float64{1, 4, 3}; math.Abs(got[0]-want[0])+math.Abs(got[1]-want[1])+math.Abs(got[2]-want[2]) > 1e-9 {
		t.Errorf("TRS: %v, want %v", got, want)
	}
	m := &gltf.Node{Matrix: [16]float64{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 5, 6, 7, 1}, Rotation: [4]float64{0, 0, 0, 1}, Scale: [3]float64{1, 1, 1}}
	if got := apply(xform.Local(m), [3]float64{1, 1, 1}); got != [3]float64{6, 7, 8} {
		t.Errorf("matrix: %v", got)
	}
	inv, _ := xform.Local(n).Inverse()
	if !inv.Mul(xform.Local(n)).Near(xform.Identity, 1e-12) {
		t.Errorf("inverse")
	}
}

func newScene() *scene.Scene {
	return &scene.Scene{Asset: gltf.Asset{Version: "2.0"}, Scenes: []*gltf.Scene{{}}, DefaultScene: gltf.Index(0)}
}

func (f *fixture) mesh(name string, prims ...*scene.Primitive) int {
	f.s.Meshes = append(f.s.Meshes, &scene.Mesh{Name: name, Primitives: prims})
	return len(f.s.Meshes) - 1
}

func (f *fixture) node(n *gltf.Node, parent int) int {
	f.s.Nodes = append(f.s.Nodes, n)
	i := len(f.s.Nodes) - 1
	if parent < 0 {
		f.s.Scenes[0].Nodes = append(f.s.Scenes[0].Nodes, i)
	} else {
		f.s.Nodes[parent].Children = append(f.s.Nodes[parent].Children, i)
	}
	return i
}

func (f *fixture) material(m *gltf.Material) *int {
	f.s.Materials = append(f.s.Materials, m)
	return gltf.Index(len(f.s.Materials) - 1)
}

type fixture struct{ s *scene.Scene }

// staticModel: no skin, no animation: nested transforms, a non-uniform
// scale, a mirrored instance, an instanced mesh and a mesh without
// normals, UVs or colours.
func staticModel() *scene.Scene {
	f := fixture{newScene()}
	mat := f.material(&gltf.Material{Name: "M"})
	a := f.mesh("A", pyramid(mat))
	bare := pyramid(mat)
	bare.Normals, bare.TexCoords, bare.Colors = nil, nil, nil
	c := f.mesh("C", bare)
	parent := f.node(&gltf.Node{Name: "Parent", Translation: [3]float64{1, 2, 3}, Rotation: axisAngle(0, 1, 0, 90), Scale: [3]float64{1, 1, 1}}, -1)
	f.node(&gltf.Node{Name: "A", Mesh: gltf.Index(a), Translation: [3]float64{0, 1, 0}, Rotation: axisAngle(1, 0, 0, 30), Scale: [3]float64{2, 1, 1}}, parent)
	f.node(&gltf.Node{Name: "Mirror", Mesh: gltf.Index(a), Translation: [3]float64{0, -2, 0}, Rotation: [4]float64{0, 0, 0, 1}, Scale: [3]float64{-1, 1, 1}}, parent)
	f.node(&gltf.Node{Name: "C", Mesh: gltf.Index(c), Translation: [3]float64{5, 0, 0}, Rotation: [4]float64{0, 0, 0, 1}, Scale: [3]float64{1, 1, 1}}, -1)
	return f.s
}

// skinnedWithProps: scenetest.Skinned (a skinned column with two named
// morph targets and a weight animation) plus an unskinned prop under a
// joint and a transparent lamp at the root.
func skinnedWithProps() *scene.Scene {
	s := mustRead(scenetest.Skinned())
	f := fixture{s}
	spine := slices.IndexFunc(s.Nodes, func(n *gltf.Node) bool { return n.Name == "Spine" })
	prop := f.mesh("Prop", pyramid(gltf.Index(0)))
	f.node(&gltf.Node{Name: "Prop", Mesh: gltf.Index(prop), Translation: [3]float64{0.5, 0.2, 0}, Rotation: axisAngle(0, 0, 1, 20), Scale: [3]float64{0.2, 0.2, 0.2}}, spine)
	glass := f.material(&gltf.Material{Name: "Glass", AlphaMode: gltf.AlphaBlend})
	lamp := f.mesh("Lamp", pyramid(glass))
	f.node(&gltf.Node{Name: "Lamp", Mesh: gltf.Index(lamp), Translation: [3]float64{3, 0, 0}, Rotation: [4]float64{0, 0, 0, 1}, Scale: [3]float64{1, 1, 1}}, -1)
	return s
}

// twoBindPoses: scenetest.SkinnedTube twice on two skins of the same
// joints; the second mesh is stored in another bind space (vertices moved
// by Y⁻¹, inverse bind matrices by Y), which is the same drawing. With
// clash, the second skin's joints disagree (one Y per joint).
func twoBindPoses(clash bool) func() *scene.Scene {
	return func() *scene.Scene {
		s := mustRead(scenetest.SkinnedTube())
		y := xform.Local(&gltf.Node{Translation: [3]float64{0, 0, 2}, Rotation: axisAngle(0, 1, 0, 90), Scale: [3]float64{1, 1, 1}})
		yInv, _ := y.Inverse()
		src := s.Meshes[0].Primitives[0]
		p := *src
		p.Positions = make([][3]float32, len(src.Positions))
		p.Normals = make([][3]float32, len(src.Normals))
		for i := range src.Positions {
			p.Positions[i] = yInv.Point32(src.Positions[i])
			p.Normals[i] = yInv.Vector32(src.Normals[i])
		}
		p.Targets = nil
		for _, tg := range src.Targets {
			nt := scene.Target{Positions: make([][3]float32, len(tg.Positions)), Normals: make([][3]float32, len(tg.Normals))}
			for i := range tg.Positions {
				nt.Positions[i] = yInv.Vector32(tg.Positions[i])
				nt.Normals[i] = yInv.Vector32(tg.Normals[i])
			}
			p.Targets = append(p.Targets, nt)
		}
		m := *s.Meshes[0]
		m.Name, m.Primitives = "Tube2", []*scene.Primitive{&p}
		s.Meshes = append(s.Meshes, &m)
		sk := *s.Skins[0]
		sk.InverseBindMatrices = nil
		for i, ibm := range s.Skins[0].InverseBindMatrices {
			yj := y
			if clash && i == 1 {
				yj = xform.Identity
			}
			sk.InverseBindMatrices = append(sk.InverseBindMatrices, xform.FromFloat32(ibm).Mul(yj).Float32())
		}
		s.Skins = append(s.Skins, &sk)
		s.Nodes = append(s.Nodes, &gltf.Node{Name: "Tube2", Mesh: gltf.Index(1), Skin: gltf.Index(1)})
		s.Scenes[0].Nodes = append(s.Scenes[0].Nodes, len(s.Nodes)-1)
		return s
	}
}

// animatedRig: no skin, but a rotor node spins (rotation channel) with a
// blade mesh under it, and a static base at another root.
func animatedRig() *scene.Scene {
	f := fixture{newScene()}
	mat := f.material(&gltf.Material{Name: "M"})
	m := f.mesh("Part", pyramid(mat))
	rotor := f.node(&gltf.Node{Name: "Rotor", Translation: [3]float64{0, 3, 0}, Rotation: [4]float64{0, 0, 0, 1}, Scale: [3]float64{1, 1, 1}}, -1)
	f.node(&gltf.Node{Name: "Blade", Mesh: gltf.Index(m), Translation: [3]float64{2, 0, 0}, Rotation: axisAngle(0, 0, 1, 90), Scale: [3]float64{0.5, 0.5, 0.5}}, rotor)
	f.node(&gltf.Node{Name: "Base", Mesh: gltf.Index(m), Translation: [3]float64{0, -1, 0}, Rotation: [4]float64{0, 0, 0, 1}, Scale: [3]float64{1, 1, 1}}, -1)
	q := axisAngle(0, 1, 0, 90)
	f.s.Animations = []*scene.Animation{{Name: "Spin",
		Samplers: []scene.AnimationSampler{{Interpolation: gltf.InterpolationLinear, Input: []float32{0, 1},
			Output: []float32{0, 0, 0, 1, float32(q[0]), float32(q[1]), float32(q[2]), float32(q[3])}}},
		Channels: []scene.Channel{{Sampler: 0, Node: gltf.Index(rotor), Path: gltf.TRSRotation}},
	}}
	return f.s
}

// morphing: three unskinned meshes, two with morph targets [a b] and
// [b c], one without, each node's weights animated on its own keys.
func morphing() *scene.Scene {
	f := fixture{newScene()}
	mat := f.material(&gltf.Material{Name: "M"})
	withTargets := func(names ...string) int {
		p := pyramid(mat)
		for k := range names {
			d := make([][3]float32, len(p.Positions))
			d[4] = [3]float32{float32(k + 1), 0, 0.5} // the apex moves
			p.Targets = append(p.Targets, scene.Target{Positions: d})
		}
		list := make([]any, len(names))
		for i, n := range names {
			list[i] = n
		}
		i := f.mesh("T"+strconv.Itoa(len(f.s.Meshes)), p)
		f.s.Meshes[i].Extras = map[string]any{"targetNames": list}
		f.s.Meshes[i].Weights = make([]float64, len(names))
		return i
	}
	ab, bc := withTargets("a", "b"), withTargets("b", "c")
	plain := f.mesh("Plain", pyramid(mat))
	n1 := f.node(&gltf.Node{Mesh: gltf.Index(ab), Name: "AB"}, -1)
	n2 := f.node(&gltf.Node{Mesh: gltf.Index(bc), Name: "BC", Translation: [3]float64{3, 0, 0}}, -1)
	f.node(&gltf.Node{Mesh: gltf.Index(plain), Name: "Plain", Translation: [3]float64{-3, 0, 0}}, -1)
	f.s.Animations = []*scene.Animation{{Name: "Talk",
		Samplers: []scene.AnimationSampler{
			{Interpolation: gltf.InterpolationLinear, Input: []float32{0, 1}, Output: []float32{0, 0, 1, 0.5}},
			{Interpolation: gltf.InterpolationLinear, Input: []float32{0, 0.5, 2}, Output: []float32{0, 1, 1, 0, 0.2, 0.2}},
		},
		Channels: []scene.Channel{
			{Sampler: 0, Node: gltf.Index(n1), Path: gltf.TRSWeights},
			{Sampler: 1, Node: gltf.Index(n2), Path: gltf.TRSWeights},
		},
	}}
	return f.s
}

func mustRead(glb []byte) *scene.Scene {
	s, err := scene.Read(glb, scene.ReadOptions{})
	if err != nil {
		panic(err)
	}
	return s
}

func TestMeshesKeepsEveryVertexWhereItWas(t *testing.T) {
	for _, tc := range []struct {
		name        string
		build       func() *scene.Scene
		poses       []pose
		weights     map[string]float64
		skinned     bool
		meshes      int
		addedJoints []string
		skinsMerged int
		targets     []string
	}{
		{name: "static transforms", build: staticModel, poses: []pose{nil}, meshes: 1},
		{name: "skinned with props", build: skinnedWithProps, meshes: 2, skinned: true, addedJoints: []string{"Lamp"},
			poses:   []pose{nil, {"Spine": axisAngle(0, 0, 1, 40), "Hips": axisAngle(1, 0, 0, 15)}},
			weights: map[string]float64{"mouthOpen": 1, "mouthSmile": 0.5}, targets: []string{"mouthSmile", "mouthOpen"}},
		{name: "two bind poses", build: twoBindPoses(false), meshes: 1, skinned: true, skinsMerged: 1,
			poses:   []pose{nil, {"Middle": axisAngle(0, 0, 1, 50), "Tip": axisAngle(1, 0, 0, -30)}},
			weights: map[string]float64{"bulge": 0.7}, targets: []string{"bulge", "squash"}},
		{name: "animated rig", build: animatedRig, meshes: 1, skinned: true, addedJoints: []string{"Rotor", "Base"},
			poses: []pose{nil, {"Rotor": axisAngle(0, 1, 0, 70)}}},
		{name: "morph union", build: morphing, meshes: 1, poses: []pose{nil},
			weights: map[string]float64{"a": 0.3, "b": 1, "c": 0.5}, targets: []string{"a", "b", "c"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.build()
			rep, err := Meshes(s)
			if err != nil {
				t.Fatal(err)
			}
			out, _ := writeValid(t, s)
			if len(rep.Meshes) != tc.meshes || rep.Skinned != tc.skinned || !slices.Equal(rep.AddedJoints, tc.addedJoints) ||
				rep.SkinsMerged != tc.skinsMerged || !slices.Equal(rep.MorphTargets, tc.targets) {
				t.Errorf("report %+v", rep)
			}
			if got := len(out.Meshes); got != tc.meshes {
				t.Errorf("%d meshes in the output, want %d", got, tc.meshes)
			}
			for _, m := range out.Meshes {
				if m.Name != "Kiln_Merged" && m.Name != "Kiln_Merged_Transparent" {
					t.Errorf("mesh named %q", m.Name)
				}
				if len(m.Primitives) != 1 {
					t.Errorf("%s: %d primitives, want 1 (one material per group)", m.Name, len(m.Primitives))
				}
				if !slices.Equal(m.TargetNames(), tc.targets) && !(m.Name == "Kiln_Merged_Transparent" && len(m.TargetNames()) == 0) {
					t.Errorf("%s: target names %v, want %v", m.Name, m.TargetNames(), tc.targets)
				}
			}
			checkWeights(t, out)
			for i, p := range tc.poses {
				before := evaluate(tc.build(), p, tc.weights)
				after := evaluate(out, p, tc.weights)
				samePositions(t, "pose "+strconv.Itoa(i), before, after, 1e-5)
			}
		})
	}
}

func TestMeshesBakesNormalsAndFillsStreams(t *testing.T) {
	s := staticModel()
	// Only mesh A has tangents: C's are computed, perpendicular to its
	// normals.
	a := s.Meshes[0].Primitives[0]
	a.Tangents = vertexTangents(a.Positions, a.Normals, a.TexCoords[0], a.Indices)
	if _, err := Meshes(s); err != nil {
		t.Fatal(err)
	}
	out, _ := writeValid(t, s)
	p := out.Meshes[0].Primitives[0]
	outward(t, p)
	for i, n := range p.Normals {
		if l := math.Sqrt(float64(n[0]*n[0] + n[1]*n[1] + n[2]*n[2])); math.Abs(l-1) > 1e-3 {
			t.Fatalf("normal %d has length %v", i, l)
		}
	}
	// The last instance ("C") had no UVs and no colours: (0,0) and white.
	last := len(p.Positions) - 5
	for v := last; v < len(p.Positions); v++ {
		if p.TexCoords[0][v] != [2]float32{} || p.Colors[0][v] != [4]float32{1, 1, 1, 1} {
			t.Fatalf("vertex %d of the bare mesh: UV %v colour %v", v, p.TexCoords[0][v], p.Colors[0][v])
		}
	}
	for v, tg := range p.Tangents {
		n := p.Normals[v]
		l := math.Sqrt(float64(tg[0]*tg[0] + tg[1]*tg[1] + tg[2]*tg[2]))
		if d := tg[0]*n[0] + tg[1]*n[1] + tg[2]*n[2]; math.Abs(l-1) > 1e-3 || math.Abs(float64(d)) > 1e-3 || (tg[3] != 1 && tg[3] != -1) {
			t.Fatalf("tangent %d: %v (normal %v)", v, tg, n)
		}
	}
	if len(p.Tangents) != len(p.Positions) {
		t.Fatalf("%d tangents for %d vertices", len(p.Tangents), len(p.Positions))
	}
	if p.Colors[0][0] != [4]float32{1, 0, 0, 1} {
		t.Errorf("source colours lost: %v", p.Colors[0][0])
	}
}

func TestMeshesRejectsSkinsInDifferentPoses(t *testing.T) {
	_, err := Meshes(twoBindPoses(true)())
	if kiln.KindOf(err) != kiln.KindInvalid {
		t.Fatalf("got %v, want an invalid-model error", err)
	}
}

func TestMeshesMovesWeightAnimations(t *testing.T) {
	src := morphing()
	s := morphing()
	if _, err := Meshes(s); err != nil {
		t.Fatal(err)
	}
	out, _ := writeValid(t, s)
	if len(out.Animations) != 1 || len(out.Animations[0].Channels) != 1 {
		t.Fatalf("animations %+v", out.Animations)
	}
	a := out.Animations[0]
	c := a.Channels[0]
	if c.Path != gltf.TRSWeights || out.Nodes[*c.Node].Mesh == nil {
		t.Fatalf("channel %+v does not drive the merged mesh", c)
	}
	union := out.Meshes[*out.Nodes[*c.Node].Mesh].TargetNames()
	// At every time, each source's weights are where their names went.
	for _, tm := range []float32{0, 0.25, 0.5, 0.75, 1, 1.5, 2} {
		got := sample(a.Samplers[c.Sampler], len(union), tm)
		for k, ch := range src.Animations[0].Channels {
			names := src.Meshes[*src.Nodes[*ch.Node].Mesh].TargetNames()
			want := sample(src.Animations[0].Samplers[ch.Sampler], len(names), tm)
			for i, n := range names {
				j := slices.Index(union, n)
				if k == 0 && n == "b" {
					continue // b is driven by both sources; the later wins
				}
				if math.Abs(float64(got[j]-want[i])) > 1e-6 {
					t.Errorf("t=%v %s: %v, want %v", tm, n, got[j], want[i])
				}
			}
		}
	}
}

// TestAtlasAndMergeOnSharedModels is the variant matrix of issue 5 for
// these two stages: every shared model without atlas and with atlases of
// 256 and 1024, merged: valid, at most two draw calls when every material
// went into the atlas, skeleton and blend shapes kept, weights normalized,
// every vertex where it was.
func TestAtlasAndMergeOnSharedModels(t *testing.T) {
	for _, path := range sharedModels(t) {
		data := readFile(t, path)
		for _, size := range []int{0, 256, 1024} {
			t.Run(filepath.Base(path)+"/atlas"+strconv.Itoa(size), func(t *testing.T) {
				s := read(t, data)
				src := read(t, data)
				kept := 0
				if size > 0 {
					rep, err := atlas.Build(context.Background(), s, size)
					if err != nil {
						t.Fatal(err)
					}
					kept = len(rep.KeptOut)
					if rep.Width > size || rep.Height > size {
						t.Errorf("atlas %dx%d > %d", rep.Width, rep.Height, size)
					}
				}
				rep, err := Meshes(s)
				if err != nil {
					t.Fatal(err)
				}
				out, _ := writeValid(t, s)
				if draws := out.Stats().DrawCalls; size > 0 && kept == 0 && draws > 2 {
					t.Errorf("%d draw calls with the atlas, want at most 2", draws)
				}
				for _, im := range out.Images {
					if len(im.Data) == 0 {
						t.Errorf("empty image")
					}
				}
				checkWeights(t, out)
				if got, want := jointNames(out), jointNames(src); !slices.Equal(got, want) {
					t.Errorf("joints %v, want %v", got, want)
				}
				var names []string
				for _, m := range src.Meshes {
					for _, n := range m.TargetNames() {
						if !slices.Contains(names, n) {
							names = append(names, n)
						}
					}
				}
				if !slices.Equal(rep.MorphTargets, names) {
					t.Errorf("morph targets %v, want %v", rep.MorphTargets, names)
				}
				if atlas.IsWolf3D(src) {
					if len(jointNames(out)) != 67 || out.Meshes[0].Name != "Wolf3D_Avatar" ||
						!slices.Equal(out.Meshes[0].TargetNames(), []string{"mouthOpen", "mouthSmile"}) {
						t.Errorf("avatar: %d joints, mesh %q with targets %v", len(jointNames(out)), out.Meshes[0].Name, out.Meshes[0].TargetNames())
					}
				}
				weights := map[string]float64{}
				for _, n := range names {
					weights[n] = 0.5
				}
				// The reference goes through the atlas too: it moves no vertex
				// but makes one material of many, which orders them.
				ref := read(t, data)
				if size > 0 {
					if _, err := atlas.Build(context.Background(), ref, size); err != nil {
						t.Fatal(err)
					}
				}
				samePositions(t, "rest pose", evaluate(ref, nil, weights), evaluate(out, nil, weights), 1e-5)
				// And bent: every third joint turned.
				bend := pose{}
				for i, n := range jointNames(src) {
					if i%3 == 1 {
						bend[n] = axisAngle(1, 0.5, 0.2, 25)
					}
				}
				if len(bend) > 0 {
					samePositions(t, "bent", evaluate(ref, bend, weights), evaluate(out, bend, weights), 1e-5)
				}
				t.Logf("%d draw calls (%d materials kept out), %d meshes, %d joints, targets %v", out.Stats().DrawCalls, kept, len(rep.Meshes), rep.Joints, rep.MorphTargets)
			})
		}
	}
}
