package api

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/internal/priority"
)

// TestSlotCacheAskedAgainAfterAbandon: a production everyone left (the
// page dropped a build it asked ahead) that has not ended yet is not
// joined by the next request for the same key: that request gets bytes
// from a production of its own, never the abandoned one's error (which
// answered 500 before).
func TestSlotCacheAskedAgainAfterAbandon(t *testing.T) {
	c := &slotCache{gate: priority.New()}
	var runs atomic.Int32
	stopping := make(chan struct{})
	release := make(chan struct{})
	produce := func(ctx context.Context) ([]byte, error) {
		if runs.Add(1) == 1 {
			<-ctx.Done() // the first production is left ...
			close(stopping)
			<-release // ... and takes a while to stop, as a generator does
			return nil, ctx.Err()
		}
		return []byte("built"), nil
	}
	first, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := c.do(first, "k", priority.Build, 1<<20, produce)
		done <- err
	}()
	for runs.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	if err := <-done; !isKind(err, kiln.KindUnavailable) {
		t.Errorf("the request that left: %v, want creator_busy", err)
	}
	<-stopping
	second := make(chan error, 1)
	var got []byte
	go func() {
		b, err := c.do(t.Context(), "k", priority.Build, 1<<20, produce)
		got = b
		second <- err
	}()
	// The abandoned production ends only after the second request has
	// been asked, so that a join would have found it.
	time.Sleep(100 * time.Millisecond)
	close(release)
	select {
	case err := <-second:
		if err != nil || string(got) != "built" {
			t.Fatalf("asked again after the abandon: %q, %v; want the bytes of a new production", got, err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("asked again after the abandon: no answer")
	}
	if n := runs.Load(); n != 2 {
		t.Errorf("%d productions, want 2", n)
	}
}

func isKind(err error, k kiln.Kind) bool {
	var e *kiln.Error
	return errors.As(err, &e) && e.Kind == k
}
