package priority

import (
	"context"
	"testing"
	"time"
)

// TestOrder runs work of one class while work of another asks to enter,
// and checks when the second is let in: never before the first leaves
// when it must wait for it, at once when it need not.
func TestOrder(t *testing.T) {
	const hold = 150 * time.Millisecond
	for _, tc := range []struct {
		name          string
		running, asks Class
		// waits: the second enters only after the first has left (plus
		// Quiet for background); else it enters while the first runs.
		waits bool
	}{
		{"a part does not wait for a build", Build, Part, false},
		{"a part does not wait for background work", Background, Part, false},
		{"a build does not wait for a build", Build, Build, false},
		{"a build waits for a part", Part, Build, true},
		{"a build does not wait for background work", Background, Build, false},
		{"background waits for a part", Part, Background, true},
		{"background waits for a build", Build, Background, true},
		{"background waits for a free background slot", Background, Background, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := New()
			g.Quiet, g.BuildWait, g.BackgroundSlots = 50*time.Millisecond, 10*time.Second, 1
			leave, err := g.Enter(t.Context(), tc.running)
			if err != nil {
				t.Fatal(err)
			}
			left := time.Now().Add(hold)
			time.AfterFunc(hold, leave)
			t0 := time.Now()
			leave2, err := g.Enter(t.Context(), tc.asks)
			if err != nil {
				t.Fatal(err)
			}
			defer leave2()
			entered := time.Now()
			if !tc.waits && entered.Sub(t0) > hold/2 {
				t.Errorf("entered after %v while a %s ran; want at once", entered.Sub(t0), tc.running)
			}
			if tc.waits && entered.Before(left) {
				t.Errorf("entered %v before the %s left", left.Sub(entered), tc.running)
			}
			if tc.waits && tc.asks == Background && tc.running != Background && entered.Sub(left) < g.Quiet {
				t.Errorf("background entered %v after the %s left, want at least Quiet (%v)", entered.Sub(left), tc.running, g.Quiet)
			}
		})
	}
}

// TestBuildWaitIsBounded: a build waits for parts at most BuildWait.
func TestBuildWaitIsBounded(t *testing.T) {
	g := New()
	g.BuildWait = 100 * time.Millisecond
	leave, _ := g.Enter(t.Context(), Part)
	defer leave()
	t0 := time.Now()
	leave2, err := g.Enter(t.Context(), Build)
	if err != nil {
		t.Fatal(err)
	}
	defer leave2()
	if d := time.Since(t0); d < g.BuildWait || d > 10*g.BuildWait {
		t.Errorf("the build entered after %v beside a running part, want about %v", d, g.BuildWait)
	}
	if g.Running(Part) != 1 || g.Running(Build) != 1 {
		t.Errorf("running: %d parts, %d builds; want 1 and 1", g.Running(Part), g.Running(Build))
	}
}

// TestWaitEndsWithContext: background work waiting behind a person's
// build gives up when its context ends, and leaves nothing counted.
func TestWaitEndsWithContext(t *testing.T) {
	g := New()
	leave := g.Mark(Build)
	defer leave()
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if _, err := g.Enter(ctx, Background); err == nil {
		t.Fatal("background work entered while a build ran")
	}
	if n := g.Running(Background); n != 0 {
		t.Errorf("%d background counted after a wait that ended", n)
	}
}

// TestLeaveTwice: leaving twice counts once.
func TestLeaveTwice(t *testing.T) {
	g := New()
	leave, _ := g.Enter(t.Context(), Part)
	leave()
	leave()
	if n := g.Running(Part); n != 0 {
		t.Errorf("running %d parts after leaving, want 0", n)
	}
}

// TestEnterWithinIsBounded: background work that holds a worker's slot
// waits for a person's build at most the time it is given.
func TestEnterWithinIsBounded(t *testing.T) {
	g := New()
	leave := g.Mark(Build)
	defer leave()
	t0 := time.Now()
	leave2, err := g.EnterWithin(t.Context(), Background, 100*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer leave2()
	if d := time.Since(t0); d < 100*time.Millisecond || d > time.Second {
		t.Errorf("entered after %v beside a running build, want about 100ms", d)
	}
}

// TestEnterWithinKeepsBackgroundSlots: past its wait, background work
// still waits for a free background slot.
func TestEnterWithinKeepsBackgroundSlots(t *testing.T) {
	g := New()
	g.BackgroundSlots = 1
	leave, err := g.Enter(t.Context(), Background)
	if err != nil {
		t.Fatal(err)
	}
	time.AfterFunc(200*time.Millisecond, leave)
	t0 := time.Now()
	leave2, err := g.EnterWithin(t.Context(), Background, 10*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer leave2()
	if d := time.Since(t0); d < 200*time.Millisecond {
		t.Errorf("entered after %v while the one background slot was taken", d)
	}
}

// TestEnterWithinWaitsForParts: past its wait, background work no longer
// waits for a whole build but still waits for a running part, and
// enters once the part has left.
func TestEnterWithinWaitsForParts(t *testing.T) {
	g := New()
	leaveBuild := g.Mark(Build)
	defer leaveBuild()
	leavePart := g.Mark(Part)
	time.AfterFunc(300*time.Millisecond, leavePart)
	t0 := time.Now()
	leave, err := g.EnterWithin(t.Context(), Background, 10*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	defer leave()
	if d := time.Since(t0); d < 300*time.Millisecond {
		t.Errorf("entered after %v while a part ran, want after the part left (300ms)", d)
	}
	if n := g.Running(Part); n != 0 {
		t.Errorf("entered with %d parts running", n)
	}
}

// TestYield: background work at a stage boundary waits while a part
// runs, at most the time it is given, not for whole builds, and stops
// waiting when its context ends.
func TestYield(t *testing.T) {
	for _, tc := range []struct {
		name             string
		mark             []Class
		partLeaves       time.Duration // 0: the part stays
		max              time.Duration
		cancel           bool
		minWait, maxWait time.Duration
		err              bool
	}{
		{"nothing running", nil, 0, time.Second, false, 0, 500 * time.Millisecond, false},
		{"a build running", []Class{Build}, 0, time.Second, false, 0, 500 * time.Millisecond, false},
		{"a part that leaves", []Class{Part}, 200 * time.Millisecond, 5 * time.Second, false, 200 * time.Millisecond, 3 * time.Second, false},
		{"a part that stays", []Class{Part}, 0, 200 * time.Millisecond, false, 200 * time.Millisecond, 3 * time.Second, false},
		{"context ends", []Class{Part}, 0, 5 * time.Second, true, 100 * time.Millisecond, 3 * time.Second, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := New()
			// t0 comes before the part's timer starts, so the part
			// cannot leave sooner than partLeaves after it.
			t0 := time.Now()
			for _, c := range tc.mark {
				leave := g.Mark(c)
				defer leave()
				if c == Part && tc.partLeaves > 0 {
					time.AfterFunc(tc.partLeaves, leave)
				}
			}
			ctx := t.Context()
			if tc.cancel {
				var cancel func()
				ctx, cancel = context.WithTimeout(ctx, 100*time.Millisecond)
				defer cancel()
			}
			err := g.Yield(ctx, tc.max)
			d := time.Since(t0)
			if (err != nil) != tc.err {
				t.Errorf("err %v, want error %v", err, tc.err)
			}
			if d < tc.minWait || d > tc.maxWait {
				t.Errorf("waited %v, want %v to %v", d, tc.minWait, tc.maxWait)
			}
		})
	}
}
