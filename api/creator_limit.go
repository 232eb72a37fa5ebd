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
