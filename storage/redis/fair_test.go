package redis

import (
	"context"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kilnhq/kiln/jobs"
)

// TestAdmitCountsOnceUnderRetries cuts the reply of the admission script
// after Redis ran it, as a read timeout does: go-redis sends it again,
// and the held task must be held once, not twice (it would run twice).
// The share counts every queue, and an ended task lets in the held one
// of the first queue.
func TestAdmitCountsOnceUnderRetries(t *testing.T) {
	ctx := context.Background()
	u, err := url.Parse(testURL(t))
	if err != nil {
		t.Fatal(err)
	}
	rdb, err := Open(ctx, u.String())
	if err != nil {
		t.Fatal(err)
	}
	defer rdb.Close()
	rdb.FlushDB(ctx)
	db := New(rdb)
	var drop atomic.Int32
	u.Host = dropProxy(t, u.Host, &drop)
	frdb, err := Open(ctx, u.String())
	if err != nil {
		t.Fatal(err)
	}
	defer frdb.Close()
	flaky := New(frdb)
	p := jobs.FairPolicy{Running: 2, Held: 5, Hold: time.Hour, Stale: time.Hour}
	// Load the script first, so the cut reply is the one of the script.
	if _, err := flaky.Admit(ctx, "warm", jobs.QueueDefault, "w1", p); err != nil {
		t.Fatal(err)
	}
	admit := func(db *DB, queue, id string, want jobs.Place) {
		t.Helper()
		if place, err := db.Admit(ctx, "acme", queue, id, p); err != nil || place != want {
			t.Fatalf("%s on %s: %v %v, want %v", id, queue, place, err, want)
		}
	}
	done := func(queue, id string, want ...jobs.QueuedTask) {
		t.Helper()
		next, err := db.Done(ctx, queue, id, p)
		if err != nil || len(next) != len(want) || (len(want) == 1 && next[0] != want[0]) {
			t.Fatalf("%s ended: %v %v, want %v let in", id, next, err, want)
		}
	}
	admit(db, jobs.QueueDefault, "t1", jobs.Admitted)
	admit(db, jobs.QueueInteractive, "t2", jobs.Admitted) // the second place, in another queue
	drop.Store(1)
	admit(flaky, jobs.QueueDefault, "t3", jobs.Held)
	if drop.Load() != 0 {
		t.Fatal("no reply was cut: the test proves nothing")
	}
	admit(db, jobs.QueueInteractive, "t4", jobs.Held)
	done(jobs.QueueDefault, "t1", jobs.QueuedTask{Queue: jobs.QueueInteractive, ID: "t4"}) // the interactive one first
	done(jobs.QueueInteractive, "t2", jobs.QueuedTask{Queue: jobs.QueueDefault, ID: "t3"})
	done(jobs.QueueInteractive, "t4") // t3 was held once: nothing is left
}
