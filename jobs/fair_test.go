package jobs_test

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/hibiken/asynq"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/jobs"
	"github.com/kilnhq/kiln/storage/redis"
)

// fairClient is a jobs.Client with fair queuing on the real Redis of
// KILN_TEST_REDIS_URL (database 9, flushed), or on a miniredis.
func fairClient(t *testing.T, p jobs.FairPolicy) (*jobs.Client, *asynq.Inspector) {
	t.Helper()
	url := "redis://" + miniredis.RunT(t).Addr()
	if u := os.Getenv("KILN_TEST_REDIS_URL"); u != "" {
		url = strings.TrimRight(u, "/") + "/9"
	}
	rdb, err := redis.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rdb.Close() })
	if err := rdb.FlushDB(context.Background()).Err(); err != nil {
		t.Fatal(err)
	}
	opt, err := jobs.RedisOpt(url)
	if err != nil {
		t.Fatal(err)
	}
	c := jobs.NewClient(opt)
	t.Cleanup(func() { c.Close() })
	c.Fair, c.Policy = redis.New(rdb), p
	insp := asynq.NewInspector(opt)
	t.Cleanup(func() { insp.Close() })
	return c, insp
}

// queued lists the object ids of the pending and of the scheduled (held)
// tasks of the default queue.
func queued(t *testing.T, insp *asynq.Inspector) (pending, held []string) {
	t.Helper()
	ids := func(ts []*asynq.TaskInfo, err error) []string {
		if err != nil && !strings.Contains(err.Error(), "not found") {
			t.Fatal(err)
		}
		var out []string
		for _, ti := range ts {
			out = append(out, strings.TrimPrefix(ti.ID, jobs.TypeObjectProcess+":"))
		}
		return out
	}
	return ids(insp.ListPendingTasks(jobs.QueueDefault)), ids(insp.ListScheduledTasks(jobs.QueueDefault))
}

// TestFairQueue floods the default queue from one account and checks
// what the queue holds: the account's share in it, the rest held back in
// order, the overflow refused with 429's error, a second account let in
// at once, and each ended task letting the next held one in.
func TestFairQueue(t *testing.T) {
	ctx := context.Background()
	p := jobs.FairPolicy{Running: 2, Held: 3, Hold: time.Hour, Stale: time.Hour}
	c, insp := fairClient(t, p)
	enqueue := func(account, id string) error {
		return c.Enqueue(ctx, jobs.For(account, jobs.ObjectProcess{ObjectID: id}))
	}
	for _, id := range []string{"f1", "f2", "f3", "f4", "f5"} {
		if err := enqueue("flood", id); err != nil {
			t.Fatalf("%s: %v", id, err)
		}
	}
	err := enqueue("flood", "f6")
	if code, _ := kiln.CodeOf(err); code != "too_many_queued_jobs" || kiln.KindOf(err) != kiln.KindRateLimited {
		t.Fatalf("the 6th job of a full backlog: %v, want too_many_queued_jobs", err)
	}
	// The same job again is the same job, not one more.
	if err := enqueue("flood", "f1"); err != nil {
		t.Fatalf("f1 again: %v", err)
	}
	if err := enqueue("quiet", "q1"); err != nil {
		t.Fatal(err)
	}
	// An unowned job goes straight in.
	if err := c.Enqueue(ctx, jobs.ObjectProcess{ObjectID: "u1"}); err != nil {
		t.Fatal(err)
	}
	pending, held := queued(t, insp)
	if want := "f1 f2 q1 u1"; strings.Join(sorted(pending), " ") != want {
		t.Fatalf("pending %v, want %s", pending, want)
	}
	if want := "f3 f4 f5"; strings.Join(sorted(held), " ") != want {
		t.Fatalf("held %v, want %s", held, want)
	}
	for _, step := range []struct {
		ended       string
		wantPending string
	}{
		{"f1", "f2 f3 q1 u1"},
		{"q1", "f2 f3 u1"}, // the quiet account's end frees none of the flood's places
		{"f2", "f3 f4 u1"},
		{"u1", "f3 f4"},
		{"f3", "f4 f5"},
	} {
		// A worker would have taken the task out of the queue.
		if err := insp.DeleteTask(jobs.QueueDefault, jobs.TypeObjectProcess+":"+step.ended); err != nil {
			t.Fatal(err)
		}
		if err := c.Ended(ctx, jobs.QueueDefault, jobs.TypeObjectProcess+":"+step.ended); err != nil {
			t.Fatal(err)
		}
		if pending, _ := queued(t, insp); strings.Join(sorted(pending), " ") != step.wantPending {
			t.Fatalf("after %s ended: pending %v, want %s", step.ended, pending, step.wantPending)
		}
	}
	// A place freed lets the account queue again.
	if err := enqueue("flood", "f6"); err != nil {
		t.Fatalf("f6 after the backlog drained: %v", err)
	}
}

func sorted(s []string) []string { return slices.Sorted(slices.Values(s)) }
