package avatar

import (
	"math"
	"slices"
	"testing"
)

// TestMouthTexels checks the head's layout after stretchMouthTexels:
// the painted lips get at most lipTexelMax of the face a texel down the
// face (the direction their border, parting and under-lip shade vary
// in), and no triangle of the face's piece is folded or squeezed in
// any direction to less than lipTexelSqueeze of its packed texels. Only
// packed (packIslands, the old layout) the lips got 1.3-1.4 mm texels
// down the face, and the leader's lips about 0.5 mm.
func TestMouthTexels(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  Config
	}{
		{"default-male", Default(Masculine)}, {"default-female", Default(Feminine)},
		{"random-03", Random(103)}, {"random-04", Random(104)}, {"random-17", Random(117)},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, head := restingHead(t, c.cfg.resolve())
			head.packIslands(headUVGap)
			packed := slices.Clone(head.uv)
			head.stretchMouthTexels(headUVGap)
			col := lipColour()
			var down []float64
			worst := math.Inf(1)
			for _, tr := range head.tris {
				a, b, d := head.pos[tr[0]], head.pos[tr[1]], head.pos[tr[2]]
				n := cross3(sub3(b, a), sub3(d, a))
				lip := col[head.base[tr[0]]] >= 0.5 && col[head.base[tr[1]]] >= 0.5 && col[head.base[tr[2]]] >= 0.5
				if lip && n[2] > 0.7*math.Sqrt(n[0]*n[0]+n[1]*n[1]+n[2]*n[2]) {
					if mm := texelDown(head, tr); mm > 0 {
						down = append(down, mm)
					}
				}
				if s, ok := squeeze(packed, head.uv, tr); ok {
					worst = math.Min(worst, s)
				} else {
					t.Errorf("triangle %v folded over by the stretch", tr)
				}
			}
			if len(down) == 0 {
				t.Fatal("no lips facing the front")
			}
			slices.Sort(down)
			med := down[len(down)/2]
			t.Logf("the lips: %.2f mm a texel down the face (median of %d triangles); the least kept in any direction: %.2f", med, len(down), worst)
			if med > lipTexelMax {
				t.Errorf("the lips get %.2f mm a texel down the face, want at most %.2f", med, lipTexelMax)
			}
			if worst < lipTexelSqueeze {
				t.Errorf("a triangle keeps %.2f of its texels in one direction, want at least %.2f", worst, lipTexelSqueeze)
			}
		})
	}
}

// lipTexelMax is the most of the face (mm) a texel of the lips may
// span down the face; lipTexelSqueeze the least share of its packed
// texels a triangle may keep in any direction.
const (
	lipTexelMax     = 1.0
	lipTexelSqueeze = 0.55
)

// texelDown is how much of the face (mm) one texel of the 512-px head
// texture spans at triangle tr along the face's vertical (the body's y
// laid into the triangle's plane); 0 when the triangle is edge-on to it.
func texelDown(p *part, tr [3]uint32) float64 {
	e1, e2 := sub3(p.pos[tr[1]], p.pos[tr[0]]), sub3(p.pos[tr[2]], p.pos[tr[0]])
	g11, g12, g22 := dot3(e1, e1), dot3(e1, e2), dot3(e2, e2)
	det := g11*g22 - g12*g12
	if det <= 0 {
		return 0
	}
	// The body's y in the triangle's plane: a·e1 + b·e2 with (a, b) the
	// least-squares fit of (0, 1, 0), scaled to a unit step.
	a, b := (g22*e1[1]-g12*e2[1])/det, (g11*e2[1]-g12*e1[1])/det
	d := [3]float64{a*e1[0] + b*e2[0], a*e1[1] + b*e2[1], a*e1[2] + b*e2[2]}
	l := math.Sqrt(dot3(d, d))
	if l < 0.5 {
		return 0
	}
	a, b = a/l, b/l
	u0, u1, u2 := p.uv[tr[0]], p.uv[tr[1]], p.uv[tr[2]]
	du := float64(a*float64(u1[0]-u0[0]) + b*float64(u2[0]-u0[0]))
	dv := float64(a*float64(u1[1]-u0[1]) + b*float64(u2[1]-u0[1]))
	return 1000 / (512 * math.Hypot(du, dv))
}

// squeeze is the least singular value of the map that takes triangle
// tr from layout from to layout to: the share of its texels it keeps
// in the direction it loses most. ok is false when the triangle turned
// over (or was degenerate in from).
func squeeze(from, to [][2]float32, tr [3]uint32) (float64, bool) {
	f1 := [2]float64{float64(from[tr[1]][0] - from[tr[0]][0]), float64(from[tr[1]][1] - from[tr[0]][1])}
	f2 := [2]float64{float64(from[tr[2]][0] - from[tr[0]][0]), float64(from[tr[2]][1] - from[tr[0]][1])}
	t1 := [2]float64{float64(to[tr[1]][0] - to[tr[0]][0]), float64(to[tr[1]][1] - to[tr[0]][1])}
	t2 := [2]float64{float64(to[tr[2]][0] - to[tr[0]][0]), float64(to[tr[2]][1] - to[tr[0]][1])}
	df := f1[0]*f2[1] - f1[1]*f2[0]
	if math.Abs(df) < 1e-14 {
		return 1, true // a sliver in the packed layout: nothing to keep
	}
	dt := t1[0]*t2[1] - t1[1]*t2[0]
	if dt*df <= 0 {
		return 0, false
	}
	// M = [t1 t2]·[f1 f2]⁻¹.
	inv := [2][2]float64{{f2[1] / df, -f2[0] / df}, {-f1[1] / df, f1[0] / df}}
	m := [2][2]float64{
		{t1[0]*inv[0][0] + t2[0]*inv[1][0], t1[0]*inv[0][1] + t2[0]*inv[1][1]},
		{t1[1]*inv[0][0] + t2[1]*inv[1][0], t1[1]*inv[0][1] + t2[1]*inv[1][1]},
	}
	// Singular values of a 2×2 matrix from its Frobenius norm and
	// determinant.
	fro := m[0][0]*m[0][0] + m[0][1]*m[0][1] + m[1][0]*m[1][0] + m[1][1]*m[1][1]
	det := math.Abs(m[0][0]*m[1][1] - m[0][1]*m[1][0])
	disc := math.Sqrt(math.Max(0, fro*fro/4-det*det))
	return math.Sqrt(math.Max(0, fro/2-disc)), true
}

func dot3(a, b [3]float64) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
