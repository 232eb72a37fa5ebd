package api

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/internal/priority"
)

// slotCache runs the creator's work two at a time (two builds use every
// core between them) and keeps the latest answers within a byte budget,
// oldest out first: a person going back and forth between styles gets
// them again at once. The whole builds and the parts each have their
// own, so a part never waits behind the builds it is there to get ahead
// of; across both, the process's priority gate (priority.Default) lets
// parts start before whole builds and both before background work.
//
// Identical requests arriving together share one build: the page's start
// avatar asked while the warm-up builds it, or a part asked twice by two
// tabs, is built once and answered to both. A production belongs to the
// requests waiting on it: when the last of them has gone (its client
// left, or a newer build of the same person superseded it), a production
// that has not started is dropped, and one that runs stops at its next
// stage (produce checks its context), so the cores go to what someone
// still waits for.
type slotCache struct {
	once  sync.Once
	slots chan struct{}
	// buildSlots bounds the productions entered as priority.Build
	// (interactiveBuildSlots).
	buildSlots chan struct{}
	mu         sync.Mutex
	cache      map[string][]byte
	order      []string
	size       int
	flight     map[string]*flight
	// gate orders the work by class; nil is priority.Default.
	gate *priority.Gate
	// log, when set, gets a debug line per stage of each production
	// (queued, entered, slot, started, done) with its key and the gate's
	// running work: where a part's wall time goes (issue 20's 800 ms).
	log  *slog.Logger
	kind string
	// built counts the productions run (the tests' dedupe check);
	// started those that began producing, dropped those given up before
	// they began, cancelled those stopped at a stage after it.
	built, started, dropped, cancelled atomic.Int64
}

// flight is one production in progress, which later identical requests
// wait on.
type flight struct {
	done chan struct{}
	b    []byte
	err  error
	// ctx ends when no request waits for the production any more.
	ctx     context.Context
	cancel  context.CancelFunc
	waiters int // guarded by slotCache.mu
	// urgent is closed when an interactive request joins a background
	// production that has not started: it then starts as that request's
	// class, without waiting for the background's turn.
	urgent     chan struct{}
	urgentOnce sync.Once
	class      priority.Class // the joiner's class, set before urgent closes
	queued     time.Time      // when the production was asked (the trace's zero)
}

// trace logs a production's stage at debug level (slotCache.log).
func (c *slotCache) trace(key string, f *flight, class priority.Class, stage string) {
	if c.log == nil || !c.log.Enabled(context.Background(), slog.LevelDebug) {
		return
	}
	c.log.Debug("creator work", "kind", c.kind, "stage", stage, "key", key[:min(8, len(key))], "class", class.String(),
		"ms", time.Since(f.queued).Milliseconds(),
		"running", fmt.Sprintf("part=%d build=%d bg=%d", c.gate.Running(priority.Part), c.gate.Running(priority.Build), c.gate.Running(priority.Background)))
}

// errAbandoned is what a production stopped for want of waiters ends
// with; no one reads it.
var errAbandoned = errors.New("creator: production abandoned: nobody waits for it")

// do answers key's bytes from the cache, or from the production of them
// already under way, or makes them in a free slot, once the gate admits
// class, and keeps them within budget bytes. Waiting ends with ctx; the
// production ends early when every request waiting for it has ended
// (produce's context).
func (c *slotCache) do(ctx context.Context, key string, class priority.Class, budget int, produce func(context.Context) ([]byte, error)) ([]byte, error) {
	c.init()
	c.mu.Lock()
	if b, ok := c.cache[key]; ok {
		c.mu.Unlock()
		return b, nil
	}
	f, joined := c.flight[key]
	if joined && f.ctx.Err() != nil {
		// Abandoned by everyone who asked before (the page dropped a
		// build it asked ahead) and stopping: a request now is a new
		// production, not an answer of errAbandoned (a 500 at the
		// dwell's pick, issue 20's benchmark at load 23).
		joined = false
	}
	if !joined {
		f = &flight{done: make(chan struct{}), urgent: make(chan struct{})}
		f.ctx, f.cancel = context.WithCancel(context.WithoutCancel(ctx))
		c.flight[key] = f
		f.queued = time.Now()
		go c.run(key, f, class, budget, produce)
	}
	f.waiters++
	c.mu.Unlock()
	if joined && class != priority.Background {
		// A joiner counts as running work of its class meanwhile, so
		// that background work does not start while a person waits,
		// and hurries a background production that has not started.
		defer c.gate.Mark(class)()
		f.urgentOnce.Do(func() {
			f.class = class
			close(f.urgent)
		})
	}
	select {
	case <-f.done:
		if errors.Is(f.err, errAbandoned) {
			return nil, busy()
		}
		return f.b, f.err
	case <-ctx.Done():
		c.mu.Lock()
		f.waiters--
		if f.waiters == 0 {
			f.cancel()
		}
		c.mu.Unlock()
		return nil, busy()
	}
}

