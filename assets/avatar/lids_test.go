package avatar

import (
	"math"
	"slices"
	"testing"

	"github.com/kilnhq/kiln/assets/avatar/face"

	"github.com/kilnhq/kiln/assets/avatar/paint"
)

// lidOverIris is how far, at rest (the rest lids, lowerLids, and rest
// lower lids, raiseLowerLids), the upper lid's edge comes down over
// the top of the iris of the avatar's left eye, metres (negative: white
// shows above the iris), the iris's top above its middle, and the
// opening from the upper lid's edge to the lower's. The iris
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
	head.raiseLowerLids(restLowLid(head, fittedPart(eye)))
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

// TestLowerLidMeetsIris checks the white of the eye under the iris at
// rest on the panel's 20 faces: from the iris's lowest point down to the
// lower lid's edge over the iris's middle (lidOverIris), as a share of
// the iris's height. The leader's lower lid meets the iris (none shows,
// room close-ups, bench/avatar-look/eyewhite); ours showed up to 27% of
// the iris's height under it (random-06, 4.3 mm; random-08 23%,
// random-02 and -13 18%, a mean of 7.8% over the 20): the p21 judges'
// "staring", "a wide white eye". Each face may keep at most 12% (where
// the opening, minLowOpen, stops the lid: random-08, whose upper lid
// comes 33% over the iris by its own shape, keeps 11%, 1.8 mm; random-06
// and -18 5%, -11 2%, -02 1%, the others none) and the 20 at most 2% on
// average (now 1.2%); the eye stays open at least 0.75 of the iris's
// height.
func TestLowerLidMeetsIris(t *testing.T) {
	faces := panelFaces()
	var sum float64
	for _, f := range faces {
		name := f.name
		cover, ir, open := lidOverIris(t, f.cfg)
		h := 2 * ir
		white := cover + open - h
		sum += math.Max(0, white/h)
		t.Logf("%s: white under the iris %.2f mm, %.0f%% of its height; open %.2f of it", name, 1000*white, 100*white/h, open/h)
		if white/h > 0.12 {
			t.Errorf("%s: white under the iris %.0f%% of its height (%.2f mm), want 12%% or less", name, 100*white/h, 1000*white)
		}
		if open/h < 0.75 {
			t.Errorf("%s: the eye open %.2f of the iris's height at rest, want at least 0.75", name, open/h)
		}
	}
	if mean := sum / float64(len(faces)); mean > 0.02 {
		t.Errorf("white under the iris %.1f%% of its height on average, want 2%% or less", 100*mean)
	}
}

// TestBlinkTakesBackRestSquint checks that a full blink, the rest lids
// and rest lower lids plus both blinks (eyesClosed) as the builder writes them
// (their rest shares taken off, blinkDeltas, unsquint), put every head
// vertex where the blinks closed on this face (closedBlinks) alone put it
// before the lids were lowered and the lower lids raised,
// so the lids close as they did, the upper lid meeting the lower rather
// than passing over it; and that the squint shape keeps its travel.
func TestBlinkTakesBackRestSquint(t *testing.T) {
	for _, tc := range []namedConfig{{"default-male", Default(Masculine)}, {"random-06", Random(6)}, {"random-13", Random(13)}} {
		body, head := restingHead(t, tc.cfg.resolve())
		f, err := body.Fit("eyes/left")
		if err != nil {
			t.Fatal(err)
		}
		eye := fittedPart(f)
		fr, err := body.Fit("eyes/right")
		if err != nil {
			t.Fatal(err)
		}
		closed := closedBlinks(head, [2]*part{eye, fittedPart(fr)}, func(v int32) float64 { return float64(body.Pos[v][0]) })
		shut := &part{pos: slices.Clone(head.pos), base: head.base}
		for i, v := range head.base {
			for k := range 3 {
				shut.pos[i][k] += closed["eyesClosed"][v][k]
			}
		}
		b := &builder{lid: restLid(head, eye), closed: closed}
		head.lowerLids(b.lid)
		b.lowLid = restLowLid(head, eye)
		if b.lowLid == 0 {
			t.Fatalf("%s: no rest lower lid", tc.name)
		}
		head.raiseLowerLids(b.lowLid)
		all := face.All()
		blink := b.blinkDeltas(head, "eyesClosed", shapes()[slices.Index(all, "eyesClosed")])
		blink = b.unsquint(head, "eyesClosed", blink)
		worst := 0.0
		for i, p := range head.pos {
			for k := range 3 {
				worst = math.Max(worst, math.Abs(float64(p[k]+blink[i][k]-shut.pos[i][k])))
			}
		}
		sq := head.deltas(shapes()[slices.Index(all, "eyeSquintLeft")])
		travel := 0.0
		for _, d := range sq {
			travel = math.Max(travel, v3(d).len())
		}
		t.Logf("%s: rest lower lid %.2f of a squint; a full blink lands within %.4f mm of the blink before; squint travel %.2f mm", tc.name, b.lowLid, 1000*worst, 1000*travel)
		if worst > 1e-5 {
			t.Errorf("%s: a full blink leaves a vertex %.3f mm from where it closed before", tc.name, 1000*worst)
		}
		if travel < 0.002 {
			t.Errorf("%s: the squint moves the head %.2f mm at most, want 2 mm or more", tc.name, 1000*travel)
		}
	}
}
