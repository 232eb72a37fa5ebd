package api

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/kilnhq/kiln"
)

// answerLimiter answers what it is told and records the keys it was asked.
type answerLimiter struct {
	wait time.Duration
	err  error
	keys []string
}

func (l *answerLimiter) Allow(_ context.Context, key string, _ kiln.RateLimit) (time.Duration, error) {
	l.keys = append(l.keys, key)
	return l.wait, l.err
}

// TestLimit checks what a client sees of Server.limit for each answer of
// the Limiter: the request going on, a 429 with Retry-After rounded up,
// or the store's outage as a 503.
func TestLimit(t *testing.T) {
	limit := kiln.RateLimit{Rate: 2, Burst: 5}
	for _, tc := range []struct {
		name       string
		limiter    *answerLimiter
		limit      kiln.RateLimit
		status     int
		retryAfter string
		code       string
		asked      bool
	}{
		{"allowed", &answerLimiter{}, limit, 200, "", "", true},
		{"over, 1.2 s", &answerLimiter{wait: 1200 * time.Millisecond}, limit, 429, "2", "rate_limited", true},
		{"over, 3 ms", &answerLimiter{wait: 3 * time.Millisecond}, limit, 429, "1", "rate_limited", true},
		{"over, whole seconds", &answerLimiter{wait: 4 * time.Second}, limit, 429, "4", "rate_limited", true},
		{"store away", &answerLimiter{err: kiln.E("redis.Allow", kiln.KindUnavailable, errors.New("dial tcp: refused"))}, limit, 503, "", "unavailable", true},
		{"zero limit", &answerLimiter{wait: time.Second}, kiln.RateLimit{}, 200, "", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New(Config{Registry: prometheus.NewRegistry(), Limiter: tc.limiter})
			r := gin.New()
			r.GET("/x", func(c *gin.Context) {
				if s.limit(c, "test:"+c.ClientIP(), tc.limit) {
					c.Status(http.StatusOK)
				}
			})
			w := httptest.NewRecorder()
			req := httptest.NewRequest("GET", "/x", nil)
			req.RemoteAddr = "203.0.113.9:4000"
			r.ServeHTTP(w, req)
			if w.Code != tc.status {
				t.Fatalf("status %d, want %d: %s", w.Code, tc.status, w.Body)
			}
			if got := w.Header().Get("Retry-After"); got != tc.retryAfter {
				t.Errorf("Retry-After %q, want %q", got, tc.retryAfter)
			}
			if tc.code != "" {
				var body errorBody
				if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || body.Error.Code != tc.code || body.Error.Message == "" {
					t.Errorf("body %s, want code %s", w.Body, tc.code)
				}
			}
			if asked := len(tc.limiter.keys) == 1 && tc.limiter.keys[0] == "test:203.0.113.9"; asked != tc.asked {
				t.Errorf("limiter asked %q, want asked %v", tc.limiter.keys, tc.asked)
			}
		})
	}
}
