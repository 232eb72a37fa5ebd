package worker

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/hibiken/asynq"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/internal/fixture"
	"github.com/kilnhq/kiln/jobs"
	"github.com/kilnhq/kiln/storage/disk"
	"github.com/kilnhq/kiln/storage/redis"
)

// crashEnv names the Redis a child test process works for as a worker
// that dies with SIGKILL the moment it starts a task (as one out of
// memory does).
const crashEnv = "KILN_TEST_CRASHING_WORKER"

func TestMain(m *testing.M) {
	if url := os.Getenv(crashEnv); url != "" {
		crashingWorker(url)
		return
	}
	os.Exit(m.Run())
}

// crashingWorker runs Kiln's real task mux with one middleware in front
// that kills the process, so every task it takes is left active with no
// worker, exactly as after an OOM kill.
func crashingWorker(url string) {
	opt, err := jobs.RedisOpt(url)
	if err != nil {
		panic(err)
	}
	blobs, err := disk.New(os.TempDir())
	if err != nil {
		panic(err)
	}
	rdb, err := redis.Open(context.Background(), url)
	if err != nil {
		panic(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	w := New(blobs, redis.New(rdb), log, prometheus.NewRegistry())
	mux := w.Mux()
	mux.Use(func(asynq.Handler) asynq.Handler {
		return asynq.HandlerFunc(func(context.Context, *asynq.Task) error {
			_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {}
		})
	})
	srv := NewServer(opt, Config{Concurrency: 1, ShutdownTimeout: time.Second}, log)
	if err := srv.Run(mux); err != nil {
		panic(err)
	}
}

// TestSweepFailsWhatACrashingWorkerLeft kills a real worker process with
// SIGKILL on the only attempt of an object's processing and of a model
// variant, and checks what a client then sees: the object failed with a
// reason instead of processing for ever, and the variant's wait answers
// its failure. It waits for asynq's own recovery of a dead worker's task
// (about a minute), so -short skips it.
func TestSweepFailsWhatACrashingWorkerLeft(t *testing.T) {
	if testing.Short() {
		t.Skip("waits a minute for asynq to notice the dead worker")
	}
	ctx := context.Background()
	url := os.Getenv("KILN_TEST_REDIS_URL")
	if url != "" {
		url = strings.TrimRight(url, "/") + "/4"
	} else {
		url = "redis://" + miniredis.RunT(t).Addr()
	}
	rdb, err := redis.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rdb.Close() })
	rdb.FlushDB(ctx)
	blobs, err := disk.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	db := redis.New(rdb)
	var logs bytes.Buffer
	w := New(blobs, db, slog.New(slog.NewTextHandler(&logs, nil)), prometheus.NewRegistry())
	o := uploaded(t, db, blobs, "glb", fixture.CubeGLB())
	opt, err := jobs.RedisOpt(url)
	if err != nil {
		t.Fatal(err)
	}

	// One attempt each (MaxRetry 0), so the test waits for one recovery
	// instead of one per retry; the handler is never left a last attempt
	// either way.
	client := asynq.NewClient(opt)
	defer client.Close()
	variant := jobs.ModelVariant{ObjectID: o.ID, Variant: kiln.Variant{LOD: 1}}
	for _, job := range []jobs.Tasker{jobs.ObjectProcess{ObjectID: o.ID}, variant} {
		tk, err := job.Task()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := client.Enqueue(tk, asynq.MaxRetry(0)); err != nil {
			t.Fatal(err)
		}
	}

	// A fresh worker process per task: each dies on the task it takes.
	for i := range 2 {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), crashEnv+"="+url)
		done := make(chan error, 1)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
			if !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
				t.Fatalf("worker %d ended with %v, want killed by SIGKILL", i, err)
			}
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
			t.Fatalf("worker %d took no task in 30 s", i)
		}
	}
	if got, _ := db.Object(ctx, o.ID); got.State != kiln.StateProcessing {
		t.Fatalf("after the crashes the object is %s, want still processing", got.State)
	}

	// A healthy worker (the real server, whose recoverer archives the
	// dead tasks) with its sweeper.
	srv := NewServer(opt, Config{Concurrency: 1, ShutdownTimeout: time.Second}, w.Log)
	if err := srv.Start(w.Mux()); err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	insp := asynq.NewInspector(opt)
	defer insp.Close()
	sctx, stop := context.WithCancel(ctx)
	defer stop()
	go w.RunSweeper(sctx, insp, 500*time.Millisecond)

	deadline := time.Now().Add(150 * time.Second)
	var got *kiln.Object
	for time.Now().Before(deadline) {
		if got, err = db.Object(ctx, o.ID); err != nil {
			t.Fatal(err)
		}
		if got.State != kiln.StateProcessing {
			break
		}
		time.Sleep(time.Second)
	}
	if got.State != kiln.StateFailed {
		t.Fatalf("object is %s 150 s after its worker died, want failed", got.State)
	}
	if !strings.Contains(got.Error, "worker died on each of 1 attempts") || strings.Contains(got.Error, "lease") {
		t.Fatalf("object error %q: want the crash told in client words", got.Error)
	}
	if !strings.Contains(logs.String(), "task lease expired") {
		t.Error("the raw cause is not in the worker's log")
	}

	jc := jobs.NewClient(opt)
	defer jc.Close()
	reason, err := jc.Failure(ctx, jobs.QueueInteractive, variant.TaskID())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(reason, "worker building it died") || strings.Contains(reason, "lease") {
		t.Fatalf("variant failure %q: want the crash told in client words", reason)
	}

	// A second sweep finds nothing left to mark.
	if n, err := w.Sweep(ctx, insp); err != nil || n != 0 {
		t.Fatalf("second sweep marked %d (%v), want 0", n, err)
	}
}

