package avatar

import (
	"math"
	"testing"
)

// eyeShows is the share of the left eye's front disc (its radius, seen
// straight from the front) where a ray from in front reaches the eye
// before the head's skin: how much of the eye a viewer sees. The head is
// the resting head (restingHead) with its lids lowered by blink of a
// blink.
func eyeShows(t *testing.T, cfg Config, blink float32) float64 {
	t.Helper()
	body, head := restingHead(t, cfg.resolve())
	f, err := body.Fit("eyes/left")
	if err != nil {
		t.Fatal(err)
	}
	eye := fittedPart(f)
	if blink > 0 {
		head.lowerLids(blink)
	}
	var c vec3
	lo, hi := vec3{1, 1, 1}, vec3{-1, -1, -1}
	for _, p := range eye.pos {
		for k := range 3 {
			c[k] += float64(p[k]) / float64(len(eye.pos))
			lo[k], hi[k] = math.Min(lo[k], float64(p[k])), math.Max(hi[k], float64(p[k]))
		}
	}
	r := (hi[0] - lo[0]) / 2
	near := func(q [3]float32) bool { return v3(q).sub(c).len() < 2.5*r }
	var skin [][3]vec3
	for _, tr := range head.tris {
		if near(head.pos[tr[0]]) {
			skin = append(skin, [3]vec3{v3(head.pos[tr[0]]), v3(head.pos[tr[1]]), v3(head.pos[tr[2]])})
		}
	}
	back := vec3{0, 0, -1}
	first := func(o vec3, tris [][3]vec3) float64 {
		d := math.Inf(1)
		for _, s := range tris {
			if h, _, _, ok := rayTriangle(o, back, s[0], s[1], s[2]); ok {
				d = math.Min(d, h)
			}
		}
		return d
	}
	var ball [][3]vec3
	for _, tr := range eye.tris {
		ball = append(ball, [3]vec3{v3(eye.pos[tr[0]]), v3(eye.pos[tr[1]]), v3(eye.pos[tr[2]])})
	}
	const n = 24
	seen, all := 0, 0
	for i := range n {
		for j := range n {
			x, y := (2*(float64(i)+0.5)/n-1)*r, (2*(float64(j)+0.5)/n-1)*r
			if x*x+y*y > r*r {
				continue
			}
			o := vec3{c[0] + x, c[1] + y, hi[2] + 0.05}
			e := first(o, ball)
			if math.IsInf(e, 1) {
				continue
			}
			all++
			if e < first(o, skin) {
				seen++
			}
		}
	}
	return float64(seen) / float64(max(1, all))
}

// TestEyesOpenAndClosing checks the grown eyes' lids (growEyes scales
// the blink with the lids): at rest they show at least a quarter of the
// eye's front disc (0.29 to 0.41 on these faces, the same shares as
// MakeHuman's ungrown eyes: the eye grew as a whole), and a full blink
// (the rest lids plus the blink shape, lowerLids(1)) leaves at most 0.17
// of it showing. MakeHuman's blink does not quite close: a slit of 0.06
// (default-male) to 0.165 (random-2) of the disc shows, before the eyes
// grew as after, which is what this bound holds and what is left to
// close.
func TestEyesOpenAndClosing(t *testing.T) {
	cases := map[string]Config{"default-female": Default(Feminine), "default-male": Default(Masculine),
		"random-1": Random(1), "random-2": Random(2), "random-3": Random(3)}
	for _, name := range []string{"default-female", "default-male", "random-1", "random-2", "random-3"} {
		cfg := cases[name]
		body, head := restingHead(t, cfg.resolve())
		f, err := body.Fit("eyes/left")
		if err != nil {
			t.Fatal(err)
		}
		w := restLid(head, fittedPart(f))
		open, shut := eyeShows(t, cfg, w), eyeShows(t, cfg, 1)
		t.Logf("%s: eye shows %.3f of its disc at rest (rest lid %.2f), %.4f blinking", name, open, w, shut)
		if open < 0.25 {
			t.Errorf("%s: at rest the lids show %.3f of the eye, want 0.25 or more", name, open)
		}
		if shut > 0.17 {
			t.Errorf("%s: a blink leaves %.3f of the eye showing, want 0.17 or less", name, shut)
		}
	}
}
