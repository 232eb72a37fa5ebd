package api

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/avatar"
)

// CreatorStore keeps the creator's apps and users and the key that signs
// user tokens.
type CreatorStore interface {
	CreateApp(ctx context.Context, a *kiln.App) error
	App(ctx context.Context, slug string) (*kiln.App, error)
	AccountApps(ctx context.Context, account string) ([]*kiln.App, error)
	UpdateApp(ctx context.Context, slug string, fn func(*kiln.App) error) (*kiln.App, error)
	DeleteApp(ctx context.Context, a *kiln.App) error
	CreateCreatorUser(ctx context.Context, u *kiln.CreatorUser) error
	CreatorUser(ctx context.Context, id string) (*kiln.CreatorUser, error)
	UserAvatars(ctx context.Context, user string) ([]*kiln.Avatar, error)
	CreatorSecret(ctx context.Context, fresh string) (string, error)
}

// maxAppBody bounds a POST or PUT /apps body: origins, styles and one
// configuration.
const maxAppBody = 64 << 10

// appRoutes registers the apps an account's key manages, and the user
// tokens its server mints.
func (s *Server) appRoutes(r *gin.Engine) {
	auth := s.require(kiln.ScopeAvatarWrite)
	r.POST("/apps", auth, s.createApp)
	r.GET("/apps", auth, s.listApps)
	r.GET("/apps/:slug", auth, s.getApp)
	r.PUT("/apps/:slug", auth, s.putApp)
	r.DELETE("/apps/:slug", auth, s.deleteApp)
	r.POST("/apps/:slug/users", auth, s.mintUser)
	r.PUT("/avatar/:id", auth, s.putAvatar)
}

// appInput is the body of POST and PUT /apps: every field of an app but
// its owner and times.
type appInput struct {
	Slug           string             `json:"slug"`
	Name           string             `json:"name"`
	AllowedOrigins []string           `json:"allowedOrigins"`
	Defaults       kiln.AppDefaults   `json:"defaults"`
	Styles         kiln.AppStyles     `json:"styles"`
	RateLimits     kiln.AppRateLimits `json:"rateLimits"`
}

// readApp reads and checks an app body: each field's mistake is a 400
// naming it.
func readApp(c *gin.Context) (appInput, error) {
	var in appInput
	dec := json.NewDecoder(http.MaxBytesReader(c.Writer, c.Request.Body, maxAppBody))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		if _, ok := err.(*http.MaxBytesError); ok {
			return in, err
		}
		return in, invalidf("invalid_app", "the body must be a JSON app: %v", err)
	}
	if in.Name = strings.TrimSpace(in.Name); len(in.Name) > 100 {
		return in, invalidf("invalid_app", "name: at most 100 characters")
	}
	if len(in.AllowedOrigins) > 50 {
		return in, invalidf("invalid_origin", "allowedOrigins: at most 50")
	}
	for i, o := range in.AllowedOrigins {
		norm, err := kiln.CheckOrigin(o)
		if err != nil {
			return in, err
		}
		in.AllowedOrigins[i] = norm
	}
	slices.Sort(in.AllowedOrigins)
	in.AllowedOrigins = slices.Compact(in.AllowedOrigins)
	if err := checkAppDefaults(&in.Defaults); err != nil {
		return in, err
	}
	if err := checkAppStyles(in.Styles); err != nil {
		return in, err
	}
	for field, n := range map[string]int{"createPerHour": in.RateLimits.CreatePerHour, "createPerHourPerClient": in.RateLimits.CreatePerHourPerClient} {
		if n < 0 || n > kiln.MaxCreatePerHour {
			return in, invalidf("invalid_rate_limit", "rateLimits.%s: give 1 to %d, or 0 for the default", field, kiln.MaxCreatePerHour)
		}
	}
	return in, nil
}

// checkAppDefaults admits the leader's gender (male, female, or Kiln's
// body types) and a configuration that POST /avatar would take.
func checkAppDefaults(d *kiln.AppDefaults) error {
	switch d.Gender {
	case "", "male", "female":
	case avatar.Masculine:
		d.Gender = "male"
	case avatar.Feminine:
		d.Gender = "female"
	default:
		return invalidf("invalid_app", "defaults.gender: %q is not male or female", d.Gender)
	}
	if len(d.Configuration) == 0 || emptyObject(d.Configuration) {
		d.Configuration = nil
		return nil
	}
	if _, err := avatar.ParseConfig(d.Configuration); err != nil {
		return invalidf("invalid_app", "defaults.configuration: %s", messageOf(err))
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, d.Configuration); err != nil {
		return invalidf("invalid_app", "defaults.configuration: %v", err)
	}
	d.Configuration = compact.Bytes()
	return nil
}

