package app

import (
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/internal/fixture"
	"github.com/kilnhq/kiln/internal/testenv"
)

// browserTool finds node and the viewer page's script (testenv.BrowserTools
// skips or fails when a tool is missing); the other scripts stand beside it.
func browserTool(t *testing.T) (node, script string) {
	t.Helper()
	node, dir := testenv.BrowserTools(t)
	return node, filepath.Join(dir, "viewer.mjs")
}

func runBrowser(t *testing.T, node string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, node, args...).CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("node %s: %v", strings.Join(args, " "), err)
	}
	return string(out)
}

// TestViewerPageInBrowser opens a product viewer's page in headless
// chromium: the model loads and draws, the annotation opens on a click,
// and the page's tracking events reach the analytics.
func TestViewerPageInBrowser(t *testing.T) {
	node, script := browserTool(t)
	r := start(t)
	key := newKey(t, r, "acme", kiln.ScopeProductRead, kiln.ScopeProductWrite,
		kiln.ScopeViewerRead, kiln.ScopeViewerWrite, kiln.ScopeViewerStatsRead)
	o := uploadObject(t, r, key, map[string]string{"name": "Cube", "type": "mesh", "extension": "glb"}, nil, fixture.CubeGLB())
	if o.State != "ready" {
		t.Fatalf("object %s is %s", o.ObjectID, o.State)
	}
	res := call(t, r, "POST", "/viewers", key, map[string]any{"type": "product", "name": "Cube <b>& co</b>", "objectId": o.ObjectID})
	want(t, "create viewer", res, http.StatusCreated, "")
	var v struct {
		Token string `json:"viewerToken"`
	}
	res.json(t, &v)
	const text = `Solid <oak> & "walnut"`
	res = call(t, r, "POST", "/viewers/"+v.Token+"/annotations", key,
		map[string]any{"title": "Top", "text": text, "position": []float64{0, 0.5, 0}, "normal": []float64{0, 1, 0}})
	want(t, "add annotation", res, http.StatusCreated, "")

	// The page escapes what owners typed; its data endpoints need no key.
	page := do(t, "GET", r.PlatformURL+"/v/"+v.Token, "", nil, nil)
	if page.Status != http.StatusOK || !strings.Contains(string(page.Body), "Cube &lt;b&gt;&amp; co&lt;/b&gt;") ||
		strings.Contains(string(page.Body), "<oak>") {
		t.Fatalf("viewer page: %d %s", page.Status, page.Body)
	}
	if res := do(t, "GET", r.PlatformURL+"/v/"+v.Token+"/model.glb", "", nil, nil); res.Status != http.StatusOK || res.Header.Get("Content-Type") != "model/gltf-binary" {
		t.Fatalf("model.glb: %d %s", res.Status, res.Header)
	}
	if res := do(t, "GET", r.PlatformURL+"/v/"+v.Token+"/annotations.json", "", nil, nil); res.Status != http.StatusOK || !strings.Contains(string(res.Body), `"title":"Top"`) {
		t.Fatalf("annotations.json: %d %s", res.Status, res.Body)
	}
	for _, path := range []string{"/v/vw_missing", "/v/vw_missing/model.glb", "/v/vw_missing/annotations.json"} {
		want(t, path, do(t, "GET", r.PlatformURL+path, "", nil, nil), http.StatusNotFound, "viewer_not_found")
	}
	want(t, "bad token", do(t, "GET", r.PlatformURL+"/v/a$b", "", nil, nil), http.StatusBadRequest, "invalid_id")

	shot := filepath.Join(os.TempDir(), "kiln-viewer.png")
	runBrowser(t, node, script, r.PlatformURL+"/v/"+v.Token, "--screenshot", shot, "--hotspot", text)

	// view on load, the drag and the click on the hotspot as interactions.
	var views struct {
		Totals struct{ Views, Events, Visitors int } `json:"totals"`
	}
	eventually(t, 10*time.Second, "tracking events in the analytics", func() bool {
		res := call(t, r, "GET", "/viewers/"+v.Token+"/views?backto=1+day", key, nil)
		want(t, "views", res, http.StatusOK, "")
		res.json(t, &views)
		return views.Totals.Views >= 1 && views.Totals.Events >= 3
	})
	if views.Totals.Views != 1 || views.Totals.Visitors != 1 {
		t.Fatalf("totals %+v, want 1 view by 1 visitor", views.Totals)
	}
}

// TestDemoAvatarPageInBrowser opens the start page's demo: default-female
// with every clip, loaded across origins from the avatar listener, and
// plays one.
func TestDemoAvatarPageInBrowser(t *testing.T) {
	node, script := browserTool(t)
	// The page loads the avatar from the avatar listener's public URL,
	// another origin: it must be where the listener is.
	r := startPublic(t, nil)
	res := do(t, "GET", r.PlatformURL+"/", "", nil, nil)
	for _, link := range []string{`href="/demo/avatar"`, `href="/monitoring/"`, `href="/docs"`, `href="/openapi.json"`} {
		if res.Status != http.StatusOK || !strings.Contains(string(res.Body), link) {
			t.Fatalf("start page lacks %s: %d %s", link, res.Status, res.Body)
		}
	}
	shot := filepath.Join(os.TempDir(), "kiln-demo-avatar.png")
	runBrowser(t, node, script, r.PlatformURL+"/demo/avatar", "--screenshot", shot, "--animations")
}
