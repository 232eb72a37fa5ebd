package app

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/internal/config"
	"github.com/kilnhq/kiln/internal/fixture"
	"github.com/kilnhq/kiln/internal/testenv"
)

// startPublic runs a whole Kiln whose avatar listener is where its
// public URL says (modelUrl, previewUrl and the demo page point there),
// after edit has changed the configuration.
func startPublic(t *testing.T, edit func(*config.Config)) *Running {
	t.Helper()
	cfg := testenv.Config(t, 1)
	// Free ports, known before the start, to write into the public URL.
	ports := [2]int{testenv.FreePort(t), testenv.FreePort(t)}
	for ports[1] == ports[0] {
		ports[1] = testenv.FreePort(t)
	}
	cfg.PlatformAddr = "127.0.0.1:" + strconv.Itoa(ports[0])
	cfg.AvatarAddr = "127.0.0.1:" + strconv.Itoa(ports[1])
	cfg.PublicAvatarURL = "http://" + cfg.AvatarAddr
	if edit != nil {
		edit(cfg)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	r, err := Start(context.Background(), cfg, log, Roles{API: true, Worker: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Stop)
	return r
}

// TestCrossOriginInBrowser is a web app on its own origin, in headless
// chromium, using Kiln as integrators do: three.js (served by the app)
// loads an avatar and a clip straight from the avatar listener and plays
// the clip, a preview becomes a texture, a tracking event posts to the
// platform listener and /views counts it, and POST /avatar with a key
// works from the listed origin and is blocked from an unlisted one.
func TestCrossOriginInBrowser(t *testing.T) {
	node, script := browserTool(t)
	dir := filepath.Dir(script)
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "three", "build", "three.module.js")); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("three is missing; .ci/run installs it (npm ci in tools/browser-test)")
		}
		t.Skip("three is missing (npm ci in tools/browser-test)")
	}
	// The app's origin: its page and three's modules, nothing of Kiln's.
	mux := http.NewServeMux()
	mux.Handle("GET /three/", http.StripPrefix("/three/", http.FileServer(http.Dir(filepath.Join(dir, "node_modules", "three")))))
	mux.HandleFunc("GET /crossorigin.html", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFile(w, r, filepath.Join(dir, "crossorigin.html"))
	})
	app := httptest.NewServer(mux)
	defer app.Close()
	listed := app.URL // http://127.0.0.1:port
	unlisted := strings.Replace(app.URL, "127.0.0.1", "localhost", 1)

	r := startPublic(t, func(c *config.Config) {
		c.CORSOrigins = []string{listed}
		c.AvatarDefault = kiln.AvatarDefaultMale
	})
	key := newKey(t, r, "acme", kiln.ScopeAvatarWrite, kiln.ScopeProductRead, kiln.ScopeProductWrite,
		kiln.ScopeViewerWrite, kiln.ScopeViewerStatsRead)
	o := uploadObject(t, r, key, map[string]string{"name": "Cube", "type": "mesh", "extension": "glb"}, nil, fixture.CubeGLB())
	res := call(t, r, "POST", "/viewers", key, map[string]any{"type": "product", "name": "Embedded", "objectId": o.ObjectID, "public": true})
	want(t, "create viewer", res, http.StatusCreated, "")
	var v struct {
		Token string `json:"viewerToken"`
	}
	res.json(t, &v)

	// What the browser is told: the listed origin's preflight passes,
	// the unlisted one's is refused.
	for origin, status := range map[string]int{listed: http.StatusNoContent, unlisted: http.StatusForbidden} {
		res := do(t, "OPTIONS", r.AvatarURL+"/avatar", "", nil, map[string]string{"Origin": origin,
			"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization,content-type"})
		if res.Status != status || (status == http.StatusNoContent) != (res.Header.Get("Access-Control-Allow-Origin") == origin) {
			t.Fatalf("preflight from %s: %d %v, want %d", origin, res.Status, res.Header, status)
		}
	}
	q := url.Values{"avatar": {r.AvatarURL}, "platform": {r.PlatformURL}, "key": {key}, "viewer": {v.Token}}
	page := "/crossorigin.html?" + q.Encode()
	runBrowser(t, node, filepath.Join(dir, "crossorigin.mjs"), listed+page, unlisted+page)

	var views struct {
		Totals struct{ Views int } `json:"totals"`
	}
	eventually(t, 10*time.Second, "the cross-origin view in the analytics", func() bool {
		res := call(t, r, "GET", "/viewers/"+v.Token+"/views?backto=1+day", key, nil)
		want(t, "views", res, http.StatusOK, "")
		res.json(t, &views)
		return views.Totals.Views >= 1
	})
	if views.Totals.Views != 1 {
		t.Fatalf("%d views, want the page's one", views.Totals.Views)
	}
}
