package avatar

import (
	"math"
	"testing"
)

// hatShape measures a hat as it reads from the front: how far it stands
// over the top of the head, its height over its width, and the height
// of what stands in front of the face (a cap's visor, seen from the
// front: edge-on it is a line and the cap reads as a skull cap).
type hatShape struct {
	overHead, heightPerWidth, frontHeight float64
	// dent is how far the middle of the crown's top lies under its
	// highest point (a fedora's centre dent).
	dent float64
}

func measureHat(t *testing.T, style string) hatShape {
	t.Helper()
	cfg := Default(Masculine)
	cfg.Headwear = Headwear{Style: style}
	s, err := Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	hat, _ := meshPositions(s, "Wolf3D_Headwear")
	head, _ := meshPositions(s, "Wolf3D_Head")
	if len(hat) == 0 || len(head) == 0 {
		t.Fatal("no hat or no head")
	}
	headTop, face := math.Inf(-1), math.Inf(-1)
	for _, p := range head {
		headTop, face = math.Max(headTop, p[1]), math.Max(face, p[2])
	}
	lo, hi := vec3{math.Inf(1), math.Inf(1), math.Inf(1)}, vec3{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
	fl, fh := math.Inf(1), math.Inf(-1)
	for _, p := range hat {
		for a := range 3 {
			lo[a], hi[a] = math.Min(lo[a], p[a]), math.Max(hi[a], p[a])
		}
		if p[2] > face {
			fl, fh = math.Min(fl, p[1]), math.Max(fh, p[1])
		}
	}
	hs := hatShape{overHead: hi[1] - headTop, heightPerWidth: (hi[1] - lo[1]) / (hi[0] - lo[0])}
	// The top's middle: the highest hat vertex within 1 cm of the
	// crown's middle line (x) and 2 cm of its middle front to back.
	cx, cz, mid := (lo[0]+hi[0])/2, 0.0, math.Inf(-1)
	n := 0
	for _, p := range hat {
		if p[1] > hi[1]-0.05 {
			cz += p[2]
			n++
		}
	}
	cz /= float64(n)
	for _, p := range hat {
		if math.Abs(p[0]-cx) < 0.01 && math.Abs(p[2]-cz) < 0.02 {
			mid = math.Max(mid, p[1])
		}
	}
	hs.dent = hi[1] - mid
	if fh > fl {
		hs.frontHeight = fh - fl
	}
	return hs
}

// TestHatShapes checks that the fedora reads as a fedora and the cap as
// a cap from the front (the blind panel saw a top hat and a skull cap):
// the fedora's crown stands at most 3.3 cm over the head and the hat is
// under 0.49 times as high as it is wide (before: 3.7 cm, 0.51), and
// the middle of its crown's top lies at least 2 cm under its highest
// point (before: 1.8 cm, a rounded edge over a shallow crease, which
// read as a pork-pie); the cap's visor shows at least 2 cm of
// height in front of the face (before: 1.8 cm).
func TestHatShapes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 2 avatars")
	}
	f := measureHat(t, "fedora")
	t.Logf("fedora: %.1f cm over the head, height/width %.2f, centre dent %.1f cm", 100*f.overHead, f.heightPerWidth, 100*f.dent)
	if f.dent < 0.02 {
		t.Errorf("the fedora's centre dent is %.1f cm deep, want at least 2", 100*f.dent)
	}
	if f.overHead > 0.033 || f.heightPerWidth > 0.49 {
		t.Errorf("the fedora stands %.1f cm over the head (at most 3.3) and is %.2f as high as wide (at most 0.49)", 100*f.overHead, f.heightPerWidth)
	}
	c := measureHat(t, "cap")
	t.Logf("cap: visor %.1f cm high in front of the face", 100*c.frontHeight)
	if c.frontHeight < 0.02 {
		t.Errorf("the cap's visor is %.1f cm high seen from the front, want at least 2", 100*c.frontHeight)
	}
}
