package app

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"image/png"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/internal/config"
)

type okBody[T any] struct {
	Status string `json:"status"`
	Data   T      `json:"data"`
}

type appView struct {
	Slug           string              `json:"slug"`
	Name           string              `json:"name"`
	Account        string              `json:"account"`
	AllowedOrigins []string            `json:"allowedOrigins"`
	Styles         map[string][]string `json:"styles"`
	RateLimits     struct {
		CreatePerHour          int `json:"createPerHour"`
		CreatePerHourPerClient int `json:"createPerHourPerClient"`
	} `json:"rateLimits"`
	CreatorURL string `json:"creatorUrl"`
}

type tokenView struct {
	UserID    string    `json:"userId"`
	Token     string    `json:"token"`
	App       string    `json:"app"`
	ExpiresAt time.Time `json:"expiresAt"`
}

type creatorAvatar struct {
	ID            string          `json:"id"`
	ModelURL      string          `json:"modelUrl"`
	PreviewURL    string          `json:"previewUrl"`
	Configuration json.RawMessage `json:"configuration"`
	CreatedAt     time.Time       `json:"createdAt"`
	UpdatedAt     time.Time       `json:"updatedAt"`
	UserID        string          `json:"userId"`
	App           string          `json:"app"`
}

func postJSON(t *testing.T, url, key, body string) response {
	t.Helper()
	return do(t, "POST", url, key, strings.NewReader(body), map[string]string{"Content-Type": "application/json"})
}

func putJSON(t *testing.T, url, key, body string) response {
	t.Helper()
	return do(t, "PUT", url, key, strings.NewReader(body), map[string]string{"Content-Type": "application/json"})
}

// wantError checks a DESIGN.md error answer's status and code.
func wantError(t *testing.T, what string, res response, status int, code string) {
	t.Helper()
	if res.Status != status || res.errorCode(t) != code {
		t.Errorf("%s: %d %s, want %d %s", what, res.Status, res.Body, status, code)
	}
}

func registerApp(t *testing.T, r *Running, key, body string) appView {
	t.Helper()
	res := postJSON(t, r.AvatarURL+"/apps", key, body)
	var out okBody[appView]
	if res.Status != http.StatusCreated {
		t.Fatalf("POST /apps %s: %d %s", body, res.Status, res.Body)
	}
	res.json(t, &out)
	return out.Data
}

func guest(t *testing.T, r *Running, app string) tokenView {
	t.Helper()
	res := postJSON(t, r.AvatarURL+"/creator/users", "", `{"app":"`+app+`"}`)
	var out okBody[tokenView]
	if res.Status != http.StatusCreated {
		t.Fatalf("POST /creator/users %s: %d %s", app, res.Status, res.Body)
	}
	res.json(t, &out)
	if !strings.HasPrefix(out.Data.UserID, "us_") || out.Data.Token == "" || out.Data.App != app {
		t.Fatalf("POST /creator/users: %s", res.Body)
	}
	return out.Data
}

