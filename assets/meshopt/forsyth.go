package meshopt

import "math"

// Weights of forsythOrder's vertex score. lastTriangle is the score of
// the previous triangle's three vertices: above the cache's front (1), so
// that the walk prefers the triangle across an edge just drawn, a strip
// the triangle codec stores in one byte. It was tuned on the avatars and
// DamagedHelmet (0.75, Forsyth's value for hardware caches, stored 0.1 %
// larger files; 1.2 the smallest).
const (
	lastTriangle = 1.2
	cachePower   = 1.5
	valenceBoost = 2.0
)

// forsythOrder orders triangles by Forsyth's "linear-speed vertex cache
// optimisation" (2006): each step emits the triangle of highest score
// among those around the vertices of a simulated 16-entry LRU cache, a
// vertex scoring by its cache position plus a bonus for having few
// triangles left, which finishes fans instead of leaving islands.
func forsythOrder(indices []uint32, vertexCount int) []uint32 {
	tris := len(indices) / 3
	live := make([]int32, vertexCount)
	for _, v := range indices[:3*tris] {
		live[v]++
	}
	start := make([]int32, vertexCount+1)
	for v := 0; v < vertexCount; v++ {
		start[v+1] = start[v] + live[v]
	}
	fill := append([]int32(nil), start[:vertexCount]...)
	adj := make([]int32, 3*tris)
	for t := 0; t < tris; t++ {
		for k := 0; k < 3; k++ {
			v := indices[3*t+k]
			adj[fill[v]] = int32(t)
			fill[v]++
		}
	}
	pos := make([]int32, vertexCount) // position in the cache, -1 outside
	for i := range pos {
		pos[i] = -1
	}
	// A vertex's score comes from tables of its two terms: math.Pow and
	// math.Sqrt per vertex of every candidate triangle were most of the
	// time of a meshopt write. The tables hold the values of the formulas
	// themselves, so the order is the same to the triangle.
	score := func(v uint32) float64 {
		n := live[v]
		if n == 0 {
			return -1
		}
		if p := pos[v]; p >= 0 {
			return cacheScores[p] + valenceScore(n)
		}
		return valenceScore(n)
	}
	emitted := make([]bool, tris)
	out := make([]uint32, 0, 3*tris)
	cache := make([]uint32, 0, cacheSize+3)
	next := make([]uint32, 0, cacheSize+3)
	cursor := 0
	for len(out) < 3*tris {
		best, bestScore := -1, -1.0
		for _, v := range cache {
			for _, t := range adj[start[v]:start[v+1]] {
				if emitted[t] {
					continue
				}
				tri := indices[3*t : 3*t+3]
				if s := score(tri[0]) + score(tri[1]) + score(tri[2]); s > bestScore {
					best, bestScore = int(t), s
				}
			}
		}
		if best < 0 {
			// Nothing left around the cache: the next unused triangle.
			for emitted[cursor] {
				cursor++
			}
			best = cursor
		}
		emitted[best] = true
		tri := indices[3*best : 3*best+3]
		out = append(out, tri...)
		for _, v := range tri {
			live[v]--
		}
		// The triangle's vertices move to the front of the cache.
		next = append(next[:0], tri...)
		for _, v := range cache {
			if v != tri[0] && v != tri[1] && v != tri[2] {
				next = append(next, v)
			}
		}
		for _, v := range cache {
			pos[v] = -1
		}
		next = next[:min(len(next), cacheSize)]
		for i, v := range next {
			pos[v] = int32(i)
		}
		cache, next = next, cache
	}
	return out
}

// cacheScores is the score of a vertex by its position in the cache: the
// last triangle's three, then falling to 0 past the end.
var cacheScores = func() (t [cacheSize]float64) {
	for p := range t {
		if p < 3 {
			t[p] = lastTriangle
		} else {
			t[p] = math.Pow(1-float64(p-3)/float64(cacheSize-3), cachePower)
		}
	}
	return t
}()

// valenceScores is valenceScore for the counts most vertices have.
var valenceScores = func() (t [64]float64) {
	for n := 1; n < len(t); n++ {
		t[n] = valenceBoost / math.Sqrt(float64(n))
	}
	return t
}()

// valenceScore is the bonus of a vertex with n > 0 live triangles: more
// for fewer, so fans are finished.
func valenceScore(n int32) float64 {
	if int(n) < len(valenceScores) {
		return valenceScores[n]
	}
	return valenceBoost / math.Sqrt(float64(n))
}
