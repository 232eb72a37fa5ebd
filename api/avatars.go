package api

import (
	"bytes"
	"context"
	"encoding/json"
	"hash/fnv"
	"net/http"
	"path"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/animation"
	"github.com/kilnhq/kiln/assets/avatar"
	"github.com/kilnhq/kiln/jobs"
)

// AvatarStore keeps avatar records.
type AvatarStore interface {
	CreateAvatar(ctx context.Context, a *kiln.Avatar) error
	// DeleteAvatar removes a new avatar whose build could not be queued.
	DeleteAvatar(ctx context.Context, a *kiln.Avatar) error
	Avatar(ctx context.Context, id string) (*kiln.Avatar, error)
	UpdateAvatar(ctx context.Context, id string, fn func(*kiln.Avatar) error) (*kiln.Avatar, error)
}

// maxAvatarConfig bounds a POST /avatar body: a configuration is a few
// hundred bytes.
const maxAvatarConfig = 64 << 10

func (s *Server) avatarRoutes(r *gin.Engine) {
	r.POST("/avatar", s.require(kiln.ScopeAvatarWrite), s.createAvatar)
	r.POST("/avatar/import", s.require(kiln.ScopeAvatarWrite), s.importAvatar)
	getFile(r, "/avatar/schema.json", avatarSchema)
	getFile(r, "/model/:file", s.avatarModel)
	r.GET("/animations", listAnimations)
	getFile(r, "/animations/:gender/:file", animationGLB)
	r.POST("/creator/builds", s.createCreatorBuild)
	r.GET("/creator/palettes", creatorPalettes)
	r.GET("/creator/random", creatorRandom)
}

// createAvatar registers a configuration (`{}` or an empty body resolves
// the project default), stores it resolved, and enqueues the build of
// lod 0 so that the first download finds it under way or done.
func (s *Server) createAvatar(c *gin.Context) {
	if !s.limit(c, "avatar-create:"+callerKey(c).Account, s.AvatarCreateRate) {
		return
	}
	id := kiln.NewID("av")
	cfg, err := s.readAvatarConfig(c, id)
	if err != nil {
		fail(c, err)
		return
	}
	a := &kiln.Avatar{ID: id, Account: callerKey(c).Account}
	if err := s.registerAvatar(c.Request.Context(), a, cfg); err != nil {
		failQueued(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"status": "ok", "data": s.avatarURLs(id)})
}

// emptyObject reports whether a body asks for the project default: `{}`,
// or nothing at all.
func emptyObject(body []byte) bool {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return true
	}
	var m map[string]json.RawMessage
	return json.Unmarshal(body, &m) == nil && m != nil && len(m) == 0
}

// defaultAvatar resolves KILN_AVATAR_DEFAULT for a new avatar: a random
// configuration seeded by the id (so it is the same whenever the avatar
// is built again), a built-in one, or the configured JSON.
func (s *Server) defaultAvatar(id string) (avatar.Config, error) {
	switch s.AvatarDefault {
	case "", "random":
		h := fnv.New64a()
		h.Write([]byte(id))
		return avatar.Random(int64(h.Sum64())), nil
	case kiln.AvatarDefaultMale:
		return avatar.Default(avatar.Masculine), nil
	case kiln.AvatarDefaultFemale:
		return avatar.Default(avatar.Feminine), nil
	}
	return avatar.ParseConfig([]byte(s.AvatarDefault))
}

// avatarModel serves GET /model/{id}.glb and {id}.vrm: every download
// is a variant (absent parameters take the spec's defaults), built once
// by a model:variant job and then streamed from storage with an ETag.
func (s *Server) avatarModel(c *gin.Context) {
	file := c.Param("file")
	ext := path.Ext(file)
	id := strings.TrimSuffix(file, ext)
	if ext != ".glb" && ext != ".vrm" {
		notFound(c)
		return
	}
	if err := kiln.CheckID("id", id); err != nil {
		fail(c, err)
		return
	}
	var v kiln.Variant
	var err error
	if ext == ".vrm" {
		v, err = kiln.ParseVRMVariant(c.Request.URL.Query(), kiln.VRMMeta{Name: id, Author: s.VRMAuthor, LicenseURL: s.VRMLicenseURL})
	} else {
		v, err = kiln.ParseAvatarVariant(c.Request.URL.Query(), animation.Names())
	}
	if err != nil {
		fail(c, err)
		return
	}
	owner, rev, err := s.checkAvatar(c, id)
	if err != nil {
		fail(c, err)
		return
	}
	s.serveModelVariant(c, owner, kiln.AvatarVariantKey(id, rev, v.Key()), id+"-"+v.Key()+ext,
		jobs.ModelVariant{AvatarID: id, Variant: v, Revision: rev}, cacheShared)
}

// avatarSchema serves the JSON Schema of the avatar configuration.
func avatarSchema(c *gin.Context) {
	serveBytes(c, "application/schema+json", avatar.Schema)
}

// checkAvatar reports why a download of avatar id cannot be built: not
// registered (404) or its generation failed (422). The built-in ids always
// can. owner is whose share of the job queues its builds take
// (jobs.For): the avatar's account; rev is the avatar's revision, whose
// files the download serves.
func (s *Server) checkAvatar(c *gin.Context, id string) (owner string, rev int, err error) {
	if kiln.BuiltInAvatar(id) {
		// Anyone may download the built-in avatars: their builds queue
		// fairly per client address.
		return "ip:" + c.ClientIP(), 0, nil
	}
	a, err := s.Avatars.Avatar(c.Request.Context(), id)
	if kiln.KindOf(err) == kiln.KindNotFound {
		return "", 0, kiln.Errorf(kiln.KindNotFound, "avatar_not_found", "no avatar %s; register one with POST /avatar", id)
	}
	if err != nil {
		return "", 0, err
	}
	if a.State == kiln.AvatarFailed {
		return "", 0, kiln.Errorf(kiln.KindUnprocessable, "avatar_failed", "the model of avatar %s could not be generated: %s", id, a.Error)
	}
	return a.Account, a.Revision, nil
}
