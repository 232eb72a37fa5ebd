package worker

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"strings"
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

// newWorker returns a worker on a real disk store and the real Redis of
// KILN_TEST_REDIS_URL (database 3), or the embedded miniredis.
func newWorker(t *testing.T) (*Worker, *redis.DB, kiln.BlobStore) {
	t.Helper()
	url := os.Getenv("KILN_TEST_REDIS_URL")
	if url != "" {
		url = strings.TrimRight(url, "/") + "/3"
	} else {
		url = "redis://" + miniredis.RunT(t).Addr()
	}
	rdb, err := redis.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rdb.Close() })
	rdb.FlushDB(context.Background())
	blobs, err := disk.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	db := redis.New(rdb)
	return New(blobs, db, slog.New(slog.NewTextHandler(io.Discard, nil)), prometheus.NewRegistry()), db, blobs
}

// uploaded stores an object in state processing with data as its upload.
func uploaded(t *testing.T, db *redis.DB, blobs kiln.BlobStore, ext string, data []byte) *kiln.Object {
	t.Helper()
	ctx := context.Background()
	o := &kiln.Object{ID: kiln.NewID("obj"), Account: "acme", Name: "x", Type: "mesh", Extension: ext,
		State: kiln.StateProcessing, Uploaded: true, CreatedAt: time.Now()}
	if err := db.CreateObject(ctx, o); err != nil {
		t.Fatal(err)
	}
	if _, err := blobs.Put(ctx, o.SourceKey(), bytes.NewReader(data), int64(len(data)), ""); err != nil {
		t.Fatal(err)
	}
	return o
}

func task(t *testing.T, id string) *asynq.Task {
	t.Helper()
	tk, err := jobs.ObjectProcess{ObjectID: id}.Task()
	if err != nil {
		t.Fatal(err)
	}
	return tk
}

