package avatar

import (
	"runtime"
	"sync"
)

// paintTurns bounds the textures painted at once in the process (each
// paints on every core already, and holds some 30 MB of buffers while it
// does), and lets a style part's textures go first: the creator asks a
// part (BuildPart, a few 256-pixel maps) for the style a person just
// picked while whole builds (about eighteen maps each) are painting,
// and in one queue the part's one or two maps waited behind all of
// theirs. An urgent texture takes no turn and never waits; while one is
// painting, no other texture starts, so it has the cores the painting
// ones free as they end. Only the order changes: every texture is
// painted as before, so the bytes are the same.
type paintTurns struct {
	mu     sync.Mutex
	cond   *sync.Cond
	free   int // turns left for textures that are not urgent
	urgent int // urgent textures painting
}

func newPaintTurns(n int) *paintTurns {
	t := &paintTurns{free: n}
	t.cond = sync.NewCond(&t.mu)
	return t
}

// take waits for a turn (an urgent texture does not wait) and answers
// the func that gives it back.
func (t *paintTurns) take(urgent bool) (done func()) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if urgent {
		t.urgent++
		return func() {
			t.mu.Lock()
			t.urgent--
			t.cond.Broadcast()
			t.mu.Unlock()
		}
	}
	for t.free == 0 || t.urgent > 0 {
		t.cond.Wait()
	}
	t.free--
	return func() {
		t.mu.Lock()
		t.free++
		t.cond.Broadcast()
		t.mu.Unlock()
	}
}

// paintSlots are the process's turns.
var paintSlots = newPaintTurns(runtime.GOMAXPROCS(0))
