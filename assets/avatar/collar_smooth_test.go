package avatar

import (
	"math"
	"testing"
)

// frontView casts parallel rays back (along -z, falling slope in y for
// each unit of depth, as a camera above the collar looks down on it) from
// in front of the body and tells whether the first thing a ray meets is
// the top (cloth) or skin. A ray is named by x and c = y - slope·z, the
// same all along it; the triangles of each mesh are binned by those, so a
// ray looks only at those it can meet.
type frontView struct {
	meshes [2]struct {
		pos  []vec3
		bins map[[2]int][][3]uint32
	}
	z, slope float64
}

const frontBin = 0.01

// sharpTurn is the turn, in degrees, from one 2 mm row's segment of an
// edge to the next that counts as sharp.
const sharpTurn = 15

func newFrontView(top []vec3, topT [][3]uint32, skin []vec3, skinT [][3]uint32, z, slope float64) *frontView {
	v := &frontView{z: z, slope: slope}
	for i, m := range []struct {
		pos  []vec3
		tris [][3]uint32
	}{{top, topT}, {skin, skinT}} {
		v.meshes[i].pos = m.pos
		v.meshes[i].bins = map[[2]int][][3]uint32{}
		for _, t := range m.tris {
			at := func(c uint32) vec3 { return vec3{m.pos[c][0], m.pos[c][1] - slope*m.pos[c][2], 0} }
			lo, hi := at(t[0]), at(t[0])
			for _, c := range t[1:] {
				for k := range 2 {
					lo[k], hi[k] = math.Min(lo[k], at(c)[k]), math.Max(hi[k], at(c)[k])
				}
			}
			for x := int(math.Floor(lo[0] / frontBin)); x <= int(math.Floor(hi[0]/frontBin)); x++ {
				for y := int(math.Floor(lo[1] / frontBin)); y <= int(math.Floor(hi[1]/frontBin)); y++ {
					v.meshes[i].bins[[2]int{x, y}] = append(v.meshes[i].bins[[2]int{x, y}], t)
				}
			}
		}
	}
	return v
}

// cloth tells whether the ray (x, c) meets the top before any skin;
// seen is whether it meets either.
func (v *frontView) cloth(x, c float64) (cloth, seen bool) {
	o, d := vec3{x, c + v.slope*v.z, v.z}, vec3{0, -v.slope, -1}.norm()
	key := [2]int{int(math.Floor(x / frontBin)), int(math.Floor(c / frontBin))}
	var best [2]float64
	for i, m := range v.meshes {
		best[i] = math.Inf(1)
		for _, t := range m.bins[key] {
			if dist, _, _, ok := rayTriangle(o, d, m.pos[t[0]], m.pos[t[1]], m.pos[t[2]]); ok && dist < best[i] {
				best[i] = dist
			}
		}
	}
	return best[0] <= best[1] && !math.IsInf(best[0], 1), !math.IsInf(best[0], 1) || !math.IsInf(best[1], 1)
}

// edgeFrom is the x where the cloth begins, going from x0 (skin) by
// step until within maxOff, refined by bisection to a twentieth of a
// millimetre; ok is false when no cloth is met.
func (v *frontView) edgeFrom(x0, y, step, maxOff float64) (float64, bool) {
	prev := x0
	for off := math.Abs(step); off <= maxOff; off += math.Abs(step) {
		x := x0 + math.Copysign(off, step)
		if c, _ := v.cloth(x, y); c {
			a, b := prev, x
			for math.Abs(b-a) > 0.00005 {
				m := (a + b) / 2
				if c, _ := v.cloth(m, y); c {
					b = m
				} else {
					a = m
				}
			}
			return (a + b) / 2, true
		}
		prev = x
	}
	return 0, false
}