func readAll(t *testing.T, blobs kiln.BlobStore, key string) []byte {
	t.Helper()
	b, err := blobs.Get(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	data, _ := io.ReadAll(b)
	return data
}

// TestProcessObjectIsIdempotent runs the job twice, and once with a
// context that ends before it can write: one complete result in the end.
func TestProcessObjectIsIdempotent(t *testing.T) {
	ctx := context.Background()
	w, db, blobs := newWorker(t)
	o := uploaded(t, db, blobs, "glb", fixture.CubeGLB())

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	err := w.ProcessObject(cancelled, task(t, o.ID))
	if err == nil || jobs.IsPermanent(err) {
		t.Fatalf("cancelled run: %v, want a retryable error", err)
	}
	if _, err := blobs.Stat(ctx, o.GLBKey(0)); kiln.KindOf(err) != kiln.KindNotFound {
		t.Fatalf("a cancelled run left a GLB: %v", err)
	}
	if got, _ := db.Object(ctx, o.ID); got.State != kiln.StateProcessing {
		t.Fatalf("a cancelled run changed the state to %s", got.State)
	}

	for i := range 2 {
		if err := w.ProcessObject(ctx, task(t, o.ID)); err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
	}
	got, _ := db.Object(ctx, o.ID)
	if got.State != kiln.StateReady || got.Stats == nil || got.Stats.Triangles != 12 {
		t.Fatalf("after two runs: %+v", got)
	}
	// One GLB and one thumbnail, however often the job ran.
	list, err := blobs.List(ctx, "objects/"+o.ID+"/")
	if err != nil || len(list) != 2 || list[0].Key != o.GLBKey(0) || list[1].Key != o.PreviewKey() {
		t.Fatalf("blobs under the object: %v %v", list, err)
	}
	if glb := readAll(t, blobs, o.GLBKey(0)); !bytes.HasPrefix(glb, []byte("glTF")) {
		t.Fatal("stored GLB has no glTF header")
	}
}

func TestProcessObjectFailures(t *testing.T) {
	ctx := context.Background()
	w, db, blobs := newWorker(t)
	for _, tc := range []struct {
		name, ext string
		data      []byte
		wantError string
	}{
		{"not a model", "glb", []byte("hello"), "not a valid GLB"},
		{"json garbage", "gltf", []byte(`{"asset":`), "not a valid GLB"},
		{"unsupported extension", "stl", []byte("solid x"), `extension "stl"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := uploaded(t, db, blobs, tc.ext, tc.data)
			err := w.ProcessObject(ctx, task(t, o.ID))
			if !jobs.IsPermanent(err) {
				t.Fatalf("error %v is not permanent", err)
			}
			got, _ := db.Object(ctx, o.ID)
			if got.State != kiln.StateFailed || !strings.Contains(got.Error, tc.wantError) {
				t.Fatalf("state %s error %q, want failed with %q", got.State, got.Error, tc.wantError)
			}
			if _, err := blobs.Stat(ctx, o.GLBKey(0)); kiln.KindOf(err) != kiln.KindNotFound {
				t.Fatalf("a failed run left a GLB: %v", err)
			}
		})
	}
	for _, tc := range []struct {
		name string
		task *asynq.Task
	}{
		{"missing object", task(t, "obj_missing")},
		{"bad payload", asynq.NewTask(jobs.TypeObjectProcess, []byte("{"))},
		{"bad id", asynq.NewTask(jobs.TypeObjectProcess, []byte(`{"objectId":"../x"}`))},
	} {
		// Through the mux, as the server runs it: jobs.Outcome decides.
		if err := w.Mux().ProcessTask(ctx, tc.task); !jobs.IsPermanent(err) {
			t.Errorf("%s: %v, want a permanent error", tc.name, err)
		}
	}
}

// TestVariantsOfOneModelWaitTheirTurn holds the model's lock as another
// variant build would: the job answers ErrBusy (retried shortly, not
// counted as a failure) and builds once the lock is free.
func TestVariantsOfOneModelWaitTheirTurn(t *testing.T) {
	ctx := context.Background()
	w, db, blobs := newWorker(t)
	o := uploaded(t, db, blobs, "glb", fixture.CubeGLB())
	if err := w.ProcessObject(ctx, task(t, o.ID)); err != nil {
		t.Fatal(err)
	}
	v := kiln.Variant{LOD: 1, TextureFormat: "png", Merge: true}
	payload, _ := json.Marshal(jobs.ModelVariant{ObjectID: o.ID, Variant: v})
	vt := asynq.NewTask(jobs.TypeModelVariant, payload)

	unlock, ok, err := db.Lock(ctx, "model:"+o.ID, time.Minute)
	if err != nil || !ok {
		t.Fatal(err)
	}
	if err := w.BuildVariant(ctx, vt); !errors.Is(err, jobs.ErrBusy) {
		t.Fatalf("while the model is locked: %v, want ErrBusy", err)
	}
	unlock()
	if err := w.BuildVariant(ctx, vt); err != nil {
		t.Fatal(err)
	}
	glb := readAll(t, blobs, o.VariantKey(v.Key()))
	if !bytes.HasPrefix(glb, []byte("glTF")) {
		t.Fatal("no variant stored")
	}
	for _, bad := range []jobs.ModelVariant{
		{ObjectID: o.ID, Variant: kiln.Variant{LOD: 9}},
		{ObjectID: o.ID, Variant: kiln.Variant{TextureFormat: "gif"}},
		{ObjectID: o.ID, Variant: kiln.Variant{Animations: []string{"idle"}}},
		{ObjectID: "../x", Variant: v},
	} {
		payload, _ := json.Marshal(bad)
		if err := w.BuildVariant(ctx, asynq.NewTask(jobs.TypeModelVariant, payload)); !jobs.IsPermanent(err) {
			t.Fatalf("bad payload %+v: %v, want a permanent error", bad, err)
		}
	}
}
