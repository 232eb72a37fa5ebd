package avatar

import (
	"math"
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
)

// hairOutline is the top of the hair's outline seen from the front (no
// perspective): for each vertical line every millimetre across the
// hair, the highest point where it crosses a hair triangle, over the cap
// only (the lines whose top lies within half an eye distance of the
// hair's top, where the outline runs across the picture, not down its
// sides). Heights in eye distances, so the leader's avatar, at its own
// scale, measures alike.
func hairOutline(t *testing.T, s *scene.Scene) []float64 {
	t.Helper()
	hp, ht := meshPositions(s, "Wolf3D_Hair")
	l, _ := meshPositions(s, "EyeLeft")
	r, _ := meshPositions(s, "EyeRight")
	if len(ht) == 0 || len(l) == 0 || len(r) == 0 {
		t.Fatal("no hair or eyes")
	}
	iod := centroid(l).sub(centroid(r)).len()
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range hp {
		lo, hi = math.Min(lo, p[0]), math.Max(hi, p[0])
	}
	var line []float64
	for x := lo + 0.0005; x < hi; x += 0.001 {
		top := math.Inf(-1)
		for _, tri := range ht {
			for k := 0; k < 3; k++ {
				a, b := hp[tri[k]], hp[tri[(k+1)%3]]
				if (a[0]-x)*(b[0]-x) > 0 || a[0] == b[0] {
					continue
				}
				f := (x - a[0]) / (b[0] - a[0])
				top = math.Max(top, a[1]+f*(b[1]-a[1]))
			}
		}
		if !math.IsInf(top, -1) {
			line = append(line, top/iod)
		}
	}
	peak := math.Inf(-1)
	for _, y := range line {
		peak = math.Max(peak, y)
	}
	var cap []float64
	for _, y := range line {
		if y > peak-0.5 {
			cap = append(cap, y)
		}
	}
	return cap
}

// outlineLobes is how many tops an outline has that stand at least
// 0.02 eye distances (about 1.3 mm) over it on both sides before a
// higher top: one for a smooth dome, one more for each lock that
// breaks it.
func outlineLobes(line []float64) int {
	lobes := 0
	for i := 1; i+1 < len(line); i++ {
		if line[i] < line[i-1] || line[i] < line[i+1] {
			continue
		}
		drop := func(step int) float64 {
			d := 0.0
			for j := i + step; j >= 0 && j < len(line) && line[j] <= line[i]; j += step {
				d = math.Max(d, line[i]-line[j])
			}
			return d
		}
		if math.Min(drop(-1), drop(1)) >= 0.02 {
			lobes++
		}
	}
	return lobes
}

// TestShortCutOutlineBroken: the short cut's locks stand up from it
// and break its surface and outline, as the leader's do, not a moulded
// cap's smooth dome. Issue 22's panel (p15) read the short cut
// (default-male, random-03, -13) as "a slab": seen from the front its
// top ran in one smooth curve, its locks raised 7.5 mm. Measured by
// hairLumps (round the head over the top, across the locks): at least
// 0.9 mm. Before (7.5 mm locks), default-male 0.70 mm, the feminine
// body's short cut 0.72 mm; with 12 mm locks 1.04 and 1.09. On
// face15's oval skull (96b648d): 0.66 and 0.70 before, 0.99 and 1.07. The leader's casual and
// office avatars measure 2.79 and 1.78 mm (TestShortCutOldGLB logs
// them). The lobes of the front view's top outline (outlineLobes on
// hairOutline) are logged beside, not asked: 1 before, 2 with 12 mm
// locks, but the oval skull took default-male's back to 1 (its hair's
// outline is read off the few vertices on its top edge, so a head's
// shape moves it by a lobe either way); the leader's 2 and 1.
func TestShortCutOutlineBroken(t *testing.T) {
	for _, body := range []string{Masculine, Feminine} {
		t.Run(body, func(t *testing.T) {
			cfg := Default(body)
			cfg.Hair.Style = "short"
			s, err := Generate(cfg)
			if err != nil {
				t.Fatal(err)
			}
			lumps, lobes := 1000*hairLumps(t, s), outlineLobes(hairOutline(t, s))
			t.Logf("%s short: lumps %.2f mm, outline %d lobes", body, lumps, lobes)
			if lumps < 0.9 {
				t.Errorf("%s short: lumps %.2f mm, want 0.9 or more: a smooth cap", body, lumps)
			}
		})
	}
}
