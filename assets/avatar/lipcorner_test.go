package avatar

import "testing"

// TestMouthCornersShaded checks the corners of the painted mouth of the
// lip tests' faces: a soft shadow on the skin just past where the lips'
// colour ends (u 1.15 to 1.3 of the lips' half-width, 1 to 5 mm past
// it, at the parting's height, both sides of the face), its darkest at
// most 0.93 of the cheek's luma beside it (u 1.6), as the leader's
// portraits show (its corners sit in a small soft shadow; the blind
// panel read ours, the colour ending in even skin, as a pursed mouth).
func TestMouthCornersShaded(t *testing.T) {
	for _, c := range lipCases() {
		t.Run(c.name, func(t *testing.T) {
			f := paintFace(t, c.cfg)
			fr := f.frame
			at := func(u, dy float64) float64 {
				var l float64
				for _, s := range []float64{u, -u} {
					col, ok := f.at(fr.Centre[0]+s*fr.Half, fr.Centre[1]+fr.Corner+dy)
					if !ok {
						t.Fatalf("nothing painted at u %.2f, %.1f mm from the parting", s, 1000*dy)
					}
					l += luma(col) / 2
				}
				return l
			}
			corner := at(1.15, 0)
			for u := 1.15; u <= 1.3; u += 0.025 {
				corner = min(corner, at(u, 0))
			}
			ratio := corner / at(1.6, 0)
			t.Logf("the skin past the mouth's corners %.3f of the cheek's luma beside them", ratio)
			if ratio > 0.93 {
				t.Errorf("the skin past the mouth's corners %.3f of the cheek's luma beside them, want at most 0.93", ratio)
			}
		})
	}
}
