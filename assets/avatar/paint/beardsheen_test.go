package paint

import "testing"

// TestBeardSheenDark: the sheen is for dark beards (black and dark
// brown take all of it; a blond or light-brown beard, whose strands'
// steps already show its hairs, none), and beardSheenColor lifts a
// dark strand to a cooler colour (the room light's white on it), not
// its own warm black made lighter.
func TestBeardSheenDark(t *testing.T) {
	black := rgb{0.0156, 0.0136, 0.0118}   // beardTone of black, about
	darkBrown := rgb{0.026, 0.013, 0.0075} // #3b2619 darkened
	lightBrown := rgb{0.12, 0.070, 0.038}  // #8a6240 darkened
	blonde := rgb{0.20, 0.12, 0.060}       // a golden blond beard
	for _, c := range []struct {
		name string
		c    rgb
		lo   float64
		hi   float64
	}{{"black", black, 1, 1}, {"dark-brown", darkBrown, 1, 1}, {"light-brown", lightBrown, 0, 0}, {"blonde", blonde, 0, 0}} {
		if d := beardSheenDark(c.c); d < c.lo || d > c.hi {
			t.Errorf("%s: sheen share %.2f, want %.2f..%.2f", c.name, d, c.lo, c.hi)
		}
	}
	lit := beardSheenColor(black, beardSheenLift)
	if lit.luma() <= black.luma()*1.5 {
		t.Errorf("a lit black strand's luminance %.4f, want well over the strand's %.4f", lit.luma(), black.luma())
	}
	if lit[2]/lit[0] <= black[2]/black[0]+0.1 {
		t.Errorf("a lit black strand %v: want it cooler (blue to red) than the strand %v", lit, black)
	}
}

// TestBeardLit: a beard faces the room's light on a surface turned up
// and forward, not on one turned down (under the jaw), whichever way
// its triangles wind.
func TestBeardLit(t *testing.T) {
	// Two quads 1 cm across, in front of the head's middle: one facing
	// up and forward, one facing down and forward, the second wound the
	// other way.
	s := Surface{
		Pos: [][3]float32{
			{-0.01, 0, 0.1}, {0.01, 0, 0.1}, {-0.01, 0.01, 0.09}, // up-forward
			{-0.01, -0.05, 0.1}, {0.01, -0.05, 0.1}, {-0.01, -0.06, 0.09}, // down-forward
		},
		Tris: [][3]uint32{{0, 1, 2}, {3, 5, 4}},
	}
	lit := beardLit(s, 0.1)
	if lit[0] < 0.9 {
		t.Errorf("up-forward: lit %.2f, want 0.9 or more", lit[0])
	}
	if lit[3] > 0 {
		t.Errorf("down-forward: lit %.2f, want 0", lit[3])
	}
}
