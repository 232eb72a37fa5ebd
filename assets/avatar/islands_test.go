package avatar

import (
	"math"
	"testing"
)

// TestHeadUVPacked checks the head's UV layout as Generate packs it
// (packIslands, then stretchMouthTexels): every piece inside the texture, no two pieces
// within the gap of each other, so no texel is painted for two places,
// and the face round the mouth (within 3 cm of the lips' middle, on the
// front of the face) painted at 2 mm a texel or finer in the 512-px
// head texture. MakeHuman's layout stretched to its box (surface alone)
// gave it 2.35 to 2.6 mm texels (the mouth some 20 texels wide), and
// the lips' slit and edges blurred in a portrait.
func TestHeadUVPacked(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  Config
	}{{"default-male", Default(Masculine)}, {"default-female", Default(Feminine)}, {"random-03", Random(103)}} {
		t.Run(c.name, func(t *testing.T) {
			_, head := restingHead(t, c.cfg.resolve())
			fr := head.mouthFrame()
			s := head.surface()
			head.packIslands(headUVGap)
			head.stretchMouthTexels(headUVGap)
			s.UV = head.uv
			isl := head.uvIslands()
			for i, a := range isl {
				for c := range 2 {
					if a.lo[c] < 0 || a.hi[c] > 1 {
						t.Errorf("piece %d runs out of the texture: %.3f to %.3f on axis %d", i, a.lo[c], a.hi[c], c)
					}
				}
			}
			if i, j, at := piecesMeet(head, isl, 512, headUVGap/2); i >= 0 {
				t.Errorf("pieces %d and %d come within the gap of each other at texel %v", i, j, at)
			}
			face := make([]bool, len(head.uv))
			for _, v := range isl[0].verts {
				face[v] = true
			}
			// The face's piece (the largest), not the mouth's inside.
			var area3, areaUV float64
			for _, tr := range s.Tris {
				near := true
				for _, v := range tr {
					p := head.pos[v]
					near = near && face[v] && math.Hypot(float64(p[0])-fr.Centre[0], float64(p[1])-fr.Centre[1]) < 0.03 && float64(p[2]) > fr.Front-0.03
				}
				if !near {
					continue
				}
				x := cross3(sub3(s.Pos[tr[1]], s.Pos[tr[0]]), sub3(s.Pos[tr[2]], s.Pos[tr[0]]))
				a := math.Sqrt(x[0]*x[0]+x[1]*x[1]+x[2]*x[2]) / 2
				if x[2] < 0.7*2*a {
					continue // facing away from the front: the lips' inside
				}
				u, v, w := s.UV[tr[0]], s.UV[tr[1]], s.UV[tr[2]]
				b := math.Abs(float64((v[0]-u[0])*(w[1]-u[1])-(w[0]-u[0])*(v[1]-u[1]))) / 2
				area3, areaUV = area3+a, areaUV+b
			}
			texel := math.Sqrt(area3/areaUV) / 512
			t.Logf("%d pieces; the face round the mouth: %.2f mm a texel", len(isl), 1000*texel)
			if texel > 0.002 {
				t.Errorf("the face round the mouth has %.2f mm texels, want at most 2", 1000*texel)
			}
		})
	}
}

// piecesMeet is the first texel of an n×n texture within reach (UV
// units) of two of the pieces' triangles, and those pieces; -1 when
// none is. Pieces' boxes may overlap (stretchMouthTexels pulls the
// face's chin past the rows of the mouth's inside), their texels not.
func piecesMeet(p *part, isl []uvIsland, n int, reach float64) (int, int, [2]int) {
	of := make([]int, len(p.uv))
	for k, is := range isl {
		for _, v := range is.verts {
			of[v] = k
		}
	}
	owner := make([]int, n*n)
	for i := range owner {
		owner[i] = -1
	}
	r := reach * float64(n)
	for _, tr := range p.tris {
		k := of[tr[0]]
		var q [3][2]float64
		lo, hi := [2]float64{math.Inf(1), math.Inf(1)}, [2]float64{math.Inf(-1), math.Inf(-1)}
		for c, v := range tr {
			for a := range 2 {
				q[c][a] = float64(p.uv[v][a]) * float64(n)
				lo[a], hi[a] = math.Min(lo[a], q[c][a]-r), math.Max(hi[a], q[c][a]+r)
			}
		}
		for y := max(0, int(lo[1])); y <= min(n-1, int(hi[1])); y++ {
			for x := max(0, int(lo[0])); x <= min(n-1, int(hi[0])); x++ {
				if triDist(q, [2]float64{float64(x) + 0.5, float64(y) + 0.5}) > r {
					continue
				}
				switch o := owner[y*n+x]; {
				case o < 0:
					owner[y*n+x] = k
				case o != k:
					return min(o, k), max(o, k), [2]int{x, y}
				}
			}
		}
	}
	return -1, -1, [2]int{}
}

// triDist is how far point c lies from triangle q (0 inside it).
func triDist(q [3][2]float64, c [2]float64) float64 {
	side := func(a, b [2]float64) float64 { return (b[0]-a[0])*(c[1]-a[1]) - (b[1]-a[1])*(c[0]-a[0]) }
	s0, s1, s2 := side(q[0], q[1]), side(q[1], q[2]), side(q[2], q[0])
	if (s0 >= 0 && s1 >= 0 && s2 >= 0) || (s0 <= 0 && s1 <= 0 && s2 <= 0) {
		return 0
	}
	d := math.Inf(1)
	for i := range 3 {
		a, b := q[i], q[(i+1)%3]
		ab := [2]float64{b[0] - a[0], b[1] - a[1]}
		l := ab[0]*ab[0] + ab[1]*ab[1]
		t := 0.0
		if l > 0 {
			t = math.Max(0, math.Min(1, ((c[0]-a[0])*ab[0]+(c[1]-a[1])*ab[1])/l))
		}
		d = math.Min(d, math.Hypot(c[0]-a[0]-t*ab[0], c[1]-a[1]-t*ab[1]))
	}
	return d
}
