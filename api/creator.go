package api

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/avatar"
)

// creatorRoutes registers the creator on the avatar listener: its page,
// its files, and the JSON API the page calls with a user token (never an
// API key), whose writes are rate-limited per client address and per
// app.
func (s *Server) creatorRoutes(r *gin.Engine) {
	s.creatorBuilds.whole.log, s.creatorBuilds.whole.kind = s.log, "build"
	s.creatorBuilds.parts.log, s.creatorBuilds.parts.kind = s.log, "part"
	s.creatorPageRoutes(r)
	r.POST("/creator/users", s.createGuest)
	r.GET("/creator/users/me", s.requireUser, s.me)
	r.POST("/creator/avatars", s.requireUser, s.createUserAvatar)
	r.GET("/creator/avatars", s.requireUser, s.listUserAvatars)
	r.GET("/creator/avatars/:id", s.requireUser, s.getUserAvatar)
	r.PUT("/creator/avatars/:id", s.requireUser, s.putUserAvatar)
	r.GET("/creator/catalog", s.catalog)
	r.POST("/creator/parts", s.createCreatorPart)
	getFile(r, "/creator/thumbnails/:category/:file", s.thumbnail)
	getFile(r, "/creator/templates/:file", s.templatePreview)
	s.appRoutes(r)
}

// createGuest serves POST /creator/users: the page makes a guest user of
// an app, and keeps its token.
func (s *Server) createGuest(c *gin.Context) {
	var in struct {
		App string `json:"app"`
	}
	if c.Request.ContentLength != 0 {
		if err := json.NewDecoder(http.MaxBytesReader(c.Writer, c.Request.Body, 4<<10)).Decode(&in); err != nil {
			fail(c, invalidf("invalid_user", "the body must be {\"app\": \"<slug>\"}: %v", err))
			return
		}
	}
	if in.App == "" {
		in.App = kiln.DefaultApp
	}
	ctx := c.Request.Context()
	a, err := s.creatorApp(ctx, in.App)
	if err != nil {
		fail(c, err)
		return
	}
	if !s.limitCreate(c, a) {
		return
	}
	u, err := s.newCreatorUser(ctx, a)
	if err != nil {
		fail(c, err)
		return
	}
	s.answerToken(c, a, u, kiln.GuestTokenTTL)
}

func (s *Server) me(c *gin.Context) {
	who := caller(c)
	c.JSON(http.StatusOK, gin.H{"status": "ok", "data": gin.H{"userId": who.User.ID, "app": who.App.Slug}})
}

// appConfig reads a configuration for the app's creator: `{}` or nothing
// is the app's default, anything else a configuration whose styles the
// app offers.
func (s *Server) appConfig(c *gin.Context, a *kiln.App, id string) (avatar.Config, error) {
	cfg, err := s.readAvatarConfig(c, id)
	if err != nil {
		return cfg, err
	}
	for _, cat := range avatar.StyleCategories {
		offered := a.Styles[cat]
		if style := cfg.Style(cat); len(offered) > 0 && !slices.Contains(offered, style) {
			return cfg, invalidf("style_not_offered", "%s style %q is not offered by app %s; it offers %s", cat, style, a.Slug, strings.Join(offered, ", "))
		}
	}
	return cfg, nil
}

// createUserAvatar serves POST /creator/avatars: the user's new avatar,
// which the app's account owns.
func (s *Server) createUserAvatar(c *gin.Context) {
	who := caller(c)
	id := kiln.NewID("av")
	cfg, err := s.appConfig(c, who.App, id)
	if err != nil {
		fail(c, err)
		return
	}
	if !s.limitCreate(c, who.App) {
		return
	}
	a := &kiln.Avatar{ID: id, Account: who.App.Account, App: who.App.Slug, User: who.User.ID}
	if err := s.registerAvatar(c.Request.Context(), a, cfg); err != nil {
		failQueued(c, err)
		return
	}
	c.JSON(http.StatusCreated, gin.H{"status": "ok", "data": s.avatarView(a)})
}

func (s *Server) listUserAvatars(c *gin.Context) {
	avatars, err := s.Creator.UserAvatars(c.Request.Context(), caller(c).User.ID)
	if err != nil {
		fail(c, err)
		return
	}
	out := make([]gin.H, len(avatars))
	for i, a := range avatars {
		out[i] = s.avatarView(a)
	}
	c.JSON(http.StatusOK, gin.H{"status": "ok", "data": out})
}

func (s *Server) getUserAvatar(c *gin.Context) {
	id := c.Param("id")
	a, err := s.Avatars.Avatar(c.Request.Context(), id)
	if kiln.KindOf(err) == kiln.KindNotFound || (err == nil && !caller(c).owns(a)) || !kiln.ValidID(id) {
		err = avatarNotFound(id)
	}
	if err != nil {
		fail(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"status": "ok", "data": s.avatarView(a)})
}

// owns reports whether the avatar is the caller's: made by the user in
// the app.
func (who *creatorCaller) owns(a *kiln.Avatar) bool {
	return a.User == who.User.ID && a.App == who.App.Slug
}

// putUserAvatar serves PUT /creator/avatars/{id}: the user edits an
// avatar of theirs; id and URLs stay (see editAvatar).
func (s *Server) putUserAvatar(c *gin.Context) {
	who := caller(c)
	id := c.Param("id")
	if !kiln.ValidID(id) {
		fail(c, avatarNotFound(id))
		return
	}
	cfg, err := s.appConfig(c, who.App, id)
	if err != nil {
		fail(c, err)
		return
	}
	if !s.limitCreate(c, who.App) {
		return
	}
	a, err := s.editAvatar(c.Request.Context(), id, func(a *kiln.Avatar) error {
		if !who.owns(a) {
			return avatarNotFound(id)
		}
		return nil
	}, cfg)
	if err != nil {
		fail(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"status": "ok", "data": s.avatarView(a)})
}

// avatarView is an avatar as the creator shows it.
func (s *Server) avatarView(a *kiln.Avatar) gin.H {
	v := s.avatarURLs(a.ID)
	view := gin.H{
		"id":            a.ID,
		"modelUrl":      v["modelUrl"],
		"previewUrl":    v["previewUrl"],
		"configuration": a.Configuration,
		"state":         a.State,
		"createdAt":     a.CreatedAt,
		"updatedAt":     a.UpdatedAt,
		"userId":        a.User,
		"app":           a.App,
	}
	if a.Error != "" {
		view["error"] = a.Error
	}
	return view
}