// checkAppStyles admits known categories, each offering at least one of
// its styles.
func checkAppStyles(styles kiln.AppStyles) error {
	for cat, ids := range styles {
		all := avatar.Styles(cat)
		if all == nil {
			return invalidf("invalid_styles", "styles: %q is not one of %s", cat, strings.Join(avatar.StyleCategories, ", "))
		}
		if len(ids) == 0 {
			return invalidf("invalid_styles", "styles.%s: offer at least one style, or leave the category out to offer all", cat)
		}
		for _, id := range ids {
			if !slices.Contains(all, id) {
				return invalidf("invalid_styles", "styles.%s: %q is not one of %s", cat, id, strings.Join(all, ", "))
			}
		}
		slices.Sort(ids)
		styles[cat] = slices.Compact(ids)
	}
	return nil
}

// messageOf is the client message of a Kiln error.
func messageOf(err error) string {
	_, msg := kiln.CodeOf(err)
	return msg
}

func (s *Server) createApp(c *gin.Context) {
	in, err := readApp(c)
	if err != nil {
		fail(c, err)
		return
	}
	if err := kiln.CheckSlug(in.Slug); err != nil {
		fail(c, err)
		return
	}
	if in.Slug == kiln.DefaultApp {
		fail(c, kiln.Errorf(kiln.KindConflict, "slug_taken", "the slug %s is the built-in app's; choose another", in.Slug))
		return
	}
	k := callerKey(c)
	ctx := c.Request.Context()
	apps, err := s.Creator.AccountApps(ctx, k.Account)
	if err != nil {
		fail(c, err)
		return
	}
	if len(apps) >= kiln.MaxAppsPerAccount {
		fail(c, kiln.Errorf(kiln.KindConflict, "too_many_apps", "an account may have %d apps; delete one first", kiln.MaxAppsPerAccount))
		return
	}
	now := time.Now().UTC()
	a := &kiln.App{Account: k.Account, CreatedAt: now, UpdatedAt: now}
	in.apply(a)
	if err := s.Creator.CreateApp(ctx, a); err != nil {
		fail(c, err)
		return
	}
	c.JSON(http.StatusCreated, gin.H{"status": "ok", "data": s.appView(a)})
}

// apply sets the app's fields from the input; the slug is the app's.
func (in appInput) apply(a *kiln.App) {
	if a.Slug == "" {
		a.Slug = in.Slug
	}
	a.Name = in.Name
	if a.Name == "" {
		a.Name = a.Slug
	}
	a.AllowedOrigins = in.AllowedOrigins
	if a.AllowedOrigins == nil {
		a.AllowedOrigins = []string{}
	}
	a.Defaults, a.Styles, a.RateLimits = in.Defaults, in.Styles, in.RateLimits
}

func (s *Server) listApps(c *gin.Context) {
	apps, err := s.Creator.AccountApps(c.Request.Context(), callerKey(c).Account)
	if err != nil {
		fail(c, err)
		return
	}
	out := make([]gin.H, len(apps))
	for i, a := range apps {
		out[i] = s.appView(a)
	}
	c.JSON(http.StatusOK, gin.H{"status": "ok", "data": out})
}

// ownedApp is the app of the request's slug when the caller's account
// owns it (the admin key owns every app, and the built-in one).
func (s *Server) ownedApp(c *gin.Context) (*kiln.App, error) {
	slug := c.Param("slug")
	a, err := s.creatorApp(c.Request.Context(), slug)
	return owned(c, a, err, appNotFound(slug))
}

func (s *Server) getApp(c *gin.Context) {
	a, err := s.ownedApp(c)
	if err != nil {
		fail(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"status": "ok", "data": s.appView(a)})
}

func (s *Server) putApp(c *gin.Context) {
	if _, err := s.ownedApp(c); err != nil {
		fail(c, err)
		return
	}
	slug := c.Param("slug")
	if slug == kiln.DefaultApp {
		fail(c, builtInApp())
		return
	}
	in, err := readApp(c)
	if err != nil {
		fail(c, err)
		return
	}
	if in.Slug != "" && in.Slug != slug {
		fail(c, invalidf("invalid_slug", "slug: an app keeps its slug; register a new app for %q", in.Slug))
		return
	}
	a, err := s.Creator.UpdateApp(c.Request.Context(), slug, func(a *kiln.App) error {
		in.apply(a)
		a.UpdatedAt = time.Now().UTC()
		return nil
	})
	if err != nil {
		fail(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"status": "ok", "data": s.appView(a)})
}

func (s *Server) deleteApp(c *gin.Context) {
	a, err := s.ownedApp(c)
	if err != nil {
		fail(c, err)
		return
	}
	if a.Slug == kiln.DefaultApp {
		fail(c, builtInApp())
		return
	}
	if err := s.Creator.DeleteApp(c.Request.Context(), a); err != nil {
		fail(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"status": "ok", "data": gin.H{"slug": a.Slug, "deleted": true}})
}

func builtInApp() error {
	return kiln.Errorf(kiln.KindForbidden, "built_in_app", "the app %s is built in and cannot be changed; register your own with POST /apps", kiln.DefaultApp)
}

func appNotFound(slug string) error {
	return kiln.Errorf(kiln.KindNotFound, "app_not_found", "no app %s", slug)
}

