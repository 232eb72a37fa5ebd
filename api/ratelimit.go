package api

import (
	"context"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/jobs"
)

// Limiter takes a token from the bucket named key. It answers 0 when the
// call may go on, or how long until the bucket holds a token again. A zero
// limit allows everything. It counts a call once even when the store's
// client sends it twice.
type Limiter interface {
	Allow(ctx context.Context, key string, limit kiln.RateLimit) (retryAfter time.Duration, err error)
}

// limit takes a token for the request from the bucket key ("<what>:<who>",
// e.g. "avatar:acct_1" or "creator:ip:203.0.113.9"; the part before the
// first colon names the limit in kiln_rate_limited_total). Over the limit
// it answers 429 rate_limited with Retry-After in whole seconds, rounded
// up so that a client waiting that long finds a token; on a store error it
// answers that error (503 when Redis is away). Either way it returns
// false and the handler stops. Without a Limiter nothing is limited.
func (s *Server) limit(c *gin.Context, key string, limit kiln.RateLimit) bool {
	if s.Limiter == nil || limit.Rate <= 0 {
		return true
	}
	wait, err := s.Limiter.Allow(c.Request.Context(), key, limit)
	if err != nil {
		fail(c, err)
		return false
	}
	if wait <= 0 {
		return true
	}
	s.refuse(c, key, limit, wait)
	return false
}

// refuse answers a request over limit, named by key (the part before the
// first colon names the limit in kiln_rate_limited_total): 429
// rate_limited with Retry-After, whichever bucket counted it.
func (s *Server) refuse(c *gin.Context, key string, limit kiln.RateLimit, wait time.Duration) {
	name, _, _ := strings.Cut(key, ":")
	s.metrics.rateLimited.WithLabelValues(name).Inc()
	tooMany(c, wait, kiln.Errorf(kiln.KindRateLimited, "rate_limited",
		"more than %g requests a second (%d at once); retry after %d s", limit.Rate, max(limit.Burst, 1), retryAfter(wait)))
}

// retryAfter is the Retry-After of a wait: whole seconds, rounded up, at
// least one.
func retryAfter(wait time.Duration) int {
	return max(1, int(math.Ceil(wait.Seconds())))
}

// tooMany answers a 429 with Retry-After.
func tooMany(c *gin.Context, wait time.Duration, err error) {
	c.Header("Retry-After", strconv.Itoa(retryAfter(wait)))
	fail(c, err)
}

// failQueued answers an error of Enqueue: a job the account's full
// backlog refused (jobs.For) is a 429 with Retry-After, like a rate limit.
func failQueued(c *gin.Context, err error) {
	if code, _ := kiln.CodeOf(err); code == "too_many_queued_jobs" {
		tooMany(c, jobs.QueuedRetryAfter, err)
		return
	}
	fail(c, err)
}
