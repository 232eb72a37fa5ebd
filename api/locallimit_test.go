package api

import (
	"testing"
	"time"

	"github.com/kilnhq/kiln"
)

// TestLocalLimiter: a client's burst is served, the next call waits the
// time one token takes, the bucket refills at the rate, another key has
// its own bucket, and a zero rate allows everything.
func TestLocalLimiter(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	l := &localLimiter{now: func() time.Time { return now }}
	limit := kiln.RateLimit{Rate: 20, Burst: 100}
	for i := range 100 {
		if w := l.allow("static:ip:a", limit); w != 0 {
			t.Fatalf("call %d of the burst waits %v", i+1, w)
		}
	}
	for _, tc := range []struct {
		name    string
		advance time.Duration
		key     string
		limit   kiln.RateLimit
		wait    time.Duration
	}{
		{"past the burst", 0, "static:ip:a", limit, 50 * time.Millisecond},
		{"another address", 0, "static:ip:b", limit, 0},
		{"a token later", 50 * time.Millisecond, "static:ip:a", limit, 0},
		{"spent again", 0, "static:ip:a", limit, 50 * time.Millisecond},
		{"no limit", 0, "static:ip:a", kiln.RateLimit{}, 0},
	} {
		now = now.Add(tc.advance)
		if w := l.allow(tc.key, tc.limit); w != tc.wait {
			t.Errorf("%s: wait %v, want %v", tc.name, w, tc.wait)
		}
	}
}
