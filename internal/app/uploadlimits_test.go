package app

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"os"
	"testing"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/internal/config"
	"github.com/kilnhq/kiln/internal/fixture"
	"github.com/kilnhq/kiln/internal/testenv"
)

// TestUploadLimitsOnEveryStore runs the upload limits on local disk and,
// when KILN_TEST_S3_ENDPOINT names one, on a real MinIO: a file over its
// declared file_size fails the object with 413 at finish-upload, and a PUT
// to the upload URL after finish cannot change the processed source.
func TestUploadLimitsOnEveryStore(t *testing.T) {
	stores := []struct {
		name string
		s3   bool
	}{{"disk", false}, {"minio", true}}
	for _, st := range stores {
		t.Run(st.name, func(t *testing.T) {
			cfg := testenv.Config(t, 1)
			if st.s3 && cfg.S3.Endpoint == "" {
				t.Skip("KILN_TEST_S3_ENDPOINT is unset; CI sets it to a real MinIO")
			}
			if !st.s3 {
				cfg.S3 = config.S3{Bucket: cfg.S3.Bucket}
			}
			r := startWith(t, cfg)
			key := newKey(t, r, "acme", kiln.ScopeProductRead, kiln.ScopeProductWrite)
			cube := fixture.CubeGLB()
			t.Run("over file_size", func(t *testing.T) { testOverSize(t, r, key, cube) })
			t.Run("PUT after finish", func(t *testing.T) { testPutAfterFinish(t, r, key, cube) })
		})
	}
}

func startWith(t *testing.T, cfg *config.Config) *Running {
	t.Helper()
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	r, err := Start(context.Background(), cfg, log, Roles{API: true, Worker: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Stop)
	return r
}

// testOverSize declares fewer bytes than it sends. The store refuses the
// PUT where it can (a local URL checks the length, S3 checks the signed
// Content-Length); where a client gets a file in anyway (here through a
// URL for an undeclared size, as S3 issues when file_size is 0), finish
// measures it against the cap. Either way nothing over the limit is
// processed.
func testOverSize(t *testing.T, r *Running, key string, cube []byte) {
	p := prepare(t, r, key, map[string]string{
		"name": "Cube", "type": "raw_model", "extension": "glb", "file_size": "100", "file_count": "1",
	})
	if res := upload(t, p, cube); res.Status == http.StatusOK {
		t.Fatalf("PUT of %d bytes under file_size=100: %d, want a refusal", len(cube), res.Status)
	}
	res := finish(t, r, key, p.ObjectID, map[string]string{"success": "true"})
	if res.Status != http.StatusConflict || res.errorCode(t) != "upload_missing" {
		t.Fatalf("finish after a refused PUT: %d %s, want 409 upload_missing", res.Status, res.Body)
	}

	// The blob a store could not stop: over file_size at the upload key.
	p = prepare(t, r, key, map[string]string{
		"name": "Cube", "type": "raw_model", "extension": "glb", "file_size": "100", "file_count": "1",
	})
	o := kiln.Object{ID: p.ObjectID, Extension: "glb"}
	if _, err := r.App.Blobs.Put(t.Context(), o.UploadKey(), bytes.NewReader(cube), int64(len(cube)), ""); err != nil {
		t.Fatal(err)
	}
	res = finish(t, r, key, p.ObjectID, map[string]string{"success": "true"})
	if res.Status != http.StatusRequestEntityTooLarge || res.errorCode(t) != "file_too_large" {
		t.Fatalf("finish with %d bytes under file_size=100: %d %s, want 413 file_too_large", len(cube), res.Status, res.Body)
	}
	if _, got := getObject(t, r, key, p.ObjectID); got.State != "failed" || got.Error == "" {
		t.Fatalf("object after an over-size finish: state %q, error %q; want failed with a reason", got.State, got.Error)
	}
	if _, err := r.App.Blobs.Stat(t.Context(), o.SourceKey()); kiln.KindOf(err) != kiln.KindNotFound {
		t.Errorf("source of the failed object: %v, want none", err)
	}
}

// testPutAfterFinish uploads, finishes, waits for ready, then PUTs other
// bytes to the same URL: the object's source and GLB stay as processed.
func testPutAfterFinish(t *testing.T, r *Running, key string, cube []byte) {
	p := prepare(t, r, key, map[string]string{
		"name": "Cube", "type": "raw_model", "extension": "glb", "file_count": "1",
	})
	if res := upload(t, p, cube); res.Status != http.StatusOK {
		t.Fatalf("PUT: %d %s", res.Status, res.Body)
	}
	if res := finish(t, r, key, p.ObjectID, map[string]string{"success": "true"}); res.Status != http.StatusOK {
		t.Fatalf("finish-upload: %d %s", res.Status, res.Body)
	}
	o := waitState(t, r, key, p.ObjectID)
	if o.State != "ready" {
		t.Fatalf("object ended %s: %s", o.State, o.Error)
	}
	before := do(t, "GET", o.Files["glb"], key, nil, nil)
	other := bytes.Repeat([]byte("not a model "), 100)
	again := upload(t, p, other)
	t.Logf("second PUT to the upload URL: %d", again.Status)
	if res := finish(t, r, key, p.ObjectID, map[string]string{"success": "true"}); res.Status != http.StatusOK {
		t.Fatalf("finishing again: %d %s", res.Status, res.Body)
	}
	obj := kiln.Object{ID: p.ObjectID, Extension: "glb"}
	b, err := r.App.Blobs.Get(t.Context(), obj.SourceKey())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var src bytes.Buffer
	if _, err := src.ReadFrom(b); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(src.Bytes(), cube) {
		t.Errorf("the processed object's source is %d bytes after a second PUT, want the %d uploaded first", src.Len(), len(cube))
	}
	after := do(t, "GET", o.Files["glb"], key, nil, nil)
	if after.Status != http.StatusOK || !bytes.Equal(after.Body, before.Body) {
		t.Errorf("GLB after a second PUT: %d, %d bytes; before it %d bytes", after.Status, len(after.Body), len(before.Body))
	}
}