// openingTurns walks the two edges of a shirt's or blouse's V, seen
// straight from the front, row by row (every 2 mm from 3 cm under the
// neck joint down to the V's point), and gives each edge's total turning
// in degrees and its sharp turns (sharpTurn or more between one row's
// segment and the next), with the number of rows: a straight or gently
// curving edge turns little, sharply at most where the V meets the
// collar; a stair of notches turns sharply twice at every step.
func openingTurns(v *frontView, neck vec3) (total [2]float64, sharp [2]int, rows int) {
	var edges [2][][2]float64
	c0 := neck[1] - v.slope*neck[2]
	for y := c0 - 0.03; y > c0-0.3; y -= 0.002 {
		// Half a millimetre off the middle, where the body's halves meet
		// (a ray along that seam can slip between its triangles).
		x0 := neck[0] + 0.0005
		if c, seen := v.cloth(x0, y); c || !seen {
			break // the V's point
		}
		l, okL := v.edgeFrom(x0, y, -0.001, 0.08)
		r, okR := v.edgeFrom(x0, y, 0.001, 0.08)
		if !okL || !okR {
			continue
		}
		edges[0] = append(edges[0], [2]float64{l, y})
		edges[1] = append(edges[1], [2]float64{r, y})
		rows++
	}
	for s, e := range edges {
		for i := 1; i+1 < len(e); i++ {
			a := math.Atan2(e[i][1]-e[i-1][1], e[i][0]-e[i-1][0])
			b := math.Atan2(e[i+1][1]-e[i][1], e[i+1][0]-e[i][0])
			d := math.Abs(math.Remainder(b-a, 2*math.Pi)) * 180 / math.Pi
			total[s] += d
			if d >= sharpTurn {
				sharp[s]++
			}
		}
	}
	return total, sharp, rows
}

// TestCollarOpeningSmooth checks the edge of a shirt's and a blouse's
// opening as a viewer sees it from the front (the blind panel saw saw
// teeth there and called the collar torn): rays back toward the body,
// level and falling as from a portrait camera at eye height, find row by
// row where the skin of the V gives way to cloth on either side. Each
// side's edge must turn less than 180° in all, with at most three sharp
// turns (where the V meets the collar). Before keepSeenSkin, holes in
// the skin of the V showed the collar's back as white tabs: seen from a
// portrait camera, the default feminine blouse's edges turned 274° and
// 264° with 7 and 5 sharp turns, the masculine blouse's 259° and 359°
// with 4 and 7. The V must stay open at least 1 cm deep.
func TestCollarOpeningSmooth(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 4 avatars")
	}
	for _, c := range []struct{ body, top string }{
		{Feminine, "blouse"}, {Feminine, "shirt"}, {Masculine, "blouse"}, {Masculine, "shirt"},
	} {
		t.Run(c.body+"-"+c.top, func(t *testing.T) {
			cfg := Default(c.body)
			cfg.Outfit.Top.Style = c.top
			s, neck := generatedWithNeck(t, cfg)
			top, topT := meshPositions(s, "Wolf3D_Outfit_Top")
			skin, skinT := meshPositions(s, "Wolf3D_Body")
			head, headT := meshPositions(s, "Wolf3D_Head")
			for _, tr := range headT {
				n := uint32(len(skin))
				skinT = append(skinT, [3]uint32{tr[0] + n, tr[1] + n, tr[2] + n})
			}
			skin = append(skin, head...)
			for _, slope := range []float64{0, 0.2} {
				v := newFrontView(top, topT, skin, skinT, neck[2]+0.5, slope)
				total, sharp, rows := openingTurns(v, neck)
				t.Logf("%s %s, rays falling %.1f: %d rows (%.1f cm of V); edges turn %.0f° and %.0f° in all, %d and %d sharp turns",
					c.body, c.top, slope, rows, float64(rows)*0.2, total[0], total[1], sharp[0], sharp[1])
				if rows < 5 {
					t.Errorf("rays falling %.1f: the V is %d rows (2 mm) deep, want at least 5", slope, rows)
				}
				for s := range 2 {
					if total[s] >= 180 || sharp[s] > 3 {
						t.Errorf("rays falling %.1f: side %d of the opening turns %.0f° in all, %d sharp turns; want under 180°, at most 3", slope, s, total[s], sharp[s])
					}
				}
			}
		})
	}
}
