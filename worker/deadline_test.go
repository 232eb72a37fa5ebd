package worker

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hibiken/asynq"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/jobs"
)

// gridOBJ is a side×side grid of quads: 2·side² triangles.
func gridOBJ(side int) string {
	var b strings.Builder
	for y := 0; y <= side; y++ {
		for x := 0; x <= side; x++ {
			fmt.Fprintf(&b, "v %d %d %d\n", x, y, (x*y)%7)
		}
	}
	for y := range side {
		for x := range side {
			i := y*(side+1) + x + 1
			fmt.Fprintf(&b, "f %d %d %d %d\n", i, i+1, i+side+2, i+side+1)
		}
	}
	return b.String()
}

// TestDeadlineFailsOnce runs the object job on a real asynq server, as
// an upload enqueues it (5 retries allowed) but with a 4-second timeout (2 s of work and a grace),
// on a model whose reading and levels take longer: the object ends
// failed with a reason a client reads, after one attempt (the task is
// archived, not retried), and jobs.Failure answers the same reason.
func TestDeadlineFailsOnce(t *testing.T) {
	ctx := context.Background()
	w, db, blobs := newWorker(t)
	o := uploaded(t, db, blobs, "obj", zipped(t, "grid.obj", gridOBJ(700)))
	db.UpdateObject(ctx, o.ID, func(o *kiln.Object) error { o.Optimize = true; return nil })

	opt, insp := asynqOn(t, 6, jobs.QueueDefault)
	job := jobs.ObjectProcess{ObjectID: o.ID}
	tk, err := job.Task()
	if err != nil {
		t.Fatal(err)
	}
	client := asynq.NewClient(opt)
	defer client.Close()
	if _, err := client.Enqueue(tk, asynq.Timeout(4*time.Second)); err != nil {
		t.Fatal(err)
	}
	serve(t, opt, w)

	start := time.Now()
	var got *kiln.Object
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if got, err = db.Object(ctx, o.ID); err != nil {
			t.Fatal(err)
		}
		if got.State != kiln.StateProcessing {
			break
		}
	}
	t.Logf("ended %s after %v", got.State, time.Since(start))
	const reason = "processing took longer than the 2 seconds an upload may take; reduce or split the model"
	if got.State != kiln.StateFailed || got.Error != reason {
		t.Fatalf("object %s %q, want failed with %q", got.State, got.Error, reason)
	}
	info := archived(t, insp, jobs.QueueDefault, job.TaskID())
	if info.State != asynq.TaskStateArchived || info.Retried != 0 || info.MaxRetry != 5 {
		t.Fatalf("task %s after %d retries of %d (last error %q), want archived after its first attempt", info.State, info.Retried, info.MaxRetry, info.LastErr)
	}
	jc := jobs.NewClient(opt)
	defer jc.Close()
	if failure, err := jc.Failure(ctx, jobs.QueueDefault, job.TaskID()); err != nil || failure != reason {
		t.Fatalf("jobs.Failure: %q %v, want %q", failure, err, reason)
	}
	if _, err := blobs.Stat(ctx, got.GLBKey(0)); kiln.KindOf(err) != kiln.KindNotFound {
		t.Fatalf("an object out of time has a GLB: %v", err)
	}
}