// TestCreatorApps registers, reads, changes and deletes apps with a key,
// and checks every field's validation and the ownership rule.
func TestCreatorApps(t *testing.T) {
	r := startPublic(t, nil)
	acme := newKey(t, r, "acme", kiln.ScopeAvatarWrite)
	other := newKey(t, r, "other", kiln.ScopeAvatarWrite)
	reader := newKey(t, r, "acme", kiln.ScopeProductRead)

	a := registerApp(t, r, acme, `{"slug":"acme-game","name":"Acme","allowedOrigins":["https://Game.Example:443","http://localhost:5173"],
		"defaults":{"gender":"female","configuration":{"hair":{"style":"bun"}}},"styles":{"hair":["bun","long"]},"rateLimits":{"createPerHourPerClient":5}}`)
	if a.Slug != "acme-game" || a.Account != "acme" || !slices.Equal(a.AllowedOrigins, []string{"http://localhost:5173", "https://game.example"}) ||
		a.RateLimits.CreatePerHourPerClient != 5 || a.RateLimits.CreatePerHour != kiln.DefaultCreatePerHour ||
		a.CreatorURL != r.AvatarURL+"/apps/acme-game/avatar" {
		t.Errorf("registered app: %+v", a)
	}

	for _, tc := range []struct {
		name, key, body string
		status          int
		code            string
	}{
		{"no key", "", `{"slug":"x1"}`, 401, "unauthorized"},
		{"key without avatar:write", reader, `{"slug":"x1"}`, 403, "missing_scope"},
		{"slug with capitals", acme, `{"slug":"Acme"}`, 400, "invalid_slug"},
		{"slug too short", acme, `{"slug":"a"}`, 400, "invalid_slug"},
		{"slug with a dot", acme, `{"slug":"a.b"}`, 400, "invalid_slug"},
		{"slug taken", other, `{"slug":"acme-game"}`, 409, "slug_taken"},
		{"the built-in slug", acme, `{"slug":"default"}`, 409, "slug_taken"},
		{"origin with a path", acme, `{"slug":"x1","allowedOrigins":["https://a.example/shop"]}`, 400, "invalid_origin"},
		{"origin without scheme", acme, `{"slug":"x1","allowedOrigins":["a.example"]}`, 400, "invalid_origin"},
		{"origin with a wildcard", acme, `{"slug":"x1","allowedOrigins":["https://*.a.example"]}`, 400, "invalid_origin"},
		{"unknown style", acme, `{"slug":"x1","styles":{"hair":["mohawk"]}}`, 400, "invalid_styles"},
		{"unknown category", acme, `{"slug":"x1","styles":{"hat":["cap"]}}`, 400, "invalid_styles"},
		{"bad default configuration", acme, `{"slug":"x1","defaults":{"configuration":{"body":{"height":9}}}}`, 400, "invalid_app"},
		{"bad gender", acme, `{"slug":"x1","defaults":{"gender":"robot"}}`, 400, "invalid_app"},
		{"negative limit", acme, `{"slug":"x1","rateLimits":{"createPerHour":-1}}`, 400, "invalid_rate_limit"},
		{"unknown field", acme, `{"slug":"x1","colour":"red"}`, 400, "invalid_app"},
	} {
		wantError(t, tc.name, postJSON(t, r.AvatarURL+"/apps", tc.key, tc.body), tc.status, tc.code)
	}

	var list okBody[[]appView]
	if res := do(t, "GET", r.AvatarURL+"/apps", acme, nil, nil); res.Status != 200 {
		t.Fatalf("GET /apps: %d %s", res.Status, res.Body)
	} else if res.json(t, &list); len(list.Data) != 1 || list.Data[0].Slug != "acme-game" {
		t.Errorf("GET /apps: %s", res.Body)
	}
	if res := do(t, "GET", r.AvatarURL+"/apps", other, nil, nil); res.Status != 200 || !strings.Contains(string(res.Body), `"data":[]`) {
		t.Errorf("GET /apps of another account: %d %s", res.Status, res.Body)
	}
	wantError(t, "another account's app", do(t, "GET", r.AvatarURL+"/apps/acme-game", other, nil, nil), 404, "app_not_found")
	wantError(t, "another account's app, PUT", putJSON(t, r.AvatarURL+"/apps/acme-game", other, `{"name":"mine"}`), 404, "app_not_found")
	wantError(t, "the built-in app, DELETE", do(t, "DELETE", r.AvatarURL+"/apps/default", r.AdminKey, nil, nil), 403, "built_in_app")

	res := putJSON(t, r.AvatarURL+"/apps/acme-game", acme, `{"name":"Acme 2","allowedOrigins":["https://game.example"]}`)
	var put okBody[appView]
	if res.Status != 200 {
		t.Fatalf("PUT: %d %s", res.Status, res.Body)
	}
	if res.json(t, &put); put.Data.Name != "Acme 2" || len(put.Data.Styles) != 0 || put.Data.RateLimits.CreatePerHourPerClient != kiln.DefaultCreatePerHourPerClient {
		t.Errorf("PUT replaces the app: %s", res.Body)
	}
	wantError(t, "PUT with another slug", putJSON(t, r.AvatarURL+"/apps/acme-game", acme, `{"slug":"other"}`), 400, "invalid_slug")

	// A user of the app; after the app is deleted its token stops
	// working, and a new app under the slug does not inherit the user.
	u := guest(t, r, "acme-game")
	if res := do(t, "DELETE", r.AvatarURL+"/apps/acme-game", acme, nil, nil); res.Status != 200 {
		t.Fatalf("DELETE: %d %s", res.Status, res.Body)
	}
	wantError(t, "deleted app", do(t, "GET", r.AvatarURL+"/apps/acme-game", acme, nil, nil), 404, "app_not_found")
	wantError(t, "token of a deleted app", do(t, "GET", r.AvatarURL+"/creator/users/me", u.Token, nil, nil), 401, "invalid_token")
	registerApp(t, r, other, `{"slug":"acme-game"}`)
	wantError(t, "token of the slug's former app", do(t, "GET", r.AvatarURL+"/creator/users/me", u.Token, nil, nil), 401, "invalid_token")
	wantError(t, "minting for the former app's user", postJSON(t, r.AvatarURL+"/apps/acme-game/users", other, `{"userId":"`+u.UserID+`"}`), 404, "user_not_found")
}

