package simplify

import (
	"cmp"
	"runtime"
	"slices"
)

// SimplifyAll simplifies every mesh of a model, ms[i] with opts[i], and
// returns the results in the same order: the same results as calling
// Simplify on each in turn, whatever the scheduling, since the meshes are
// independent. It runs them on up to GOMAXPROCS goroutines (see Each): a
// model of many small primitives (RobotExpressive has 19 of about 170
// triangles) then costs the wall time of its share of the cores, not the
// sum of the calls, and the small primitives beside a large one run while
// it does.
//
// The error is that of the first mesh, in order, that failed; the other
// results are then nil.
func SimplifyAll(ms []Mesh, opts []Options) ([]Result, error) {
	if len(opts) != len(ms) {
		return nil, invalid("%d options for %d meshes", len(opts), len(ms))
	}
	res := make([]Result, len(ms))
	errs := make([]error, len(ms))
	Each(len(ms), func(i int) int { return len(ms[i].Indices) }, func(i int) {
		res[i], errs[i] = Simplify(ms[i], opts[i])
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return res, nil
}

// Each calls fn(i) for every i in [0, n) on up to GOMAXPROCS goroutines
// and returns when all calls have: the parallel loop of SimplifyAll, for
// callers (the lod package) that make their own calls per mesh. fn must
// write only what belongs to i.
//
// The calling goroutine takes the items from the largest size(i) down,
// the helpers from the smallest up, until they meet (see share). On a
// machine shared with builds a helper thread may not run for milliseconds
// once it has taken an item; the caller then waits for that item at the
// end, so the helpers only ever hold the small ones.
func Each(n int, size func(i int) int, fn func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := range n {
			fn(i)
		}
		return
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(size(b), size(a)) })
	share(n, workers-1, func(k int) { fn(order[k]) })
}
