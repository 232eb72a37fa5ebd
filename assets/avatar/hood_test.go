package avatar

import (
	"math"
	"slices"
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
)

// hits are the distances along the ray from o along unit d at which it
// crosses the mesh's triangles, by brute force.
func hits(pos []vec3, tris [][3]uint32, o, d vec3) []float64 {
	var out []float64
	for _, t := range tris {
		if dist, _, _, ok := rayTriangle(o, d, pos[t[0]], pos[t[1]], pos[t[2]]); ok && dist < 0.3 {
			out = append(out, dist)
		}
	}
	return out
}

// TestHoodDown checks the hoodie's hood, from the built avatar: rays out
// from the neck's axis across the upper back, 45° either side of straight
// back, from 4 to 14 cm under the neck joint, must cross the hoodie's
// cloth at least twice, a centimetre or more apart, at most of them (the
// hood over the back; a T-shirt, one layer, never), and never cross the
// hood outside long hair where the ray meets the hair (the hood came
// through long hair). Its knit must not stretch: no hood triangle's
// texture area per square metre differs from the median of the whole top's
// by more than a factor of three (a hood that took the texture of the
// smaller back under it drew its knit in streaks).
func TestHoodDown(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 4 avatars")
	}
	for _, c := range []struct{ body, top string }{
		{Feminine, "hoodie"}, {Masculine, "hoodie"}, {Feminine, "tshirt"}, {Masculine, "tshirt"},
	} {
		t.Run(c.body+"-"+c.top, func(t *testing.T) {
			cfg := Default(c.body)
			cfg.Outfit.Top.Style, cfg.Hair.Style = c.top, "long"
			s, neck := generatedWithNeck(t, cfg)
			top, topTris := meshPositions(s, "Wolf3D_Outfit_Top")
			hair, hairTris := meshPositions(s, "Wolf3D_Hair")
			rays, layered, through := 0, 0, 0
			for a := -45.0; a <= 45; a += 5 {
				d := vec3{math.Sin(a * math.Pi / 180), 0, -math.Cos(a * math.Pi / 180)}
				for y := 0.04; y <= 0.14; y += 0.01 {
					o := neck.sub(vec3{0, y, 0})
					h := hits(top, topTris, o, d)
					if len(h) == 0 {
						continue
					}
					rays++
					near, far := math.Inf(1), 0.0
					for _, x := range h {
						near, far = math.Min(near, x), math.Max(far, x)
					}
					if far-near >= 0.01 {
						layered++
					}
					for _, x := range hits(hair, hairTris, o, d) {
						if x > near+0.001 && far > x {
							through++
							break
						}
					}
				}
			}
			t.Logf("%s %s: %d of %d rays cross two layers a centimetre apart; %d meet the cloth outside the hair", c.body, c.top, layered, rays, through)
			if c.top == "hoodie" && 4*layered < 3*rays {
				t.Errorf("%s hoodie: %d of %d rays across the upper back cross two layers, want three quarters", c.body, layered, rays)
			}
			if c.top != "hoodie" && layered > 0 {
				t.Errorf("%s %s: %d rays cross two layers on the back of a top without a hood", c.body, c.top, layered)
			}
			if through > 0 {
				t.Errorf("%s %s: %d rays meet the top outside the long hair", c.body, c.top, through)
			}
			if c.top == "hoodie" {
				checkKnitScale(t, meshNamed(s, "Wolf3D_Outfit_Top"))
			}
		})
	}
}

// checkKnitScale holds every triangle's texture area per area to within
// a factor of three of the median of the garment's.
func checkKnitScale(t *testing.T, m *scene.Mesh) {
	t.Helper()
	pr := m.Primitives[0]
	var ratios []float64
	for i := 0; i+2 < len(pr.Indices); i += 3 {
		a, b, c := pr.Indices[i], pr.Indices[i+1], pr.Indices[i+2]
		area := v3(pr.Positions[b]).sub(v3(pr.Positions[a])).cross(v3(pr.Positions[c]).sub(v3(pr.Positions[a]))).len() / 2
		ua, ub, uc := pr.TexCoords[0][a], pr.TexCoords[0][b], pr.TexCoords[0][c]
		uvArea := math.Abs(float64((ub[0]-ua[0])*(uc[1]-ua[1])-(uc[0]-ua[0])*(ub[1]-ua[1]))) / 2
		if area > 1e-6 {
			ratios = append(ratios, uvArea/area)
		}
	}
	sorted := append([]float64(nil), ratios...)
	slices.Sort(sorted)
	med := sorted[len(sorted)/2]
	// The hood is the last triangles written, before its skirts (which
	// fold onto the back, narrow by design).
	hood, skirts := 2*hoodCols*hoodRows, 2*hoodCols+4*hoodRows
	bad := 0
	for _, r := range ratios[len(ratios)-hood-skirts : len(ratios)-skirts] {
		if r > 3*med || r < med/3 {
			bad++
		}
	}
	t.Logf("hood triangles with their knit stretched or squeezed threefold: %d of %d (median %.3g)", bad, hood, med)
	if bad > 0 {
		t.Errorf("%d of %d hood triangles have their knit stretched or squeezed threefold", bad, hood)
	}
}

// TestHoodRoll checks that the hood, down, has a rolled rim near its
// lower edge, as seen from behind: along rays straight back (and 15°
// either side) from the neck's axis, the hood stands off the back by at
// least 8 mm more at its rim (the lower 35 % of its length) than in the
// crease above it (30 to 60 % down). Before, the hood thinned steadily
// from the neck to its edge (the rim 0.5 mm thinner than the crease) and
// read from behind as a flat yoke.
func TestHoodRoll(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an avatar")
	}
	cfg := Default(Masculine)
	cfg.Outfit.Top.Style = "hoodie"
	s, neck := generatedWithNeck(t, cfg)
	top, topTris := meshPositions(s, "Wolf3D_Outfit_Top")
	for _, a := range []float64{-15, 0, 15} {
		d := vec3{math.Sin(a * math.Pi / 180), 0, -math.Cos(a * math.Pi / 180)}
		crease, rim := math.Inf(1), 0.0
		for k := 0; k <= 40; k++ {
			f := float64(k) / 40 // share of the hood's length down
			o := neck.sub(vec3{0, hoodTop + f*hoodLength, 0})
			h := hits(top, topTris, o, d)
			if len(h) < 2 {
				continue
			}
			near, far := math.Inf(1), 0.0
			for _, x := range h {
				near, far = math.Min(near, x), math.Max(far, x)
			}
			if f >= 0.3 && f <= 0.6 {
				crease = math.Min(crease, far-near)
			}
			if f >= 0.65 {
				rim = math.Max(rim, far-near)
			}
		}
		t.Logf("%+.0f°: the hood stands %.1f mm off the back in its crease, %.1f mm at its rim", a, 1000*crease, 1000*rim)
		if math.IsInf(crease, 1) || rim-crease < 0.008 {
			t.Errorf("%+.0f°: the hood's rim stands %.1f mm more than its crease, want at least 8 (a rolled rim)", a, 1000*(rim-crease))
		}
	}
}
