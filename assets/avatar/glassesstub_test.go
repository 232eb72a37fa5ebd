package avatar

import (
	"math"
	"testing"
)

// templeStub is how far, metres, the frame shows above its rims' top
// beside the lenses when seen from the front: the highest of the left
// frame's vertices out beyond the lens's middle (x over 4.5 cm, where
// the outer side of the rim and the temples are) that no head, hair or
// headwear hides from the front, over the rim's top across the lens's
// middle (x 2 to 4.5 cm; the rims span about 1.3 to 6.2 cm). 0 or less
// when the temples leave the rims and run back under their top line.
func templeStub(t *testing.T, cfg Config) float64 {
	t.Helper()
	m := generatedMeshes(t, cfg)
	specs := m["Wolf3D_Glasses"]
	if len(specs.pos) == 0 {
		t.Fatal("no glasses")
	}
	var pos [][3]float32
	var tris [][3]uint32
	for _, name := range []string{"Wolf3D_Head", "Wolf3D_Hair", "Wolf3D_Headwear"} {
		g := m[name]
		n := uint32(len(pos))
		for _, p := range g.pos {
			pos = append(pos, p.f32())
		}
		for _, tr := range g.tris {
			tris = append(tris, [3]uint32{tr[0] + n, tr[1] + n, tr[2] + n})
		}
	}
	cover := newLipView(pos, tris, make([]bool, len(tris)))
	top := math.Inf(-1)
	for _, p := range specs.pos {
		if p[0] > 0.02 && p[0] < 0.045 {
			top = math.Max(top, p[1])
		}
	}
	stub := math.Inf(-1)
	for _, p := range specs.pos {
		if p[0] < 0.045 {
			continue
		}
		if z, _, ok := cover.front(p); ok && z > p[2] {
			continue
		}
		stub = math.Max(stub, p[1]-top)
	}
	return stub
}

// TestGlassesNoTempleStubs: seen from the front, the temples do not show
// above the rims' top corners. Issue 22's looking saw stubs over the
// square rims' outer top corners (and the round rims' sides): the
// temples left the rims from beside their outer side at the eyes'
// height (4 mm over the eyes' middle) and climbed straight to the top
// of the ears' root, 9 to 10 mm over the eyes on most heads, so the
// part of them in front of a short cut's hair stood up over the
// corner. Before: 4.2 mm over the rims' top (the default masculine
// face in square frames), 3.3 (random-12), 2.6 (random-15), 2.1 (the
// round frames); the others were under it.
func TestGlassesNoTempleStubs(t *testing.T) {
	square := Default(Masculine)
	square.Glasses.Style = "square"
	for _, tc := range glassWearers(namedConfig{"masculine-square", square}, namedConfig{"random-12", Random(12)}, namedConfig{"random-15", Random(15)}, namedConfig{"random-16", Random(16)}) {
		t.Run(tc.name, func(t *testing.T) {
			stub := templeStub(t, tc.cfg)
			t.Logf("%s: the frame shows %.1f mm over the rims' top beside them", tc.name, 1000*stub)
			if stub > 0 {
				t.Errorf("the temples show %.1f mm over the rims' top from the front", 1000*stub)
			}
		})
	}
}
