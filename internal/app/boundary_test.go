package app

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/api"
	"github.com/kilnhq/kiln/internal/testenv"
)

// ownRedis starts a redis-server the test can stop (testenv.RedisServer).
func ownRedis(t *testing.T) (url string, stop func()) {
	t.Helper()
	port, stop := testenv.RedisServer(t)
	return fmt.Sprintf("redis://127.0.0.1:%d/0", port), stop
}

// leaks are what an answer must never carry: driver messages, operation
// names and addresses belong in the log.
func leaks(body, redisAddr string) []string {
	var found []string
	for _, s := range []string{"dial tcp", "refused", "i/o timeout", "EOF", "redis.", "goredis", "minio.", "127.0.0.1", redisAddr, "connect:"} {
		if strings.Contains(body, s) {
			found = append(found, s)
		}
	}
	return found
}

// TestErrorBoundaryRedisStopped stops Redis under a running Kiln and calls
// every route of both listeners, with the admin key and with an account's
// key: each answer is either a success or the JSON error body, never a
// 500 with a cause, a driver message or an address.
func TestErrorBoundaryRedisStopped(t *testing.T) {
	url, stopRedis := ownRedis(t)
	cfg := testenv.Config(t, 1)
	cfg.RedisURL = url
	r := startWith(t, cfg)
	key := newKey(t, r, "acme", kiln.ScopeProductRead, kiln.ScopeProductWrite, kiln.ScopeUserRead)
	redisAddr := strings.TrimSuffix(strings.TrimPrefix(url, "redis://"), "/0")
	stopRedis()

	// A server of no stores, only for its route table: the requests go
	// to the running Kiln.
	srv := api.New(api.Config{Registry: prometheus.NewRegistry(), Monitor: http.NotFoundHandler()})
	listeners := []struct {
		base    string
		handler http.Handler
	}{{r.PlatformURL, srv.Platform()}, {r.AvatarURL, srv.Avatar()}}
	calls := 0
	for _, l := range listeners {
		for _, rt := range l.handler.(*gin.Engine).Routes() {
			path := strings.NewReplacer(":objectId", "obj_0123456789abcdef", ":viewerToken", "vw_0123456789abcdef", ":id", "av_0123456789abcdef").Replace(rt.Path)
			path = strings.ReplaceAll(strings.ReplaceAll(path, "*", ""), ":", "x")
			for _, k := range []string{r.AdminKey, key} {
				res := do(t, rt.Method, l.base+path, k, strings.NewReader(`{}`), map[string]string{"Content-Type": "application/json"})
				calls++
				body := string(res.Body)
				// A page may show its own listener's URL; an error shows
				// no address at all.
				if found := leaks(body, redisAddr); len(found) > 0 && (res.Status >= 400 || !slices.Equal(found, []string{"127.0.0.1"})) {
					t.Errorf("%s %s: %d carries %q: %.300s", rt.Method, path, res.Status, found, body)
				}
				if res.Status >= 400 && rt.Method != http.MethodHead && strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
					res.errorCode(t)
				}
				// Spec section 7 gives a failed template deletion a 500.
				if res.Status == http.StatusInternalServerError && !strings.Contains(body, "deletion_failed") {
					t.Errorf("%s %s: 500 with Redis stopped, want 503: %.300s", rt.Method, path, body)
				}
			}
		}
	}
	t.Logf("%d calls with Redis stopped", calls)
	if res := do(t, "GET", r.PlatformURL+"/resources/objects/obj_0123456789abcdef", key, nil, nil); res.Status != http.StatusServiceUnavailable || res.errorCode(t) != "unavailable" {
		t.Errorf("an account's request with Redis stopped: %d %s, want 503 unavailable", res.Status, res.Body)
	}
}

// TestMalformedHeaderJSON sends a control byte in Authorization to the
// running Kiln: net/http refuses it before Gin, and the answer is still the
// JSON error body.
func TestMalformedHeaderJSON(t *testing.T) {
	r := start(t)
	for _, base := range []string{r.PlatformURL, r.AvatarURL} {
		addr := strings.TrimPrefix(base, "http://")
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		c.SetDeadline(time.Now().Add(5 * time.Second))
		fmt.Fprintf(c, "GET /api-key-authorized HTTP/1.1\r\nHost: kiln\r\nAuthorization: Bearer kiln_\x01x\r\n\r\n")
		res, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		c.Close()
		got := response{res.StatusCode, res.Header, b}
		if got.Status != http.StatusBadRequest || got.errorCode(t) != "malformed_request" {
			t.Errorf("%s: %d %s, want 400 malformed_request", base, got.Status, b)
		}
	}
}

// TestLongBadValuesClipped: an error quotes a bad value, but at most
// kiln.MaxEcho bytes of it: 10,000 unknown clip names (139 KB of query)
// and an avatar colour of 60 KB answer bodies under a kilobyte that still
// name the first bad value and say what to send.
func TestLongBadValuesClipped(t *testing.T) {
	r := start(t)
	key := newKey(t, r, "acme", kiln.ScopeAvatarWrite)
	names := make([]string, 10_000)
	for i := range names {
		names[i] = fmt.Sprintf("clip_%05d", i)
	}
	for _, tc := range []struct {
		method, url, body, code, names string
	}{
		{"GET", r.AvatarURL + "/model/default-male.glb?animations=" + strings.Join(names, ","), "", "invalid_animations", "clip_00000"},
		{"POST", r.AvatarURL + "/avatar", `{"version":"1","skin":{"tone":"` + strings.Repeat("x", 60_000) + `"}}`, "invalid_avatar_config", "skin.tone"},
	} {
		var body io.Reader
		if tc.body != "" {
			body = strings.NewReader(tc.body)
		}
		res := do(t, tc.method, tc.url, key, body, map[string]string{"Content-Type": "application/json"})
		if res.Status != http.StatusBadRequest || res.errorCode(t) != tc.code {
			t.Fatalf("%s: %d %.300s, want 400 %s", tc.code, res.Status, res.Body, tc.code)
		}
		if len(res.Body) > 1024 || !strings.Contains(string(res.Body), tc.names) || !strings.Contains(string(res.Body), "bytes in all") {
			t.Errorf("%s: a body of %d bytes: %.600s", tc.code, len(res.Body), res.Body)
		}
	}
}
