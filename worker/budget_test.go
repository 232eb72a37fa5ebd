package worker

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/internal/gltfcheck"
)

func zipped(t *testing.T, name, text string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	f, err := zw.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte(text))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestHostileUploadsWithinBudget runs the object job on the hostile
// uploads of issue 14, small versions: faces stacked on three vertices
// end ready with the one triangle they show, and a model whose estimate
// is over the job's memory budget ends failed with a reason, before it is
// read.
func TestHostileUploadsWithinBudget(t *testing.T) {
	ctx := context.Background()
	w, db, blobs := newWorker(t)
	w.JobMemory = 256 << 20

	stacked := uploaded(t, db, blobs, "obj", zipped(t, "s.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\n"+strings.Repeat("f 1 2 3\n", 100000)))
	db.UpdateObject(ctx, stacked.ID, func(o *kiln.Object) error { o.Optimize = true; return nil })
	start := time.Now()
	if err := w.ProcessObject(ctx, task(t, stacked.ID)); err != nil {
		t.Fatal(err)
	}
	got, _ := db.Object(ctx, stacked.ID)
	if got.State != kiln.StateReady || got.Stats.Triangles != 1 || len(got.LODs) != 3 || got.PreviewType != "image/png" {
		t.Fatalf("100,000 stacked faces end %s with %+v, lods %+v, preview %q", got.State, got.Stats, got.LODs, got.PreviewType)
	}
	t.Logf("100,000 stacked faces: ready in %v", time.Since(start))
	gltfcheck.RequireValid(t, readAll(t, blobs, got.GLBKey(0)))

	// 400,000 distinct triangles need more than 256 MiB by the estimate.
	var obj strings.Builder
	const side = 450
	for y := 0; y <= side; y++ {
		for x := 0; x <= side; x++ {
			fmt.Fprintf(&obj, "v %d %d 0\n", x, y)
		}
	}
	for y := 0; y < side; y++ {
		for x := 0; x < side; x++ {
			i := y*(side+1) + x + 1
			fmt.Fprintf(&obj, "f %d %d %d %d\n", i, i+1, i+side+2, i+side+1)
		}
	}
	big := uploaded(t, db, blobs, "obj", zipped(t, "grid.obj", obj.String()))
	err := w.ProcessObject(ctx, task(t, big.ID))
	got, _ = db.Object(ctx, big.ID)
	if err == nil || got.State != kiln.StateFailed || !strings.Contains(got.Error, "KILN_JOB_MEMORY") || !strings.Contains(got.Error, "405000 triangles") {
		t.Fatalf("over budget: %v; object %s %q", err, got.State, got.Error)
	}
	if _, err := blobs.Stat(ctx, got.GLBKey(0)); kiln.KindOf(err) != kiln.KindNotFound {
		t.Fatalf("an object over budget has a GLB: %v", err)
	}

	// The same model within a budget that fits it is processed.
	w.JobMemory = 1 << 30
	again := uploaded(t, db, blobs, "obj", zipped(t, "grid.obj", obj.String()))
	if err := w.ProcessObject(ctx, task(t, again.ID)); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.Object(ctx, again.ID); got.State != kiln.StateReady || got.Stats.Triangles != 2*side*side {
		t.Fatalf("within budget: %s %+v", got.State, got.Stats)
	}
}
