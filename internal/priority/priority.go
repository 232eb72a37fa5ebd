// Package priority orders the CPU-heavy work of one process by who waits
// for it: a style part a person just picked, then the whole build of the
// avatar on screen, and only then work nobody watches (a serving
// process's warm-up, catalogue thumbnails). kiln serve runs the creator's
// builds and the worker's jobs in one process on the same cores, and Go
// has no goroutine priorities: a thumbnail render started at the moment a
// person picks a hat halves the cores the hat gets. A started build
// cannot be paused either, so the order is kept where work starts: each
// piece of work enters the gate with its class and waits while work of a
// higher class runs.
package priority

import (
	"context"
	"runtime"
	"sync"
	"time"
)

// Class is a kind of work, highest priority first.
type Class int

const (
	// Part is a style part (POST /creator/parts): a person waits for it
	// to see the style picked, and it is a fraction of a build. Parts
	// never wait in the gate.
	Part Class = iota
	// Build is a whole build of the avatar on screen: it waits while
	// parts run (at most Gate.BuildWait), since the page asks a style's
	// part and its whole build at the same moment and the part is what
	// shows first.
	Build
	// Background is work nobody is looking at yet: it starts only after
	// no interactive work has run for Gate.Quiet, and at most
	// Gate.BackgroundSlots at once. A started piece runs to its end (an
	// avatar build spreads over every core), so the pieces are kept
	// small: a build, a part, a picture.
	Background
	classes
)

func (c Class) String() string {
	switch c {
	case Part:
		return "part"
	case Build:
		return "build"
	case Background:
		return "background"
	}
	return "unknown"
}

// Gate admits work by class. The zero value is not usable: use New.
type Gate struct {
	// Quiet is how long after the last interactive work background work
	// waits: the page asks in bursts (a part and its build, then the
	// parts it warms), and a background job started between two of them
	// holds a core for a second or more.
	Quiet time.Duration
	// BuildWait bounds how long a build waits for parts, so a stream of
	// parts cannot hold the whole build back for long.
	BuildWait time.Duration
	// BackgroundSlots is how much background work runs at once.
	BackgroundSlots int

	mu       sync.Mutex
	running  [classes]int
	lastBusy time.Time     // when interactive work last ended (or began)
	changed  chan struct{} // closed and replaced at every change
	entered  [classes]int64
}

// New is a gate with the process's defaults: background work after
// 400 ms without interactive work, one piece per two cores (at least
// one).
func New() *Gate {
	return &Gate{
		Quiet:           400 * time.Millisecond,
		BuildWait:       1500 * time.Millisecond,
		BackgroundSlots: max(1, runtime.NumCPU()/2),
		changed:         make(chan struct{}),
	}
}

// Default is the process's gate: the creator's builds (package api) and
// the worker's thumbnail jobs share it in kiln serve.
var Default = New()

// Enter waits until work of class c may start and marks it running; the
// caller must call leave when the work is done. It returns ctx's error
// when ctx ends first.
func (g *Gate) Enter(ctx context.Context, c Class) (leave func(), err error) {
	var deadline time.Time
	if c == Build {
		deadline = time.Now().Add(g.BuildWait)
	}
	return g.enter(ctx, c, deadline)
}

// EnterWithin is Enter waiting for interactive work at most max, then
// entering as soon as a background slot is free and no part runs: for work that holds
// something others need while it waits (a worker's job slot, which an
// avatar download may be queued for), so that it yields to interactive
// work for a while but is never starved by it.
func (g *Gate) EnterWithin(ctx context.Context, c Class, max time.Duration) (leave func(), err error) {
	return g.enter(ctx, c, time.Now().Add(max))
}

func (g *Gate) enter(ctx context.Context, c Class, deadline time.Time) (leave func(), err error) {
	for {
		g.mu.Lock()
		wait, ok := g.admit(c, deadline)
		if ok {
			g.entered[c]++
			leave := g.start(c)
			g.mu.Unlock()
			return leave, nil
		}
		ch := g.changed
		g.mu.Unlock()
		var timer *time.Timer
		var fire <-chan time.Time
		if wait > 0 {
			timer = time.NewTimer(wait)
			fire = timer.C
		}
		select {
		case <-ctx.Done():
			err = ctx.Err()
		case <-ch:
		case <-fire:
		}
		if timer != nil {
			timer.Stop()
		}
		if err != nil {
			return nil, err
		}
	}
}

// admit says whether c may start now, or how long to wait before asking
// again (0: until something changes). Called with mu held.
func (g *Gate) admit(c Class, deadline time.Time) (time.Duration, bool) {
	// Past the deadline, interactive work is no longer waited for; the
	// background's slots still are, so that background work never takes
	// more of the process than they allow.
	untilDeadline, late := time.Duration(0), false
	if !deadline.IsZero() {
		untilDeadline = time.Until(deadline)
		late = untilDeadline <= 0
	}
	switch c {
	case Part:
		return 0, true
	case Build:
		if g.running[Part] == 0 || late {
			return 0, true
		}
		return untilDeadline, false
	default:
		if g.running[Background] >= g.BackgroundSlots {
			return 0, false
		}
		if late {
			// Past its wait, background work no longer waits for
			// whole builds (a person dwelling on a tab has the page
			// build ahead for minutes), but still for the parts a
			// person waits on, which end within seconds: a thumbnail
			// started beside a picked part halved its cores (issue
			// 20's hoodie, 2.7 s beside part=1 build=1 bg=1).
			if g.running[Part] > 0 {
				return 0, false
			}
			return 0, true
		}
		if g.running[Part]+g.running[Build] > 0 {
			return untilDeadline, false
		}
		left := g.Quiet - time.Since(g.lastBusy)
		if left <= 0 {
			return 0, true
		}
		if untilDeadline > 0 {
			left = min(left, untilDeadline)
		}
		return left, false
	}
}

func (g *Gate) leave(c Class) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.running[c]--
	if c != Background {
		g.lastBusy = time.Now()
	}
	g.signal()
}

// signal wakes every waiter to look again. Called with mu held.
func (g *Gate) signal() {
	close(g.changed)
	g.changed = make(chan struct{})
}

// Mark counts work of class c as running without waiting, until leave:
// for a request that waits on work already started for another (a build
// two requests share), so that background work does not start while a
// person waits.
func (g *Gate) Mark(c Class) (leave func()) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.start(c)
}

// start counts c as running, wakes the waiters (background work counts
// its quiet time from the last interactive start) and answers the leave
// that undoes it once. Called with mu held.
func (g *Gate) start(c Class) (leave func()) {
	g.running[c]++
	if c != Background {
		g.lastBusy = time.Now()
	}
	g.signal()
	var once sync.Once
	return func() { once.Do(func() { g.leave(c) }) }
}

// Running is the work of class c running now.
func (g *Gate) Running(c Class) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.running[c]
}

// Entered counts the work of class c that has entered since the gate was
// made (the warm-up's tests read it).
func (g *Gate) Entered(c Class) int64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.entered[c]
}

// Yield is for running background work at a boundary between its
// stages: it waits while a part runs (a person waits for it), at most
// max, so that a piece of background work that began before a pick lets
// the pick's part have the cores from its next stage on. Work of other
// classes does not wait. It returns ctx's error when ctx ends first.
func (g *Gate) Yield(ctx context.Context, max time.Duration) error {
	timer := time.NewTimer(max)
	defer timer.Stop()
	for {
		g.mu.Lock()
		parts, ch := g.running[Part], g.changed
		g.mu.Unlock()
		if parts == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-timer.C:
			return nil
		case <-ch:
		}
	}
}
