package avatar

import (
	"math"
	"math/rand/v2"
	"testing"
)

// ontoScan is skinPatch.onto as it was before it passed over distant
// triangles: every triangle tried, the first nearest kept.
func ontoScan(s skinPatch, p [3]float32) (q vec3, height float64, n vec3) {
	best := math.Inf(1)
	pp := [3]float64(v3(p))
	for _, t := range s.tris {
		a, b, c := v3(s.head.pos[t[0]]), v3(s.head.pos[t[1]]), v3(s.head.pos[t[2]])
		x, w := closestOnTriangle(pp, a, b, c)
		if d := vec3(x).sub(vec3(pp)).len(); d < best {
			best, q = d, vec3(x)
			n = v3(s.head.nrm[t[0]]).scale(w[0]).add(v3(s.head.nrm[t[1]]).scale(w[1])).add(v3(s.head.nrm[t[2]]).scale(w[2])).norm()
		}
	}
	return q, vec3(pp).sub(q).dot(n), n
}

// bumpyBrowRidge is a curved, bumpy sheet of 2 x 2 cm cells (a forehead
// of 20 x 12 cm) with smooth normals that differ from vertex to vertex,
// so that triangles sharing an edge or a corner give the same nearest
// point but not the same normal: which of them wins a tie shows.
func bumpyBrowRidge() *part {
	const nx, ny, cell = 10, 6, 0.02
	h := &part{}
	for j := 0; j <= ny; j++ {
		for i := 0; i <= nx; i++ {
			x, y := float64(i)*cell-0.1, float64(j)*cell
			z := 0.08*math.Cos(x/0.12) + 0.004*math.Sin(float64(i*7+j*3))
			h.pos = append(h.pos, [3]float32{float32(x), float32(y), float32(z)})
			n := vec3{math.Sin(x / 0.12), 0.1 * math.Cos(float64(i+2*j)), 1}.norm()
			h.nrm = append(h.nrm, n.f32())
		}
	}
	for j := range ny {
		for i := range nx {
			a := uint32(j*(nx+1) + i)
			b, c, d := a+1, a+nx+1, a+nx+2
			h.tris = append(h.tris, [3]uint32{a, b, d}, [3]uint32{a, d, c})
		}
	}
	// a degenerate triangle (two corners at one vertex) and one repeated:
	// a tie of equal distances by construction
	h.tris = append(h.tris, [3]uint32{5, 5, 16}, [3]uint32{5, 6, 17})
	return h
}

// TestOntoAsScan lays points on the skin with onto and with the scan it
// replaced and asks for the same point, height and normal to the bit:
// random points near and far from the sheet, above and below it, and
// points straight above its vertices and edges' midpoints, where
// triangles tie.
func TestOntoAsScan(t *testing.T) {
	head := bumpyBrowRidge()
	r := rand.New(rand.NewPCG(26, 13))
	var probes [][3]float32
	for range 500 {
		probes = append(probes, [3]float32{
			float32(r.Float64()*0.3 - 0.15), float32(r.Float64()*0.2 - 0.04), float32(r.Float64()*0.16 - 0.04),
		})
	}
	for _, tri := range head.tris {
		a, b := head.pos[tri[0]], head.pos[tri[1]]
		probes = append(probes,
			[3]float32{a[0], a[1], a[2] + 0.003},
			[3]float32{(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2]+b[2])/2 + 0.002},
			[3]float32{a[0], a[1], a[2] - 0.001})
	}
	tests := []struct {
		name  string
		patch skinPatch
	}{
		// the whole sheet, and the part of it near a brow-sized strip
		{"whole sheet", nearSkin(head, head.pos)},
		{"near a strip", nearSkin(head, [][3]float32{{-0.03, 0.06, 0.08}, {0.03, 0.07, 0.08}})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if len(tt.patch.tris) < 10 || len(tt.patch.boxes) != len(tt.patch.tris) {
				t.Fatalf("%d triangles, %d boxes in the patch", len(tt.patch.tris), len(tt.patch.boxes))
			}
			for _, p := range probes {
				q, h, n := tt.patch.onto(p)
				wq, wh, wn := ontoScan(tt.patch, p)
				if q != wq || h != wh || n != wn {
					t.Fatalf("onto(%v) = %v, %g, %v; the scan gives %v, %g, %v", p, q, h, n, wq, wh, wn)
				}
			}
		})
	}
}
