package avatar

import (
	"math/rand/v2"
	"testing"
)

// TestTriGridCrossesAsFullSearch asks the binned search and the search
// through every triangle (what crossesHat did before triGrid) the same
// questions about short segments round each hat, and wants the same
// answers: the grid only passes over triangles no answer comes from.
func TestTriGridCrossesAsFullSearch(t *testing.T) {
	body, err := standingBody(Default(Masculine).resolve())
	if err != nil {
		t.Fatal(err)
	}
	for _, style := range []string{"beanie", "cap", "fedora"} {
		t.Run(style, func(t *testing.T) {
			hatPart, _ := hat(newBuilder(rigOf(body.Joints())), body, style)
			g := newTriGrid(hatPart, 0.01)
			rng := rand.New(rand.NewPCG(1, uint64(len(style))))
			jitter := func(s float64) vec3 {
				return vec3{(rng.Float64()*2 - 1) * s, (rng.Float64()*2 - 1) * s, (rng.Float64()*2 - 1) * s}
			}
			hits := 0
			const n = 1500
			for range n {
				// Segments of up to a few centimetres near the hat's
				// surface, as the hair's edges under its rim are.
				p := v3(hatPart.pos[rng.IntN(len(hatPart.pos))]).add(jitter(0.01))
				q := p.add(jitter(0.03))
				e := q.sub(p)
				l := e.len()
				if l < 1e-9 {
					continue
				}
				u := e.scale(1 / l)
				full := false
				for _, tri := range hatPart.tris {
					if d, _, _, ok := rayTriangle(p, u, v3(hatPart.pos[tri[0]]), v3(hatPart.pos[tri[1]]), v3(hatPart.pos[tri[2]])); ok && d < l {
						full = true
						break
					}
				}
				if got := g.crosses(p, u, l); got != full {
					t.Fatalf("segment %v→%v: grid says %v, the full search %v", p, q, got, full)
				}
				if full {
					hits++
				}
			}
			// Both answers must occur, or the comparison proves little.
			if hits < n/20 || hits > n-n/20 {
				t.Fatalf("%d of %d segments cross the hat: want both kinds", hits, n)
			}
			t.Logf("%s: %d triangles, %d of %d segments cross", style, len(hatPart.tris), hits, n)
		})
	}
}