// signToken makes a user token as Kiln does (README: "<app>.<user>.<expiry>.<mac>"),
// with the deployment's secret, to check expiry on its own.
func signToken(t *testing.T, r *Running, app, user string, exp time.Time) string {
	t.Helper()
	secret, err := r.DB.CreatorSecret(context.Background(), "unused")
	if err != nil {
		t.Fatal(err)
	}
	payload := app + "." + user + "." + strconv.FormatInt(exp.Unix(), 10)
	h := hmac.New(sha256.New, []byte(secret))
	h.Write([]byte("user-token." + payload))
	return payload + "." + base64.RawURLEncoding.EncodeToString(h.Sum(nil))
}

// TestCreatorUsers: guests, tokens minted by an app's server, and every
// way a token is refused.
func TestCreatorUsers(t *testing.T) {
	r := startPublic(t, nil)
	acme := newKey(t, r, "acme", kiln.ScopeAvatarWrite)
	other := newKey(t, r, "other", kiln.ScopeAvatarWrite)
	registerApp(t, r, acme, `{"slug":"acme"}`)
	registerApp(t, r, other, `{"slug":"rival"}`)

	g := guest(t, r, "acme")
	if d := time.Until(g.ExpiresAt); d < kiln.GuestTokenTTL-time.Minute || d > kiln.GuestTokenTTL {
		t.Errorf("guest token expires in %v", d)
	}
	res := do(t, "GET", r.AvatarURL+"/creator/users/me", g.Token, nil, nil)
	if res.Status != 200 || string(res.Body) != `{"data":{"app":"acme","userId":"`+g.UserID+`"},"status":"ok"}` {
		t.Errorf("GET me: %d %s", res.Status, res.Body)
	}
	if res := postJSON(t, r.AvatarURL+"/creator/users", "", ``); res.Status != 201 || !strings.Contains(string(res.Body), `"app":"default"`) {
		t.Errorf("a guest of the built-in app: %d %s", res.Status, res.Body)
	}
	wantError(t, "guest of an unknown app", postJSON(t, r.AvatarURL+"/creator/users", "", `{"app":"nobody"}`), 404, "app_not_found")
	wantError(t, "guest of a bad slug", postJSON(t, r.AvatarURL+"/creator/users", "", `{"app":"No Such"}`), 400, "invalid_slug")

	// The app's server mints a token for a new user, then one more for
	// the same user, which sees the same avatars.
	res = postJSON(t, r.AvatarURL+"/apps/acme/users", acme, `{"expiresIn":600}`)
	var minted okBody[tokenView]
	if res.Status != 201 {
		t.Fatalf("mint: %d %s", res.Status, res.Body)
	}
	res.json(t, &minted)
	if d := time.Until(minted.Data.ExpiresAt); d < 9*time.Minute || d > 10*time.Minute {
		t.Errorf("minted token expires in %v", d)
	}
	res = postJSON(t, r.AvatarURL+"/apps/acme/users", acme, `{"userId":"`+minted.Data.UserID+`"}`)
	var again okBody[tokenView]
	if res.json(t, &again); res.Status != 201 || again.Data.UserID != minted.Data.UserID || again.Data.Token == minted.Data.Token {
		t.Errorf("mint for an existing user: %d %s", res.Status, res.Body)
	}
	wantError(t, "mint for another app's user", postJSON(t, r.AvatarURL+"/apps/rival/users", other, `{"userId":"`+g.UserID+`"}`), 404, "user_not_found")
	wantError(t, "mint for another account's app", postJSON(t, r.AvatarURL+"/apps/acme/users", other, `{}`), 404, "app_not_found")
	wantError(t, "mint with a bad expiry", postJSON(t, r.AvatarURL+"/apps/acme/users", acme, `{"expiresIn":5}`), 400, "invalid_expiry")
	if res := postJSON(t, r.AvatarURL+"/apps/default/users", r.AdminKey, ``); res.Status != 201 {
		t.Errorf("the operator mints for the built-in app: %d %s", res.Status, res.Body)
	}

	forged := strings.Split(g.Token, ".")
	forged[1] = minted.Data.UserID
	tampered := g.Token[:len(g.Token)-2] + "xx"
	for _, tc := range []struct {
		name, token string
		code        string
	}{
		{"no token", "", "unauthorized"},
		{"an API key", acme, "invalid_token"},
		{"another user's id under a guest's mac", strings.Join(forged, "."), "invalid_token"},
		{"a changed mac", tampered, "invalid_token"},
		{"expired", signToken(t, r, "acme", g.UserID, time.Now().Add(-time.Second)), "token_expired"},
		{"signed with another secret", "acme." + g.UserID + ".9999999999.AAAA", "invalid_token"},
		{"an unknown user", signToken(t, r, "acme", "us_nobody", time.Now().Add(time.Hour)), "invalid_token"},
		{"a user of another app", signToken(t, r, "rival", g.UserID, time.Now().Add(time.Hour)), "invalid_token"},
	} {
		wantError(t, tc.name, do(t, "GET", r.AvatarURL+"/creator/users/me", tc.token, nil, nil), 401, tc.code)
	}
	wantError(t, "token of another app than ?app=", do(t, "GET", r.AvatarURL+"/creator/users/me?app=rival", g.Token, nil, nil), 403, "token_of_another_app")
}

