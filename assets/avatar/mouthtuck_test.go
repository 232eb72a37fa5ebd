package avatar

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/kilnhq/kiln/assets/avatar/face"
)

// mouthInside is the head at rest and the mouth's inside (the teeth with
// the gums, the tongue) fitted and placed as the build places them.
func mouthInside(t *testing.T, cfg Config) (head *part, inside []*part) {
	t.Helper()
	body, head := restingHead(t, cfg.resolve())
	for _, id := range []string{"teeth/default", "tongue/default"} {
		f, err := body.Fit(id)
		if err != nil {
			t.Fatal(err)
		}
		inside = append(inside, fittedPart(f))
	}
	lowerTongue(inside[1])
	tuckMouth(head, inside...)
	return head, inside
}

// mouthMoves are the face shapes that move the mouth: jawOpen, the
// visemes and ARKit's mouth shapes, by their index in face.All.
func mouthMoves() map[string]int {
	out := map[string]int{}
	for i, name := range face.All() {
		if name == "jawOpen" || strings.HasPrefix(name, "viseme_") || strings.HasPrefix(name, "mouth") {
			out[name] = i
		}
	}
	return out
}

// shapedMouth is the parts' positions under the face shape at index shape
// (-1: at rest), as the built targets move them.
func shapedMouth(head *part, inside []*part, shape int) (h [][3]float32, in [][][3]float32) {
	move := func(p *part) [][3]float32 {
		out := append([][3]float32(nil), p.pos...)
		if shape < 0 {
			return out
		}
		for i, d := range p.deltas(shapes()[shape]) {
			out[i] = add3f(out[i], d)
		}
		return out
	}
	for _, p := range inside {
		in = append(in, move(p))
	}
	return move(head), in
}

// insideOut is how far the mouth's inside lies in front of the face's
// outer skin (metres), sampled over its triangles: a triangle can cross
// a crease of the skin between its vertices.
func insideOut(head *part, headPos [][3]float32, inside []*part, pos [][][3]float32, steps int) float64 {
	var pts [][3]float32
	for _, p := range pos {
		pts = append(pts, p...)
	}
	lo, hi := bounds(pts)
	h := *head
	h.pos = headPos
	c := newFaceCover(&h, lo, hi)
	worst := 0.0
	for k, p := range inside {
		for _, tr := range p.tris {
			trianglePoints(f64(pos[k][tr[0]]), f64(pos[k][tr[1]]), f64(pos[k][tr[2]]), steps, func(q [3]float64) {
				worst = math.Max(worst, outside(c, q))
			})
		}
	}
	return worst
}

// trianglePoints calls fn at the points of a grid of steps a side over
// the triangle abd: the mouth's tests sample triangles, not only their
// vertices, because a triangle can cross a crease of the skin between
// them.
func trianglePoints(a, b, d [3]float64, steps int, fn func(q [3]float64)) {
	for i := 0; i <= steps; i++ {
		for j := 0; i+j <= steps; j++ {
			u, w := float64(i)/float64(steps), float64(j)/float64(steps)
			var q [3]float64
			for m := range 3 {
				q[m] = a[m] + u*(b[m]-a[m]) + w*(d[m]-a[m])
			}
			fn(q)
		}
	}
}

// outside is how far p lies in front of the outer skin: the depth from
// the outer skin behind it to p when no head surface is in front of p,
// else 0.
func outside(c *faceCover, p [3]float64) float64 {
	ahead, _, behind, kind := c.over(p)
	if math.IsInf(ahead, 1) && kind == coverSkin {
		return p[2] - behind
	}
	return 0
}

// TestMouthInsideUnderSkin checks that the mouth's inside never shows
// through the face's skin outside the lips: on the panel's twenty faces,
// on random draws and on the age, build and head-fat extremes, at rest,
// and on the panel's faces under jawOpen, the visemes and the mouth
// shapes at full weight, no point of the teeth, gums or tongue lies in
// front of the outer skin. Before tuckMouth the gums came 0.20 mm
// through it beside the nose on random-05 at rest (the panel's two pink
// triangles) and up to 1.41 mm under the shapes (the lower gums through
// the chin under jawOpen on random-15; random-05, -09, -13, -14 and -16
// too).
func TestMouthInsideUnderSkin(t *testing.T) {
	faces := panelFaces()
	panel := len(faces)
	draws := 200
	if testing.Short() {
		draws = 20
	}
	for i := range draws {
		faces = append(faces, namedConfig{fmt.Sprintf("seed-%d", 1000+i), Random(int64(1000 + i))})
	}
	for _, g := range []string{Feminine, Masculine} {
		for _, age := range []float64{18, 90} {
			for _, build := range []float64{0, 1} {
				for _, fat := range []float64{-1, 1} {
					c := Default(g)
					c.Body.Age, c.Body.Build = age, build
					c.Face.Head = map[string]float64{"fat": fat}
					faces = append(faces, namedConfig{fmt.Sprintf("%s-age%g-build%g-fat%g", g, age, build, fat), c})
				}
			}
		}
	}
	worst, at := 0.0, ""
	for n, f := range faces {
		head, inside := mouthInside(t, f.cfg)
		states := map[string]int{"rest": -1}
		if n < panel {
			for name, i := range mouthMoves() {
				states[name] = i
			}
		}
		for name, i := range states {
			h, in := shapedMouth(head, inside, i)
			steps := 4
			if i >= 0 {
				steps = 2
			}
			parts := inside
			if i >= 0 {
				// Under the shapes the teeth and the gums are
				// measured: the tongue comes out between the lips
				// under viseme_TH by design.
				parts, in = inside[:1], in[:1]
			}
			out := insideOut(head, h, parts, in, steps)
			if out > worst {
				worst, at = out, f.name+" "+name
			}
			if out > 0 {
				t.Errorf("%s, %s: the mouth's inside lies %.2f mm in front of the skin, want 0", f.name, name, 1000*out)
			}
		}
	}
	t.Logf("%d faces: the mouth's inside at most %.2f mm in front of the skin (%s)", len(faces), 1000*worst, at)
}
