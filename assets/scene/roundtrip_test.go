package scene

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/kilnhq/kiln/internal/gltfcheck"
)

// sharedModel reads a third-party model from ../shared/testdata, which a
// fresh clone does not have: the test is skipped then.
func sharedModel(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "testdata", name))
	if err != nil {
		t.Skipf("shared test model %s: %v", name, err)
	}
	return data
}

func sharedModels() []string {
	files, _ := filepath.Glob(filepath.Join("..", "..", "..", "shared", "testdata", "*.glb"))
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = filepath.Base(f)
	}
	return names
}

// roundTrip reads in, writes it, validates the output and reads it back.
func roundTrip(t *testing.T, in []byte) (before, after *Scene, out []byte, report gltfcheck.Report) {
	t.Helper()
	before, err := Read(in, ReadOptions{})
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	out, err = Write(before)
	if err != nil {
		t.Fatalf("Write: %v", err)
	}
	report = gltfcheck.RequireValid(t, out)
	after, err = Read(out, ReadOptions{})
	if err != nil {
		t.Fatalf("Read of the output: %v", err)
	}
	return before, after, out, report
}

func TestRoundTripSharedModels(t *testing.T) {
	names := sharedModels()
	if len(names) == 0 {
		t.Skip("no shared test models")
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			in := sharedModel(t, name)
			before, after, out, report := roundTrip(t, in)
			sb, sa := before.Stats(), after.Stats()
			if sb != sa {
				t.Errorf("stats changed:\n before %+v\n after  %+v", sb, sa)
			}
			if tri, ok := report.Info["totalTriangleCount"].(float64); ok && int(tri) != sa.Triangles {
				t.Errorf("validator counts %v triangles, Stats %d", tri, sa.Triangles)
			}
			// The validator's drawCallCount counts each mesh's primitives
			// once, whatever the number of nodes that draw it.
			if dc, ok := report.Info["drawCallCount"].(float64); ok && int(dc) != sa.Primitives {
				t.Errorf("validator counts %v primitives (drawCallCount), Stats %d", dc, sa.Primitives)
			}
			if v, ok := report.Info["totalVertexCount"].(float64); ok && int(v) != sa.Vertices {
				t.Errorf("validator counts %v vertices, Stats %d", v, sa.Vertices)
			}
			sameStructure(t, before, after)
			t.Logf("%s: %d → %d bytes, %d warnings, %+v", name, len(in), len(out), report.NumWarnings, sa)
		})
	}
}

// sameStructure compares what a round trip must keep: names, hierarchy,
// skins, morph targets, animations and geometry.
func sameStructure(t *testing.T, a, b *Scene) {
	t.Helper()
	if len(a.Nodes) != len(b.Nodes) {
		t.Fatalf("nodes: %d → %d", len(a.Nodes), len(b.Nodes))
	}
	for i := range a.Nodes {
		na, nb := a.Nodes[i], b.Nodes[i]
		if na.Name != nb.Name || !slices.Equal(na.Children, nb.Children) || !eqIndex(na.Mesh, nb.Mesh) || !eqIndex(na.Skin, nb.Skin) {
			t.Errorf("node %d changed: %+v → %+v", i, na, nb)
		}
	}
	for i := range a.Meshes {
		ma, mb := a.Meshes[i], b.Meshes[i]
		if ma.Name != mb.Name || !slices.Equal(ma.TargetNames(), mb.TargetNames()) || !slices.Equal(ma.Weights, mb.Weights) {
			t.Errorf("mesh %d changed: %q %v %v → %q %v %v", i, ma.Name, ma.TargetNames(), ma.Weights, mb.Name, mb.TargetNames(), mb.Weights)
		}
		for j := range ma.Primitives {
			pa, pb := ma.Primitives[j], mb.Primitives[j]
			if !slices.Equal(pa.Indices, pb.Indices) || !slices.Equal(pa.Positions, pb.Positions) || !slices.Equal(uv0(pa), uv0(pb)) ||
				len(pa.Targets) != len(pb.Targets) || !eqIndex(pa.Material, pb.Material) || len(pa.Joints) != len(pb.Joints) {
				t.Errorf("mesh %d primitive %d changed", i, j)
			}
			for k := range pa.Joints {
				if !slices.Equal(pa.Joints[k], pb.Joints[k]) || !slices.Equal(pa.Weights[k], pb.Weights[k]) {
					t.Errorf("mesh %d primitive %d: skin weights changed", i, j)
				}
			}
			for k := range pa.Targets {
				if !slices.Equal(pa.Targets[k].Positions, pb.Targets[k].Positions) {
					t.Errorf("mesh %d primitive %d: morph target %d changed", i, j, k)
				}
			}
		}
	}
	for i := range a.Skins {
		sa, sb := a.Skins[i], b.Skins[i]
		if !slices.Equal(sa.Joints, sb.Joints) || !slices.Equal(sa.InverseBindMatrices, sb.InverseBindMatrices) {
			t.Errorf("skin %d changed", i)
		}
	}
	for i := range a.Animations {
		aa, ab := a.Animations[i], b.Animations[i]
		if aa.Name != ab.Name || len(aa.Channels) != len(ab.Channels) || len(aa.Samplers) != len(ab.Samplers) {
			t.Errorf("animation %d changed", i)
			continue
		}
		for k := range aa.Samplers {
			if !slices.Equal(aa.Samplers[k].Input, ab.Samplers[k].Input) || !slices.Equal(aa.Samplers[k].Output, ab.Samplers[k].Output) {
				t.Errorf("animation %d sampler %d changed", i, k)
			}
		}
	}
	for i := range a.Images {
		if !slices.Equal(a.Images[i].Data, b.Images[i].Data) || a.Images[i].MimeType != b.Images[i].MimeType {
			t.Errorf("image %d changed", i)
		}
	}
}

// uv0 is TEXCOORD_0, or nil.
func uv0(p *Primitive) [][2]float32 {
	if len(p.TexCoords) == 0 {
		return nil
	}
	return p.TexCoords[0]
}

func eqIndex(a, b *int) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

func TestAvatarsKeepSkeletonAndBlendShapes(t *testing.T) {
	for _, name := range []string{"rpm-avatar-casual.glb", "rpm-avatar-office.glb"} {
		t.Run(name, func(t *testing.T) {
			before, after, _, _ := roundTrip(t, sharedModel(t, name))
			jointNames := func(s *Scene) []string {
				var names []string
				for _, j := range s.Skins[0].Joints {
					names = append(names, s.Nodes[j].Name)
				}
				return names
			}
			if got := after.Stats().Joints; got != 67 {
				t.Errorf("%d joints, want 67", got)
			}
			jb, ja := jointNames(before), jointNames(after)
			if !slices.Equal(jb, ja) || !slices.Contains(ja, "Hips") || !slices.Contains(ja, "LeftHand") || !slices.Contains(ja, "HeadTop_End") {
				t.Errorf("joint names changed or unexpected:\n before %v\n after  %v", jb, ja)
			}
			for i, m := range after.Meshes {
				if !slices.Equal(m.TargetNames(), before.Meshes[i].TargetNames()) {
					t.Errorf("mesh %s: target names %v → %v", m.Name, before.Meshes[i].TargetNames(), m.TargetNames())
				}
				if m.Name == "Wolf3D_Head" && !slices.Equal(m.TargetNames(), []string{"mouthOpen", "mouthSmile"}) {
					t.Errorf("Wolf3D_Head target names %v", m.TargetNames())
				}
			}
		})
	}
}
