package pose

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/avatar"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/xform"
	"github.com/kilnhq/kiln/internal/gltfcheck"
)

// avatars are the models the stage must pose: the leader's own files
// (from ../shared, skipped when absent) and Kiln's built-in avatars,
// whichever generator builds them.
func avatars(t testing.TB) map[string]func() *scene.Scene {
	t.Helper()
	out := map[string]func() *scene.Scene{}
	for _, g := range []string{avatar.Masculine, avatar.Feminine} {
		out["kiln-"+g] = func() *scene.Scene {
			s, err := avatar.Generate(avatar.Default(g))
			if err != nil {
				t.Fatalf("generate %s: %v", g, err)
			}
			return s
		}
	}
	for _, f := range []string{"rpm-avatar-casual.glb", "rpm-avatar-office.glb"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "testdata", f))
		if err != nil {
			t.Logf("%s absent: only Kiln's avatars are posed", f)
			continue
		}
		out[f] = func() *scene.Scene {
			s, err := scene.Read(b, scene.ReadOptions{})
			if err != nil {
				t.Fatalf("read %s: %v", f, err)
			}
			return s
		}
	}
	return out
}

// elevation is the upper arm's angle below the horizontal, in degrees.
func elevation(s *scene.Scene, arm [2]string) float64 {
	w := xform.Worlds(s, s.Parents(), nil)
	d, _ := vec3(w[find(s, arm[1])].Translation()).sub(w[find(s, arm[0])].Translation()).unit()
	return -math.Asin(d[1]) * 180 / math.Pi
}

// skinned is every skinned vertex where linear blend skinning puts it
// with the nodes' current transforms, per mesh and primitive; with it,
// each vertex's weight on the joint named heavy and the joints below it,
// and its largest single weight.
func skinned(s *scene.Scene, heavy string) (pos [][][]vec3, weight, top [][][]float64) {
	parent := s.Parents()
	w := xform.Worlds(s, parent, nil)
	under := func(j int) bool {
		for ; j >= 0; j = parent[j] {
			if s.Nodes[j].Name == heavy {
				return true
			}
		}
		return false
	}
	pos = make([][][]vec3, len(s.Meshes))
	weight = make([][][]float64, len(s.Meshes))
	top = make([][][]float64, len(s.Meshes))
	for _, n := range s.Nodes {
		if n.Mesh == nil || n.Skin == nil || pos[*n.Mesh] != nil {
			continue
		}
		skin := s.Skins[*n.Skin]
		joint := make([]xform.Mat4, len(skin.Joints))
		for i, j := range skin.Joints {
			joint[i] = w[j].Mul(xform.FromFloat32(skin.InverseBindMatrices[i]))
		}
		for _, p := range s.Meshes[*n.Mesh].Primitives {
			ps := make([]vec3, len(p.Positions))
			ws := make([]float64, len(p.Positions))
			tops := make([]float64, len(p.Positions))
			for v := range p.Positions {
				var m xform.Mat4
				for c := 0; c < 4; c++ {
					wt := float64(p.Weights[0][v][c])
					m = m.AddScaled(joint[p.Joints[0][v][c]], wt)
					tops[v] = math.Max(tops[v], wt)
					if wt > 0 && under(skin.Joints[p.Joints[0][v][c]]) {
						ws[v] += wt
					}
				}
				ps[v] = m.Point(f64(p.Positions[v]))
			}
			pos[*n.Mesh] = append(pos[*n.Mesh], ps)
			weight[*n.Mesh] = append(weight[*n.Mesh], ws)
			top[*n.Mesh] = append(top[*n.Mesh], tops)
		}
	}
	return pos, weight, top
}

// shake turns every joint of a skin by the same random rotations in two
// scenes, as a clip does: it sets local rotations, whatever the rest pose.
func shake(seed uint64, scenes ...*scene.Scene) {
	r := rand.New(rand.NewPCG(seed, 1))
	for _, j := range scenes[0].Skins[0].Joints {
		axis, _ := vec3{r.Float64() - 0.5, r.Float64() - 0.5, r.Float64() - 0.5}.unit()
		q := xform.Quaternion(xform.AxisAngle(axis, (r.Float64()-0.5)*1.2))
		for _, s := range scenes {
			s.Nodes[j].Rotation = q
		}
	}
}

