package avatar

import (
	"math/rand/v2"
	"testing"

	"github.com/kilnhq/kiln/assets/avatar/human"
)

// TestFanGridAsFullSearch asks fanGrid and the search through every
// triangle (what mouthMask did before it) whether rays from points round
// the mouth toward points before the face cross the head, and wants the
// same answers.
func TestFanGridAsFullSearch(t *testing.T) {
	body := human.Shape(human.Average(0.5))
	m := human.BodyMesh()
	lo, hi := teethBox(t, body)
	c := [3]float64{float64(lo[0]+hi[0]) / 2, float64(lo[1]+hi[1]) / 2, float64(hi[2])}
	var tris [][3][3]float64
	for k, tri := range m.Tris {
		if m.Head[k] {
			tris = append(tris, [3][3]float64{f64(body.Pos[m.Base[tri[0]]]), f64(body.Pos[m.Base[tri[1]]]), f64(body.Pos[m.Base[tri[2]]])})
		}
	}
	rng := rand.New(rand.NewPCG(2, 3))
	in := func(s float64) float64 { return (rng.Float64()*2 - 1) * s }
	hits, n := 0, 0
	for range 4 {
		apex := [3]float64{c[0] + in(0.08), c[1] + in(0.08), c[2] + 0.1 + in(0.04)}
		g := newFanGrid(apex, tris, 64)
		for range 300 {
			o := [3]float64{c[0] + in(0.04), c[1] + in(0.04), c[2] - 0.03 + in(0.04)}
			to := [3]float64{apex[0] - o[0], apex[1] - o[1], apex[2] - o[2]}
			l := vec3(to).len()
			d := [3]float64{to[0] / l, to[1] / l, to[2] / l}
			full := anyRayHits(o, d, tris, l)
			if got := g.near(o, func(k int) bool { return rayHits(o, d, tris[k], l) }); got != full {
				t.Fatalf("ray %v→%v: grid says %v, the full search %v", o, apex, got, full)
			}
			n++
			if full {
				hits++
			}
		}
	}
	if hits < n/20 || hits > n-n/20 {
		t.Fatalf("%d of %d rays cross the head: want both kinds", hits, n)
	}
	t.Logf("%d triangles, %d of %d rays cross", len(tris), hits, n)
}
