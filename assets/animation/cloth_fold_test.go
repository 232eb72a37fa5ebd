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

// TestSideAtSharedEdge: where the nearest cloth is an edge two triangles
// share, side puts the skin on the side their normals together say,
// whichever triangle comes first. A sliver beside the edge (the
// masculine blouse's V has one 1.8 mm wide and 88 mm long) turns over
// when its far corner crosses the edge by a millimetre in a clip, and its
// own normal then puts skin 10 mm under the cloth 4 mm out: the blouse's
// skin 10.0-10.6 mm from the edge and 9.2-9.4 mm under the broad
// triangle through all of gesture_shrug was counted out through it.
func TestSideAtSharedEdge(t *testing.T) {
	// The broad triangle lies in z = 0, facing +z, on y >= 0 from the edge
	// along x; the sliver shares the edge, its far corner at y = -1 mm
	// (lying on, as at rest) or y = +1 mm, z = +1 mm (turned over onto the
	// broad one).
	pos := []vec{
		{0, 0, 0}, {0.1, 0, 0}, {0.05, 0.05, 0},
		{0.05, -0.001, 0.0002},
		{0.05, 0.001, 0.001},
	}
	c := &cloth{tris: [][3]int{{0, 1, 2}, {1, 0, 3}, {1, 0, 4}}, flip: []bool{false, false, false}}
	for _, k := range []struct {
		name  string
		p     vec
		cands []int
		out   bool
	}{
		{"10 mm under the edge, sliver lying flat", vec{0.05, -0.004, -0.010}, []int{1, 0}, false},
		{"10 mm under the edge, sliver turned over", vec{0.05, -0.004, -0.010}, []int{2, 0}, false},
		{"the same, the broad triangle first", vec{0.05, -0.004, -0.010}, []int{0, 2}, false},
		{"4 mm over the sliver lying flat", vec{0.05, -0.004, 0.004}, []int{1, 0}, true},
		{"4 mm over the broad triangle", vec{0.05, 0.02, 0.004}, []int{2, 0}, true},
		{"under the broad triangle alone", vec{0.05, 0.02, -0.010}, []int{2, 0}, false},
	} {
		at := c.side(k.p, pos, k.cands)
		if got := at.signed > pokeTolerance; got != k.out {
			t.Errorf("%s: %.1f mm along the normal, out %v, want %v", k.name, 1000*at.signed, got, k.out)
		}
	}
}
