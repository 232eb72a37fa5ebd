package api

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

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
// tabs, is built once and answered to both.
type slotCache struct {
	once   sync.Once
	slots  chan struct{}
	mu     sync.Mutex
	cache  map[string][]byte
	order  []string
	size   int
	flight map[string]*flight
	// gate orders the work by class; nil is priority.Default.
	gate *priority.Gate
	// built counts the productions run (the tests' dedupe check).
	built atomic.Int64
}

// flight is one production in progress, which later identical requests
// wait on.
type flight struct {
	done chan struct{}
	b    []byte
	err  error
	// urgent is closed when an interactive request joins a background
	// production that has not started: it then starts as that request's
	// class, without waiting for the background's turn.
	urgent     chan struct{}
	urgentOnce sync.Once
	class      priority.Class // the joiner's class, set before urgent closes
}

// do answers key's bytes from the cache, or from the production of them
// already under way, or makes them in a free slot, once the gate admits
// class, and keeps them within budget bytes. Waiting ends with ctx.
func (c *slotCache) do(ctx context.Context, key string, class priority.Class, budget int, produce func() ([]byte, error)) ([]byte, error) {
	c.init()
	c.mu.Lock()
	if b, ok := c.cache[key]; ok {
		c.mu.Unlock()
		return b, nil
	}
	if f, ok := c.flight[key]; ok {
		c.mu.Unlock()
		return c.join(ctx, f, class)
	}
	f := &flight{done: make(chan struct{}), urgent: make(chan struct{})}
	c.flight[key] = f
	c.mu.Unlock()

	defer func() {
		if p := recover(); p != nil {
			f.err = fmt.Errorf("creator build panicked: %v", p)
			c.finish(key, f, budget)
			panic(p)
		}
		c.finish(key, f, budget)
	}()
	leave, err := c.enter(ctx, f, class)
	if err != nil {
		f.err = err
		return nil, err
	}
	defer leave()
	select {
	case c.slots <- struct{}{}:
		defer func() { <-c.slots }()
	case <-ctx.Done():
		f.err = busy()
		return nil, f.err
	}
	f.b, f.err = produce()
	c.built.Add(1)
	return f.b, f.err
}

func (c *slotCache) init() {
	c.once.Do(func() {
		c.slots = make(chan struct{}, 2)
		c.cache = map[string][]byte{}
		c.flight = map[string]*flight{}
		if c.gate == nil {
			c.gate = priority.Default
		}
	})
}

// enter waits for the gate to admit the production: as class, or, for
// background work that an interactive request joined meanwhile, as that
// request's class.
func (c *slotCache) enter(ctx context.Context, f *flight, class priority.Class) (func(), error) {
	if class != priority.Background {
		leave, err := c.gate.Enter(ctx, class)
		if err != nil {
			return nil, busy()
		}
		return leave, nil
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
		return leave, nil
	}
	if ctx.Err() != nil {
		return nil, busy()
	}
	if leave, err = c.gate.Enter(ctx, f.class); err != nil {
		return nil, busy()
	}
	return leave, nil
}

// join waits for another request's production of the same bytes; an
// interactive joiner counts as running work of its class meanwhile, so
// that background work does not start while a person waits, and hurries
// a background production that has not started yet.
func (c *slotCache) join(ctx context.Context, f *flight, class priority.Class) ([]byte, error) {
	if class != priority.Background {
		defer c.gate.Mark(class)()
		f.urgentOnce.Do(func() {
			f.class = class
			close(f.urgent)
		})
	}
	select {
	case <-f.done:
		return f.b, f.err
	case <-ctx.Done():
		return nil, busy()
	}
}

// finish keeps a production's bytes and answers the requests waiting on
// it.
func (c *slotCache) finish(key string, f *flight, budget int) {
	if f.err == nil && f.b != nil {
		c.put(key, f.b, budget)
	}
	c.mu.Lock()
	delete(c.flight, key)
	c.mu.Unlock()
	close(f.done)
}

func busy() error {
	return kiln.Errorf(kiln.KindUnavailable, "creator_busy", "the creator's builds are busy; try again")
}

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