func TestTPose(t *testing.T) {
	for name, load := range avatars(t) {
		t.Run(name, func(t *testing.T) {
			before, after := load(), load()
			if err := Apply(after, "T"); err != nil {
				t.Fatal(err)
			}
			for _, arm := range arms {
				if e := elevation(after, arm); math.Abs(e) > 0.05 {
					t.Errorf("%s at %.2f° below the horizontal after pose=T, was %.1f°", arm[0], e, elevation(before, arm))
				}
			}
			w := xform.Worlds(after, after.Parents(), nil)
			shoulder := w[find(after, "LeftArm")].Translation()
			// Skin and inverse bind matrices agree: at rest every joint maps
			// the bind frame to the same place.
			for si, skin := range after.Skins {
				k := w[skin.Joints[0]].Mul(xform.FromFloat32(skin.InverseBindMatrices[0]))
				for i, j := range skin.Joints {
					if m := w[j].Mul(xform.FromFloat32(skin.InverseBindMatrices[i])); !near(m, k, 2e-4) {
						t.Fatalf("skin %d joint %s: joint world × inverse bind matrix is %v, the skin's bind frame %v", si, after.Nodes[j].Name, m, k)
					}
				}
			}
			// The hand hangs at shoulder height now, the body stays put.
			pb, _, _ := skinned(before, "LeftHand")
			pa, hand, _ := skinned(after, "LeftHand")
			pbHips, hips, _ := skinned(before, "Spine")
			var hands, moved int
			for m := range pa {
				for p := range pa[m] {
					for v := range pa[m][p] {
						if hand[m][p][v] > 0.99 {
							hands++
							if dy := pa[m][p][v][1] - shoulder[1]; math.Abs(dy) > 0.12 {
								t.Fatalf("a hand vertex is %.3f m from shoulder height after pose=T (was %.3f m)", dy, pb[m][p][v][1]-shoulder[1])
							}
						}
						if hips[m][p][v] < 0.01 && pa[m][p][v].sub(pbHips[m][p][v]).length() > 1e-5 {
							moved++
						}
					}
				}
			}
			if hands < 20 || moved > 0 {
				t.Errorf("%d vertices bound to the hand (want some), %d below the spine moved (want none)", hands, moved)
			}
			// KILN_POSE_OUT keeps the files, to look at them.
			glb, err := scene.Write(after)
			if err != nil {
				t.Fatal(err)
			}
			gltfcheck.RequireValid(t, glb)
			if dir := os.Getenv("KILN_POSE_OUT"); dir != "" {
				os.WriteFile(filepath.Join(dir, name+"-T.glb"), glb, 0o644)
			}
			// A clip moves every joint as before: vertices bound to one joint
			// land where they did. Blended ones (the shoulders) differ a
			// little, as linear blend skinning cannot be undone exactly.
			shake(7, before, after)
			pb, _, _ = skinned(before, "")
			pa, _, top := skinned(after, "")
			var rigid, blended, sum float64
			var n int
			for m := range pa {
				for p := range pa[m] {
					for v := range pa[m][p] {
						d := pa[m][p][v].sub(pb[m][p][v]).length()
						sum, n = sum+d, n+1
						if top[m][p][v] > 0.999 {
							rigid = math.Max(rigid, d)
						} else {
							blended = math.Max(blended, d)
						}
					}
				}
			}
			t.Logf("%d vertices under a random pose, off the source rig by: mean %.2g m, worst %.2g m for one-joint vertices, %.2g m for blended ones", n, sum/float64(n), rigid, blended)
			if sum/float64(n) > 3e-3 || rigid > 2e-4 {
				t.Errorf("under the same joint rotations the posed rig deforms differently: mean %.3g m, one-joint vertices up to %.3g m", sum/float64(n), rigid)
			}
		})
	}
}

func TestAPose(t *testing.T) {
	for name, load := range avatars(t) {
		t.Run(name, func(t *testing.T) {
			s := load()
			if err := Apply(s, "T"); err != nil {
				t.Fatal(err)
			}
			// Back from T to A: the leader's angle, whatever the source's.
			if err := Apply(s, "A"); err != nil {
				t.Fatal(err)
			}
			for _, arm := range arms {
				if e := elevation(s, arm); math.Abs(e-Elevations["A"]) > 0.05 {
					t.Errorf("%s at %.2f° after pose=A, want %.1f°", arm[0], e, Elevations["A"])
				}
			}
			glb, err := scene.Write(s)
			if err != nil {
				t.Fatal(err)
			}
			gltfcheck.RequireValid(t, glb)
		})
	}
}

// TestAlreadyInPose: a model already in the pose is left bit for bit.
func TestAlreadyInPose(t *testing.T) {
	for name, load := range avatars(t) {
		t.Run(name, func(t *testing.T) {
			s := load()
			if err := Apply(s, "T"); err != nil {
				t.Fatal(err)
			}
			once, err := scene.Write(s)
			if err != nil {
				t.Fatal(err)
			}
			if err := Apply(s, "T"); err != nil {
				t.Fatal(err)
			}
			twice, err := scene.Write(s)
			if err != nil {
				t.Fatal(err)
			}
			if string(once) != string(twice) {
				t.Errorf("pose=T on a model in T pose changed it")
			}
		})
	}
}

func TestUnsupported(t *testing.T) {
	for _, tc := range []struct {
		name, pose, code string
		kind             kiln.Kind
	}{
		{"no skeleton", "T", "pose_unsupported", kiln.KindUnprocessable},
		{"unknown pose", "Y", "invalid_pose", kiln.KindInvalid},
	} {
		s := &scene.Scene{}
		err := Apply(s, tc.pose)
		if code, _ := kiln.CodeOf(err); code != tc.code || kiln.KindOf(err) != tc.kind {
			t.Errorf("%s: %v, want %s (%v)", tc.name, err, tc.code, tc.kind)
		}
	}
}

// BenchmarkTPose times the stage on each avatar: turning the arms,
// re-skinning every vertex and recomputing the inverse bind matrices.
func BenchmarkTPose(b *testing.B) {
	for name, load := range avatars(b) {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				s := load()
				b.StartTimer()
				if err := Apply(s, "T"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