// creatorApp is the app of slug: the built-in one, or a registered one.
func (s *Server) creatorApp(ctx context.Context, slug string) (*kiln.App, error) {
	if err := kiln.CheckSlug(slug); err != nil {
		return nil, err
	}
	if slug == kiln.DefaultApp {
		return defaultApp(), nil
	}
	a, err := s.Creator.App(ctx, slug)
	if kiln.KindOf(err) == kiln.KindNotFound {
		return nil, appNotFound(slug)
	}
	return a, err
}

// defaultApp is the operator's built-in app: every style, the default
// limits, framed from anywhere, its avatars the admin account's.
func defaultApp() *kiln.App {
	return &kiln.App{Slug: kiln.DefaultApp, Name: "Kiln", Account: kiln.DefaultAppAccount,
		AllowedOrigins: []string{}, Styles: kiln.AppStyles{}}
}

// appView is an app as its owner sees it, with its creator's URL and its
// limits resolved.
func (s *Server) appView(a *kiln.App) gin.H {
	styles := a.Styles
	if styles == nil {
		styles = kiln.AppStyles{}
	}
	return gin.H{
		"slug":           a.Slug,
		"name":           a.Name,
		"account":        a.Account,
		"allowedOrigins": a.AllowedOrigins,
		"defaults":       a.Defaults,
		"styles":         styles,
		"rateLimits":     a.RateLimits.Resolved(),
		"creatorUrl":     s.PublicAvatarURL + "/apps/" + a.Slug + "/avatar",
		"createdAt":      a.CreatedAt,
		"updatedAt":      a.UpdatedAt,
	}
}

// mintUser serves POST /apps/{slug}/users: the app's server makes a user
// (or names one of the app's) and gets a token to pass to the creator as
// ?token=, so that the person finds the same avatars in any browser.
func (s *Server) mintUser(c *gin.Context) {
	a, err := s.ownedApp(c)
	if err != nil {
		fail(c, err)
		return
	}
	var in struct {
		UserID    string `json:"userId"`
		ExpiresIn int64  `json:"expiresIn"`
	}
	if c.Request.ContentLength != 0 {
		dec := json.NewDecoder(http.MaxBytesReader(c.Writer, c.Request.Body, 4<<10))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&in); err != nil {
			fail(c, invalidf("invalid_user", "the body must be {\"userId\": optional, \"expiresIn\": optional seconds}: %v", err))
			return
		}
	}
	ttl := kiln.MintedTokenTTL
	if in.ExpiresIn != 0 {
		ttl = time.Duration(in.ExpiresIn) * time.Second
		if ttl < kiln.MinUserTokenTTL || ttl > kiln.MaxUserTokenTTL {
			fail(c, invalidf("invalid_expiry", "expiresIn: give %d to %d seconds", int(kiln.MinUserTokenTTL.Seconds()), int(kiln.MaxUserTokenTTL.Seconds())))
			return
		}
	}
	ctx := c.Request.Context()
	var u *kiln.CreatorUser
	if in.UserID != "" {
		if u, err = s.appUser(ctx, a, in.UserID); err != nil {
			fail(c, err)
			return
		}
	} else if u, err = s.newCreatorUser(ctx, a); err != nil {
		fail(c, err)
		return
	}
	s.answerToken(c, a, u, ttl)
}

// appUser is the app's user id: another app's user, or none, is a 404.
func (s *Server) appUser(ctx context.Context, a *kiln.App, id string) (*kiln.CreatorUser, error) {
	notFound := kiln.Errorf(kiln.KindNotFound, "user_not_found", "app %s has no user %s", a.Slug, id)
	if !kiln.ValidID(id) {
		return nil, notFound
	}
	u, err := s.Creator.CreatorUser(ctx, id)
	switch {
	case kiln.KindOf(err) == kiln.KindNotFound:
		return nil, notFound
	case err != nil:
		return nil, err
	case u.App != a.Slug || u.CreatedAt.Before(a.CreatedAt):
		// A user of an app that was deleted and whose slug was taken
		// again is not the new app's.
		return nil, notFound
	}
	return u, nil
}

func (s *Server) newCreatorUser(ctx context.Context, a *kiln.App) (*kiln.CreatorUser, error) {
	u := &kiln.CreatorUser{ID: kiln.NewID("us"), App: a.Slug, CreatedAt: time.Now().UTC()}
	if err := s.Creator.CreateCreatorUser(ctx, u); err != nil {
		return nil, err
	}
	return u, nil
}

// answerToken answers 201 with a user and a new token for it.
func (s *Server) answerToken(c *gin.Context, a *kiln.App, u *kiln.CreatorUser, ttl time.Duration) {
	expires := time.Now().Add(ttl).UTC().Truncate(time.Second)
	tok, err := s.signUserToken(c.Request.Context(), a.Slug, u.ID, expires)
	if err != nil {
		fail(c, err)
		return
	}
	c.JSON(http.StatusCreated, gin.H{"status": "ok", "data": gin.H{
		"userId": u.ID, "token": tok, "app": a.Slug, "expiresAt": expires,
	}})
}
