package animation

import "testing"

// TestOverlaidFold: skin outside the cloth triangle nearest to it still
// counts as covered where cloth of the same layer lies straight over it
// (a fold tucks the nearer triangle under that cloth), and as out where
// nothing does: beside the cloth over it, or farther under it than
// coverRadius.
func TestOverlaidFold(t *testing.T) {
	// Two sheets facing +z, 10 cm wide: the cloth over the skin at z = 0
	// and a fold tucked under it at z = -12 mm.
	pos := []vec{
		{-0.05, -0.05, 0}, {0.05, -0.05, 0}, {0, 0.05, 0},
		{-0.05, -0.05, -0.012}, {0.05, -0.05, -0.012}, {0, 0.05, -0.012},
	}
	c := &cloth{tris: [][3]int{{0, 1, 2}, {3, 4, 5}}, flip: []bool{false, false}}
	for _, k := range []struct {
		name  string
		p     vec
		cands []int
		want  bool
	}{
		{"under the fold's outer sheet", vec{0, 0, -0.010}, []int{0, 1}, true},
		{"one sheet only, out through it", vec{0, 0, 0.002}, []int{0}, false},
		{"out through both sheets", vec{0, 0, 0.002}, []int{0, 1}, false},
		{"beside the outer sheet", vec{0.2, 0, -0.010}, []int{0, 1}, false},
		{"deeper than coverRadius under it", vec{0, 0, -0.040}, []int{0}, false},
	} {
		if got := c.overlaid(k.p, pos, k.cands); got != k.want {
			t.Errorf("%s: overlaid %v, want %v", k.name, got, k.want)
		}
		// The fold case is what side alone counted as out.
		if k.want {
			if at := c.side(k.p, pos, k.cands); at.signed <= pokeTolerance {
				t.Errorf("%s: side puts it %.1f mm out, not out: the case tests nothing", k.name, 1000*at.signed)
			}
		}
	}
}
