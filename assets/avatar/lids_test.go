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
func lidOverIris(t *testing.T, cfg Config) (cover, irisRadius float64) {
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
	return irisTop - lid, irisTop - c[1]
}

func sq(x float64) float64 { return x * x }

// TestUpperLidOverIris checks that at rest the upper lid covers the top
// of the iris by at least a fifth of the iris's height (the leader's
// cover 21% in room close-ups, bench/avatar-look/eyewhite) without
// half-closing the eye (at most 30%), on both defaults and three random
// faces. With the lid set to cover 2 mm (lidCover before p14) it covered
// 13% of the iris on default-female, 24% on default-male, and 16%, 14%
// and 16% on random 1 to 3: the p13 judges called those eyes staring.
func TestUpperLidOverIris(t *testing.T) {
	cases := map[string]Config{"default-female": Default(Feminine), "default-male": Default(Masculine),
		"random-1": Random(1), "random-2": Random(2), "random-3": Random(3)}
	for _, name := range []string{"default-female", "default-male", "random-1", "random-2", "random-3"} {
		c, ir := lidOverIris(t, cases[name])
		share := c / (2 * ir)
		t.Logf("%s: upper lid %.2f mm over the iris, %.0f%% of its height (%.2f mm)", name, 1000*c, 100*share, 2000*ir)
		if share < 0.20 || share > 0.30 {
			t.Errorf("%s: upper lid over %.0f%% of the iris's height, want 20 to 30%%", name, 100*share)
		}
	}
}
