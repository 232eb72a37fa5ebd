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
func fairClient(t *testing.T, p jobs.FairPolicy) (*jobs.Client, *asynq.Inspector, asynq.RedisConnOpt) {
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
	return c, insp, opt
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
	c, insp, _ := fairClient(t, p)
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

// TestFairShareAcrossQueues: an account's share counts its jobs in every
// queue together, and an ended job lets in the account's held job of the
// queue of highest priority first (an avatar someone waits for before an
// upload).
func TestFairShareAcrossQueues(t *testing.T) {
	ctx := context.Background()
	c, insp, _ := fairClient(t, jobs.FairPolicy{Running: 2, Held: 10, Hold: time.Hour, Stale: time.Hour})
	variant := func(id string) jobs.Tasker {
		return jobs.For("flood", jobs.ModelVariant{AvatarID: id, Variant: kiln.Variant{TextureFormat: "webp"}})
	}
	for _, job := range []jobs.Tasker{
		jobs.For("flood", jobs.ObjectProcess{ObjectID: "o1"}),
		jobs.For("flood", jobs.ObjectProcess{ObjectID: "o2"}),
		variant("av1"), variant("av2"),
	} {
		if err := c.Enqueue(ctx, job); err != nil {
			t.Fatal(err)
		}
	}
	count := func(q string) (pending, held int) {
		info, err := insp.GetQueueInfo(q)
		if err != nil {
			t.Fatal(err)
		}
		return info.Pending, info.Scheduled
	}
	if p, h := count(jobs.QueueDefault); p != 2 || h != 0 {
		t.Fatalf("default queue: %d pending, %d held; want the first 2 jobs pending", p, h)
	}
	if p, h := count(jobs.QueueInteractive); p != 0 || h != 2 {
		t.Fatalf("interactive queue: %d pending, %d held; want both held behind the 2 uploads", p, h)
	}
	if err := c.Ended(ctx, jobs.QueueDefault, jobs.TypeObjectProcess+":o1"); err != nil {
		t.Fatal(err)
	}
	if p, h := count(jobs.QueueInteractive); p != 1 || h != 1 {
		t.Fatalf("interactive queue after an upload ended: %d pending, %d held; want the first avatar in", p, h)
	}
}

// TestFairShareLeavesASlot: with workers of 2 slots in all running, one
// account holds 1 of them however large KILN_FAIR_RUNNING is, so another
// account's first job finds a free slot.
func TestFairShareLeavesASlot(t *testing.T) {
	ctx := context.Background()
	c, insp, opt := fairClient(t, jobs.FairPolicy{Running: 4, Held: 10, Hold: time.Hour, Stale: time.Hour})
	// A worker of 2 slots on a queue nothing is put in: it only counts.
	srv := asynq.NewServer(opt, asynq.Config{Concurrency: 2, Queues: map[string]int{"nothing": 1}, LogLevel: asynq.FatalLevel})
	if err := srv.Start(asynq.HandlerFunc(func(context.Context, *asynq.Task) error { return nil })); err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if s, err := insp.Servers(); err == nil && len(s) == 1 && s[0].Status == "active" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the asynq server never showed as active")
		}
	}
	for _, id := range []string{"f1", "f2", "f3"} {
		if err := c.Enqueue(ctx, jobs.For("flood", jobs.ObjectProcess{ObjectID: id})); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Enqueue(ctx, jobs.For("quiet", jobs.ObjectProcess{ObjectID: "q1"})); err != nil {
		t.Fatal(err)
	}
	pending, held := queued(t, insp)
	if want := "f1 q1"; strings.Join(sorted(pending), " ") != want {
		t.Fatalf("pending %v (held %v), want %s: the flood holds one slot of two", pending, held, want)
	}
}
