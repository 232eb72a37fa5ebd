package avatar

import (
	"math"
	"sort"
	"testing"
)

// frontBands is where the triangles of tris, seen from the front (taken
// flat onto x-y), cover the line x = c (axis 0; the spans are heights)
// or y = c (axis 1; the spans are widths): the covered spans, merged,
// lowest first. Each is how thick the frame shows from the front where
// the line crosses it.
func frontBands(pos []vec3, tris [][3]uint32, axis int, c float64) [][2]float64 {
	other := 1 - axis
	var spans [][2]float64
	for _, t := range tris {
		var cut []float64
		for k := range 3 {
			a, b := pos[t[k]], pos[t[(k+1)%3]]
			da, db := a[axis]-c, b[axis]-c
			if (da <= 0) != (db <= 0) {
				s := da / (da - db)
				cut = append(cut, a[other]+s*(b[other]-a[other]))
			}
		}
		if len(cut) == 2 {
			spans = append(spans, [2]float64{math.Min(cut[0], cut[1]), math.Max(cut[0], cut[1])})
		}
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i][0] < spans[j][0] })
	var out [][2]float64
	for _, s := range spans {
		if n := len(out); n > 0 && s[0] <= out[n-1][1]+1e-5 {
			out[n-1][1] = math.Max(out[n-1][1], s[1])
			continue
		}
		out = append(out, s)
	}
	return out
}

// rimBands is how thick the left rim shows from the front, metres: its
// bottom and top where the line down through the lens's middle crosses
// them, and its outer side where the line across the lens's middle
// height does. The rim is the frame's triangles within 2.5 cm of its
// front (not the temples, which run back), the lens's middle the
// middle of their vertices more than 1.2 cm out (off the bridge).
func rimBands(t *testing.T, cfg Config) (bottom, top, outer float64) {
	t.Helper()
	g := generatedMeshes(t, cfg)["Wolf3D_Glasses"]
	if len(g.pos) == 0 {
		t.Fatal("no glasses")
	}
	front := math.Inf(-1)
	for _, p := range g.pos {
		front = math.Max(front, p[2])
	}
	var tris [][3]uint32
	lo, hi := vec3{math.Inf(1), math.Inf(1)}, vec3{math.Inf(-1), math.Inf(-1)}
	for _, tr := range g.tris {
		ok := true
		for _, i := range tr {
			ok = ok && g.pos[i][2] > front-0.025
		}
		if !ok {
			continue
		}
		tris = append(tris, tr)
		for _, i := range tr {
			if p := g.pos[i]; p[0] > 0.012 {
				for k := range 2 {
					lo[k], hi[k] = math.Min(lo[k], p[k]), math.Max(hi[k], p[k])
				}
			}
		}
	}
	down := frontBands(g.pos, tris, 0, (lo[0]+hi[0])/2)
	across := frontBands(g.pos, tris, 1, (lo[1]+hi[1])/2)
	if len(down) < 2 || len(across) < 1 {
		t.Fatalf("the lines through the lens's middle cross the rim %d and %d times", len(down), len(across))
	}
	width := func(s [2]float64) float64 { return s[1] - s[0] }
	return width(down[0]), width(down[len(down)-1]), width(across[len(across)-1])
}

// TestGlassesRimsTaper: the rims are as thick from the front as the
// leader's, full at the top and sides and thin along the bottom, not a
// pipe of one thickness all round. Issue 22's p26 panel saw random-10's
// silver round glasses "thick, floating off the face" beside the
// leader's office avatar's black frames. Measured the same way on the
// leader's Wolf3D_Glasses, its rim shows 2.4 mm at the bottom, 3.9 at
// the top and 4.2 at the outer side (its eyes 58.4 mm apart); ours were
// a tube 4.8 mm across all round (bottom 4.8, top 4.8, outer 4.8 on
// every wearer, eyes 56 to 60 mm apart), twice the leader's at the
// bottom, where the rim crosses the cheek. Their front stands as far in
// front of the eyes as the leader's (20 to 21 mm; its 20.6), so the
// thickness, not the gap, is the fault.
func TestGlassesRimsTaper(t *testing.T) {
	for _, tc := range glassWearers(namedConfig{"random-10", Random(10)}, namedConfig{"random-13", Random(13)}, namedConfig{"random-15", Random(15)}) {
		t.Run(tc.name, func(t *testing.T) {
			bottom, top, outer := rimBands(t, tc.cfg)
			t.Logf("%s (%s): the rim shows %.1f mm at the bottom, %.1f at the top, %.1f at the outer side", tc.name, tc.cfg.Glasses.Style, 1000*bottom, 1000*top, 1000*outer)
			if bottom > 0.003 {
				t.Errorf("the rim's bottom shows %.1f mm from the front (want 3 at most; the leader's 2.4)", 1000*bottom)
			}
			if bottom > 0.75*top {
				t.Errorf("the rim's bottom shows %.1f mm, its top %.1f (want the bottom 0.75 of the top at most; the leader's 0.62)", 1000*bottom, 1000*top)
			}
			for _, side := range []struct {
				name string
				w    float64
			}{{"top", top}, {"outer side", outer}} {
				if side.w < 0.0035 || side.w > 0.0045 {
					t.Errorf("the rim's %s shows %.1f mm from the front (want 3.5 to 4.5; the leader's 3.9 and 4.2)", side.name, 1000*side.w)
				}
			}
		})
	}
}
