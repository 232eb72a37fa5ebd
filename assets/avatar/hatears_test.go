package avatar

import (
	"math"
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
)

// hairUnderCaps are random-16 and random-01 (the panel's bun and long
// hair under a cap) and the bun and long hair under a cap and a beanie
// on each body.
func hairUnderCaps() []namedConfig {
	cases := []namedConfig{{"random-16", Random(16)}, {"random-01", Random(1)}}
	for _, style := range []string{"bun", "long"} {
		for _, hat := range []string{"cap", "beanie"} {
			for _, body := range []string{Feminine, Masculine} {
				c := Default(body)
				c.Hair.Style, c.Headwear.Style = style, hat
				cases = append(cases, namedConfig{style + "-" + hat + "-" + body, c})
			}
		}
	}
	return cases
}

// earsThroughHair counts a built avatar's ear vertices (earTriangles')
// that stand outside its hair: a level ray from the head's axis (at the
// ears' mean depth) through the vertex meets hair nearer than the vertex
// and no hair or hat beyond it, so the ear shows through the hair.
func earsThroughHair(t *testing.T, s *scene.Scene) (out, ears int) {
	t.Helper()
	centre := func(name string) vec3 {
		lo, hi := vec3{math.Inf(1), math.Inf(1), math.Inf(1)}, vec3{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
		for _, q := range meshOf(t, s, name).Positions {
			for k := range 3 {
				lo[k], hi[k] = math.Min(lo[k], float64(q[k])), math.Max(hi[k], float64(q[k]))
			}
		}
		return lo.add(hi).scale(0.5)
	}
	seen := map[vec3]bool{}
	var verts []vec3
	for _, side := range earTriangles(meshOf(t, s, "Wolf3D_Head"), centre("EyeLeft"), centre("EyeRight")) {
		for _, tri := range side {
			for _, p := range tri {
				if !seen[p] {
					seen[p] = true
					verts = append(verts, p)
				}
			}
		}
	}
	if len(verts) == 0 {
		t.Fatal("no ears")
	}
	z := 0.0
	for _, p := range verts {
		z += p[2] / float64(len(verts))
	}
	hp, ht := meshPositions(s, "Wolf3D_Hair")
	wp, wt := meshPositions(s, "Wolf3D_Headwear")
	// crossings says whether the ray from o along u meets the mesh
	// nearer than r and whether beyond it.
	crossings := func(pos []vec3, tris [][3]uint32, o, u vec3, r float64) (near, far bool) {
		for _, tr := range tris {
			if d, _, _, ok := rayTriangle(o, u, pos[tr[0]], pos[tr[1]], pos[tr[2]]); ok {
				near, far = near || d < r, far || d > r
			}
		}
		return near, far
	}
	for _, p := range verts {
		o := vec3{0, p[1], z}
		d := p.sub(o)
		r := d.len()
		u := d.scale(1 / r)
		near, far := crossings(hp, ht, o, u, r)
		_, hat := crossings(wp, wt, o, u, r)
		if near && !far && !hat {
			out++
		}
	}
	return out, len(verts)
}

// earsThroughHairMax is how many ear vertices may stand outside the hair
// under a hat: the beanie's cuff comes down to a masculine ear's top,
// and what the cuff leaves of the hair there is cut, not drawn in.
const earsThroughHairMax = 12

// TestEarsUnderHatHair: under a cap or a beanie no ear shows through the
// hair. pressHair draws the hair just under a hat's rim in to the rim's
// width, which over the ears was inside them, so their tips stood out
// through the bun and long hair under a beanie's cuff and a cap's sides
// (offSkin now holds it outside the skin). Ear vertices outside the hair
// (earsThroughHair), before offSkin: the bun under a cap 0/4
// (feminine/masculine), under a beanie 14/42; long hair under a cap
// 11/24, under a beanie 78/125; random-16 and random-01 0. Now 0/0,
// 0/10, 0/0, 0/3.
func TestEarsUnderHatHair(t *testing.T) {
	for _, c := range hairUnderCaps() {
		t.Run(c.name, func(t *testing.T) {
			s, err := Generate(c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			out, ears := earsThroughHair(t, s)
			t.Logf("%s: %d of %d ear vertices outside the hair", c.name, out, ears)
			if out > earsThroughHairMax {
				t.Errorf("%d ear vertices stand outside the hair under the %s, want at most %d (no ear tips through the hair)", out, c.cfg.Headwear.Style, earsThroughHairMax)
			}
		})
	}
}

// hairFolds measures how the hair falls below a hat's shell (hatShellV)
// at the sides, 40-140 degrees either side of the front, every 5
// degrees: level rays from the shell's centre axis every 2 mm from the
// rim down to 8 cm below it find the hair's outermost crossing, r(y).
// Hair that falls from the rim widens, then may turn in at its ends:
// one rise and one fall. What the profile runs in and out beyond that
// (its total variation less the rise and the fall, mm) is a fold; worst
// is the largest azimuth's, sum all of theirs.
func hairFolds(t *testing.T, s *scene.Scene, hat string) (worst, sum float64) {
	t.Helper()
	hp, ht := meshPositions(s, "Wolf3D_Hair")
	shell := hatShellOf(s, hat)
	if len(shell) == 0 || len(ht) == 0 {
		t.Fatal("no hat shell or no hair")
	}
	lo, hi := vec3{math.Inf(1), math.Inf(1), math.Inf(1)}, vec3{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
	for _, q := range shell {
		for k := range 3 {
			lo[k], hi[k] = math.Min(lo[k], q[k]), math.Max(hi[k], q[k])
		}
	}
	c := lo.add(hi).scale(0.5)
	for _, side := range []float64{-1, 1} {
		for deg := 40.0; deg <= 140; deg += 5 {
			a := side * deg * math.Pi / 180
			u := vec3{math.Sin(a), 0, math.Cos(a)}
			rim := math.Inf(1)
			for _, q := range shell {
				if math.Abs(math.Remainder(math.Atan2(q[0]-c[0], q[2]-c[2])-a, 2*math.Pi)) < 5*math.Pi/180 {
					rim = math.Min(rim, q[1])
				}
			}
			var prof []float64
			for y := rim - 0.002; y > rim-0.08; y -= 0.002 {
				o := vec3{c[0], y, c[2]}
				r := 0.0
				for _, tr := range ht {
					if d, _, _, ok := rayTriangle(o, u, hp[tr[0]], hp[tr[1]], hp[tr[2]]); ok {
						r = math.Max(r, d)
					}
				}
				if r == 0 {
					break
				}
				prof = append(prof, r*1000)
			}
			if len(prof) < 2 {
				continue
			}
			tv, top := 0.0, prof[0]
			for i := 1; i < len(prof); i++ {
				tv += math.Abs(prof[i] - prof[i-1])
				top = math.Max(top, prof[i])
			}
			f := tv - (2*top - prof[0] - prof[len(prof)-1])
			worst, sum = math.Max(worst, f), sum+f
		}
	}
	return worst, sum
}

// hairFoldsMax is the most (mm, summed over hairFolds' azimuths) the bob
// under a cap or beanie may run in and out below the rim.
const hairFoldsMax = 20

// TestBobFallsUnderHat: the bob under a cap or a beanie falls from the
// rim without folds (hairFolds). bobUnderHat drew each row in to the
// hat's width or to the skin's clearance under it, which rises over the
// ears and the jaw and dips between them, so the hair below the cap ran
// in and out by 4-5 mm: random-16's "clumpy grey hair under the cap"
// (p26). Folds summed before: random-16 52.0 mm (worst azimuth 3.1),
// the bun under a cap 29.5/45.9 (feminine/masculine), under a beanie
// 10.5/8.3; now 11.2 (2.1), 6.6/6.0, 9.3/12.3.
func TestBobFallsUnderHat(t *testing.T) {
	for _, c := range hairUnderCaps() {
		if c.cfg.Hair.Style != "bun" {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			s, err := Generate(c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			worst, sum := hairFolds(t, s, c.cfg.Headwear.Style)
			t.Logf("%s: the hair below the rim folds %.1f mm in all, %.1f at worst", c.name, sum, worst)
			if sum > hairFoldsMax {
				t.Errorf("the hair below the %s's rim runs in and out %.1f mm in all, want at most %d (no clumps)", c.cfg.Headwear.Style, sum, hairFoldsMax)
			}
		})
	}
}
