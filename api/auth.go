package api

import (
	"crypto/subtle"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/kilnhq/kiln"
)

const keyCtx = "kiln.key"

// Public marks a route that needs no credential; KeyOnly one that needs a
// valid key but no scope (like and unlike, spec section 5).
const (
	Public  = "-"
	KeyOnly = ""
)

// authenticate resolves the Bearer key of a request: the admin key, or a
// stored key by the hash of its secret.
func (s *Server) authenticate(c *gin.Context) (*kiln.APIKey, error) {
	h := c.GetHeader("Authorization")
	secret, ok := strings.CutPrefix(h, "Bearer ")
	secret = strings.TrimSpace(secret)
	if !ok || secret == "" {
		return nil, kiln.Errorf(kiln.KindUnauthorized, "unauthorized", "send an API key as Authorization: Bearer <key>")
	}
	if s.AdminKey != "" && subtle.ConstantTimeCompare([]byte(secret), []byte(s.AdminKey)) == 1 {
		return adminKey(), nil
	}
	k, err := s.Keys.KeyBySecretHash(c.Request.Context(), kiln.HashSecret(secret))
	if kiln.KindOf(err) == kiln.KindNotFound {
		return nil, kiln.Errorf(kiln.KindUnauthorized, "unauthorized", "the API key is unknown or revoked")
	}
	if err != nil {
		return nil, err
	}
	return k, nil
}

func adminKey() *kiln.APIKey {
	return &kiln.APIKey{ID: "admin", Name: "admin", Account: "admin", Scopes: kiln.AllScopes, Plan: kiln.PlanEnterprise, Admin: true}
}

// require is the middleware of the scope table: 401 without a known key,
// 403 with a key that lacks scope.
func (s *Server) require(scope string) gin.HandlerFunc {
	return func(c *gin.Context) {
		if scope == Public {
			return
		}
		k, err := s.authenticate(c)
		if err != nil {
			fail(c, err)
			return
		}
		if scope != KeyOnly && !k.HasScope(scope) {
			fail(c, kiln.Errorf(kiln.KindForbidden, "missing_scope", "this API key lacks the scope %s", scope))
			return
		}
		c.Set(keyCtx, k)
	}
}

func (s *Server) requireAdmin(c *gin.Context) {
	k, err := s.authenticate(c)
	if err != nil {
		fail(c, err)
		return
	}
	if !k.Admin {
		fail(c, kiln.Errorf(kiln.KindForbidden, "admin_only", "only the admin key may manage API keys"))
		return
	}
	c.Set(keyCtx, k)
}

// callerKey is the key that require or requireAdmin stored.
func callerKey(c *gin.Context) *kiln.APIKey {
	k, _ := c.MustGet(keyCtx).(*kiln.APIKey)
	return k
}

// owned is the one ownership rule for a resource looked up by the id in
// a request: r and err are the lookup's answer. A missing
// resource and another account's both answer notFound, so that ids of
// other accounts cannot be probed; the admin key acts for every account.
// (A resource that a request names to build into the caller's own, such
// as a viewer's object, must be the caller's account's: see
// accountObject.)
func owned[R interface{ Owner() string }](c *gin.Context, r R, err, notFound error) (R, error) {
	var none R
	switch k := callerKey(c); {
	case kiln.KindOf(err) == kiln.KindNotFound:
		return none, notFound
	case err != nil:
		return none, err
	case r.Owner() != k.Account && !k.Admin:
		return none, notFound
	}
	return r, nil
}

// monitorAuth guards asynqmon with HTTP Basic auth (user admin, the admin
// key as password), which a browser can answer without any client code.
func (s *Server) monitorAuth(c *gin.Context) {
	user, pass, ok := c.Request.BasicAuth()
	if !ok || user != "admin" || s.AdminKey == "" ||
		subtle.ConstantTimeCompare([]byte(pass), []byte(s.AdminKey)) != 1 {
		c.Header("WWW-Authenticate", `Basic realm="kiln monitoring"`)
		c.AbortWithStatusJSON(401, errorBody{Status: "error", Error: errorDetail{
			Code: "unauthorized", Message: "log in as user admin with the admin key as password",
		}})
	}
}
