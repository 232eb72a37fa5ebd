package avatar

import (
	"math"
	"testing"
)

// TestHeadUVPacked checks the head's UV layout as Generate packs it
// (packIslands): every piece inside the texture, no two pieces' boxes
// (with the gap) overlapping, so no texel is painted for two places,
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
			s.UV = head.uv
			isl := head.uvIslands()
			for i, a := range isl {
				for c := range 2 {
					if a.lo[c] < 0 || a.hi[c] > 1 {
						t.Errorf("piece %d runs out of the texture: %.3f to %.3f on axis %d", i, a.lo[c], a.hi[c], c)
					}
				}
				for j, b := range isl[:i] {
					if a.lo[0] < b.hi[0]+headUVGap/2 && b.lo[0] < a.hi[0]+headUVGap/2 && a.lo[1] < b.hi[1]+headUVGap/2 && b.lo[1] < a.hi[1]+headUVGap/2 {
						t.Errorf("pieces %d and %d overlap: %v-%v and %v-%v", i, j, a.lo, a.hi, b.lo, b.hi)
					}
				}
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
