package api

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/kilnhq/kiln"
)

// TestCreatorPartLimit checks the part's rate limit, decided by the
// process's bucket in front and the shared bucket beside the build: a
// client the shared bucket refuses gets its 429 with Retry-After although
// the part was built, a shared bucket that errs leaves the process's
// bucket to decide, and a client past the process's bucket is refused
// before the shared one is asked.
func TestCreatorPartLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("builds avatar parts")
	}
	const body = `{"configuration":{"glasses":{"style":"none"}},"part":"glasses"}`
	for _, tc := range []struct {
		name       string
		limiter    *answerLimiter
		spent      int // tokens of the process's bucket taken before
		status     int
		retryAfter string
		asked      bool // whether the shared bucket was asked
	}{
		{"allowed", &answerLimiter{}, 0, 200, "", true},
		{"shared bucket refuses", &answerLimiter{wait: 1200 * time.Millisecond}, 0, 429, "2", true},
		{"shared bucket away", &answerLimiter{err: kiln.E("redis.Allow", kiln.KindUnavailable, errors.New("dial tcp: refused"))}, 0, 200, "", true},
		{"process bucket empty", &answerLimiter{}, creatorPartRate.Burst, 429, "1", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New(Config{Registry: prometheus.NewRegistry(), Limiter: tc.limiter})
			h := s.Avatar()
			req := httptest.NewRequest("POST", "/creator/parts", strings.NewReader(body))
			for range tc.spent {
				s.previewLimits.allow("creator-part:ip:"+req.RemoteAddr[:strings.LastIndex(req.RemoteAddr, ":")], creatorPartRate)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			var e struct{ Error struct{ Code string } }
			_ = json.Unmarshal(w.Body.Bytes(), &e)
			if w.Code != tc.status || w.Header().Get("Retry-After") != tc.retryAfter {
				t.Fatalf("%d Retry-After %q %s, want %d Retry-After %q", w.Code, w.Header().Get("Retry-After"), w.Body.String(), tc.status, tc.retryAfter)
			}
			if tc.status == http.StatusTooManyRequests && e.Error.Code != "rate_limited" {
				t.Errorf("code %q, want rate_limited", e.Error.Code)
			}
			if tc.status == http.StatusOK && w.Header().Get("Content-Type") != "model/gltf-binary" {
				t.Errorf("Content-Type %q, want a GLB", w.Header().Get("Content-Type"))
			}
			if got := len(tc.limiter.keys) > 0; got != tc.asked {
				t.Errorf("shared bucket asked: %v (%v), want %v", got, tc.limiter.keys, tc.asked)
			}
		})
	}
}
