package avatar

import (
	"runtime"
	"sync"
)

// bands runs f over [0, n) in one band per CPU, side by side: for loops
// whose iterations write only their own element, which a client waiting
// for its avatar would otherwise wait for on one core.
func bands(n int, f func(lo, hi int)) {
	k := min(runtime.GOMAXPROCS(0), max(n, 1))
	var wg sync.WaitGroup
	for b := range k {
		wg.Go(func() { f(n*b/k, n*(b+1)/k) })
	}
	wg.Wait()
}
