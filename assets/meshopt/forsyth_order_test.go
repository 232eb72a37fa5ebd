package meshopt_test

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/kilnhq/kiln/assets/meshopt"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/simplify/simplifytest"
)

const cacheSize = 16

// forsythModels are the triangle lists of the shared test models (the
// bunny, DamagedHelmet, a leader's avatar, RobotExpressive), one per
// primitive; those absent are skipped.
func forsythModels(tb testing.TB) map[string][]forsythMesh {
	tb.Helper()
	out := map[string][]forsythMesh{}
	if p, err := simplifytest.BunnyPath(); err == nil {
		if idx, pos, err := simplifytest.LoadOBJ(p); err == nil {
			out["bunny"] = []forsythMesh{{idx, len(pos) / 3}}
		}
	}
	for _, name := range []string{"DamagedHelmet", "rpm-avatar-office", "RobotExpressive"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "testdata", name+".glb"))
		if err != nil {
			continue
		}
		s, err := scene.Read(data, scene.ReadOptions{})
		if err != nil {
			tb.Fatalf("%s: %v", name, err)
		}
		for _, m := range s.Meshes {
			for _, p := range m.Primitives {
				if len(p.Indices) > 0 && len(p.Indices)%3 == 0 {
					out[name] = append(out[name], forsythMesh{p.Indices, len(p.Positions)})
				}
			}
		}
	}
	if len(out) == 0 {
		tb.Skip("no shared test models (../shared/testdata)")
	}
	return out
}

type forsythMesh struct {
	indices     []uint32
	vertexCount int
}

// TestForsythSameOrder: the order from the score tables is, triangle for
// triangle, the order of the formulas they replaced (math.Pow and
// math.Sqrt per candidate, forsythFormula below, the code before issue
// 26) on real models.
func TestForsythSameOrder(t *testing.T) {
	for name, meshes := range forsythModels(t) {
		tris := 0
		for i, m := range meshes {
			got := meshopt.ForsythOrder(m.indices, m.vertexCount)
			want := forsythFormula(m.indices, m.vertexCount)
			if !slices.Equal(got, want) {
				t.Errorf("%s primitive %d (%d triangles): the order differs from the formula's", name, i, len(m.indices)/3)
			}
			tris += len(m.indices) / 3
		}
		t.Logf("%s: %d primitives, %d triangles, same order", name, len(meshes), tris)
	}
}

// BenchmarkForsythOrder runs the formula and the tables side by side per
// model (with -count, runs alternate); bench/forsyth prints the ratios.
func BenchmarkForsythOrder(b *testing.B) {
	models := forsythModels(b)
	for _, name := range []string{"bunny", "DamagedHelmet", "rpm-avatar-office", "RobotExpressive"} {
		meshes, ok := models[name]
		if !ok {
			continue
		}
		for _, c := range []struct {
			name string
			f    func([]uint32, int) []uint32
		}{{"formula", forsythFormula}, {"tables", meshopt.ForsythOrder}} {
			b.Run(name+"/"+c.name, func(b *testing.B) {
				for b.Loop() {
					for _, m := range meshes {
						c.f(m.indices, m.vertexCount)
					}
				}
			})
		}
	}
}

// forsythFormula is forsythOrder as it was before its score tables, kept
// to show the tables change nothing: the vertex score computed per
// candidate triangle with math.Pow and math.Sqrt (weights 1.2, 1.5, 2).
func forsythFormula(indices []uint32, vertexCount int) []uint32 {
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
	score := func(v uint32) float64 {
		if live[v] == 0 {
			return -1
		}
		s := 0.0
		if p := pos[v]; p >= 0 {
			if p < 3 {
				s = 1.2
			} else {
				s = math.Pow(1-float64(p-3)/float64(cacheSize-3), 1.5)
			}
		}
		return s + 2.0/math.Sqrt(float64(live[v]))
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