// TestCreatorAvatars: a user makes, lists, reads and edits avatars; the
// edit keeps id and URLs and changes model and preview bytes and ETags;
// another user, app or account cannot reach them; PUT /avatar/{id} edits
// with the owning key.
func TestCreatorAvatars(t *testing.T) {
	r := startPublic(t, nil)
	acme := newKey(t, r, "acme", kiln.ScopeAvatarWrite)
	other := newKey(t, r, "other", kiln.ScopeAvatarWrite)
	registerApp(t, r, acme, `{"slug":"acme","styles":{"hair":["short","long","bun"]},"defaults":{"gender":"female"}}`)
	registerApp(t, r, other, `{"slug":"rival"}`)
	u := guest(t, r, "acme")
	stranger := guest(t, r, "acme")
	rival := guest(t, r, "rival")

	cfg := `{"body":{"type":"feminine"},"hair":{"style":"long","color":"black"},"outfit":{"top":{"style":"tshirt","color":"#ff0000"}}}`
	res := postJSON(t, r.AvatarURL+"/creator/avatars", u.Token, cfg)
	if res.Status != 201 {
		t.Fatalf("POST /creator/avatars: %d %s", res.Status, res.Body)
	}
	var made okBody[creatorAvatar]
	res.json(t, &made)
	av := made.Data
	if !strings.HasPrefix(av.ID, "av_") || av.UserID != u.UserID || av.App != "acme" ||
		av.ModelURL != r.AvatarURL+"/model/"+av.ID+".glb" || av.PreviewURL != r.AvatarURL+"/preview/"+av.ID+".png" ||
		!strings.Contains(string(av.Configuration), `"color":"#ff0000"`) {
		t.Errorf("made: %s", res.Body)
	}

	wantError(t, "bad configuration", postJSON(t, r.AvatarURL+"/creator/avatars", u.Token, `{"body":{"height":9}}`), 400, "invalid_avatar_config")
	wantError(t, "a style the app does not offer", postJSON(t, r.AvatarURL+"/creator/avatars", u.Token, `{"hair":{"style":"curly"}}`), 400, "style_not_offered")
	wantError(t, "no token", postJSON(t, r.AvatarURL+"/creator/avatars", "", cfg), 401, "unauthorized")

	var list okBody[[]creatorAvatar]
	res = do(t, "GET", r.AvatarURL+"/creator/avatars", u.Token, nil, nil)
	if res.json(t, &list); res.Status != 200 || len(list.Data) != 1 || list.Data[0].ID != av.ID {
		t.Errorf("list: %d %s", res.Status, res.Body)
	}
	if res := do(t, "GET", r.AvatarURL+"/creator/avatars", stranger.Token, nil, nil); res.Status != 200 || !strings.Contains(string(res.Body), `"data":[]`) {
		t.Errorf("another user's list: %d %s", res.Status, res.Body)
	}
	if res := do(t, "GET", r.AvatarURL+"/creator/avatars/"+av.ID, u.Token, nil, nil); res.Status != 200 {
		t.Errorf("get: %d %s", res.Status, res.Body)
	}
	for name, tok := range map[string]string{"another user": stranger.Token, "another app's user": rival.Token} {
		wantError(t, name+" reads", do(t, "GET", r.AvatarURL+"/creator/avatars/"+av.ID, tok, nil, nil), 404, "avatar_not_found")
		wantError(t, name+" edits", putJSON(t, r.AvatarURL+"/creator/avatars/"+av.ID, tok, cfg), 404, "avatar_not_found")
	}
	wantError(t, "an unknown avatar", do(t, "GET", r.AvatarURL+"/creator/avatars/av_nothing", u.Token, nil, nil), 404, "avatar_not_found")

	// The first build, model and preview, as a client caches them.
	modelPath := strings.TrimPrefix(av.ModelURL, r.AvatarURL)
	previewPath := strings.TrimPrefix(av.PreviewURL, r.AvatarURL)
	m1, _, _ := getModel(t, r, av.ID, "")
	p1 := getPreview(t, r, previewPath)
	for _, res := range []response{m1, p1} {
		if cc := res.Header.Get("Cache-Control"); cc != "public, no-cache" {
			t.Errorf("an avatar file's Cache-Control %q: a client must revalidate", cc)
		}
	}
	if res := do(t, "GET", r.AvatarURL+modelPath, "", nil, map[string]string{"If-None-Match": m1.Header.Get("ETag")}); res.Status != 304 {
		t.Errorf("revalidating the unchanged model: %d", res.Status)
	}

	time.Sleep(10 * time.Millisecond)
	edited := `{"body":{"type":"feminine"},"hair":{"style":"bun","color":"blonde"},"outfit":{"top":{"style":"hoodie","color":"#00ff00"}}}`
	res = putJSON(t, r.AvatarURL+"/creator/avatars/"+av.ID, u.Token, edited)
	var ed okBody[creatorAvatar]
	if res.Status != 200 {
		t.Fatalf("PUT: %d %s", res.Status, res.Body)
	}
	res.json(t, &ed)
	if ed.Data.ID != av.ID || ed.Data.ModelURL != av.ModelURL || ed.Data.PreviewURL != av.PreviewURL ||
		!ed.Data.UpdatedAt.After(av.UpdatedAt) || !ed.Data.CreatedAt.Equal(av.CreatedAt) || !strings.Contains(string(ed.Data.Configuration), `"style":"hoodie"`) {
		t.Errorf("edit: %s (before %+v)", res.Body, av)
	}
	// A client revalidating with the old ETag gets the new bytes.
	m2 := do(t, "GET", r.AvatarURL+modelPath, "", nil, map[string]string{"If-None-Match": m1.Header.Get("ETag")})
	if m2.Status != 200 || bytes.Equal(m2.Body, m1.Body) || m2.Header.Get("ETag") == m1.Header.Get("ETag") {
		t.Errorf("model after the edit: %d, same bytes %v, ETag %q then %q", m2.Status, bytes.Equal(m2.Body, m1.Body), m1.Header.Get("ETag"), m2.Header.Get("ETag"))
	}
	if _, s, _ := getModel(t, r, av.ID, ""); !hasMesh(s, "Wolf3D_Hair") {
		t.Errorf("the edited model has no hair")
	}
	p2 := getPreview(t, r, previewPath)
	if bytes.Equal(p1.Body, p2.Body) || p1.Header.Get("ETag") == p2.Header.Get("ETag") {
		t.Errorf("preview after the edit: same bytes %v, ETag %q then %q", bytes.Equal(p1.Body, p2.Body), p1.Header.Get("ETag"), p2.Header.Get("ETag"))
	}

	// The app's account owns the avatar: its key edits it with PUT
	// /avatar/{id}; another account's key finds nothing.
	wantError(t, "PUT /avatar by another account", putJSON(t, r.AvatarURL+"/avatar/"+av.ID, other, edited), 404, "avatar_not_found")
	wantError(t, "PUT /avatar bad configuration", putJSON(t, r.AvatarURL+"/avatar/"+av.ID, acme, `{"skin":{"tone":"plaid"}}`), 400, "invalid_avatar_config")
	wantError(t, "PUT /avatar of a built-in", putJSON(t, r.AvatarURL+"/avatar/default-male", acme, edited), 403, "built_in_avatar")
	res = putJSON(t, r.AvatarURL+"/avatar/"+av.ID, acme, `{"body":{"type":"masculine"},"hair":{"style":"bald"}}`)
	if res.Status != 200 || !strings.Contains(string(res.Body), `"modelUrl":"`+av.ModelURL+`"`) {
		t.Errorf("PUT /avatar by the owning key: %d %s", res.Status, res.Body)
	}
	if _, s, _ := getModel(t, r, av.ID, ""); hasMesh(s, "Wolf3D_Hair") {
		t.Errorf("after PUT /avatar with bald hair the model still has hair")
	}
}

