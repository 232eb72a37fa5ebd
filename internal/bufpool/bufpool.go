// Package bufpool keeps large buffers from one job for the next.
//
// An avatar build paints a dozen textures into buffers of several MB
// each and writes a GLB of several MB: about 100 MB a build, allocated,
// zeroed and collected each time. sync.Pool held them only until the
// next collection but one, and a build collects several times, so most
// buffers were allocated fresh all the same. The pools here hold their
// buffers until the process goes idle (memrelease calls Drop), up to a
// bound on the bytes held, so a busy process reuses them build after
// build and an idle one gives them back. They also drop what they hold
// by themselves idleDrop after their last use, for processes that build
// outside a worker (the creator's part builds in kiln serve).
package bufpool

import (
	"sync"
	"time"
	"unsafe"
)

// Limit is the most bytes all pools together hold; a buffer given back
// beyond it is left to the collector.
const Limit = 256 << 20

// idleDrop is how long after their last Get or Put the pools drop what
// they hold (a var for the test).
var idleDrop = 5 * time.Second

var (
	mu      sync.Mutex
	held    int64 // bytes held by every pool
	all     []dropper
	lastUse time.Time
	idle    *time.Timer // armed while the pools hold something
)

// used records a Get or Put; mu is held.
func used() {
	lastUse = time.Now()
	if idle == nil && held > 0 {
		idle = time.AfterFunc(idleDrop, dropIfIdle)
	}
}

// dropIfIdle drops the pools' buffers when they have not been used for
// idleDrop, else waits for the rest of it.
func dropIfIdle() {
	mu.Lock()
	defer mu.Unlock()
	if since := time.Since(lastUse); since < idleDrop {
		idle = time.AfterFunc(idleDrop-since, dropIfIdle)
		return
	}
	idle = nil
	dropLocked()
}

type dropper interface{ drop() }

// Drop empties every pool (memrelease calls it once the process is idle).
func Drop() {
	mu.Lock()
	defer mu.Unlock()
	dropLocked()
}

func dropLocked() {
	if idle != nil {
		idle.Stop()
		idle = nil
	}
	for _, p := range all {
		p.drop()
	}
	held = 0
}

// Held is the bytes the pools hold, for tests.
func Held() int64 {
	mu.Lock()
	defer mu.Unlock()
	return held
}

// Sized holds slices of T by length: Get(n) is a zeroed slice of length
// n, from the pool when one of that length was given back.
type Sized[T any] struct {
	free map[int][][]T // guarded by mu
	reg  bool
}

// Get returns a zeroed slice of n elements.
func (p *Sized[T]) Get(n int) []T {
	mu.Lock()
	if l := p.free[n]; len(l) > 0 {
		s := l[len(l)-1]
		l[len(l)-1] = nil
		p.free[n] = l[:len(l)-1]
		held -= bytesOf(s)
		used()
		mu.Unlock()
		clear(s)
		return s
	}
	mu.Unlock()
	return make([]T, n)
}

// Put gives s back for a later Get of its length; s must not be used
// after.
func (p *Sized[T]) Put(s []T) {
	if len(s) == 0 {
		return
	}
	b := bytesOf(s)
	mu.Lock()
	defer mu.Unlock()
	if held+b > Limit {
		return
	}
	if !p.reg {
		p.reg = true
		all = append(all, p)
	}
	if p.free == nil {
		p.free = map[int][][]T{}
	}
	p.free[len(s)] = append(p.free[len(s)], s[:len(s):len(s)])
	held += b
	used()
}

func (p *Sized[T]) drop() { p.free = nil }

// Bytes holds byte buffers of any size, for output that grows by
// appending: Get is an empty slice with the largest capacity held.
type Bytes struct {
	free [][]byte // guarded by mu
	reg  bool
}

// Get returns an empty slice, with the capacity of a buffer given back
// before if there is one.
func (p *Bytes) Get() []byte {
	mu.Lock()
	defer mu.Unlock()
	best := -1
	for i, b := range p.free {
		if best < 0 || cap(b) > cap(p.free[best]) {
			best = i
		}
	}
	if best < 0 {
		return nil
	}
	b := p.free[best]
	p.free[best] = p.free[len(p.free)-1]
	p.free[len(p.free)-1] = nil
	p.free = p.free[:len(p.free)-1]
	held -= int64(cap(b))
	used()
	return b[:0]
}

// Put gives b back; b must not be used after.
func (p *Bytes) Put(b []byte) {
	if cap(b) == 0 {
		return
	}
	mu.Lock()
	defer mu.Unlock()
	if held+int64(cap(b)) > Limit {
		return
	}
	if !p.reg {
		p.reg = true
		all = append(all, p)
	}
	p.free = append(p.free, b[:0])
	held += int64(cap(b))
	used()
}

func (p *Bytes) drop() { p.free = nil }

func bytesOf[T any](s []T) int64 {
	var z T
	return int64(len(s)) * int64(unsafe.Sizeof(z))
}
