package avatar

import (
	"math"
	"os"
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
)

// rpmPath is the leader's avatar; tests compare names and hierarchy with
// it but never copy its data.
const rpmPath = "../../../shared/testdata/rpm-avatar-casual.glb"

// TestSkeletonMatchesLeader checks that our joints have the leader's
// names, order and parents, which is what clips and clients address.
func TestSkeletonMatchesLeader(t *testing.T) {
	data, err := os.ReadFile(rpmPath)
	if err != nil {
		t.Skipf("leader's avatar not available: %v", err)
	}
	s, err := scene.Read(data, scene.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Skins) != 1 {
		t.Fatalf("%d skins in the leader's avatar", len(s.Skins))
	}
	parentOf := map[int]int{}
	for i, n := range s.Nodes {
		for _, c := range n.Children {
			parentOf[c] = i
		}
	}
	joints := s.Skins[0].Joints
	var wantNames, wantParents []string
	for _, j := range joints {
		wantNames = append(wantNames, s.Nodes[j].Name)
		wantParents = append(wantParents, s.Nodes[parentOf[j]].Name)
	}
	for _, gender := range []string{Masculine, Feminine} {
		r := Skeleton(gender, Config{})
		if len(r.Names) != 67 || len(r.Names) != len(wantNames) {
			t.Fatalf("%s: %d joints, leader %d", gender, len(r.Names), len(wantNames))
		}
		for i, n := range r.Names {
			p := "Armature"
			if r.Parent[i] >= 0 {
				p = r.Names[r.Parent[i]]
			}
			if n != wantNames[i] || p != wantParents[i] {
				t.Errorf("%s joint %d: %s under %s, leader %s under %s", gender, i, n, p, wantNames[i], wantParents[i])
			}
		}
	}
	if got := JointNames(); len(got) != 67 || got[0] != "Hips" || got[66] != "RightToe_End" {
		t.Errorf("JointNames = %d names from %q to %q", len(got), got[0], got[len(got)-1])
	}
}

// TestSkeletonConvention checks the Mixamo convention clips rely on: each
// joint's +Y along its bone, unrotated hips, unit quaternions, mirror
// symmetry, an A-pose, and a head top at the configured height.
func TestSkeletonConvention(t *testing.T) {
	for _, tc := range []struct {
		gender string
		height float64
		build  float64
	}{
		{Masculine, 0, 0},
		{Feminine, 0, 0},
		{Masculine, 2.05, 1},
		{Feminine, 1.5, 0},
	} {
		cfg := Config{Body: Body{Type: tc.gender, Height: tc.height, Build: tc.build}}
		r := Skeleton(tc.gender, cfg)
		h := cfg.resolve().Body.Height
		w := r.World()
		for i, n := range r.Names {
			q := r.Rest[i].Rotation
			if l := math.Sqrt(float64(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])); math.Abs(l-1) > 1e-5 {
				t.Errorf("%s %s: quaternion length %v", tc.gender, n, l)
			}
			c := mainChild(r.Names, r.Parent, i)
			if c < 0 {
				continue
			}
			d := r.Rest[c].Translation
			l := math.Sqrt(float64(d[0]*d[0] + d[1]*d[1] + d[2]*d[2]))
			if float64(d[1])/l < 0.9999 {
				t.Errorf("%s %s: child %s at %v in its frame, not along +Y", tc.gender, n, r.Names[c], d)
			}
		}
		if q := r.Rest[0].Rotation; q != [4]float32{0, 0, 0, 1} {
			t.Errorf("%s: hips rotated %v", tc.gender, q)
		}
		at := func(name string) vec3 {
			m := w[r.Index(name)]
			return vec3{float64(m[12]), float64(m[13]), float64(m[14])}
		}
		// HeadTop_End sits on MakeHuman's skull-top vertex group, within
		// a centimetre of the crown.
		if top := at("HeadTop_End")[1]; math.Abs(top-h) > 0.01 {
			t.Errorf("%s: head top at %v, height %v", tc.gender, top, h)
		}
		for _, n := range r.Names {
			if len(n) < 5 || n[:4] != "Left" {
				continue
			}
			l, rt := at(n), at("Right"+n[4:])
			if math.Abs(l[0]+rt[0]) > 1e-5 || math.Abs(l[1]-rt[1]) > 1e-5 || math.Abs(l[2]-rt[2]) > 1e-5 {
				t.Errorf("%s %s at %v, mirror at %v", tc.gender, n, l, rt)
			}
		}
		// A-pose: the upper arm 40° to 60° below horizontal, the hand
		// to the side of the hips.
		a, f := at("LeftArm"), at("LeftForeArm")
		if deg := math.Atan2(a[1]-f[1], f[0]-a[0]) * 180 / math.Pi; deg < 40 || deg > 60 {
			t.Errorf("%s: upper arm %v° below horizontal", tc.gender, deg)
		}
		// Left-side arm joints have +X backward, leg joints +X to the
		// avatar's right, as in Mixamo rigs.
		// MakeHuman's forearms lean forward (elbows slightly bent), so +X,
		// perpendicular to the bone, is at best about 45° from straight back.
		if m := w[r.Index("LeftForeArm")]; m[2] > -0.6 {
			t.Errorf("%s: forearm +X = %v, want backward", tc.gender, m[:3])
		}
		if m := w[r.Index("LeftLeg")]; m[0] > -0.9 {
			t.Errorf("%s: leg +X = %v, want to the right", tc.gender, m[:3])
		}
	}
}
