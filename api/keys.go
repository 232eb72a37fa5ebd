package api

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/kilnhq/kiln"
)

// ok answers the avatar service's success body, {"status":"ok","data":…}.
func ok(c *gin.Context, status int, data any) {
	c.JSON(status, gin.H{"status": "ok", "data": data})
}

// bindJSON decodes a small JSON body strictly: an unknown field is a 400
// naming it, not silently ignored.
func bindJSON(c *gin.Context, v any) error {
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, 1<<20)
	dec := json.NewDecoder(c.Request.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return invalidf("invalid_json", "the body is not the expected JSON: %v", err)
	}
	return nil
}

type keyRequest struct {
	Account string    `json:"account"`
	Name    string    `json:"name"`
	Scopes  []string  `json:"scopes"`
	Plan    kiln.Plan `json:"plan"`
}

func (s *Server) createKey(c *gin.Context) {
	var req keyRequest
	if err := bindJSON(c, &req); err != nil {
		fail(c, err)
		return
	}
	k, secret, err := kiln.NewAPIKey(req.Account, req.Name, req.Scopes, req.Plan)
	if err == nil {
		err = s.Keys.CreateKey(c.Request.Context(), k, kiln.HashSecret(secret))
	}
	if err != nil {
		fail(c, err)
		return
	}
	logger(c).Info("api key created", "key_id", k.ID, "account", k.Account, "scopes", k.Scopes)
	ok(c, http.StatusCreated, kiln.IssuedKey{APIKey: k, Key: secret})
}

func (s *Server) listKeys(c *gin.Context) {
	keys, err := s.Keys.ListKeys(c.Request.Context())
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, http.StatusOK, keys)
}

func (s *Server) revokeKey(c *gin.Context) {
	id := c.Param("id")
	if err := kiln.CheckID("id", id); err != nil {
		fail(c, err)
		return
	}
	if err := s.Keys.RevokeKey(c.Request.Context(), id); err != nil {
		if kiln.KindOf(err) == kiln.KindNotFound {
			err = kiln.Errorf(kiln.KindNotFound, "key_not_found", "no API key with id %s", id)
		}
		fail(c, err)
		return
	}
	logger(c).Info("api key revoked", "key_id", id)
	ok(c, http.StatusOK, gin.H{"id": id, "revoked": true})
}

// apiKeyAuthorized answers whether the caller's key holds every scope of
// the scopes query: 200 when it does, 403 naming the missing ones.
func (s *Server) apiKeyAuthorized(c *gin.Context) {
	k := callerKey(c)
	var asked, missing []string
	for _, sc := range strings.Split(c.Query("scopes"), ",") {
		sc = strings.TrimSpace(sc)
		if sc == "" {
			continue
		}
		if !slices.Contains(kiln.AllScopes, sc) {
			fail(c, invalidf("invalid_scopes", "scope %q is unknown; known scopes: %s", sc, strings.Join(kiln.AllScopes, ",")))
			return
		}
		asked = append(asked, sc)
		if !k.HasScope(sc) {
			missing = append(missing, sc)
		}
	}
	if len(missing) > 0 {
		fail(c, kiln.Errorf(kiln.KindForbidden, "missing_scope", "this API key lacks the scopes %s", strings.Join(missing, ",")))
		return
	}
	c.JSON(http.StatusOK, gin.H{
		"authorized": true,
		"keyId":      k.ID,
		"account":    k.Account,
		"scopes":     k.Scopes,
		"plan":       k.Plan,
		"checked":    nonNil(asked),
	})
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
