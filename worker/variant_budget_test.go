package worker

import (
	"context"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/hibiken/asynq"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/internal/fixture"
	"github.com/kilnhq/kiln/jobs"
)

// TestVariantWithinBudget builds variants of a processed model under
// memory budgets (KILN_JOB_MEMORY): over budget, the job fails for good
// before reading the model (no retry: it is archived on its first
// attempt), stores nothing, and the reason a download reads
// (jobs.Failure) is the one an object over budget gets, without
// internals; within budget the same variant is built.
func TestVariantWithinBudget(t *testing.T) {
	ctx := context.Background()
	w, db, blobs := newWorker(t)
	o := uploaded(t, db, blobs, "glb", fixture.CubeGLB())
	if err := w.ProcessObject(ctx, task(t, o.ID)); err != nil {
		t.Fatal(err)
	}
	v := kiln.Variant{LOD: 1, TextureFormat: "png", Merge: true}
	payload, err := json.Marshal(jobs.ModelVariant{ObjectID: o.ID, Variant: v})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		budget int64
		// reason is what the failure says; "" means the variant is built.
		reason []string
	}{
		{"tiny budget", 1 << 20, []string{"KILN_JOB_MEMORY", "12 triangles", "more than the 1 MiB a job may use"}},
		{"budget that fits", 1 << 30, nil},
		{"no budget", 0, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w.JobMemory = tc.budget
			blobs.Delete(ctx, o.VariantKey(v.Key()))
			// Through the mux, as the server runs it: jobs.Outcome decides.
			err := w.Mux().ProcessTask(ctx, asynq.NewTask(jobs.TypeModelVariant, payload))
			_, stored := blobs.Stat(ctx, o.VariantKey(v.Key()))
			if tc.reason == nil {
				if err != nil || stored != nil {
					t.Fatalf("within budget: %v, variant stored: %v", err, stored)
				}
				return
			}
			if !jobs.IsPermanent(err) {
				t.Fatalf("over budget: %v, want a permanent error", err)
			}
			if stored == nil {
				t.Fatal("a variant over budget was stored")
			}
			if code, msg := kiln.CodeOf(err); code != "over_memory_budget" || !containsAll(msg, tc.reason) {
				t.Fatalf("over budget: %s %q, want over_memory_budget naming %q", code, msg, tc.reason)
			}
		})
	}
}

// TestVariantOverBudgetReason runs the variant job on a real asynq server
// with a tiny budget, as a download enqueues it (600 retries allowed):
// the task is archived after one attempt, and jobs.Failure, which the
// download answers as a 422 variant_failed, reads the budget's reason
// with neither the op nor asynq's words.
func TestVariantOverBudgetReason(t *testing.T) {
	ctx := context.Background()
	w, db, blobs := newWorker(t)
	o := uploaded(t, db, blobs, "glb", fixture.CubeGLB())
	if err := w.ProcessObject(ctx, task(t, o.ID)); err != nil {
		t.Fatal(err)
	}
	w.JobMemory = 1 << 20

	opt, insp := asynqOn(t, 5, jobs.QueueInteractive)
	jc := jobs.NewClient(opt)
	defer jc.Close()
	job := jobs.ModelVariant{ObjectID: o.ID, Variant: kiln.Variant{LOD: 2, TextureFormat: "webp"}}
	if err := jc.Enqueue(ctx, job); err != nil {
		t.Fatal(err)
	}
	serve(t, opt, w)

	var reason string
	var err error
	for deadline := time.Now().Add(30 * time.Second); reason == "" && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if reason, err = jc.Failure(ctx, jobs.QueueInteractive, job.TaskID()); err != nil {
			t.Fatal(err)
		}
	}
	if !containsAll(reason, []string{"processing this model needs about", "KILN_JOB_MEMORY", "reduce or split the model"}) ||
		strings.Contains(reason, "worker.") || strings.Contains(reason, "retry") {
		t.Fatalf("variant failure %q: want the budget's reason alone", reason)
	}
	info := archived(t, insp, jobs.QueueInteractive, job.TaskID())
	if info.State != asynq.TaskStateArchived || info.Retried != 0 || info.MaxRetry != 600 {
		t.Fatalf("task %s after %d retries of %d, want archived after its first attempt", info.State, info.Retried, info.MaxRetry)
	}
	if _, err := blobs.Stat(ctx, o.VariantKey(job.Variant.Key())); kiln.KindOf(err) != kiln.KindNotFound {
		t.Fatalf("a variant over budget was stored: %v", err)
	}
}

// asynqOn is asynq on the redis-server of KILN_TEST_REDIS_URL (database
// db) or on a miniredis, with queue emptied of what earlier runs left.
func asynqOn(t *testing.T, db int, queue string) (asynq.RedisConnOpt, *asynq.Inspector) {
	t.Helper()
	url := os.Getenv("KILN_TEST_REDIS_URL")
	if url != "" {
		url = strings.TrimRight(url, "/") + "/" + strconv.Itoa(db)
	} else {
		url = "redis://" + miniredis.RunT(t).Addr()
	}
	opt, err := jobs.RedisOpt(url)
	if err != nil {
		t.Fatal(err)
	}
	insp := asynq.NewInspector(opt)
	t.Cleanup(func() { insp.Close() })
	insp.DeleteAllArchivedTasks(queue)
	insp.DeleteAllPendingTasks(queue)
	return opt, insp
}

// serve runs w's handlers on a real asynq server of one slot until the
// test ends.
func serve(t *testing.T, opt asynq.RedisConnOpt, w *Worker) {
	t.Helper()
	srv := NewServer(opt, Config{Concurrency: 1, ShutdownTimeout: time.Second, Poll: 100 * time.Millisecond}, w.Log)
	if err := srv.Start(w.Mux()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
}

// archived waits up to 10 s for the task id of queue to be archived, and
// answers its state then.
func archived(t *testing.T, insp *asynq.Inspector, queue, id string) *asynq.TaskInfo {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		info, err := insp.GetTaskInfo(queue, id)
		if err != nil {
			t.Fatal(err)
		}
		if info.State == asynq.TaskStateArchived || time.Now().After(deadline) {
			return info
		}
	}
}

func containsAll(s string, parts []string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}
