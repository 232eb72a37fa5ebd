package api

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/avatar"
	"github.com/kilnhq/kiln/jobs"
)

// readAvatarConfig reads the configuration of a request body: `{}` or
// nothing is the project default for avatar id, anything else must be a
// valid configuration (400 naming the field).
func (s *Server) readAvatarConfig(c *gin.Context, id string) (avatar.Config, error) {
	body, err := io.ReadAll(http.MaxBytesReader(c.Writer, c.Request.Body, maxAvatarConfig))
	if err != nil {
		return avatar.Config{}, err
	}
	if emptyObject(body) {
		return s.defaultAvatar(id)
	}
	return avatar.ParseConfig(body)
}

// registerAvatar stores a new avatar with the resolved cfg and enqueues
// the build of its lod 0, so that the first download finds it under way
// or done. a names the avatar and its owners; the rest is set here.
func (s *Server) registerAvatar(ctx context.Context, a *kiln.Avatar, cfg avatar.Config) error {
	raw, err := json.Marshal(cfg)
	if err != nil {
		return err
	}
	now := time.Now().UTC()
	a.Configuration, a.State, a.CreatedAt, a.UpdatedAt = raw, kiln.AvatarBuilding, now, now
	if err := s.Avatars.CreateAvatar(ctx, a); err != nil {
		return err
	}
	if err := s.enqueueAvatarBuild(ctx, a); err != nil {
		// A new avatar whose build cannot be queued would be a silent
		// pile-up: the record goes again, and the caller answers the 429
		// of every enqueuer (failQueued).
		if derr := s.Avatars.DeleteAvatar(ctx, a); derr != nil {
			s.log.Warn("refused avatar not deleted", "avatar_id", a.ID, "err", derr)
		}
		return err
	}
	return nil
}

// enqueueAvatarBuild starts building the lod 0 of the avatar's current
// revision. The first download enqueues the same job when this one is
// lost, so a queue that does not answer now costs time, not the avatar;
// only the account's full backlog (429 too_many_queued_jobs) is returned.
func (s *Server) enqueueAvatarBuild(ctx context.Context, a *kiln.Avatar) error {
	build := jobs.ModelVariant{AvatarID: a.ID, Revision: a.Revision,
		Variant: kiln.Variant{TextureFormat: "webp", MorphTargets: kiln.DefaultMorphTargets()}}
	err := s.Jobs.Enqueue(ctx, jobs.For(a.Account, build))
	if kiln.KindOf(err) == kiln.KindRateLimited {
		return err
	}
	if err != nil {
		s.log.Warn("avatar build not enqueued", "avatar_id", a.ID, "revision", a.Revision, "err", err)
	}
	return nil
}

// editAvatar replaces the configuration of avatar id, which allow must
// accept (the caller's ownership; its error aborts the edit). The id and
// URLs stay; the revision moves on, so downloads build and serve the new
// revision's files under new keys and ETags, the old revision's files are
// deleted, and a job of the old revision that is still running finds it
// stale instead of storing old bytes where the new ones go.
func (s *Server) editAvatar(ctx context.Context, id string, allow func(*kiln.Avatar) error, cfg avatar.Config) (*kiln.Avatar, error) {
	raw, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	a, err := s.Avatars.UpdateAvatar(ctx, id, func(a *kiln.Avatar) error {
		if err := allow(a); err != nil {
			return err
		}
		if a.Imported {
			// Its model is the imported file; the configuration only
			// names its body type, so an edit would change nothing.
			return kiln.Errorf(kiln.KindConflict, "imported_avatar", "avatar %s was imported from a file (POST /avatar/import); import the changed file as a new avatar instead", id)
		}
		a.Configuration, a.State, a.Error = raw, kiln.AvatarBuilding, ""
		a.Revision++
		return nil
	})
	if kiln.KindOf(err) == kiln.KindNotFound {
		return nil, avatarNotFound(id)
	}
	if err != nil {
		return nil, err
	}
	if err := s.enqueueAvatarBuild(ctx, a); err != nil {
		// The edit is made; its build waits for the first download, which
		// answers the 429 itself while the backlog stays full.
		s.log.Info("edited avatar's build not queued", "avatar_id", a.ID, "err", err)
	}
	s.dropOldRevisions(ctx, a)
	return a, nil
}

// dropOldRevisions deletes the files of the avatar's earlier revisions:
// nothing serves them any more. A failure leaves garbage, not a wrong
// answer, so it is only logged.
func (s *Server) dropOldRevisions(ctx context.Context, a *kiln.Avatar) {
	keep := kiln.AvatarFiles(a.ID, a.Revision) + "/"
	blobs, err := s.Blobs.List(ctx, kiln.AvatarFiles(a.ID, 0)+"/")
	if err != nil {
		s.log.Warn("old avatar files not listed", "avatar_id", a.ID, "err", err)
		return
	}
	for _, b := range blobs {
		if strings.HasPrefix(b.Key, keep) {
			continue
		}
		if err := s.Blobs.Delete(ctx, b.Key); err != nil {
			s.log.Warn("old avatar file not deleted", "key", b.Key, "err", err)
		}
	}
}

func avatarNotFound(id string) error {
	return kiln.Errorf(kiln.KindNotFound, "avatar_not_found", "no avatar %s", id)
}

// avatarURLs is the answer of POST and PUT /avatar.
func (s *Server) avatarURLs(id string) gin.H {
	base := s.PublicAvatarURL
	return gin.H{
		"modelId":    id,
		"modelUrl":   base + "/model/" + id + ".glb",
		"previewUrl": base + "/preview/" + id + ".png",
	}
}

// putAvatar serves PUT /avatar/{id}: a key of the avatar's account
// replaces its configuration; the id and URLs stay (see editAvatar).
func (s *Server) putAvatar(c *gin.Context) {
	id := c.Param("id")
	if err := kiln.CheckID("id", id); err != nil {
		fail(c, err)
		return
	}
	if kiln.BuiltInAvatar(id) {
		fail(c, kiln.Errorf(kiln.KindForbidden, "built_in_avatar", "%s is built in and cannot be edited; register your own with POST /avatar", id))
		return
	}
	cfg, err := s.readAvatarConfig(c, id)
	if err != nil {
		fail(c, err)
		return
	}
	k := callerKey(c)
	_, err = s.editAvatar(c.Request.Context(), id, func(a *kiln.Avatar) error {
		if a.Account != k.Account && !k.Admin {
			return avatarNotFound(id)
		}
		return nil
	}, cfg)
	if err != nil {
		fail(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"status": "ok", "data": s.avatarURLs(id)})
}
