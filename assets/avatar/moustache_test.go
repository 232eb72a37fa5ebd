package avatar

import (
	"math"
	"testing"
)

// TestMoustacheFillsUpperLip: a moustache (alone, or with a full or
// short beard) covers the skin of the upper lip from the lip's red up
// toward the nose, as the leader's does. The upper lip's skin was
// taken for nose (noseMask: nose-trans moves it with the nose), so a
// moustache was a strip on the lip's border under bare skin. Measured
// on the default masculine head: the share of the front-facing head
// vertices of the face within 7 mm of the midline, 2 to 8 mm over the
// top of the upper lip, whose beard weight shows hair (beardCoverEdge).
func TestMoustacheFillsUpperLip(t *testing.T) {
	for _, tc := range []struct {
		style string
		min   float64
	}{
		{"moustache", 0.8},
		{"full-beard", 0.8},
		{"short-beard", 0.8},
		{"goatee", 0.8},
	} {
		t.Run(tc.style, func(t *testing.T) {
			cfg := Default(Masculine)
			cfg.FacialHair.Style = tc.style
			body, head := restingHead(t, cfg)
			bd := newBeard(cfg, head, body.Joints())
			f := frameOf(head, body.Joints())
			n, covered := 0, 0
			for i, p := range head.pos {
				y := float64(p[1]) - f.lipTop
				if math.Abs(float64(p[0])) > 0.007 || y < 0.002 || y > 0.008 || head.nrm[i][2] < 0.3 || float64(p[2]) < f.lip[2]-0.02 {
					continue
				}
				n++
				if bd.weights[i] >= beardCoverEdge {
					covered++
				}
			}
			if n < 5 {
				t.Fatalf("%d vertices on the upper lip's skin", n)
			}
			share := float64(covered) / float64(n)
			t.Logf("%s: %d of %d upper-lip vertices covered (%.0f%%)", tc.style, covered, n, 100*share)
			if share < tc.min {
				t.Errorf("%s: the moustache covers %.0f%% of the upper lip's skin, want %.0f%% or more", tc.style, 100*share, 100*tc.min)
			}
		})
	}
}