// TestSweepExpiresAbandonedUploads leaves one upload unfinished past
// kiln.UploadExpiry and one fresh: the sweep fails the old one with a
// reason, deletes what was uploaded of it, and stops counting it against
// the account's pending uploads.
func TestSweepExpiresAbandonedUploads(t *testing.T) {
	ctx := context.Background()
	w, db, blobs := newWorker(t)
	mr := miniredis.RunT(t)
	opt, err := jobs.RedisOpt("redis://" + mr.Addr())
	if err != nil {
		t.Fatal(err)
	}
	insp := asynq.NewInspector(opt)
	defer insp.Close()
	newUpload := func(age time.Duration) *kiln.Object {
		o := &kiln.Object{ID: kiln.NewID("obj"), Account: "acme", Name: "x", Type: "mesh", Extension: "glb",
			State: kiln.StateUploading, CreatedAt: time.Now().Add(-age)}
		if err := db.CreateObject(ctx, o); err != nil {
			t.Fatal(err)
		}
		data := fixture.CubeGLB()
		if _, err := blobs.Put(ctx, o.UploadKey(), bytes.NewReader(data), int64(len(data)), ""); err != nil {
			t.Fatal(err)
		}
		return o
	}
	old, fresh := newUpload(kiln.UploadExpiry+time.Hour), newUpload(time.Minute)
	if n, err := db.PendingUploads(ctx, "acme", time.Now().Add(-kiln.UploadURLTTL)); err != nil || n != 1 {
		t.Fatalf("pending uploads before the sweep: %d %v, want 1 (the old one has expired)", n, err)
	}
	if n, err := w.Sweep(ctx, insp); err != nil || n != 1 {
		t.Fatalf("sweep marked %d (%v), want 1", n, err)
	}
	got, _ := db.Object(ctx, old.ID)
	if got.State != kiln.StateFailed || !strings.Contains(got.Error, "not finished within 24 hours") {
		t.Fatalf("expired upload: %s %q", got.State, got.Error)
	}
	if _, err := blobs.Stat(ctx, old.UploadKey()); kiln.KindOf(err) != kiln.KindNotFound {
		t.Fatalf("the expired upload's file is still stored: %v", err)
	}
	if got, _ := db.Object(ctx, fresh.ID); got.State != kiln.StateUploading {
		t.Fatalf("a fresh upload was expired: %s", got.State)
	}
	if _, err := blobs.Stat(ctx, fresh.UploadKey()); err != nil {
		t.Fatalf("the fresh upload's file: %v", err)
	}
	if n, err := w.Sweep(ctx, insp); err != nil || n != 0 {
		t.Fatalf("second sweep marked %d (%v), want 0", n, err)
	}
}

// TestSweepFailsLostProcessing leaves objects processing for three hours:
// one whose job is gone ends failed with a reason, one whose job still
// waits in its queue is left, and so is one that started a minute ago.
func TestSweepFailsLostProcessing(t *testing.T) {
	ctx := context.Background()
	w, db, _ := newWorker(t)
	mr := miniredis.RunT(t)
	opt, err := jobs.RedisOpt("redis://" + mr.Addr())
	if err != nil {
		t.Fatal(err)
	}
	insp := asynq.NewInspector(opt)
	defer insp.Close()
	jc := jobs.NewClient(opt)
	defer jc.Close()
	processing := func(age time.Duration) *kiln.Object {
		at := time.Now().Add(-age)
		o := &kiln.Object{ID: kiln.NewID("obj"), Account: "acme", Name: "x", Type: "mesh", Extension: "glb",
			State: kiln.StateProcessing, Uploaded: true, CreatedAt: at, UpdatedAt: at}
		if err := db.CreateObject(ctx, o); err != nil {
			t.Fatal(err)
		}
		return o
	}
	lost, queued, fresh := processing(3*time.Hour), processing(3*time.Hour), processing(time.Minute)
	if err := jc.Enqueue(ctx, jobs.ObjectProcess{ObjectID: queued.ID}); err != nil {
		t.Fatal(err)
	}
	if n, err := w.Sweep(ctx, insp); err != nil || n != 1 {
		t.Fatalf("sweep marked %d (%v), want 1", n, err)
	}
	got, _ := db.Object(ctx, lost.ID)
	if got.State != kiln.StateFailed || !strings.Contains(got.Error, "its job was lost") {
		t.Fatalf("lost object: %s %q", got.State, got.Error)
	}
	for _, o := range []*kiln.Object{queued, fresh} {
		if got, _ := db.Object(ctx, o.ID); got.State != kiln.StateProcessing {
			t.Fatalf("object %s was failed: %q", o.ID, got.Error)
		}
	}
}
