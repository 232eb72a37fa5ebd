package disjoint

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// groups lists the sets of 0..n-1, each in ascending order, ordered by
// their smallest index.
func groups[T Index](s Sets[T], n int) [][]int {
	at := map[T]int{}
	var out [][]int
	for v := range n {
		r := s.Find(T(v))
		k, ok := at[r]
		if !ok {
			k = len(out)
			at[r] = k
			out = append(out, nil)
		}
		out[k] = append(out[k], v)
	}
	return out
}

func TestSets(t *testing.T) {
	tests := []struct {
		name  string
		n     int
		joins [][2]int
		want  [][]int
	}{
		{"nothing joined", 3, nil, [][]int{{0}, {1}, {2}}},
		{"one pair", 4, [][2]int{{2, 0}}, [][]int{{0, 2}, {1}, {3}}},
		{"joined twice", 3, [][2]int{{0, 1}, {1, 0}}, [][]int{{0, 1}, {2}}},
		{"self", 2, [][2]int{{1, 1}}, [][]int{{0}, {1}}},
		{"chain through a third", 5, [][2]int{{0, 3}, {4, 3}}, [][]int{{0, 3, 4}, {1}, {2}}},
		{"two sets then one", 6, [][2]int{{0, 1}, {2, 3}, {4, 5}, {1, 3}}, [][]int{{0, 1, 2, 3}, {4, 5}}},
		{"triangle strip", 6, [][2]int{{0, 1}, {0, 2}, {2, 1}, {2, 3}, {3, 1}}, [][]int{{0, 1, 2, 3}, {4}, {5}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, check := range []struct {
				name string
				got  [][]int
			}{
				{"int", run[int](tc.n, tc.joins)},
				{"int32", run[int32](tc.n, tc.joins)},
				{"uint32", run[uint32](tc.n, tc.joins)},
			} {
				if !slices.EqualFunc(check.got, tc.want, slices.Equal) {
					t.Errorf("%s: sets %v, want %v", check.name, check.got, tc.want)
				}
			}
		})
	}
}

// run joins the pairs in order and lists the sets.
func run[T Index](n int, joins [][2]int) [][]int {
	s := New[T](n)
	for _, j := range joins {
		s.Union(T(j[0]), T(j[1]))
	}
	return groups(s, n)
}

// TestUnionRoot: the joined set keeps a's root, whichever set is larger,
// and every member finds it.
func TestUnionRoot(t *testing.T) {
	tests := []struct {
		name  string
		joins [][2]int32 // before the last union
		a, b  int32
	}{
		{"singletons", nil, 3, 1},
		{"a's set larger", [][2]int32{{0, 2}, {0, 4}}, 4, 1},
		{"b's set larger", [][2]int32{{1, 2}, {1, 4}}, 0, 4},
		{"already one set", [][2]int32{{1, 2}}, 2, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := New[int32](5)
			for _, j := range tc.joins {
				s.Union(j[0], j[1])
			}
			want := s.Find(tc.a)
			if got := s.Union(tc.a, tc.b); got != want {
				t.Fatalf("Union(%d, %d) = %d, want a's root %d", tc.a, tc.b, got, want)
			}
			for _, v := range []int32{tc.a, tc.b} {
				if r := s.Find(v); r != want {
					t.Errorf("Find(%d) = %d after the union, want %d", v, r, want)
				}
			}
		})
	}
}

// depth is how many steps v's path takes to its root.
func depth(s Sets[int], v int) int {
	d := 0
	for s.parent[v] != v {
		v = s.parent[v]
		d++
	}
	return d
}

// TestFindHalvesPath: a Find from the foot of a chain leaves it half as
// deep (rounded up), so long chains do not stay long.
func TestFindHalvesPath(t *testing.T) {
	for _, n := range []int{2, 3, 8, 33} {
		s := New[int](n)
		for i := 0; i+1 < n; i++ {
			s.Union(i+1, i) // 0 → 1 → … → n-1
		}
		if d := depth(s, 0); d != n-1 {
			t.Fatalf("n=%d: chain of depth %d, want %d", n, d, n-1)
		}
		if r := s.Find(0); r != n-1 {
			t.Fatalf("n=%d: Find(0) = %d, want %d", n, r, n-1)
		}
		if d, want := depth(s, 0), n/2; d != want {
			t.Errorf("n=%d: depth %d after a Find, want %d", n, d, want)
		}
	}
}

// TestAgainstSearch: on random graphs the sets are the connected
// components a breadth-first search finds.
func TestAgainstSearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 50 {
		n := 1 + rng.IntN(200)
		edges := make([][2]int, rng.IntN(2*n))
		adj := make([][]int, n)
		for i := range edges {
			a, b := rng.IntN(n), rng.IntN(n)
			edges[i] = [2]int{a, b}
			adj[a] = append(adj[a], b)
			adj[b] = append(adj[b], a)
		}
		comp := make([]int, n)
		for i := range comp {
			comp[i] = -1
		}
		var want [][]int
		for v := range n {
			if comp[v] >= 0 {
				continue
			}
			k := len(want)
			comp[v] = k
			members := []int{v}
			for q := []int{v}; len(q) > 0; q = q[1:] {
				for _, w := range adj[q[0]] {
					if comp[w] < 0 {
						comp[w] = k
						members = append(members, w)
						q = append(q, w)
					}
				}
			}
			slices.Sort(members)
			want = append(want, members)
		}
		if got := run[uint32](n, edges); !slices.EqualFunc(got, want, slices.Equal) {
			t.Fatalf("round %d (%d indices, %d edges): sets %v, want %v", round, n, len(edges), got, want)
		}
	}
}
