package simplify

import (
	"sync"
	"sync/atomic"
)

// share runs do(k) for every k in [0, n) on the calling goroutine and up
// to helpers more, and returns once every call has returned. The caller
// takes jobs from the front, the helpers from the back, until they meet:
// callers put the largest jobs first, so a helper holds a small one.
//
// It waits for the jobs, not for the goroutines. On a machine shared with
// builds a helper may not run for milliseconds after it is started; when
// the caller has done every job by then, it returns at once, and the
// helper, when it runs, finds nothing left. The caller only ever waits for
// a job a helper has started.
func share(n, helpers int, do func(k int)) {
	if helpers <= 0 || n <= 1 {
		for k := range n {
			do(k)
		}
		return
	}
	var mu sync.Mutex
	lo, hi := 0, n // jobs [lo, hi) are not taken yet
	take := func(front bool) (int, bool) {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case lo == hi:
			return 0, false
		case front:
			lo++
			return lo - 1, true
		default:
			hi--
			return hi, true
		}
	}
	var left atomic.Int64
	left.Store(int64(n))
	finished := make(chan struct{})
	work := func(front bool) {
		for k, ok := take(front); ok; k, ok = take(front) {
			do(k)
			if left.Add(-1) == 0 {
				close(finished)
			}
		}
	}
	for range min(helpers, n-1) {
		go work(false)
	}
	work(true)
	<-finished
}
