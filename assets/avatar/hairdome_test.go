package avatar

import (
	"fmt"
	"math"
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
)

// levelSpan is where the triangles tris of pos cross the level y: the
// least and greatest x of the crossings, and the greatest z of those
// within band of x = mid (the profile's front, seen from the side); ok
// is false when none cross.
func levelSpan(pos []vec3, tris [][3]uint32, y, mid, band float64) (lo, hi, front float64, ok bool) {
	lo, hi, front = math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, t := range tris {
		for k := range 3 {
			a, b := pos[t[k]], pos[t[(k+1)%3]]
			if (a[1]-y)*(b[1]-y) > 0 || a[1] == b[1] {
				continue
			}
			f := (y - a[1]) / (b[1] - a[1])
			x, z := a[0]+f*(b[0]-a[0]), a[2]+f*(b[2]-a[2])
			lo, hi = math.Min(lo, x), math.Max(hi, x)
			if math.Abs(x-mid) < band {
				front = math.Max(front, z)
			}
			ok = true
		}
	}
	return lo, hi, front, ok
}

// cutDome is the hair's outline seen from the front and from the side,
// without perspective. height is the hair's top over the eyes (eye
// distances); taper its width at 50, 80 and 95 % of that height over
// its width at the temples (0.6 eye distances over the eyes); tall the
// height over that width; lean the angle from vertical (degrees, back
// positive) of the hair's front in the face's middle between a quarter
// and three quarters of the way from the forehead's hairline to the top.
type cutDome struct {
	height, tall, lean float64
	taper              [3]float64
}

func measureDome(t *testing.T, s *scene.Scene) cutDome {
	t.Helper()
	f := newCutFrame(t, s)
	hp, ht := meshPositions(s, "Wolf3D_Hair")
	top := math.Inf(-1)
	for _, p := range hp {
		top = math.Max(top, p[1])
	}
	span := func(y float64) (width, front float64) {
		lo, hi, fr, ok := levelSpan(hp, ht, y, f.mid, 0.25*f.iod)
		if !ok {
			t.Fatalf("no hair %.2f eye distances over the eyes", (y-f.eye)/f.iod)
		}
		return hi - lo, fr
	}
	h := top - f.eye
	temples, _ := span(f.eye + 0.6*f.iod)
	var d cutDome
	d.height = h / f.iod
	d.tall = h / temples
	for i, at := range []float64{0.5, 0.8, 0.95} {
		w, _ := span(f.eye + at*h)
		d.taper[i] = w / temples
	}
	hairline := f.eye + measureCut(t, s).forehead*f.iod
	y1, y2 := hairline+0.25*(top-hairline), hairline+0.75*(top-hairline)
	_, z1 := span(y1)
	_, z2 := span(y2)
	d.lean = math.Atan2(z1-z2, y2-y1) * 180 / math.Pi
	return d
}

func (d cutDome) String() string {
	return fmt.Sprintf("height %.2f eye distances, %.2f of the temples' width; width at 50/80/95 %% %.2f %.2f %.2f of the temples'; front leaning back %.0f°",
		d.height, d.tall, d.taper[0], d.taper[1], d.taper[2], d.lean)
}

// TestShortCutDome: seen from the front, the short cut narrows from the
// temples to a rounded crown, as the leader's does, not a box whose
// sides stand straight up to a flat top. Issue 22's panel (p25) read it
// as "a tall block with a hard straight hairline": its thickness grew
// from the sides' 8 mm to the top's 20 mm as soon as the skin faced a
// little up, so over the skull's upper sides, where the head narrows,
// the hair stood out as far as over the temples. Measured by
// measureDome on default-male and the short cut on the feminine body:
// the width at half the height at most 0.99 of the temples' width and
// at 80 % at most 0.83. Before: default-male 1.02 and 0.85, feminine
// 1.02 and 0.86; now 0.96 and 0.80, 0.95 and 0.80. The leader's, logged
// beside: casual 1.00 and 0.74, office 0.97 and 0.70. The height (2.34
// eye distances over the eyes before, 2.27 now; the leader's 2.48 and
// 2.35) and the front's lean (32° before, 26° now; the leader's 31° and
// 25°) are logged, not asked.
func TestShortCutDome(t *testing.T) {
	for _, body := range []string{Masculine, Feminine} {
		t.Run(body, func(t *testing.T) {
			cfg := Default(body)
			cfg.Hair.Style = "short"
			s, err := Generate(cfg)
			if err != nil {
				t.Fatal(err)
			}
			d := measureDome(t, s)
			t.Logf("%s short: %v", body, d)
			if d.taper[0] > 0.99 {
				t.Errorf("%s short: width at half the height %.2f of the temples', want at most 0.99 (sides standing straight up)", body, d.taper[0])
			}
			if d.taper[1] > 0.83 {
				t.Errorf("%s short: width at 80 %% of the height %.2f of the temples', want at most 0.83 (a box, not a dome)", body, d.taper[1])
			}
		})
	}
	for _, n := range []string{"rpm-avatar-casual.glb", "rpm-avatar-office.glb"} {
		if ls, ok := optionalLeaderScene(t, n); ok {
			t.Logf("%s: %v", n, measureDome(t, ls))
		}
	}
}

// TestShortCutDomeOldGLB logs measureDome on a GLB named by
// KILN_CUT_GLB, to compare a build from before.
func TestShortCutDomeOldGLB(t *testing.T) {
	s, path := envGLB(t, "KILN_CUT_GLB")
	t.Logf("%s: %v", path, measureDome(t, s))
}