// run makes a flight's bytes: it waits for the gate and a slot, then
// produces, unless every waiter has gone first.
func (c *slotCache) run(key string, f *flight, class priority.Class, budget int, produce func(context.Context) ([]byte, error)) {
	defer f.cancel()
	defer func() {
		if p := recover(); p != nil {
			f.b, f.err = nil, fmt.Errorf("creator build panicked: %v", p)
		}
		c.finish(key, f, budget)
	}()
	c.trace(key, f, class, "queued")
	leave, entered, err := c.enter(f.ctx, f, class)
	c.trace(key, f, entered, "entered")
	if err != nil {
		c.dropped.Add(1)
		f.err = err
		return
	}
	defer leave()
	select {
	case c.slots <- struct{}{}:
		var free sync.Once
		release := func() { free.Do(func() { <-c.slots }) }
		defer release()
		if entered == priority.Part {
			// A part nobody waits for any more (the page aborts the
			// part it asked ahead when the person moves on) stops at
			// its next stage (avatar.BuildPartContext), and gives its
			// slot up at once: the style then
			// picked shares the cores with it rather than waiting for
			// it to end (the beanie's part waited 28 s at load 23
			// behind parts asked ahead and abandoned).
			defer context.AfterFunc(f.ctx, release)()
		}
	case <-f.ctx.Done():
		c.dropped.Add(1)
		f.err = errAbandoned
		return
	}
	if entered == priority.Build {
		select {
		case c.buildSlots <- struct{}{}:
			defer func() { <-c.buildSlots }()
		case <-f.ctx.Done():
			c.dropped.Add(1)
			f.err = errAbandoned
			return
		}
	}
	if f.ctx.Err() != nil {
		c.dropped.Add(1)
		f.err = errAbandoned
		return
	}
	c.started.Add(1)
	c.trace(key, f, entered, "started")
	f.b, f.err = produce(f.ctx)
	c.built.Add(1)
	c.trace(key, f, entered, "done")
	if f.err != nil && f.ctx.Err() != nil {
		c.cancelled.Add(1)
		f.b, f.err = nil, errAbandoned
	}
}

func (c *slotCache) init() {
	c.once.Do(func() {
		c.slots = make(chan struct{}, 2)
		c.cache = map[string][]byte{}
		c.flight = map[string]*flight{}
		c.buildSlots = make(chan struct{}, interactiveBuildSlots())
		if c.gate == nil {
			c.gate = priority.Default
		}
	})
}

// enter waits for the gate to admit the production: as class, or, for
// background work that an interactive request joined meanwhile, as that
// request's class, which it returns.
func (c *slotCache) enter(ctx context.Context, f *flight, class priority.Class) (func(), priority.Class, error) {
	if class != priority.Background {
		leave, err := c.gate.Enter(ctx, class)
		if err != nil {
			return nil, class, busy()
		}
		return leave, class, nil
	}
	bg, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-f.urgent:
			cancel()
		case <-bg.Done():
		}
	}()
	leave, err := c.gate.Enter(bg, priority.Background)
	if err == nil {
		return leave, class, nil
	}
	if ctx.Err() != nil {
		return nil, class, busy()
	}
	if leave, err = c.gate.Enter(ctx, f.class); err != nil {
		return nil, class, busy()
	}
	return leave, f.class, nil
}

// finish keeps a production's bytes and answers the requests waiting on
// it.
func (c *slotCache) finish(key string, f *flight, budget int) {
	if f.err == nil && f.b != nil {
		c.put(key, f.b, budget)
	}
	c.mu.Lock()
	if c.flight[key] == f {
		delete(c.flight, key)
	}
	c.mu.Unlock()
	close(f.done)
}

func busy() error {
	return kiln.Errorf(kiln.KindUnavailable, "creator_busy", "the creator's builds are busy; try again")
}

// interactiveBuildSlots is how many whole builds a person waits on run at
// once: one per two cores (at least one). A whole build spreads over two
// cores by itself (its textures paint in parallel), so on the 2-core
// machine of issue 20 a second one made both run at half speed and left
// a style's part, asked meanwhile, a third of the cores: the beanie's
// part waited 2.5-3.9 s behind the whole builds of the picks before it.
func interactiveBuildSlots() int { return max(1, runtime.NumCPU()/2) }

func (c *slotCache) put(key string, b []byte, budget int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.cache[key]; ok {
		return
	}
	c.cache[key], c.size = b, c.size+len(b)
	c.order = append(c.order, key)
	for c.size > budget && len(c.order) > 1 {
		old := c.order[0]
		c.order = c.order[1:]
		c.size -= len(c.cache[old])
		delete(c.cache, old)
	}
}
