package api

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/kilnhq/kiln/internal/priority"
	"github.com/kilnhq/kiln/internal/testenv"
	"github.com/kilnhq/kiln/storage/redis"
)

// TestCreatorBuildSupersede sends whole builds as pages do, through the
// real Redis rate limiter, and counts the builds the server started,
// dropped before they started, and stopped at a stage after: a person's
// newer build supersedes the older one that still waits (answered 503
// build_superseded with Retry-After) or runs (stopped after the
// generator, its bytes not kept), while another person's build and the
// same build asked twice are built as asked.
func TestCreatorBuildSupersede(t *testing.T) {
	if testing.Short() {
		t.Skip("builds avatars")
	}
	port, _ := testenv.RedisServer(t)
	rdb, err := redis.Open(t.Context(), fmt.Sprintf("redis://127.0.0.1:%d/0", port))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rdb.Close() })
	db := redis.New(rdb)
	curly := `{"configuration":{"hair":{"style":"curly"}},"sliders":[]}`
	bun := `{"configuration":{"hair":{"style":"bun"}},"sliders":[]}`
	type req struct{ session, body string }
	for _, tc := range []struct {
		name string
		// first is asked, then second once first has waited in the
		// queue (queued) or started building (running).
		first, second req
		running       bool
		// firstCode is the first request's status.
		firstCode                   int
		started, dropped, cancelled int64
	}{
		{"same session, first queued", req{"a", curly}, req{"a", bun}, false, http.StatusServiceUnavailable, 1, 1, 0},
		{"same session, first running", req{"a", curly}, req{"a", bun}, true, http.StatusServiceUnavailable, 2, 0, 1},
		{"two sessions", req{"a", curly}, req{"b", bun}, false, http.StatusOK, 2, 0, 0},
		{"same build twice", req{"a", curly}, req{"a", curly}, false, http.StatusOK, 1, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New(Config{Registry: prometheus.NewRegistry(), Limiter: db})
			h := s.Avatar()
			c := &s.creatorBuilds.whole
			c.gate = priority.New()
			c.init()
			// The builds' slots are taken (by another person's builds),
			// so that what is asked waits, unless running is wanted.
			hold := cap(c.buildSlots)
			if tc.running {
				hold--
			}
			for range hold {
				c.buildSlots <- struct{}{}
			}
			send := func(r req) *httptest.ResponseRecorder {
				w := httptest.NewRecorder()
				hr := httptest.NewRequest("POST", "/creator/builds", strings.NewReader(r.body))
				hr.Header.Set(creatorSessionHeader, r.session)
				hr.Header.Set("Accept-Encoding", "gzip")
				h.ServeHTTP(w, hr)
				return w
			}
			var wg sync.WaitGroup
			var first, second *httptest.ResponseRecorder
			wg.Go(func() { first = send(tc.first) })
			waitLong(t, func() bool {
				if tc.running {
					return c.started.Load() == 1
				}
				c.mu.Lock()
				defer c.mu.Unlock()
				return len(c.flight) == 1
			})
			wg.Go(func() { second = send(tc.second) })
			if tc.firstCode != http.StatusOK {
				waitLong(t, func() bool { return first != nil })
			}
			// The other person's builds end.
			for range hold {
				<-c.buildSlots
			}
			wg.Wait()
			if first.Code != tc.firstCode {
				t.Errorf("first build: %d %s, want %d", first.Code, trimBody(first), tc.firstCode)
			}
			if tc.firstCode == http.StatusServiceUnavailable &&
				(!strings.Contains(first.Body.String(), `"build_superseded"`) || first.Header().Get("Retry-After") != "1") {
				t.Errorf("superseded build: %s, Retry-After %q; want code build_superseded, Retry-After 1", trimBody(first), first.Header().Get("Retry-After"))
			}
			if second.Code != http.StatusOK || second.Header().Get("Content-Type") != "model/gltf-binary" {
				t.Errorf("second build: %d %s, want 200 and a GLB", second.Code, trimBody(second))
			}
			// A build stopped at its stage ends after the generator.
			waitLong(t, func() bool { return c.started.Load() == c.built.Load() })
			got := [3]int64{c.started.Load(), c.dropped.Load(), c.cancelled.Load()}
			if want := [3]int64{tc.started, tc.dropped, tc.cancelled}; got != want {
				t.Errorf("builds started, dropped, cancelled: %v, want %v", got, want)
			}
			c.mu.Lock()
			kept := len(c.cache)
			c.mu.Unlock()
			if want := int(tc.started - tc.cancelled); kept != want {
				t.Errorf("%d builds kept, want %d (a stopped build is not kept)", kept, want)
			}
		})
	}
}

// waitLong waits up to a minute (a build on a loaded machine takes
// several seconds).
func waitLong(t *testing.T, ok func() bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	for !ok() {
		select {
		case <-ctx.Done():
			t.Fatal("timed out")
		case <-time.After(5 * time.Millisecond):
		}
	}
}

func trimBody(w *httptest.ResponseRecorder) string {
	b := w.Body.String()
	if len(b) > 200 {
		return b[:200] + "..."
	}
	return b
}

// TestCreatorPartFreesSlot asks a part and leaves before it is built, as
// the page does with a part asked ahead when the person moves on: the
// part's slot is free for the next part at once, and the abandoned part
// stops at its next stage (avatar.BuildPartContext) rather than sharing
// the cores with the part picked; asked again, it is built anew.
func TestCreatorPartFreesSlot(t *testing.T) {
	if testing.Short() {
		t.Skip("builds avatar parts")
	}
	s := New(Config{Registry: prometheus.NewRegistry()})
	h := s.Avatar()
	c := &s.creatorBuilds.parts
	c.gate = priority.New()
	c.init()
	// A hat over a bun and a hoodie: the dearest part (1-3 s).
	body := `{"configuration":{"hair":{"style":"bun"},"outfit":{"top":{"style":"hoodie"}},"headwear":{"style":"beanie"}},"part":"headwear"}`
	ctx, cancel := context.WithCancel(t.Context())
	answered := make(chan int)
	go func() {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("POST", "/creator/parts", strings.NewReader(body)).WithContext(ctx))
		answered <- w.Code
	}()
	waitLong(t, func() bool { return c.started.Load() == 1 })
	if n := len(c.slots); n != 1 {
		t.Fatalf("%d part slots taken while the part builds, want 1", n)
	}
	cancel()
	if code := <-answered; code != http.StatusServiceUnavailable {
		t.Errorf("the request that left: %d, want 503", code)
	}
	waitLong(t, func() bool { return len(c.slots) == 0 })
	waitLong(t, func() bool { return c.built.Load() == 1 })
	if c.cancelled.Load() != 1 {
		t.Fatalf("the abandoned part ran to its end (%d cancelled), want it stopped at its next stage", c.cancelled.Load())
	}
	c.mu.Lock()
	kept := len(c.cache)
	c.mu.Unlock()
	if kept != 0 {
		t.Errorf("%d parts kept, want none: the abandoned one stopped", kept)
	}
	if w := post(h, "/creator/parts", body); w.Code != http.StatusOK || c.started.Load() != 2 {
		t.Errorf("the part asked again: %d, %d parts started; want 200 from a new build", w.Code, c.started.Load())
	}
}