// getPreview downloads a preview and checks it is a PNG with some of
// the avatar in it.
func getPreview(t *testing.T, r *Running, path string) response {
	t.Helper()
	res := do(t, "GET", r.AvatarURL+path, "", nil, nil)
	if res.Status != 200 || res.Header.Get("ETag") == "" {
		t.Fatalf("GET %s: %d %s", path, res.Status, res.Body)
	}
	if opaque := opaquePixels(t, res.Body); opaque < 1000 {
		t.Fatalf("GET %s: %d opaque pixels", path, opaque)
	}
	return res
}

func opaquePixels(t *testing.T, b []byte) int {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	n := 0
	bb := img.Bounds()
	for y := bb.Min.Y; y < bb.Max.Y; y++ {
		for x := bb.Min.X; x < bb.Max.X; x++ {
			if _, _, _, a := img.At(x, y).RGBA(); a > 0xff00 {
				n++
			}
		}
	}
	return n
}

// hasMesh reports whether a scene has a mesh named name.
func hasMesh(s *scene.Scene, name string) bool {
	for _, m := range s.Meshes {
		if m.Name == name {
			return true
		}
	}
	return false
}

// TestCreatorRateLimits: users, avatars and edits share the app's
// per-client bound; over it, a 429 with Retry-After, for that app only.
func TestCreatorRateLimits(t *testing.T) {
	r := startPublic(t, nil)
	acme := newKey(t, r, "acme", kiln.ScopeAvatarWrite)
	registerApp(t, r, acme, `{"slug":"tight","rateLimits":{"createPerHourPerClient":3}}`)
	registerApp(t, r, acme, `{"slug":"roomy"}`)
	u := guest(t, r, "tight")                                         // 1
	res := postJSON(t, r.AvatarURL+"/creator/avatars", u.Token, `{}`) // 2
	if res.Status != 201 {
		t.Fatalf("avatar: %d %s", res.Status, res.Body)
	}
	var made okBody[creatorAvatar]
	res.json(t, &made)
	if res := putJSON(t, r.AvatarURL+"/creator/avatars/"+made.Data.ID, u.Token, `{"hair":{"style":"bald"}}`); res.Status != 200 { // 3
		t.Fatalf("edit: %d %s", res.Status, res.Body)
	}
	for name, res := range map[string]response{
		"a user":    postJSON(t, r.AvatarURL+"/creator/users", "", `{"app":"tight"}`),
		"an avatar": postJSON(t, r.AvatarURL+"/creator/avatars", u.Token, `{}`),
		"an edit":   putJSON(t, r.AvatarURL+"/creator/avatars/"+made.Data.ID, u.Token, `{}`),
	} {
		wantError(t, name+" over the limit", res, 429, "rate_limited")
		if ra, err := strconv.Atoi(res.Header.Get("Retry-After")); err != nil || ra < 1 || ra > 3600/3+1 {
			t.Errorf("%s over the limit: Retry-After %q", name, res.Header.Get("Retry-After"))
		}
	}
	guest(t, r, "roomy")
}

