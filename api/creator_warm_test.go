package api

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/avatar"
	"github.com/kilnhq/kiln/internal/priority"
	"github.com/kilnhq/kiln/internal/testenv"
	"github.com/kilnhq/kiln/jobs"
	"github.com/kilnhq/kiln/storage/disk"
	"github.com/kilnhq/kiln/storage/embedded"
	miniostore "github.com/kilnhq/kiln/storage/minio"
)

// pageStartBody is the page's first request, as creator/static/start.js
// sends it for the default app: no configuration, the body's sliders and
// the nose's.
const pageStartBody = `{"configuration":{},"sliders":["body.height","body.build","body.age","body.muscle","body.weight","body.proportions","face.nose.*"]}`

func post(h http.Handler, path, body string) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	r := httptest.NewRequest("POST", path, strings.NewReader(body))
	r.Header.Set("Accept-Encoding", "gzip")
	h.ServeHTTP(w, r)
	return w
}

// TestCreatorWarmFillsCache warms a piece as a serving process's warm-up
// does, then asks for it as the page does: the answer comes from what
// the warm-up built, without a build of its own.
func TestCreatorWarmFillsCache(t *testing.T) {
	if testing.Short() {
		t.Skip("builds avatars")
	}
	s := New(Config{Registry: prometheus.NewRegistry()})
	h := s.Avatar()
	sliders, err := avatar.SliderSet(startSliders)
	if err != nil {
		t.Fatal(err)
	}
	masc := avatar.Default(avatar.Masculine).Outfit.Footwear.Style
	for _, tc := range []struct {
		name, path, body string
		cache            *slotCache
		warm             func(ctx context.Context) error
	}{
		{"start avatar", "/creator/builds", pageStartBody, &s.creatorBuilds.whole,
			func(ctx context.Context) error { return s.warmBuild(ctx, []byte(`{}`), sliders) }},
		{"a hat on the start avatar", "/creator/parts", `{"configuration":{"headwear":{"style":"beanie"}},"part":"headwear","standOn":"sneakers"}`, &s.creatorBuilds.parts,
			func(ctx context.Context) error { return s.warmPart(ctx, `{}`, "headwear", "beanie", masc) }},
		{"a top on the start avatar", "/creator/parts", `{"configuration":{"outfit":{"top":{"style":"hoodie"}}},"part":"top","standOn":"sneakers"}`, &s.creatorBuilds.parts,
			func(ctx context.Context) error { return s.warmPart(ctx, `{}`, "top", "hoodie", masc) }},
		{"hair on the feminine start avatar", "/creator/parts", `{"configuration":{"body":{"type":"feminine"},"hair":{"style":"bun"}},"part":"hair","standOn":"sneakers"}`, &s.creatorBuilds.parts,
			func(ctx context.Context) error {
				return s.warmPart(ctx, creatorStarts[1], "hair", "bun", avatar.Default(avatar.Feminine).Outfit.Footwear.Style)
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.warm(t.Context()); err != nil {
				t.Fatal(err)
			}
			warmed := tc.cache.built.Load()
			w := post(h, tc.path, tc.body)
			if w.Code != http.StatusOK || w.Header().Get("Content-Type") != "model/gltf-binary" || w.Body.Len() < 1000 {
				t.Fatalf("%d %s, %d bytes", w.Code, w.Header().Get("Content-Type"), w.Body.Len())
			}
			if n := tc.cache.built.Load() - warmed; n != 0 {
				t.Errorf("the page's request built %d times after the warm-up; want it answered from the warm-up's build", n)
			}
		})
	}
}

