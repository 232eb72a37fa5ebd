package avatar

import (
	"math"
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
)

// frontArch is the height of the hair's front edge over the eyes (in eye
// distances) in three bands across the face: the middle (within 0.15
// eye distances of it), 0.35-0.5 and 0.55-0.7 out (toward the temples'
// corners), the lowest hair vertex in the front of the head (as
// measureCut's forehead) over each, left and right together.
func frontArch(t *testing.T, s *scene.Scene) [3]float64 {
	t.Helper()
	f := newCutFrame(t, s)
	hair, iod, eye, mid, front := f.hair, f.iod, f.eye, f.mid, f.front
	bands := [3][2]float64{{0, 0.15}, {0.35, 0.5}, {0.55, 0.7}}
	out := [3]float64{math.Inf(1), math.Inf(1), math.Inf(1)}
	for _, p := range hair {
		x := math.Abs(p[0]-mid) / iod
		if p[2] < front-iod || p[1] < eye {
			continue
		}
		for k, b := range bands {
			if x >= b[0] && x < b[1] {
				out[k] = math.Min(out[k], (p[1]-eye)/iod)
			}
		}
	}
	return out
}

// TestShortCutFrontArch: the short cut's front edge arches over the
// forehead and rounds down into the temples, not a cap's straight brim
// with square corners. Issue 22's panel (p16) read the short cut as
// "boxy hair with a hard hairline", "a cap with hard edges": its
// hairline rose from 5.8 cm over the eyes in the middle to 6.2 cm toward
// the corners and then dropped to the temples, so a portrait saw the
// hair frame the forehead in a rectangle. Measured on default-male
// (frontArch, eye distances over the eyes): the edge 0.35 to 0.5 eye
// distances out lies at least 0.03 lower than in the middle, and 0.55 to
// 0.7 out at least 0.05 lower. Before (p16's GLB): 0.97, 1.01, 1.02,
// rising to the corners; now 0.99, 0.94, 0.91. The leader's, logged when
// ../shared is there, are no arch to copy by number (casual 0.75, 0.66,
// 1.10 with a lock over the forehead; office 1.29, 1.27, 1.30, a high
// swept front): the picture is the judge here.
func TestShortCutFrontArch(t *testing.T) {
	s, err := Generate(Default(Masculine))
	if err != nil {
		t.Fatal(err)
	}
	a := frontArch(t, s)
	t.Logf("default-male: front edge %.2f (middle), %.2f, %.2f eye distances over the eyes", a[0], a[1], a[2])
	for _, n := range []string{"rpm-avatar-casual.glb", "rpm-avatar-office.glb"} {
		if ls, ok := optionalLeaderScene(t, n); ok {
			la := frontArch(t, ls)
			t.Logf("%s: front edge %.2f, %.2f, %.2f", n, la[0], la[1], la[2])
		}
	}
	if a[0]-a[1] < 0.03 {
		t.Errorf("front edge 0.35-0.5 eye distances out %.2f, the middle %.2f: want at least 0.03 lower (an arch, not a brim)", a[1], a[0])
	}
	if a[0]-a[2] < 0.05 {
		t.Errorf("front edge 0.55-0.7 eye distances out %.2f, the middle %.2f: want at least 0.05 lower (rounding into the temples)", a[2], a[0])
	}
}

// TestShortCutFrontArchOldGLB logs frontArch on a GLB named by
// KILN_CUT_GLB, to compare a build from before.
func TestShortCutFrontArchOldGLB(t *testing.T) {
	s, path := envGLB(t, "KILN_CUT_GLB")
	a := frontArch(t, s)
	t.Logf("%s: front edge %.2f, %.2f, %.2f eye distances over the eyes", path, a[0], a[1], a[2])
}
