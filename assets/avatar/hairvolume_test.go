package avatar

import (
	"math"
	"slices"
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
	"github.com/qmuntal/gltf"
)

// TestHairStandsOffScalp casts rays out of the head, from the middle of
// it at eye height, in 240 directions over the top of the head (30° and
// more above level, all round), and measures along each where the hair's
// outer surface lies beyond the scalp: the blind panel of issue 22 saw
// our hair as a thin painted shell hugging the scalp, with the crown
// showing through, where the leader's is a mass standing 1-3 cm off the
// head. Every ray onto the crown (skin 7 cm and more above the eyes)
// must meet the hair, and no ray may meet skin beyond the hair; the
// median height of the hair over the scalp must be at least 10 mm and
// its 10th percentile at least 8 mm. Before the lift (thickenHair) the
// cards hugged the scalp: median and 10th percentile short 12.4 and
// 6.8 mm, buzz 3.0 and 2.0, long 9.1 and 5.7, bun 6.4 and 2.8 (with 4
// rays meeting skin over the hair), ponytail 4.2 and 2.4; now 20.4 and
// 15.0, 10.8 and 9.7, 16.9 and 13.6, 14.0 and 10.0, 12.1 and 10.2.
// The solid styles draw opaque, with no alpha for a viewer to sort.
// The buzz cut is no longer asked to stand off: cropped hair lies on
// the scalp (TestBuzzLiesOnTheScalp).
func TestHairStandsOffScalp(t *testing.T) {
	for _, c := range []struct {
		style string
		body  string
	}{
		{"short", Masculine},
		{"curly", Masculine},
		{"long", Feminine},
		{"bun", Feminine},
		{"ponytail", Feminine},
	} {
		t.Run(c.style, func(t *testing.T) {
			cfg := Default(c.body)
			cfg.Hair.Style = c.style
			s, err := Generate(cfg)
			if err != nil {
				t.Fatal(err)
			}
			heights, bare, poke := hairOverScalp(t, s)
			if len(heights) < 100 {
				t.Fatalf("only %d rays meet skin and hair", len(heights))
			}
			med, p10 := heights[len(heights)/2]*1000, heights[len(heights)/10]*1000
			t.Logf("%s: %d rays; hair over the scalp median %.1f mm, 10th percentile %.1f mm; %d rays onto the crown meet no hair, %d skin over the hair", c.style, len(heights), med, p10, bare, poke)
			if bare > 0 || poke > 0 {
				t.Errorf("%d rays onto the crown meet no hair and %d meet skin beyond the hair, want none", bare, poke)
			}
			if med < 10 || p10 < 8 {
				t.Errorf("hair over the scalp: median %.1f mm, 10th percentile %.1f mm, want at least 10 and 8", med, p10)
			}
			m := meshNamed(s, "Wolf3D_Hair")
			if mode := s.Materials[*m.Primitives[0].Material].AlphaMode; mode != gltf.AlphaOpaque {
				t.Errorf("hair drawn with alpha mode %v, want opaque", mode)
			}
		})
	}
}

// hairOverScalp casts rays out of the head, from the middle of it at
// eye height, in 240 directions over the top of the head (30° and more
// above level, all round), and gives, sorted, how far the hair's outer
// surface lies beyond the scalp along each ray that meets both, with the
// count of rays onto the crown (skin 7 cm and more above the eyes) that
// meet no hair and of rays that meet skin beyond the hair.
func hairOverScalp(t *testing.T, s *scene.Scene) (heights []float64, bare, poke int) {
	t.Helper()
	hp, ht := meshPositions(s, "Wolf3D_Hair")
	kp, kt := meshPositions(s, "Wolf3D_Head")
	if len(ht) == 0 || len(kt) == 0 {
		t.Fatal("no hair or no head")
	}
	// The centre: the head's middle (x, z) at the height of its
	// eyes' meshes.
	lp, _ := meshPositions(s, "EyeLeft")
	rp, _ := meshPositions(s, "EyeRight")
	c0 := centroid(append(slices.Clone(lp), rp...))
	hc := centroid(kp)
	centre := vec3{hc[0], c0[1], c0[2] - 0.08}
	for e := 0; e < 8; e++ {
		el := (30 + 7.5*float64(e)) * math.Pi / 180
		for a := 0; a < 30; a++ {
			az := float64(a) * 2 * math.Pi / 30
			u := vec3{math.Cos(el) * math.Sin(az), math.Sin(el), math.Cos(el) * math.Cos(az)}
			skin, okS := farthest(centre, u, kp, kt)
			hair, okH := farthest(centre, u, hp, ht)
			crown := centre.add(u.scale(skin))[1] > c0[1]+0.07
			switch {
			case !okS:
				continue
			case !okH:
				if crown {
					bare++
				}
			case skin > hair:
				poke++
			default:
				heights = append(heights, hair-skin)
			}
		}
	}
	slices.Sort(heights)
	return heights, bare, poke
}

// farthest is the distance along the unit direction u from c to the
// farthest crossing of the mesh, and whether there is one.
func farthest(c, u vec3, pos []vec3, tris [][3]uint32) (float64, bool) {
	far, ok := 0.0, false
	for _, t := range tris {
		if d, _, _, hit := rayTriangle(c, u, pos[t[0]], pos[t[1]], pos[t[2]]); hit && d > far {
			far, ok = d, true
		}
	}
	return far, ok
}
