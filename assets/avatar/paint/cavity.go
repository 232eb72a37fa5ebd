package paint

import (
	"math"
	"slices"
)

// cavity is, per vertex of s, the mean curvature of the surface there in
// 1/metre, positive in hollows (eye sockets, nostrils, the corners of
// the lips: concave as a sphere of radius 1/value seen from inside) and
// negative on ridges (the nose, the ears, the fingers); measured as how
// far the mean of a vertex's neighbours lies out along its normal, over
// half the mean square of its edges, then averaged over its neighbours
// twice, so that it is smooth over a couple of centimetres. Vertices are
// welded by position (UV seams are no edges), and open borders, whose
// neighbours all lie on one side, count as flat.
func cavity(s Surface) []float64 { return cavityOver(s, 2) }

// cavityOver is cavity averaged over its neighbours passes times: the
// fewer, the smaller the hollows it keeps (a curl's, a centimetre
// across, against the skin's couple of centimetres).
func cavityOver(s Surface, passes int) []float64 {
	type key [3]float32
	id := map[key]int{}
	weld := make([]int, len(s.Pos))
	var at [][3]float64
	for i, p := range s.Pos {
		k := key(p)
		w, ok := id[k]
		if !ok {
			w = len(at)
			id[k] = w
			at = append(at, [3]float64{float64(p[0]), float64(p[1]), float64(p[2])})
		}
		weld[i] = w
	}
	n := len(at)
	nrm := make([][3]float64, n)
	// Each triangle lists every corner's two neighbours: an inner edge
	// is listed twice from each end (once per triangle), an open one
	// once. The lists share one array, counted first: grown one by one
	// they were a third of a build's allocations.
	start := make([]int32, n+1)
	for _, t := range s.Tris {
		a, b, c := weld[t[0]], weld[t[1]], weld[t[2]]
		if a == b || b == c || a == c {
			continue
		}
		f := cross(sub(at[b], at[a]), sub(at[c], at[a]))
		for _, v := range [3]int{a, b, c} {
			nrm[v] = add(nrm[v], f)
			start[v+1] += 2
		}
	}
	for v := range n {
		start[v+1] += start[v]
	}
	flat := make([]int32, start[n])
	end := slices.Clone(start[:n])
	for _, t := range s.Tris {
		a, b, c := weld[t[0]], weld[t[1]], weld[t[2]]
		if a == b || b == c || a == c {
			continue
		}
		for _, e := range [3][3]int{{a, b, c}, {b, c, a}, {c, a, b}} {
			flat[end[e[0]]], flat[end[e[0]]+1] = int32(e[1]), int32(e[2])
			end[e[0]] += 2
		}
	}
	nbr := make([][]int32, n)
	for v := range n {
		nbr[v] = flat[start[v]:start[v+1]:start[v+1]]
	}
	rim := make([]bool, n)
	for v, list := range nbr {
		slices.Sort(list)
		for i := 0; i < len(list); {
			j := i
			for j < len(list) && list[j] == list[i] {
				j++
			}
			if (j-i)%2 == 1 {
				rim[v] = true
			}
			i = j
		}
		nbr[v] = slices.Compact(list)
	}
	cav := make([]float64, n)
	for v := range cav {
		if rim[v] || len(nbr[v]) == 0 {
			continue
		}
		l := math.Sqrt(dot(nrm[v], nrm[v]))
		if l == 0 {
			continue
		}
		var mean [3]float64
		var sq float64
		for _, u := range nbr[v] {
			d := sub(at[u], at[v])
			mean = add(mean, d)
			sq += dot(d, d)
		}
		cav[v] = 2 * dot(mean, nrm[v]) / l / sq
	}
	for range passes {
		next := make([]float64, n)
		for v := range cav {
			sum := cav[v]
			for _, u := range nbr[v] {
				sum += cav[u]
			}
			next[v] = sum / float64(len(nbr[v])+1)
		}
		cav = next
	}
	out := make([]float64, len(s.Pos))
	for i, w := range weld {
		out[i] = cav[w]
	}
	return out
}

func sub(a, b [3]float64) [3]float64 { return [3]float64{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
func add(a, b [3]float64) [3]float64 { return [3]float64{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }
func dot(a, b [3]float64) float64    { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
func cross(a, b [3]float64) [3]float64 {
	return [3]float64{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}
