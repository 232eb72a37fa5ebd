package app

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/kilnhq/kiln/internal/config"
	"github.com/kilnhq/kiln/internal/testenv"
)

// TestCreatorPageFrozenRedis stops redis-server with SIGSTOP (a Redis that
// accepts connections and answers nothing) and opens the creator as a
// browser does: the page, its style sheet, its modules and three.js, the
// schema and palettes all load, since none of them waits on Redis (the
// static files' rate limit is kept in the process), and a style's part
// is built (its limit falls over to the process's bucket). Making a
// guest user, which Redis must save, answers a clear 503 with a code
// within a few seconds, never a 500 or a hang; once Redis resumes it
// works again.
func TestCreatorPageFrozenRedis(t *testing.T) {
	port, _ := testenv.RedisServer(t)
	r := startAPIWith(t, func(c *config.Config) {
		c.RedisURL = fmt.Sprintf("redis://127.0.0.1:%d/0", port)
	})
	page := []string{
		"/avatar", "/de/avatar",
		"/creator/static/creator.css", "/creator/static/start.js", "/creator/static/creator.js",
		"/creator/static/api.js", "/creator/static/view.js",
		"/creator/static/three/build/three.module.min.js", "/creator/static/three/build/three.core.min.js",
		"/avatar/schema.json", "/creator/palettes",
	}
	// Before the freeze, a first load fills nothing the frozen load needs
	// but proves the URLs are right.
	for _, p := range page {
		if res := do(t, "GET", r.AvatarURL+p, "", nil, nil); res.Status != http.StatusOK {
			t.Fatalf("GET %s before the freeze: %d %s", p, res.Status, res.Body)
		}
	}

	thaw := testenv.Freeze(t, port)
	for _, p := range page {
		start := time.Now()
		res := do(t, "GET", r.AvatarURL+p, "", nil, nil)
		took := time.Since(start)
		if res.Status != http.StatusOK || len(res.Body) == 0 {
			t.Errorf("GET %s with Redis frozen: %d %s, want 200 and the file", p, res.Status, trim(res.Body))
		}
		if took > 2*time.Second {
			t.Errorf("GET %s with Redis frozen took %v: a static file must not wait on Redis", p, took)
		}
	}
	// A style's part needs nothing of Redis but its rate limit, which
	// falls over to the process's own bucket: the picked style still
	// shows.
	start := time.Now()
	res := do(t, "POST", r.AvatarURL+"/creator/parts", "", strings.NewReader(`{"configuration":{"glasses":{"style":"round"}},"part":"glasses"}`), map[string]string{"Content-Type": "application/json"})
	if res.Status != http.StatusOK || res.Header.Get("Content-Type") != "model/gltf-binary" {
		t.Errorf("POST /creator/parts with Redis frozen: %d %s, want 200 and the part", res.Status, trim(res.Body))
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("POST /creator/parts with Redis frozen took %v", took)
	}
	// What must be saved answers a clear 503 with a code within seconds.
	start = time.Now()
	res = do(t, "POST", r.AvatarURL+"/creator/users", "", strings.NewReader(`{}`), map[string]string{"Content-Type": "application/json"})
	if res.Status != http.StatusServiceUnavailable || res.errorCode(t) == "" {
		t.Errorf("POST /creator/users with Redis frozen: %d %s, want 503 with a code", res.Status, trim(res.Body))
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("POST /creator/users with Redis frozen took %v, want a 503 within seconds", took)
	}
	thaw()
	deadline := time.Now().Add(20 * time.Second)
	for {
		res := do(t, "POST", r.AvatarURL+"/creator/users", "", strings.NewReader(`{}`), map[string]string{"Content-Type": "application/json"})
		if res.Status == http.StatusCreated || res.Status == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("POST /creator/users after the thaw: %d %s", res.Status, trim(res.Body))
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func trim(b []byte) string {
	if len(b) > 200 {
		return string(b[:200]) + "..."
	}
	return string(b)
}
