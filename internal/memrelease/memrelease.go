// Package memrelease hands the memory of finished jobs back to the
// operating system once a process has no job running.
//
// An avatar build or a model variant allocates hundreds of MB that are
// garbage when it ends, and the Go runtime keeps the heap it grew for
// them: it collects again only when the program allocates, and an idle
// kiln serve hardly does, so after 50 avatars it sat at 150-170 MiB for
// minutes with some 40 MiB live. A forced collection that returns every
// free page (debug.FreeOSMemory) costs one collection of the live heap,
// tens of milliseconds: worth paying once a process goes idle, never
// between jobs.
package memrelease

import (
	"runtime"
	"runtime/debug"
	"sync"
	"time"

	"github.com/kilnhq/kiln/internal/bufpool"
)

// Releaser counts the jobs running and releases memory when the count
// has stayed at zero for Delay.
type Releaser struct {
	delay   time.Duration
	mu      sync.Mutex
	running int
	timer   *time.Timer
	// released counts the releases, for tests.
	released int
}

// New returns a Releaser that waits delay of idleness before releasing,
// so that a queue of short jobs does not pay a collection after each.
func New(delay time.Duration) *Releaser { return &Releaser{delay: delay} }

// Start records a job starting; it cancels a release not yet made.
func (r *Releaser) Start() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.running++
	if r.timer != nil {
		r.timer.Stop()
		r.timer = nil
	}
}

// Done records a job ending; the last one arms the release.
func (r *Releaser) Done() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.running--
	if r.running > 0 {
		return
	}
	var t *time.Timer
	t = time.AfterFunc(r.delay, func() {
		r.mu.Lock()
		if r.timer != t || r.running > 0 {
			r.mu.Unlock()
			return // a job started meanwhile
		}
		r.timer = nil
		r.mu.Unlock()
		// The buffers kept for the next job go (bufpool), then two
		// collections: the first moves what sync.Pools hold
		// (encoding/json keeps the tens of MB of buffer it grew for a
		// large glTF JSON) to their victim caches, the second frees
		// them; FreeOSMemory's then hands every free page back.
		bufpool.Drop()
		runtime.GC()
		debug.FreeOSMemory()
		r.mu.Lock()
		r.released++
		r.mu.Unlock()
	})
	r.timer = t
}

// Released is how many times memory was released.
func (r *Releaser) Released() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.released
}
