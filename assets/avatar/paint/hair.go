package paint

import "math"

// Hair paints hair of a colour over s: strands that run down the hair
// from the crown (the direction is worked out per vertex in UV space, so
// the painting follows whatever layout the hair mesh has), clumps of
// lighter and darker strands, and an alpha that breaks the borders of
// every UV piece into strand tips, for alpha-masked cards and hairlines.
func Hair(s Surface, color RGB, seed uint64, n int) Maps {
	m := surfaceMap(s, n, flow(s))
	edge := edgeDistance(m, n, tipLength)
	l := newLayer(n)
	l.alpha = make([]float64, n*n)
	base := rgb(color)
	parallel(n, func(y0, y1 int) {
		for y := y0; y < y1; y++ {
			for x := 0; x < n; x++ {
				i := y*n + x
				t := m[i]
				if !t.ok {
					// Clear, and flat so the PNG spends nothing on it.
					l.base[i], l.rough[i] = base, 0.7
					continue
				}
				f := t.flow
				if fl := math.Hypot(f[0], f[1]); fl > 1e-9 {
					f = [2]float64{f[0] / fl, f[1] / fl}
				} else {
					f = [2]float64{0, 1}
				}
				across := float64(x)*f[1] - float64(y)*f[0]
				along := float64(x)*f[0] + float64(y)*f[1]
				strand := noise3([3]float64{across * 0.5, along * 0.04, 0}, seed)
				clump := noise3([3]float64{across * 0.12, along * 0.01, 7}, seed+1)
				v := 0.35*strand + 0.65*clump
				l.base[i] = base.scale(0.6 + 0.8*v)
				l.height[i] = 1.5 * strand
				l.rough[i] = 0.78 - 0.1*v
				// How much of a strand tip the texel is: near an open
				// border of the mesh (mask) and within tipLength texels of
				// its piece's edge in the texture, so that a card only a
				// few vertices wide (all of them on its border) is solid
				// in its middle and not a comb.
				tip := t.mask * (1 - float64(edge[i])/tipLength)
				switch {
				case tip < 0.05:
					l.alpha[i] = 1
				default:
					// Toward a border only the denser strands remain:
					// thin locks along the flow, not blotches.
					if 0.6*strand+0.4*v > 0.3+0.35*tip {
						l.alpha[i] = 1
					}
				}
			}
		}
	})
	return l.maps(0.6)
}

// tipLength is how far into a piece of hair, in texels, strand tips
// reach from its edge.
const tipLength = 8

// edgeDistance is, per texel, how many steps (4-connected) it is from
// the nearest uncovered texel, up to limit.
func edgeDistance(m []texel, n, limit int) []int {
	d := make([]int, len(m))
	var front []int
	for i, t := range m {
		if t.ok {
			d[i] = limit
		} else {
			front = append(front, i)
		}
	}
	for step := 1; step < limit && len(front) > 0; step++ {
		var next []int
		for _, i := range front {
			x, y := i%n, i/n
			for _, o := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
				xn, yn := x+o[0], y+o[1]
				if xn < 0 || yn < 0 || xn >= n || yn >= n {
					continue
				}
				if j := yn*n + xn; d[j] > step {
					d[j] = step
					next = append(next, j)
				}
			}
		}
		front = next
	}
	return d
}

// Border marks the vertices of a mesh's open edges (edges of one
// triangle, vertices welded by position, so UV seams are not borders):
// the mask Hair breaks into strand tips.
func Border(pos [][3]float32, tris [][3]uint32) []float32 {
	type key [3]float32
	id := map[key]int{}
	weld := make([]int, len(pos))
	for i, p := range pos {
		k := key(p)
		if _, ok := id[k]; !ok {
			id[k] = len(id)
		}
		weld[i] = id[k]
	}
	count := map[[2]int]int{}
	for _, t := range tris {
		for k := 0; k < 3; k++ {
			a, b := weld[t[k]], weld[t[(k+1)%3]]
			if a > b {
				a, b = b, a
			}
			count[[2]int{a, b}]++
		}
	}
	rim := map[int]bool{}
	for e, n := range count {
		if n == 1 {
			rim[e[0]], rim[e[1]] = true, true
		}
	}
	out := make([]float32, len(pos))
	for i := range pos {
		if rim[weld[i]] {
			out[i] = 1
		}
	}
	return out
}

// flow is, per vertex, the UV direction in which the distance from the
// crown (the top centre of the mesh) grows: the way strands fall.
func flow(s Surface) [][2]float64 {
	lo, hi := [3]float64{math.Inf(1), math.Inf(1), math.Inf(1)}, [3]float64{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
	for _, p := range s.Pos {
		for a := 0; a < 3; a++ {
			lo[a], hi[a] = math.Min(lo[a], float64(p[a])), math.Max(hi[a], float64(p[a]))
		}
	}
	crown := [3]float64{(lo[0] + hi[0]) / 2, hi[1], (lo[2] + hi[2]) / 2}
	g := make([]float64, len(s.Pos))
	for i, p := range s.Pos {
		d := [3]float64{float64(p[0]) - crown[0], float64(p[1]) - crown[1], float64(p[2]) - crown[2]}
		g[i] = math.Sqrt(d[0]*d[0] + d[1]*d[1] + d[2]*d[2])
	}
	out := make([][2]float64, len(s.Pos))
	for _, t := range s.Tris {
		a, b, c := s.UV[t[0]], s.UV[t[1]], s.UV[t[2]]
		e1 := [2]float64{float64(b[0] - a[0]), float64(b[1] - a[1])}
		e2 := [2]float64{float64(c[0] - a[0]), float64(c[1] - a[1])}
		det := e1[0]*e2[1] - e1[1]*e2[0]
		if math.Abs(det) < 1e-14 {
			continue
		}
		dg1, dg2 := g[t[1]]-g[t[0]], g[t[2]]-g[t[0]]
		// The UV gradient of g: solve [e1; e2] · grad = [dg1, dg2].
		gx := (dg1*e2[1] - dg2*e1[1]) / det
		gy := (e1[0]*dg2 - e2[0]*dg1) / det
		if l := math.Hypot(gx, gy); l > 0 {
			for _, v := range t {
				out[v][0] += gx / l
				out[v][1] += gy / l
			}
		}
	}
	return out
}
