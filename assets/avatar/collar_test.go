package avatar

import (
	"testing"

	"github.com/kilnhq/kiln/assets/avatar/paint"
)

// TestCollarLayersShaded checks the shade under a shirt's and a blouse's
// collar (the blind panel saw their openings as torn: a white collar
// over a white front had no edge of its own). Found independently of
// shadeLayers' rays: the collar's edge is the top's border where, straight
// under it (against its normal, within 1.5 cm), there is more of the
// top; the cloth there must be shaded (vertex colour at most 0.9) at
// more than half of those edge points, and a T-shirt or a tank, one
// layer everywhere, gets no colours.
func TestCollarLayersShaded(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 8 avatars")
	}
	for _, c := range []struct {
		body, top string
		layered   bool
	}{
		{Feminine, "blouse", true}, {Feminine, "shirt", true}, {Masculine, "blouse", true}, {Masculine, "shirt", true},
		{Feminine, "tshirt", false}, {Masculine, "tshirt", false}, {Feminine, "tank", false}, {Masculine, "tank", false},
	} {
		t.Run(c.body+"-"+c.top, func(t *testing.T) {
			cfg := Default(c.body)
			cfg.Outfit.Top.Style = c.top
			s, err := Generate(cfg)
			if err != nil {
				t.Fatal(err)
			}
			m := meshNamed(s, "Wolf3D_Outfit_Top")
			pr := m.Primitives[0]
			if !c.layered {
				if len(pr.Colors) > 0 {
					t.Errorf("%s %s: one layer, but the top has vertex colours", c.body, c.top)
				}
				return
			}
			if len(pr.Colors) == 0 {
				t.Fatalf("%s %s: no shade on the top", c.body, c.top)
			}
			pos, tris := meshPositions(s, "Wolf3D_Outfit_Top")
			var p32 [][3]float32
			for _, q := range pos {
				p32 = append(p32, q.f32())
			}
			rim := paint.Border(p32, tris)
			edges, shaded := 0, 0
			for v, q := range pos {
				if rim[v] == 0 {
					continue
				}
				n := vec3{float64(pr.Normals[v][0]), float64(pr.Normals[v][1]), float64(pr.Normals[v][2])}
				down := n.scale(-1)
				start := q.add(down.scale(0.001))
				best, hitTri := 0.015, -1
				for ti, tr := range tris {
					if tr[0] == uint32(v) || tr[1] == uint32(v) || tr[2] == uint32(v) {
						continue
					}
					if d, _, _, ok := rayTriangle(start, down, pos[tr[0]], pos[tr[1]], pos[tr[2]]); ok && d < best {
						best, hitTri = d, ti
					}
				}
				if hitTri < 0 || q[1] < 1.2 {
					continue
				}
				edges++
				// The colour at the hit, from its barycentric coordinates.
				tr := tris[hitTri]
				_, b := closestOnTriangle(start.add(down.scale(best)), pos[tr[0]], pos[tr[1]], pos[tr[2]])
				l := 0.0
				for k := range 3 {
					l += b[k] * float64(pr.Colors[0][tr[k]][0])
				}
				if l <= 0.9 {
					shaded++
				}
			}
			t.Logf("%s %s: %d of %d collar-edge points have shaded cloth under them", c.body, c.top, shaded, edges)
			if edges == 0 || 2*shaded <= edges {
				t.Errorf("%s %s: %d of %d collar-edge points have shaded cloth under them, want more than half", c.body, c.top, shaded, edges)
			}
		})
	}
}
