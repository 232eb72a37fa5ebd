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
func cavity(s Surface) []float64 {
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
	// once.
	nbr := make([][]int32, n)
	for _, t := range s.Tris {
		a, b, c := weld[t[0]], weld[t[1]], weld[t[2]]
		if a == b || b == c || a == c {
			continue
		}
		f := cross(sub(at[b], at[a]), sub(at[c], at[a]))
		for _, v := range [3]int{a, b, c} {
			nrm[v] = add(nrm[v], f)
		}
		nbr[a] = append(nbr[a], int32(b), int32(c))
		nbr[b] = append(nbr[b], int32(c), int32(a))
		nbr[c] = append(nbr[c], int32(a), int32(b))
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
	for range 2 {
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
