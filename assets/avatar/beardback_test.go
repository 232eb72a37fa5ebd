package avatar

import "testing"

// turnedShare is the share of a mesh's drawn area, seen from direction
// view (toward the viewer), that shades with a normal turned away from
// the viewer. A triangle is drawn on its front (its winding faces the
// viewer) with its vertices' mean normal, or, if the material is
// double-sided, on its back with that normal flipped, as three.js does.
// Seen from a side (view[0] not 0), only the half of the mesh on that
// side counts: the face hides the far half.
func turnedShare(pos, nrm [][3]float32, idx []uint32, doubleSided bool, view vec3) float64 {
	var drawn, turned float64
	for t := 0; t+2 < len(idx); t += 3 {
		a, b, c := v3(pos[idx[t]]), v3(pos[idx[t+1]]), v3(pos[idx[t+2]])
		g := b.sub(a).cross(c.sub(a))
		area := g.len() / 2
		if area == 0 || view[0]*(a[0]+b[0]+c[0]) < 0 {
			continue
		}
		var n vec3
		for _, i := range idx[t : t+3] {
			n = n.add(v3(nrm[i]))
		}
		facing := g.dot(view) > 0
		if !facing && !doubleSided {
			continue
		}
		if !facing {
			n = n.scale(-1)
		}
		drawn += area
		if n.dot(view) < 0 {
			turned += area
		}
	}
	if drawn == 0 {
		return 0
	}
	return turned / drawn
}

// TestBeardShadesTowardViewer: seen from in front, a little from above
// (the portrait's view of the jaw), at most 1% of a full or short
// beard's drawn shells shade with a normal turned from the viewer, and
// from a quarter either side (the near half) at most 6%. Drawn
// double-sided, the shells' inner sides past the jaw's outline shaded
// with their normals flipped into the head: lit edge-on they caught the
// room's light as a grey sheen, light flecks along the beard's lower
// edge. Before, 19-29% of the drawn area from the front and 3-11% from
// a quarter shaded turned away (now 0-0.2% and 2-5%): the shells under
// the jaw and round its sides carry reversed triangles that shade with
// the hair's own normal (turnsAway).
func TestBeardShadesTowardViewer(t *testing.T) {
	views := []struct {
		name  string
		view  vec3
		limit float64
	}{
		{"front", vec3{0, 0.15, 1}, 0.01},
		{"quarter-left", vec3{0.64, 0.15, 0.77}, 0.06},
		{"quarter-right", vec3{-0.64, 0.15, 0.77}, 0.06},
	}
	for _, c := range beardJawCases() {
		if c.cfg.FacialHair.Style == "goatee" {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			s, err := Generate(c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			beard := meshNamed(s, "Wolf3D_Beard")
			if beard == nil {
				t.Fatal("no Wolf3D_Beard")
			}
			p := beard.Primitives[0]
			double := p.Material != nil && s.Materials[*p.Material].DoubleSided
			for _, v := range views {
				share := turnedShare(p.Positions, p.Normals, p.Indices, double, v.view.norm())
				t.Logf("%s: %.1f%% of the drawn beard shades turned away", v.name, 100*share)
				if share > v.limit {
					t.Errorf("%s: %.1f%% of the drawn beard shades with a normal turned from the viewer, want at most %.0f%%", v.name, 100*share, 100*v.limit)
				}
			}
		})
	}
}