// TestCreatorPage: the page at the leader's URLs and per app, with the
// app's settings in the boot script (escaped for a script tag), the
// language, frame-ancestors from the app's origins, the Host label under
// the creator domain, and its static files.
func TestCreatorPage(t *testing.T) {
	r := startPublic(t, func(c *config.Config) { c.CreatorDomain = "avatars.test" })
	acme := newKey(t, r, "acme", kiln.ScopeAvatarWrite)
	registerApp(t, r, acme, `{"slug":"acme","name":"Acme </script><script>alert(1)</script>","allowedOrigins":["https://game.example","http://localhost:5173"],"styles":{"glasses":["none"]}}`)

	boot := regexp.MustCompile(`<script id="kiln-boot" type="application/json">(.*?)</script>`)

	// The start page's link opens the creator, as a person clicking it would.
	link := regexp.MustCompile(`<a href="([^"]+)">Avatar creator</a>`).FindSubmatch(mustGet(t, r.PlatformURL+"/"))
	if link == nil {
		t.Fatal("the start page has no link to the avatar creator")
	}
	if page := mustGet(t, string(link[1])); len(boot.FindAll(page, -1)) != 1 {
		t.Errorf("the start page's creator link %s answers no creator page", link[1])
	}

	for _, tc := range []struct {
		path, host, accept string
		slug, lang, frame  string
	}{
		{"/avatar", "", "", "default", "en", "*"},
		{"/avatar", "", "de-DE,de;q=0.9,en;q=0.5", "default", "de", "*"},
		{"/ja/avatar?frameApi&clearCache", "", "", "default", "ja", "*"},
		{"/pt/avatar", "", "", "default", "pt-BR", "*"},
		{"/es-MX/avatar", "", "", "default", "es", "*"},
		{"/en-IE/avatar", "", "", "default", "en", "*"},
		{"/apps/acme/avatar", "", "fr", "acme", "fr", "http://localhost:5173 https://game.example"},
		{"/apps/acme/de/avatar?bodyType=fullbody", "", "", "acme", "de", "http://localhost:5173 https://game.example"},
		{"/avatar?app=acme", "", "", "acme", "en", "http://localhost:5173 https://game.example"},
		{"/avatar", "acme.avatars.test", "", "acme", "en", "http://localhost:5173 https://game.example"},
		{"/fr/avatar", "ACME.avatars.test:8081", "", "acme", "fr", "http://localhost:5173 https://game.example"},
	} {
		h := map[string]string{"Accept-Language": tc.accept}
		req, _ := http.NewRequest("GET", r.AvatarURL+tc.path, nil)
		for k, v := range h {
			req.Header.Set(k, v)
		}
		if tc.host != "" {
			req.Host = tc.host
		}
		hres, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var body bytes.Buffer
		body.ReadFrom(hres.Body)
		hres.Body.Close()
		what := tc.path + " " + tc.host
		if hres.StatusCode != 200 || !strings.HasPrefix(hres.Header.Get("Content-Type"), "text/html") || hres.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("%s: %d %q %q", what, hres.StatusCode, hres.Header.Get("Content-Type"), hres.Header.Get("Cache-Control"))
			continue
		}
		if csp := hres.Header.Get("Content-Security-Policy"); csp != "frame-ancestors "+tc.frame {
			t.Errorf("%s: CSP %q, want frame-ancestors %s", what, csp, tc.frame)
		}
		m := boot.FindAllSubmatch(body.Bytes(), -1)
		if len(m) != 1 {
			t.Errorf("%s: %d boot scripts", what, len(m))
			continue
		}
		var b struct {
			App struct {
				Slug           string              `json:"slug"`
				Name           string              `json:"name"`
				AllowedOrigins []string            `json:"allowedOrigins"`
				Styles         map[string][]string `json:"styles"`
			} `json:"app"`
			Lang string `json:"lang"`
			Base string `json:"base"`
		}
		if err := json.Unmarshal(m[0][1], &b); err != nil {
			t.Errorf("%s: boot %s: %v", what, m[0][1], err)
			continue
		}
		if b.App.Slug != tc.slug || b.Lang != tc.lang || b.Base != r.AvatarURL || len(b.App.Styles["hair"]) == 0 {
			t.Errorf("%s: boot %s", what, m[0][1])
		}
		if tc.slug == "acme" && (b.App.Name != "Acme </script><script>alert(1)</script>" || !slices.Equal(b.App.Styles["glasses"], []string{"none"})) {
			t.Errorf("%s: boot app %+v", what, b.App)
		}
		if bytes.Contains(body.Bytes(), []byte("alert(1)</script>")) || bytes.Contains(m[0][1], []byte("account")) {
			t.Errorf("%s: the boot script is not escaped, or says the account: %s", what, m[0][1])
		}
	}
	for _, path := range []string{"/apps/nobody/avatar", "/xx/avatar", "/apps/Bad_Slug/avatar", "/avatar?app=nobody"} {
		res := do(t, "GET", r.AvatarURL+path, "", nil, nil)
		if res.Status != 404 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
			t.Errorf("%s: %d %s, want a 404 page", path, res.Status, res.Header.Get("Content-Type"))
		}
	}
	if res := do(t, "HEAD", r.AvatarURL+"/apps/acme/avatar", "", nil, nil); res.Status != 200 || res.Header.Get("Content-Security-Policy") == "" {
		t.Errorf("HEAD page: %d", res.Status)
	}

	// Static files: the page's module, with an ETag, revalidated.
	js := regexp.MustCompile(`/creator/static/[A-Za-z0-9_./-]+\.js`).Find(mustGet(t, r.AvatarURL+"/avatar"))
	if js == nil {
		t.Fatal("the page loads no module from /creator/static/")
	}
	res := do(t, "GET", r.AvatarURL+string(js), "", nil, nil)
	if res.Status != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/javascript") || res.Header.Get("ETag") == "" ||
		!strings.HasPrefix(res.Header.Get("Cache-Control"), "public, max-age=") {
		t.Errorf("%s: %d %v", js, res.Status, res.Header)
	}
	if again := do(t, "GET", r.AvatarURL+string(js), "", nil, map[string]string{"If-None-Match": res.Header.Get("ETag")}); again.Status != 304 {
		t.Errorf("%s revalidated: %d", js, again.Status)
	}
	for _, path := range []string{"/creator/static/", "/creator/static/../../go.mod", "/creator/static/nothing.js"} {
		if res := do(t, "GET", r.AvatarURL+path, "", nil, nil); res.Status != 404 {
			t.Errorf("%s: %d, want 404", path, res.Status)
		}
	}
}

