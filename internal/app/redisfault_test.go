package app

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/internal/config"
	"github.com/kilnhq/kiln/internal/testenv"
)

// TestFrozenRedisCountsOnce sends tracking events from several clients
// while redis-server is stopped with SIGSTOP for longer than a request
// may wait, then resumed. Every request ends within its deadline (a 503
// while Redis is frozen), every event answered 204 is counted exactly
// once, and an event answered 503 unavailable is counted only if its
// client retried it with the same eventId and got a 204: that 503 means
// "not saved", and a retry with an id is safe. A Redis frozen between
// saving an event and replying leaves the outcome open: that 503 says
// event_outcome_unknown, and only those events, given up, may be counted
// without a 204.
func TestFrozenRedisCountsOnce(t *testing.T) {
	port, _ := testenv.RedisServer(t)
	r := startAPIWith(t, func(c *config.Config) {
		c.RedisURL = fmt.Sprintf("redis://127.0.0.1:%d/0", port)
		c.TrackingRate, c.TrackingBurst = 0, 0
	})
	token := storeViewer(t, r, "acme")
	url := r.PlatformURL + "/viewers/" + token + "/tracking-event"

	type result struct {
		id       string
		status   int
		took     time.Duration
		retried  bool // a 503 sent again with its id until it was saved
		finalOK  bool
		attempts int
		code     string // the error code of the last answer
	}
	var (
		mu      sync.Mutex
		results []result
	)
	client := &http.Client{Timeout: 30 * time.Second}
	send := func(id string, withID bool) (int, string, time.Duration) {
		ev := map[string]any{"sessionId": "s-" + id, "event": map[string]any{"key": "click"}}
		if withID {
			ev["eventId"] = id
		}
		b, _ := json.Marshal(ev)
		start := time.Now()
		res, err := client.Post(url, "application/json", bytes.NewReader(b))
		took := time.Since(start)
		if err != nil {
			return 0, "", took
		}
		defer res.Body.Close()
		var body struct {
			Error struct{ Code string } `json:"error"`
		}
		json.NewDecoder(res.Body).Decode(&body)
		return res.StatusCode, body.Error.Code, took
	}

	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			withID := w%2 == 0
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				id := fmt.Sprintf("w%d-%d", w, i)
				status, code, took := send(id, withID)
				res := result{id: id, status: status, code: code, took: took, attempts: 1, finalOK: status == http.StatusNoContent}
				// A client with ids retries its 503s, as the README says
				// it safely may; one without ids gives the event up.
				for withID && status == http.StatusServiceUnavailable && res.attempts < 20 {
					time.Sleep(500 * time.Millisecond)
					status, code, took = send(id, true)
					res.code = code
					res.attempts++
					res.retried = true
					res.finalOK = status == http.StatusNoContent
					if took > res.took {
						res.took = took
					}
				}
				mu.Lock()
				results = append(results, res)
				mu.Unlock()
				time.Sleep(20 * time.Millisecond)
			}
		}()
	}
	time.Sleep(time.Second)
	thaw := testenv.Freeze(t, port)
	time.Sleep(4 * time.Second)
	thaw()
	time.Sleep(2 * time.Second)
	close(stop)
	wg.Wait()

	var acked, failed, retriedOK, unknown int64
	var longest time.Duration
	for _, res := range results {
		if res.took > longest {
			longest = res.took
		}
		switch {
		case res.finalOK && res.retried:
			retriedOK++
			acked++
		case res.finalOK:
			acked++
		default:
			failed++
			if res.code == "event_outcome_unknown" {
				unknown++
			} else if res.status == http.StatusServiceUnavailable && res.code != "unavailable" {
				t.Errorf("event %s: 503 %q, want unavailable or event_outcome_unknown", res.id, res.code)
			}
		}
		if res.status == 0 {
			t.Errorf("event %s: no answer", res.id)
		}
	}
	// The request budget is about a second; a loaded machine adds some.
	if longest > 5*time.Second {
		t.Errorf("the longest request took %v; a frozen Redis must answer 503 within a couple of seconds", longest)
	}
	if failed == 0 || retriedOK == 0 {
		t.Errorf("%d events failed and %d were saved on a retry: the freeze did not bite", failed, retriedOK)
	}
	today := time.Now().UTC()
	_, total, err := r.DB.PeriodStats(context.Background(), token, []kiln.Period{{First: today.Add(-24 * time.Hour), Last: today.Add(24 * time.Hour)}})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d events: %d acknowledged (%d after a retry with their id), %d given up after a 503 (%d of them event_outcome_unknown); %d stored; longest request %v",
		len(results), acked, retriedOK, failed, unknown, total.Events, longest)
	if total.Events < acked || total.Events > acked+unknown {
		t.Errorf("stored %d events, acknowledged %d, %d given up with an unknown outcome: each acknowledged event must count once, and nothing else but those", total.Events, acked, unknown)
	}
}

