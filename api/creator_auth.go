package api

import (
	"context"
	"crypto/hmac"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/kilnhq/kiln"
)

// A user token is "<app>.<user>.<expiry>.<mac>": the app's slug, the
// user's id, the Unix second it expires, and an HMAC over the three with
// the deployment's creator secret. It carries no API key and grants only
// the user's own avatars in that app; the page keeps it (a guest's) or
// receives it as ?token= (one the app's server minted).
func (s *Server) signUserToken(ctx context.Context, app, user string, expires time.Time) (string, error) {
	secret, err := s.Creator.CreatorSecret(ctx, kiln.NewSecret())
	if err != nil {
		return "", err
	}
	payload := app + "." + user + "." + strconv.FormatInt(expires.Unix(), 10)
	return payload + "." + mac(secret, "user-token."+payload), nil
}

const creatorCtx = "kiln.creator"

// creatorCaller is who a user token names: the app and its user.
type creatorCaller struct {
	App  *kiln.App
	User *kiln.CreatorUser
}

// requireUser is the middleware of the creator's user endpoints: 401
// without a valid, unexpired token of a user of an existing app; 403 when
// the request names another app (?app=) than the token's.
func (s *Server) requireUser(c *gin.Context) {
	who, err := s.userOf(c)
	if err != nil {
		fail(c, err)
		return
	}
	if q := c.Query("app"); q != "" && q != who.App.Slug {
		fail(c, kiln.Errorf(kiln.KindForbidden, "token_of_another_app", "the user token is of app %s, not %s", who.App.Slug, q))
		return
	}
	c.Set(creatorCtx, who)
}

func (s *Server) userOf(c *gin.Context) (*creatorCaller, error) {
	tok, ok := strings.CutPrefix(c.GetHeader("Authorization"), "Bearer ")
	if tok = strings.TrimSpace(tok); !ok || tok == "" {
		return nil, kiln.Errorf(kiln.KindUnauthorized, "unauthorized", "send the user token as Authorization: Bearer <token> (POST /creator/users makes one)")
	}
	invalid := kiln.Errorf(kiln.KindUnauthorized, "invalid_token", "the user token is not valid; make a new user with POST /creator/users or ask the app for a new token")
	parts := strings.Split(tok, ".")
	if len(parts) != 4 || kiln.CheckSlug(parts[0]) != nil || !kiln.ValidID(parts[1]) {
		return nil, invalid
	}
	ctx := c.Request.Context()
	secret, err := s.Creator.CreatorSecret(ctx, kiln.NewSecret())
	if err != nil {
		return nil, err
	}
	if !hmac.Equal([]byte(parts[3]), []byte(mac(secret, "user-token."+strings.Join(parts[:3], ".")))) {
		return nil, invalid
	}
	exp, err := strconv.ParseInt(parts[2], 10, 64)
	if err != nil {
		return nil, invalid
	}
	if time.Now().Unix() > exp {
		return nil, kiln.Errorf(kiln.KindUnauthorized, "token_expired", "the user token has expired; ask the app for a new one")
	}
	app, err := s.creatorApp(ctx, parts[0])
	if kiln.KindOf(err) == kiln.KindNotFound {
		return nil, invalid
	}
	if err != nil {
		return nil, err
	}
	u, err := s.appUser(ctx, app, parts[1])
	if kiln.KindOf(err) == kiln.KindNotFound {
		return nil, invalid
	}
	if err != nil {
		return nil, err
	}
	return &creatorCaller{App: app, User: u}, nil
}

// caller is the user requireUser found.
func caller(c *gin.Context) *creatorCaller {
	who, _ := c.MustGet(creatorCtx).(*creatorCaller)
	return who
}

// limitCreate spends one of the app's creations (users, avatars, edits)
// per client address, then for the whole app, answering 429 with
// Retry-After when either is spent. The client's bucket goes first, so
// that one client over its bound does not use up the app's.
func (s *Server) limitCreate(c *gin.Context, a *kiln.App) bool {
	l := a.RateLimits.Resolved()
	return s.limit(c, "creator-client:"+a.Slug+":"+c.ClientIP(), kiln.HourlyLimit(l.CreatePerHourPerClient)) &&
		s.limit(c, "creator-app:"+a.Slug, kiln.HourlyLimit(l.CreatePerHour))
}