func mustGet(t *testing.T, url string) []byte {
	t.Helper()
	res := do(t, "GET", url, "", nil, nil)
	if res.Status != 200 {
		t.Fatalf("GET %s: %d", url, res.Status)
	}
	return res.Body
}

// TestCreatorCatalog: the app's styles with thumbnails Kiln renders (a
// PNG with the avatar in it, another for the other body), and the
// quick-start templates with their pictures.
func TestCreatorCatalog(t *testing.T) {
	r := startPublic(t, nil)
	acme := newKey(t, r, "acme", kiln.ScopeAvatarWrite)
	registerApp(t, r, acme, `{"slug":"acme","styles":{"hair":["long","bun"]}}`)
	type item struct {
		ID, Label, ThumbnailURL string
	}
	var cat okBody[struct {
		Styles    map[string][]item `json:"styles"`
		Templates []struct {
			ID            string          `json:"id"`
			Label         string          `json:"label"`
			Configuration json.RawMessage `json:"configuration"`
			PreviewURL    string          `json:"previewUrl"`
		} `json:"templates"`
	}]
	res := do(t, "GET", r.AvatarURL+"/creator/catalog?app=acme", "", nil, nil)
	if res.Status != 200 {
		t.Fatalf("catalog: %d %s", res.Status, res.Body)
	}
	res.json(t, &cat)
	hair := cat.Data.Styles["hair"]
	if len(hair) != 2 || hair[0].ID != "bun" || hair[1].ID != "long" || hair[1].Label != "Long" ||
		hair[1].ThumbnailURL != r.AvatarURL+"/creator/thumbnails/hair/long.png" || len(cat.Data.Styles["top"]) != 5 || len(cat.Data.Templates) < 4 {
		t.Errorf("catalog: %s", res.Body)
	}
	wantError(t, "catalog of an unknown app", do(t, "GET", r.AvatarURL+"/creator/catalog?app=nobody", "", nil, nil), 404, "app_not_found")

	start := time.Now()
	masc := do(t, "GET", hair[1].ThumbnailURL, "", nil, nil)
	t.Logf("first thumbnail in %v", time.Since(start))
	fem := do(t, "GET", hair[1].ThumbnailURL+"?type=female", "", nil, nil)
	for name, res := range map[string]response{"masculine": masc, "feminine": fem} {
		if res.Status != 200 || res.Header.Get("Content-Type") != "image/png" || res.Header.Get("ETag") == "" {
			t.Fatalf("%s thumbnail: %d %s", name, res.Status, res.Body)
		}
		if n := opaquePixels(t, res.Body); n < 2000 {
			t.Errorf("%s thumbnail: %d opaque pixels", name, n)
		}
	}
	if bytes.Equal(masc.Body, fem.Body) {
		t.Error("the thumbnail is the same on both bodies")
	}
	if res := do(t, "GET", hair[1].ThumbnailURL, "", nil, map[string]string{"If-None-Match": masc.Header.Get("ETag")}); res.Status != 304 {
		t.Errorf("thumbnail revalidated: %d", res.Status)
	}
	tpl := do(t, "GET", cat.Data.Templates[0].PreviewURL, "", nil, nil)
	if tpl.Status != 200 || opaquePixels(t, tpl.Body) < 2000 {
		t.Errorf("template picture: %d", tpl.Status)
	}
	wantError(t, "unknown style", do(t, "GET", r.AvatarURL+"/creator/thumbnails/hair/mohawk.png", "", nil, nil), 404, "no_such_style")
	wantError(t, "unknown category", do(t, "GET", r.AvatarURL+"/creator/thumbnails/hat/long.png", "", nil, nil), 404, "no_such_style")
	wantError(t, "bad body type", do(t, "GET", hair[1].ThumbnailURL+"?type=robot", "", nil, nil), 400, "invalid_type")
	wantError(t, "unknown template", do(t, "GET", r.AvatarURL+"/creator/templates/nobody.png", "", nil, nil), 404, "no_such_template")
}
