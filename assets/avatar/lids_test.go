package avatar

import (
	"math"
	"testing"

	"github.com/kilnhq/kiln/assets/avatar/paint"
)

// lidOverIris is how far, at rest, the upper lid's edge comes down over
// the top of the iris of the avatar's left eye, metres (negative: white
// shows above the iris), and the iris's top above its middle. The iris
// is what paint.Eye paints: the eyeball within paint.IrisAngle of its
// front, around the mean of its vertices. The lid's edge is the lowest
// head vertex in front of the eyeball, above its centre, within 2 mm of
// the iris's middle.
func lidOverIris(t *testing.T, cfg Config) (cover, irisRadius, open float64) {
	t.Helper()
	body, head := restingHead(t, cfg.resolve())
	eye, err := body.Fit("eyes/left")
	if err != nil {
		t.Fatal(err)
	}
	head.lowerLids(restLid(head, fittedPart(eye)))
	var c [3]float64
	for _, p := range eye.Pos {
		for k := range 3 {
			c[k] += float64(p[k]) / float64(len(eye.Pos))
		}
	}
	// The eye's surface is no sphere around that mean: the iris's top
	// edge is where the ray from it at paint.IrisAngle up from the front
	// meets the eye's triangles.
	edge := vec3{0, math.Sin(paint.IrisAngle), math.Cos(paint.IrisAngle)}
	at := func(p [3]float32) vec3 { return vec3{float64(p[0]), float64(p[1]), float64(p[2])} }
	r := 0.0
	for _, tri := range eye.Tris {
		if d, _, _, ok := rayTriangle(vec3(c), edge, at(eye.Pos[tri[0]]), at(eye.Pos[tri[1]]), at(eye.Pos[tri[2]])); ok {
			r = math.Max(r, d)
		}
	}
	if r == 0 {
		t.Fatal("the ray from the eye's middle meets none of its triangles")
	}
	irisTop := c[1] + r*math.Sin(paint.IrisAngle)
	lid := math.Inf(1)
	for _, p := range head.pos {
		x, y, z := float64(p[0]), float64(p[1]), float64(p[2])
		out := math.Sqrt(sq(x-c[0])+sq(y-c[1])+sq(z-c[2])) > r
		if math.Abs(x-c[0]) < 0.002 && y > c[1] && y < c[1]+r && z > c[2] && out {
			lid = math.Min(lid, y)
		}
	}
	// The lower lid's edge: the highest head vertex in front of the
	// eyeball, below its centre, within 2 mm of the iris's middle.
	low := math.Inf(-1)
	for _, p := range head.pos {
		x, y, z := float64(p[0]), float64(p[1]), float64(p[2])
		out := math.Sqrt(sq(x-c[0])+sq(y-c[1])+sq(z-c[2])) > r
		if math.Abs(x-c[0]) < 0.002 && y < c[1] && y > c[1]-r && z > c[2] && out {
			low = math.Max(low, y)
		}
	}
	return irisTop - lid, irisTop - c[1], lid - low
}

func sq(x float64) float64 { return x * x }

// TestUpperLidOverIris checks the eye at rest on both defaults and the
// panel's random faces with lids set low by their own shape (random-1,
// -4, -7) or not (random-2, -3): the upper lid comes over the top of the
// iris by at least 9% of its height (no white above it, the p13
// judges' stare; minCover) but no more than 30%, and the eye stays open
// (upper lid to lower lid) at least 0.75 of the iris's height (minOpen,
// 0.85, where minCover allows). With the lid set to cover a fixed 3 mm over an iris
// 0.54 rad across (before p14's figures) random-4's eye was open 0.69
// of the iris (of the smaller iris, paint.IrisAngle), random-7's 0.59
// and random-1's 0.70: the p14 judges' "half-closed, dull" random-04.
func TestUpperLidOverIris(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
	}{
		{"default-female", Default(Feminine)},
		{"default-male", Default(Masculine)},
		{"random-1", Random(1)},
		{"random-2", Random(2)},
		{"random-3", Random(3)},
		{"random-4", Random(4)},
		{"random-7", Random(7)},
	} {
		c, ir, open := lidOverIris(t, tc.cfg)
		share := c / (2 * ir)
		t.Logf("%s: upper lid %.2f mm over the iris, %.0f%% of its height (%.2f mm); open %.2f of it", tc.name, 1000*c, 100*share, 2000*ir, open/(2*ir))
		if share < 0.09 || share > 0.30 {
			t.Errorf("%s: upper lid over %.0f%% of the iris's height, want 9 to 30%%", tc.name, 100*share)
		}
		if open/(2*ir) < 0.75 {
			t.Errorf("%s: the eye open %.2f of the iris's height at rest, want at least 0.75 (half closed)", tc.name, open/(2*ir))
		}
	}
}
