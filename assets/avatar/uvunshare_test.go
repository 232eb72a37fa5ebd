package avatar

import (
	"math"
	"testing"
)

// TestHairTexelsUnshared asks, for every hair style and the long cuts
// under every hat, whether any texel of the hair's texture (on a grid of
// 256, the centres of its texels) shows two surface points more than a
// centimetre apart. The painter paints each texel from one point
// (paint.Hair), so a texel shared by two makes the other show locks from
// elsewhere. Before unshareUV, default-female's long hair shared 621
// such texels between its layered side cards, the dotted "braid" from
// the crown down the side of the head.
func TestHairTexelsUnshared(t *testing.T) {
	const foldTexels = 4
	cases := hairStyleCases([2]string{Feminine, Masculine}, func(st string) bool { return st == "long" || st == "ponytail" })
	for name, cfg := range cases {
		t.Run(name, func(t *testing.T) {
			s, err := Generate(cfg)
			if err != nil {
				t.Fatal(err)
			}
			const n = 256
			at := make([]vec3, n*n)
			set := make([]bool, n*n)
			shared := 0
			for _, m := range s.Meshes {
				if m.Name != "Wolf3D_Hair" {
					continue
				}
				for _, p := range m.Primitives {
					uv := p.TexCoords[0]
					for i := 0; i+2 < len(p.Indices); i += 3 {
						tri := p.Indices[i : i+3]
						var px, py [3]float64
						for k, v := range tri {
							px[k], py[k] = float64(uv[v][0])*n, float64(uv[v][1])*n
						}
						area := (px[1]-px[0])*(py[2]-py[0]) - (px[2]-px[0])*(py[1]-py[0])
						if math.Abs(area) < 1e-12 {
							continue
						}
						for y := max(0, int(min(py[0], py[1], py[2]))); y <= min(n-1, int(max(py[0], py[1], py[2]))); y++ {
							for x := max(0, int(min(px[0], px[1], px[2]))); x <= min(n-1, int(max(px[0], px[1], px[2]))); x++ {
								fx, fy := float64(x)+0.5, float64(y)+0.5
								w0 := ((px[1]-fx)*(py[2]-fy) - (px[2]-fx)*(py[1]-fy)) / area
								w1 := ((px[2]-fx)*(py[0]-fy) - (px[0]-fx)*(py[2]-fy)) / area
								w2 := 1 - w0 - w1
								if w0 < 0 || w1 < 0 || w2 < 0 {
									continue
								}
								q := v3(p.Positions[tri[0]]).scale(w0).add(v3(p.Positions[tri[1]]).scale(w1)).add(v3(p.Positions[tri[2]]).scale(w2))
								j := y*n + x
								if !set[j] {
									at[j], set[j] = q, true
								} else if q.sub(at[j]).len() > 0.01 {
									shared++
								}
							}
						}
					}
				}
			}
			// One card folded over itself shares a texel or two, which
			// moving whole pieces cannot part (the ponytail under the
			// beanie: 2).
			if shared > foldTexels {
				t.Errorf("%d texels of the hair's texture show points more than 1 cm apart, want at most %d", shared, foldTexels)
			}
		})
	}
}