// TestTricklingBodyIsCut sends a body one byte at a time, slower than the
// body deadline allows: the answer is 408 body_timeout at the deadline,
// not a connection held open for as long as the client likes.
func TestTricklingBodyIsCut(t *testing.T) {
	r := startAPIWith(t, func(c *config.Config) { c.BodyTimeout = time.Second })
	key := newKey(t, r, "acme", kiln.ScopeAvatarWrite)
	conn, err := net.Dial("tcp", strings.TrimPrefix(r.AvatarURL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /avatar HTTP/1.1\r\nHost: kiln\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{", key)
	start := time.Now()
	go func() {
		for range 40 {
			time.Sleep(300 * time.Millisecond)
			if _, err := conn.Write([]byte(" ")); err != nil {
				return
			}
		}
	}()
	conn.SetReadDeadline(time.Now().Add(15 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer after %v: %v", time.Since(start), err)
	}
	var body struct {
		Error struct{ Code string } `json:"error"`
	}
	json.NewDecoder(res.Body).Decode(&body)
	took := time.Since(start)
	t.Logf("answered %d %s after %v", res.StatusCode, body.Error.Code, took)
	if res.StatusCode != http.StatusRequestTimeout || body.Error.Code != "body_timeout" {
		t.Errorf("answer %d %q, want 408 body_timeout", res.StatusCode, body.Error.Code)
	}
	if took > 8*time.Second {
		t.Errorf("cut after %v; the deadline is 1 s", took)
	}
}

// TestFailedUploadReleasesItsSlot fills an account's pending-upload cap
// with uploads whose PUT never arrives (as in a storage outage): the next
// prepare is a 429 until the upload URLs expire, then it is accepted
// again without the client doing anything. finish-upload success=false
// releases a slot at once.
func TestFailedUploadReleasesItsSlot(t *testing.T) {
	r := startAPIWith(t, func(c *config.Config) { c.UploadURLTTL = 3 * time.Second })
	key := newKey(t, r, "acme", kiln.ScopeProductWrite, kiln.ScopeProductRead)
	prepare := func() response {
		body, h := form(t, map[string]string{"name": "chair", "type": "mesh", "extension": "glb", "file_size": "10", "file_count": "1"})
		return do(t, "POST", r.PlatformURL+"/resources/objects/prepare-upload", key, body, h)
	}
	var first string
	for i := range kiln.MaxPendingUploads {
		res := prepare()
		if res.Status != http.StatusOK {
			t.Fatalf("prepare %d: %d %s", i, res.Status, res.Body)
		}
		if i == 0 {
			var out []struct{ ObjectID string }
			res.json(t, &out)
			first = out[0].ObjectID
		}
	}
	if res := prepare(); res.Status != http.StatusTooManyRequests {
		t.Fatalf("prepare past the cap: %d, want 429", res.Status)
	}
	// Released by hand: finish-upload with success=false.
	body, h := form(t, map[string]string{"success": "false", "message": "the PUT failed"})
	if res := do(t, "POST", r.PlatformURL+"/resources/objects/"+first+"/finish-upload", key, body, h); res.Status != http.StatusOK {
		t.Fatalf("finish-upload success=false: %d %s", res.Status, res.Body)
	}
	if res := prepare(); res.Status != http.StatusOK {
		t.Fatalf("prepare after a release: %d %s", res.Status, res.Body)
	}
	if res := prepare(); res.Status != http.StatusTooManyRequests {
		t.Fatalf("prepare past the cap again: %d, want 429", res.Status)
	}
	// Released by time: the upload URLs expire.
	time.Sleep(3500 * time.Millisecond)
	if res := prepare(); res.Status != http.StatusOK {
		t.Fatalf("prepare after the upload URLs expired: %d %s", res.Status, res.Body)
	}
}

// TestURLsFromConfiguration: the local upload URL names the platform's
// configured address whatever Host and X-Forwarded-* a client sends,
// unless the request comes from a trusted proxy; the request log never
// shows an upload URL's token.
func TestURLsFromConfiguration(t *testing.T) {
	var logs bytes.Buffer
	var mu sync.Mutex
	cfg := testenv.Config(t, 1)
	cfg.S3 = config.S3{Bucket: "kiln"} // local-disk upload URLs: S3 signs its own
	log := slog.New(slog.NewJSONHandler(lockedWriter{&mu, &logs}, &slog.HandlerOptions{Level: slog.LevelInfo}))
	r, err := Start(context.Background(), cfg, log, Roles{API: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Stop)
	key := newKey(t, r, "acme", kiln.ScopeProductWrite)
	uploadURL := func(h map[string]string) string {
		body, fh := form(t, map[string]string{"name": "chair", "type": "mesh", "extension": "glb", "file_size": "4", "file_count": "1"})
		for k, v := range h {
			fh[k] = v
		}
		req, _ := http.NewRequest("POST", r.PlatformURL+"/resources/objects/prepare-upload", body)
		for k, v := range fh {
			req.Header.Set(k, v)
		}
		req.Header.Set("Authorization", "Bearer "+key)
		if host, ok := h["Host"]; ok {
			req.Host = host
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var out []struct {
			Upload struct{ URL string } `json:"upload"`
		}
		if err := json.NewDecoder(res.Body).Decode(&out); err != nil || len(out) == 0 {
			t.Fatalf("prepare-upload: %d %v", res.StatusCode, err)
		}
		return out[0].Upload.URL
	}
	u := uploadURL(map[string]string{"Host": "evil.example", "X-Forwarded-Proto": "https", "X-Forwarded-Host": "evil.example"})
	if !strings.HasPrefix(u, r.PlatformURL+"/uploads/") {
		t.Errorf("upload URL %s, want it under %s whatever Host the client sent", u, r.PlatformURL)
	}
	// The token of that URL works, and is not in the log.
	token := u[strings.LastIndex(u, "/")+1:]
	res := do(t, "PUT", u, "", strings.NewReader("glTF"), nil)
	t.Logf("PUT to the upload URL: %d", res.Status)
	mu.Lock()
	written := logs.String()
	mu.Unlock()
	if strings.Contains(written, token) {
		t.Errorf("the log carries the upload token")
	}
	if !strings.Contains(written, `"path":"/uploads/:token"`) {
		t.Errorf("the log has no masked upload path:\n%.2000s", written)
	}
}

// TestURLsFromTrustedProxy: a proxy listed in KILN_TRUSTED_PROXIES says
// which scheme and host the client used.
func TestURLsFromTrustedProxy(t *testing.T) {
	r := startAPIWith(t, func(c *config.Config) {
		c.TrustedProxies = []string{"127.0.0.1/8", "::1"}
		c.S3 = config.S3{Bucket: "kiln"} // local-disk upload URLs
	})
	key := newKey(t, r, "acme", kiln.ScopeProductWrite)
	body, h := form(t, map[string]string{"name": "chair", "type": "mesh", "extension": "glb", "file_size": "4", "file_count": "1"})
	h["X-Forwarded-Proto"] = "https"
	h["X-Forwarded-Host"] = "kiln.example.com"
	res := do(t, "POST", r.PlatformURL+"/resources/objects/prepare-upload", key, body, h)
	var out []struct {
		Upload struct{ URL string } `json:"upload"`
	}
	res.json(t, &out)
	if len(out) == 0 || !strings.HasPrefix(out[0].Upload.URL, "https://kiln.example.com/uploads/") {
		t.Errorf("upload URL %+v, want https://kiln.example.com/uploads/… from the trusted proxy", out)
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  *bytes.Buffer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
