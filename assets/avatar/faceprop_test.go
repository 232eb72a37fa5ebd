package avatar

import (
	"os"
	"testing"

	"github.com/kilnhq/kiln/assets/avatar/facemeasure"
	"github.com/kilnhq/kiln/assets/scene"
)

// measureThirds is the face's proportions (facemeasure.Props, in
// eye-distances), failing the test when they cannot be measured.
func measureThirds(t *testing.T, s *scene.Scene) facemeasure.Props {
	t.Helper()
	p, err := facemeasure.Measure(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// leaderScene reads one of the leader's avatars from the shared test
// data beside the repository, or from KILN_LEADER_DIR (a worktree's
// checkout is not beside it); the test skips without it.
func leaderScene(t *testing.T, name string) *scene.Scene {
	t.Helper()
	s, ok := optionalLeaderScene(t, name)
	if !ok {
		t.Skipf("leader's avatar %s not available", name)
	}
	return s
}

// optionalLeaderScene is leaderScene for a test whose checks are on
// Kiln's avatars and which only logs the leader's figures beside them:
// those checks run without the shared data too.
func optionalLeaderScene(t *testing.T, name string) (*scene.Scene, bool) {
	t.Helper()
	dir := "../../../shared/testdata/"
	if d := os.Getenv("KILN_LEADER_DIR"); d != "" {
		dir = d + "/"
	}
	data, err := os.ReadFile(dir + name)
	if err != nil {
		return nil, false
	}
	s, err := scene.Read(data, scene.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return s, true
}

// TestFaceThirds measures the default faces' lower halves beside the
// leader's two (facemeasure.Props, in eye-distances; leader's casual and
// office: lip 0.38 and 0.36, chin 0.90 and 0.90, cheekbones 2.44 and
// 2.49, jaw 2.07 and 2.19; before the nose's underside was read at the
// subnasale, not a vertex inside the leader's nostril 2 cm behind it,
// lip 0.34 and 0.31). MakeHuman's house face had a long upper lip over a
// short, receding chin that tapered early to a narrow jaw (masculine lip
// 0.43, chin 0.65, jaw 1.85; feminine 0.39, 0.61, 1.60): a V-shaped
// lower face the panel read as long and narrow, the mouth low in it.
// Then the chin was still short (0.74 and 0.70), and the head narrow
// at the top over a face widest low down (the lead's "coffin"): temples
// 2.19 and 2.24 (the leader's 2.39 and 2.39), cheekbones 2.29 and 2.23
// (2.44 and 2.49), the jaw 0.89 and 0.87 of the cheekbones' width
// (0.85 and 0.88). Each bound is the leader's side of the old figure.
func TestFaceThirds(t *testing.T) {
	for _, n := range []string{"rpm-avatar-casual.glb", "rpm-avatar-office.glb"} {
		if l, ok := optionalLeaderScene(t, n); ok {
			t.Logf("%s: %+v", n, measureThirds(t, l))
		}
	}
	for _, g := range []string{Masculine, Feminine} {
		t.Run(g, func(t *testing.T) {
			s, err := Generate(Default(g))
			if err != nil {
				t.Fatal(err)
			}
			f := measureThirds(t, s)
			t.Logf("%+v", f)
			if f.Lip > 0.39 {
				t.Errorf("nose to lips %.3f eye-distances, want 0.39 or less (the leader's 0.36-0.38)", f.Lip)
			}
			if f.Chin < 0.76 || f.Chin > 0.92 {
				t.Errorf("lips to chin %.3f eye-distances, want 0.76 to 0.92 (the leader's 0.90)", f.Chin)
			}
			if f.Temple < 2.22 {
				t.Errorf("temples %.3f eye-distances wide, want 2.22 or more (the leader's 2.39)", f.Temple)
			}
			if f.Cheek < 2.25 {
				t.Errorf("cheekbones %.3f eye-distances wide, want 2.25 or more (the leader's 2.44-2.49)", f.Cheek)
			}
			if r := f.Jaw / f.Cheek; r > 0.88 {
				t.Errorf("jaw %.3f of the cheekbones' width, want 0.88 or less: a face that tapers to the chin (the leader's 0.85-0.88)", r)
			}
			if f.Jaw < 1.9 {
				t.Errorf("jaw %.3f eye-distances wide, want 1.9 or more (the leader's 2.07-2.19)", f.Jaw)
			}
		})
	}
}
