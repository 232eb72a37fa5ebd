package api

import (
	"sync"
	"time"

	"github.com/kilnhq/kiln"
)

// localLimiter keeps token buckets in the process's memory, for the limits
// that must hold without a Redis round trip: the static files of the pages
// (limitStatic). Under load the shared Redis limiter answered 503 for the
// creator's JavaScript modules and the page stayed blank; a static file
// costs the server next to nothing, so a per-process bucket (one per client
// address in each API process, not one across the cluster) bounds a client
// looping over them well enough, and a slow or frozen Redis never blanks a
// page. The zero value is ready to use.
type localLimiter struct {
	mu      sync.Mutex
	buckets map[string]*localBucket
	// now is the clock; nil is time.Now.
	now func() time.Time
}

// localBucket is one key's tokens at a moment.
type localBucket struct {
	tokens float64
	at     time.Time
}

// localLimiterKeys bounds the buckets kept: past it, the full ones (whose
// client has not asked for a while) are dropped, and if all are in use
// the map starts afresh, letting those clients' next requests through
// rather than growing without end under a flood of addresses.
const localLimiterKeys = 100_000

// allow takes a token from key's bucket: 0 when the call may go on, else
// how long until the bucket holds a token again. A zero rate allows all.
func (l *localLimiter) allow(key string, limit kiln.RateLimit) time.Duration {
	if limit.Rate <= 0 {
		return 0
	}
	burst := float64(max(limit.Burst, 1))
	now := time.Now()
	if l.now != nil {
		now = l.now()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.buckets == nil {
		l.buckets = map[string]*localBucket{}
	}
	b, ok := l.buckets[key]
	if !ok {
		if len(l.buckets) >= localLimiterKeys {
			l.sweep(now, limit)
		}
		b = &localBucket{tokens: burst, at: now}
		l.buckets[key] = b
	}
	b.tokens = min(burst, b.tokens+now.Sub(b.at).Seconds()*limit.Rate)
	b.at = now
	if b.tokens >= 1 {
		b.tokens--
		return 0
	}
	return time.Duration((1 - b.tokens) / limit.Rate * float64(time.Second))
}

// sweep drops the buckets that have refilled (their clients are as new),
// or every bucket when none has. Called with mu held.
func (l *localLimiter) sweep(now time.Time, limit kiln.RateLimit) {
	burst := float64(max(limit.Burst, 1))
	for k, b := range l.buckets {
		if b.tokens+now.Sub(b.at).Seconds()*limit.Rate >= burst {
			delete(l.buckets, k)
		}
	}
	if len(l.buckets) >= localLimiterKeys {
		clear(l.buckets)
	}
}
