package avatar

import "math"

// edgeChains is the length of the longest chain of open edges that keep
// accepts, joined where they share an end (metres). An edge is open when
// one triangle uses it, its ends welded by position to 0.1 mm: the
// hair's cards repeat positions along UV seams. keep sees each edge's
// ends in a fixed order (by welded position), so a test asks the same
// question of the same edge every time. The hair's tests (levelCut,
// hairCuts) measure with it where a lock ends in a square cut.
func edgeChains(pos []vec3, tris [][3]uint32, keep func(a, b vec3) bool) float64 {
	key := func(p vec3) [3]int32 {
		return [3]int32{int32(math.Round(p[0] * 1e4)), int32(math.Round(p[1] * 1e4)), int32(math.Round(p[2] * 1e4))}
	}
	less := func(a, b [3]int32) bool {
		return a[0] < b[0] || (a[0] == b[0] && (a[1] < b[1] || (a[1] == b[1] && a[2] < b[2])))
	}
	type edge [2][3]int32
	count := map[edge]int{}
	ends := map[edge][2]vec3{}
	var order []edge
	for _, t := range tris {
		for k := 0; k < 3; k++ {
			a, b := pos[t[k]], pos[t[(k+1)%3]]
			ka, kb := key(a), key(b)
			if ka == kb {
				continue
			}
			if less(kb, ka) {
				ka, kb, a, b = kb, ka, b, a
			}
			e := edge{ka, kb}
			if count[e] == 0 {
				order = append(order, e)
			}
			count[e]++
			ends[e] = [2]vec3{a, b}
		}
	}
	parent := map[[3]int32][3]int32{}
	var find func(k [3]int32) [3]int32
	find = func(k [3]int32) [3]int32 {
		if p, ok := parent[k]; ok && p != k {
			r := find(p)
			parent[k] = r
			return r
		}
		parent[k] = k
		return k
	}
	var kept []edge
	for _, e := range order {
		if count[e] == 1 && keep(ends[e][0], ends[e][1]) {
			kept = append(kept, e)
			parent[find(e[0])] = find(e[1])
		}
	}
	length := map[[3]int32]float64{}
	longest := 0.0
	for _, e := range kept {
		r := find(e[0])
		length[r] += ends[e][1].sub(ends[e][0]).len()
		longest = math.Max(longest, length[r])
	}
	return longest
}
