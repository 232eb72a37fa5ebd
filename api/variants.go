package api

import (
	"context"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/jobs"
)

// variantWait bounds how long a download waits for its variant to be
// built before answering 503 with Retry-After; the job goes on, and the
// next request finds the result.
const variantWait = 2 * time.Minute

// serveVariant answers a variant of an object's model.
func (s *Server) serveVariant(c *gin.Context, o *kiln.Object, v kiln.Variant) {
	job := jobs.ModelVariant{ObjectID: o.ID, Variant: v}
	s.serveModelVariant(c, o.Account, o.VariantKey(v.Key()), o.ID+"-"+v.Key()+".glb", job, cacheImmutable)
}

// serveModelVariant answers a variant from storage under key (served as
// name), or enqueues job and waits for it. Objects and avatars share it:
// only the job's payload tells them apart. owner is the account whose
// share of the queue the build takes (jobs.For); cache the answer's
// caching (an object's variant never changes, an avatar's changes with an
// edit).
func (s *Server) serveModelVariant(c *gin.Context, owner, key, name string, job jobs.ModelVariant, cache cachePolicy) {
	s.serveBuilt(c, built{owner: owner, key: key, name: name, contentType: "model/gltf-binary", job: job, what: "variant", label: job.Variant.Key(), cache: cache})
}

// built is a blob that a job makes on demand: a model variant, a preview
// image. what names it in error codes (what_pending, what_failed) and
// label in messages. owner is the account whose share of the queue
// the job takes (jobs.For).
type built struct {
	owner                  string
	key, name, contentType string
	job                    taskJob
	what, label            string
	cache                  cachePolicy
}

// taskJob is a job with a deterministic task id, which identical
// requests share and by which the wait finds the job's failure.
type taskJob interface {
	jobs.Tasker
	TaskID() string
}

// serveBuilt answers b from storage (a job builds each key once, see
// serveStored for b.cache), or enqueues its job on the
// interactive queue and polls until the blob is there (served with its
// ETag), the job failed for good (422), or variantWait passed (503 with
// Retry-After: the job goes on and a later request finds the result).
func (s *Server) serveBuilt(c *gin.Context, b built) {
	ctx, cancel := context.WithTimeout(c.Request.Context(), variantWait)
	defer cancel()
	if c.Request.Method == http.MethodGet && !s.redirects(b.cache) {
		// One request to the store, not a Stat and then a Get: the Get
		// itself says whether the blob is there.
		blob, err := s.Blobs.Get(c.Request.Context(), b.key)
		if err == nil {
			s.sendStored(c, blob, b.name, b.contentType, b.cache)
			return
		}
		if kiln.KindOf(err) != kiln.KindNotFound {
			fail(c, err)
			return
		}
	} else if _, err := s.Blobs.Stat(ctx, b.key); err == nil {
		s.serveStored(c, b.key, b.name, b.contentType, b.cache)
		return
	}
	if c.Request.Method == http.MethodHead {
		// A HEAD never builds: 404 says there is no such file yet, where a
		// 202 would promise one that no HEAD is going to make. GET builds.
		fail(c, kiln.Errorf(kiln.KindNotFound, b.what+"_not_built", "the %s %s is not built yet; a GET builds it", b.what, b.label))
		return
	}
	if err := s.Jobs.Enqueue(ctx, jobs.For(b.owner, b.job)); err != nil {
		failQueued(c, err)
		return
	}
	logger(c).Info(b.what+" enqueued", "task_id", b.job.TaskID())
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			c.Header("Retry-After", "5")
			fail(c, kiln.Errorf(kiln.KindUnavailable, b.what+"_pending", "the %s %s is still being built; try again shortly", b.what, b.label))
			return
		case <-tick.C:
		}
		if _, err := s.Blobs.Stat(ctx, b.key); err == nil {
			s.serveStored(c, b.key, b.name, b.contentType, b.cache)
			return
		}
		reason, err := s.Jobs.Failure(ctx, jobs.QueueInteractive, b.job.TaskID())
		if err != nil {
			fail(c, err)
			return
		}
		if reason != "" {
			fail(c, kiln.Errorf(kiln.KindUnprocessable, b.what+"_failed", "building the %s %s failed: %s", b.what, b.label, reason))
			return
		}
	}
}
