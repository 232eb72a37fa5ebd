package api

import (
	"context"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/kilnhq/kiln"
)

// creatorLimitWait bounds the Redis round trip of a preview's rate limit:
// past it the process's own bucket decides.
const creatorLimitWait = 300 * time.Millisecond

// limitPreview takes a token for one of the creator's previews (a style's
// part, a whole build of an unsaved configuration) from the shared Redis
// bucket key, and from the process's own bucket of the same limit when
// Redis errs or takes longer than creatorLimitWait. A preview needs
// nothing else of Redis, and under load a starved Redis answered its
// limit with 503s and timeouts: the page then waited a retry of a second
// or more for a style picked (the part of "hair bun" took 24.6 s at load
// 19, behind its 503s). The local bucket still bounds a client per
// process, so failing over to it does not open the builds to a flood.
func (s *Server) limitPreview(c *gin.Context, key string, limit kiln.RateLimit) bool {
	if s.Limiter == nil || limit.Rate <= 0 {
		return true
	}
	ctx, cancel := context.WithTimeout(c.Request.Context(), creatorLimitWait)
	wait, err := s.Limiter.Allow(ctx, key, limit)
	cancel()
	if err != nil {
		s.log.Warn("creator preview: rate limit counted in the process", "key", key, "err", err)
		wait = s.previewLimits.allow(key, limit)
	}
	if wait <= 0 {
		return true
	}
	s.refuse(c, key, limit, wait)
	return false
}

// previewLimit is a rate limit decided beside the work it guards:
// limitPreviewBeside's answer.
type previewLimit struct {
	done chan struct{}
	wait time.Duration // set before done closes
}

// verdict waits for the shared bucket's answer: 0 when the work may be
// answered, else how long until the client may ask again.
func (l *previewLimit) verdict() time.Duration {
	if l == nil {
		return 0
	}
	<-l.done
	return l.wait
}

// limitPreviewBeside is limitPreview for a style's part, which a person
// waits on with nothing else in front of it: the process's own bucket of
// the limit decides at once (a client past it is refused before any
// work), and the shared Redis bucket, which counts the client across
// processes, is asked meanwhile, beside the part's build, rather than in
// front of it. Under load the embedded Redis held a part up to its
// creatorLimitWait bound before it started (limit_ms=305-366 in issue
// 20's runs, the hoodie's part among them). When Redis refuses, stop is
// called (the part's build ends at its next stage) and verdict answers
// the wait, so the shared limit holds as before; when Redis errs or is
// late, the process's bucket, already taken, stands for it. ok false:
// refused already (the 429 is written).
func (s *Server) limitPreviewBeside(c *gin.Context, key string, limit kiln.RateLimit, stop context.CancelFunc) (*previewLimit, bool) {
	if s.Limiter == nil || limit.Rate <= 0 {
		return nil, true
	}
	if wait := s.previewLimits.allow(key, limit); wait > 0 {
		s.refuse(c, key, limit, wait)
		return nil, false
	}
	l := &previewLimit{done: make(chan struct{})}
	ctx, cancel := context.WithTimeout(c.Request.Context(), creatorLimitWait)
	go func() {
		defer close(l.done)
		defer cancel()
		wait, err := s.Limiter.Allow(ctx, key, limit)
		if err != nil {
			s.log.Debug("creator preview: shared rate limit not answered; the process's bucket stands", "key", key, "err", err)
			return
		}
		if wait > 0 {
			l.wait = wait
			stop()
		}
	}()
	return l, true
}