// TestCreatorSharesBuilds sends identical requests together and counts
// the builds: one, answered to all. Both slots are held until every
// request is waiting, so that without sharing each would build.
func TestCreatorSharesBuilds(t *testing.T) {
	if testing.Short() {
		t.Skip("builds avatar parts")
	}
	part := `{"configuration":{"hair":{"style":"curly"}},"part":"hair"}`
	for _, tc := range []struct {
		name string
		// warmUp first starts the warm-up's build of the same part,
		// kept waiting for its background turn.
		warmUp   bool
		requests int
	}{
		{"two page requests", false, 2},
		{"three page requests", false, 3},
		{"a page request during the warm-up's", true, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New(Config{Registry: prometheus.NewRegistry()})
			h := s.Avatar()
			g := priority.New()
			c := &s.creatorBuilds.parts
			c.gate = g
			c.init()
			var wg sync.WaitGroup
			var warmErr error
			if tc.warmUp {
				// The background's one slot is taken: the warm-up's
				// build waits for it, unless a person's request hurries
				// it.
				g.BackgroundSlots = 1
				leave, err := g.Enter(t.Context(), priority.Background)
				if err != nil {
					t.Fatal(err)
				}
				defer leave()
				ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
				defer cancel()
				wg.Go(func() {
					warmErr = s.warmPart(ctx, `{}`, "hair", "curly", "")
				})
				waitFor(t, func() bool { c.mu.Lock(); defer c.mu.Unlock(); return len(c.flight) == 1 })
			} else {
				c.slots <- struct{}{}
				c.slots <- struct{}{}
			}
			answers := make([]*httptest.ResponseRecorder, tc.requests)
			for i := range answers {
				wg.Go(func() { answers[i] = post(h, "/creator/parts", part) })
			}
			if !tc.warmUp {
				// One request builds (entered), the others wait on it.
				waitFor(t, func() bool { return g.Running(priority.Part) == tc.requests })
				<-c.slots
				<-c.slots
			}
			wg.Wait()
			if warmErr != nil {
				t.Fatalf("warm-up: %v", warmErr)
			}
			for i, w := range answers {
				if w.Code != http.StatusOK || !bytes.Equal(w.Body.Bytes(), answers[0].Body.Bytes()) {
					t.Fatalf("request %d: %d, %d bytes (the first had %d)", i, w.Code, w.Body.Len(), answers[0].Body.Len())
				}
			}
			if n := c.built.Load(); n != 1 {
				t.Errorf("%d builds for %d identical requests, want 1", n, tc.requests)
			}
		})
	}
}

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !ok(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
	}
}

// TestCreatorWarmThumbnails queues the catalogue's pictures on the low
// queue of a real Redis, skipping those storage (a real MinIO, or disk)
// already has from an earlier run.
func TestCreatorWarmThumbnails(t *testing.T) {
	ctx := t.Context()
	url := os.Getenv("KILN_TEST_REDIS_URL")
	if url == "" {
		srv, err := embedded.Start(ctx, t.TempDir(), slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { srv.Close() })
		url = srv.URL()
	} else {
		url = strings.TrimRight(url, "/") + "/14"
	}
	opt, err := jobs.RedisOpt(url)
	if err != nil {
		t.Fatal(err)
	}
	inspector := asynq.NewInspector(opt)
	defer inspector.Close()
	for _, q := range jobs.QueueOrder {
		_, _ = inspector.DeleteAllPendingTasks(q)
	}
	client := jobs.NewClient(opt)
	defer client.Close()
	var blobs kiln.BlobStore
	if ep := os.Getenv("KILN_TEST_S3_ENDPOINT"); ep != "" {
		blobs, err = miniostore.New(ctx, miniostore.Config{Endpoint: ep, AccessKey: os.Getenv("KILN_TEST_S3_ACCESS_KEY"),
			SecretKey: os.Getenv("KILN_TEST_S3_SECRET_KEY"), Bucket: testenv.Bucket(t)})
	} else {
		blobs, err = disk.New(filepath.Join(t.TempDir(), "blobs"))
	}
	if err != nil {
		t.Fatal(err)
	}
	// One picture is in storage from an earlier run.
	kept, err := thumbnailJob(avatar.Feminine, "hair", "bun")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := blobs.Put(ctx, kept.BlobKey, strings.NewReader("png"), 3, "image/png"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { blobs.Delete(context.Background(), kept.BlobKey) })

	s := New(Config{Registry: prometheus.NewRegistry(), Jobs: client, Blobs: blobs})
	all := len(templates)
	for _, cat := range avatar.StyleCategories {
		all += 2 * len(avatar.Styles(cat))
	}
	if n := s.warmThumbnails(ctx); n != all-1 {
		t.Errorf("queued %d pictures, want %d (all but the stored one)", n, all-1)
	}
	tasks, err := inspector.ListPendingTasks(jobs.QueueLow, asynq.PageSize(1000))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, task := range tasks {
		ids = append(ids, task.ID)
	}
	want, _ := thumbnailJob(avatar.Masculine, "headwear", "beanie")
	tpl, _ := configPicture("templates/"+templates[0].ID, templates[0].Config, "full")
	for _, tc := range []struct {
		name   string
		id     string
		queued bool
	}{
		{"a hat on the masculine body", want.TaskID(), true},
		{"a template", tpl.TaskID(), true},
		{"the stored picture", kept.TaskID(), false},
	} {
		if slices.Contains(ids, tc.id) != tc.queued {
			t.Errorf("%s (%s): queued on the low queue %v, want %v", tc.name, tc.id, !tc.queued, tc.queued)
		}
	}
	if n, _ := inspector.ListPendingTasks(jobs.QueueInteractive); len(n) != 0 {
		t.Errorf("%d warm-up pictures on the interactive queue", len(n))
	}
}
