package avatar

import (
	"math"
	"testing"
)

// TestLongHairTips measures the ends of the hanging hair in the built
// avatar: issue 22's panel saw long hair end in square blocks
// ("blocky"), every card stopping at one level. Two measures over the
// hair's lowest 12 cm:
//   - tip: the length of the hair's cross-section in a level plane 1 cm
//     above its lowest point, over that 14 cm up (above the taper): a
//     square cut keeps the whole width down to the end (about 1), locks
//     thinning to tips keep little of it;
//   - cut: the longest run of the hair's open edges lying level (within
//     25° of horizontal), joined where they share an end: the square
//     cut's edge.
//
// Before taperHairEnds: long tip 0.84, cut 30.2 cm; ponytail (whose tail
// already narrows to a point) 0.06, 1.4 cm. Now 0.24, 1.4 cm and 0.02,
// 1.5 cm. The tips must keep under half the width and no level cut may
// be longer than 2 cm (the tapered stretch's edges are about 1 cm).
func TestLongHairTips(t *testing.T) {
	for _, style := range []string{"long", "ponytail"} {
		t.Run(style, func(t *testing.T) {
			cfg := Default(Feminine)
			cfg.Hair.Style = style
			s, err := Generate(cfg)
			if err != nil {
				t.Fatal(err)
			}
			hp, ht := meshPositions(s, "Wolf3D_Hair")
			if len(ht) == 0 {
				t.Fatal("no hair")
			}
			lo := math.Inf(1)
			for _, p := range hp {
				lo = math.Min(lo, p[1])
			}
			tip := sectionLength(hp, ht, lo+0.01) / sectionLength(hp, ht, lo+0.14)
			cut := levelCut(hp, ht, lo+0.12)
			t.Logf("%s: tip width %.2f of mid-lock, longest level cut %.1f cm", style, tip, 100*cut)
			if tip > 0.5 {
				t.Errorf("the hair 1 cm above its ends is %.2f as wide as 14 cm up, want under 0.5 (locks thinning to tips)", tip)
			}
			if cut > 0.02 {
				t.Errorf("the hair ends in a level cut %.1f cm long, want at most 2", 100*cut)
			}
		})
	}
}

// sectionLength is the total length of the segments in which the level
// plane at height y cuts the triangles.
func sectionLength(pos []vec3, tris [][3]uint32, y float64) float64 {
	total := 0.0
	for _, t := range tris {
		var pts []vec3
		for k := 0; k < 3; k++ {
			a, b := pos[t[k]], pos[t[(k+1)%3]]
			if (a[1] < y) != (b[1] < y) {
				f := (y - a[1]) / (b[1] - a[1])
				pts = append(pts, a.add(b.sub(a).scale(f)))
			}
		}
		if len(pts) == 2 {
			total += pts[1].sub(pts[0]).len()
		}
	}
	return total
}

// levelCut is the longest run of open edges (used by one triangle,
// vertices welded by position) below height top that lie within 25° of
// level, joined where they share an end.
func levelCut(pos []vec3, tris [][3]uint32, top float64) float64 {
	return edgeChains(pos, tris, func(a, b vec3) bool {
		d := b.sub(a)
		return math.Max(a[1], b[1]) <= top && math.Abs(d[1]) <= d.len()*math.Sin(25*math.Pi/180)
	})
}
