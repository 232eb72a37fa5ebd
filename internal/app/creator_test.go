package app

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/internal/gltfcheck"
	"github.com/kilnhq/kiln/internal/testenv"
)

// TestCreatorInBrowser is issue 20's "done when": an app on another
// site embeds the creator as the leader's quick start did, a person
// shapes the body and face, picks a hair style, colours the top with the
// free picker and presses Done, and the app gets v1.avatar.exported with
// a URL three.js loads, with that hair and colour; without frameApi the
// app gets the bare URL; reopened with id, an edit keeps the URL and
// changes the model (and an app subscribed to v2.avatar.exported gets its
// metadata). The creator also passes axe-core (no serious or critical
// violation), Tab reaches its controls with a visible focus, and the
// arrow keys turn the focused 3D view.
//
// The creator frame is cross-site, with its storage denied as Chromium
// denies third-party storage: the page must run without localStorage
// (reading it threw, and the frame built nothing). The browser asks for
// reduced motion, so no idle clip draws frames the steps wait behind on
// software WebGL.
func TestCreatorInBrowser(t *testing.T) {
	node, dir := testenv.BrowserTools(t)
	mux := http.NewServeMux()
	mux.Handle("GET /three/", http.StripPrefix("/three/", http.FileServer(http.Dir(filepath.Join(dir, "node_modules", "three")))))
	mux.HandleFunc("GET /parent.html", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFile(w, r, filepath.Join(dir, "creator-parent.html"))
	})
	parent := httptest.NewServer(mux)
	defer parent.Close()
	// The app is another site, not only another origin, as a real app's
	// page is: Chromium then runs the creator's frame in a process of its
	// own, and its WebGL does not hold up the parent (on one 127.0.0.1
	// the parent's own script waited behind the frame's software GL).
	app := strings.Replace(parent.URL, "127.0.0.1", "localhost", 1)

	r := startPublic(t, nil)
	key := newKey(t, r, "acme", kiln.ScopeAvatarWrite)
	post := func(path string, body any) response {
		rd, h := jsonBody(t, body)
		return do(t, "POST", r.AvatarURL+path, key, rd, h)
	}
	res := post("/apps", map[string]any{"slug": "acme", "name": "Acme", "allowedOrigins": []string{app}})
	want(t, "register the app", res, http.StatusCreated, "")
	res = post("/apps/acme/users", map[string]any{})
	want(t, "mint a user token", res, http.StatusCreated, "")
	var user struct {
		Data struct{ UserID, Token string }
	}
	res.json(t, &user)

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	outDir := t.TempDir()
	cmd := exec.CommandContext(ctx, node, filepath.Join(dir, "creator.mjs"), app+"/parent.html", r.AvatarURL+"/apps/acme/avatar", user.Data.Token, outDir)
	cmd.Dir = dir
	// The script's progress, logged as it comes: on a loaded machine a
	// step takes minutes, and a run that hangs then says where.
	cmd.Stderr = testLogWriter{t}
	raw, err := cmd.Output()
	if err != nil {
		t.Fatalf("creator.mjs: %v", err)
	}
	type exported struct {
		EventName string
		Data      struct {
			URL, AvatarID, UserID string
			Metadata              map[string]any
		}
	}
	type loaded struct {
		Meshes   map[string]int
		TopColor []int
	}
	// fetched is the model as a client outside the page downloaded it.
	type fetched struct {
		File, ETag, CacheControl string
		UpdatedAt                time.Time
		Configuration            map[string]any
	}
	var got struct {
		Errors []string
		Axe    []struct {
			ID, Impact, Help string
			Nodes            int
		}
		TabStops []struct {
			ID, Role, Tag, Type, Text string
			Outline                   bool
		}
		FaceSlider string
		HairChange *struct {
			By           *string
			Shown        *float64
			Parts        int
			HairVertices int
		}
		Orbit struct{ Before, Turned, Zoomed []float64 }
		First struct {
			V1       exported
			Messages []string
			Loaded   loaded
			Fetched  fetched
		}
		Bare        string
		BareCount   int
		BareOthers  int
		ReopenedTop string
		Edited      struct {
			V1, V2  exported
			Loaded  loaded
			Fetched fetched
		}
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	t.Logf("%s", raw)
	if len(got.Errors) > 0 {
		t.Errorf("page errors: %v", got.Errors)
	}
	for _, v := range got.Axe {
		if v.Impact == "serious" || v.Impact == "critical" {
			t.Errorf("axe %s (%s, %d nodes): %s", v.ID, v.Impact, v.Nodes, v.Help)
		}
	}
	reached := map[string]bool{}
	for _, s := range got.TabStops {
		if s.Tag == "body" {
			continue
		}
		if !s.Outline {
			t.Errorf("focus on %s#%s %q shows no outline", s.Tag, s.ID, s.Text)
		}
		reached[s.ID] = true
		reached[s.Role] = true
		reached[s.Type] = true
	}
	for _, w := range []string{"portrait", "fullbody", "shuffle", "reset", "done", "tab", "range"} {
		if !reached[w] {
			t.Errorf("Tab never reaches %s", w)
		}
	}

	first := got.First.V1.Data
	id := first.AvatarID
	if first.URL != r.AvatarURL+"/"+id+".glb" || first.UserID != user.Data.UserID {
		t.Errorf("v1.avatar.exported %+v, want %s/%s.glb for user %s", first, r.AvatarURL, id, user.Data.UserID)
	}
	if slices.Contains(got.First.Messages, "v2.avatar.exported") {
		t.Errorf("the parent subscribed to v1.** and got v2.avatar.exported: %v", got.First.Messages)
	}
	// The view's camera, by keyboard: ArrowLeft turns it around the
	// avatar at the same distance, - moves it away.
	dist := func(p []float64) float64 {
		if len(p) != 3 {
			return 0
		}
		return math.Hypot(p[0], p[2])
	}
	o := got.Orbit
	if len(o.Before) != 3 || len(o.Turned) != 3 || math.Abs(o.Turned[0]-o.Before[0]) < 0.05 || math.Abs(dist(o.Turned)-dist(o.Before)) > 0.01 || dist(o.Zoomed) < dist(o.Turned)+0.05 {
		t.Errorf("camera by keyboard: %v, ArrowLeft %v, - %v; want turned at the same distance, then farther", o.Before, o.Turned, o.Zoomed)
	}
	for _, m := range []string{"v1.frame.ready", "v1.subscription.created", "v1.user.set", "v1.user.authorized"} {
		if !slices.Contains(got.First.Messages, m) {
			t.Errorf("the parent got %v, no %s", got.First.Messages, m)
		}
	}
	// The hair picked showed first by its part (POST /creator/parts),
	// swapped into the shown avatar before the whole build came.
	if hc := got.HairChange; hc == nil || hc.By == nil || *hc.By != "part" || hc.Parts < 1 || hc.HairVertices == 0 {
		t.Errorf("hair change %+v: want it shown by its part, a hair mesh on screen", hc)
	} else {
		t.Logf("hair bun shown by its part after %.0f ms", *hc.Shown)
	}
	if got.First.Loaded.Meshes["Wolf3D_Hair"] == 0 {
		t.Errorf("three.js loaded %v: no hair", got.First.Loaded.Meshes)
	}
	near := func(what string, c []int, want [3]int) {
		if len(c) != 3 {
			t.Errorf("%s: no top colour (%v)", what, c)
			return
		}
		for i := range 3 {
			if d := c[i] - want[i]; d < -48 || d > 48 {
				t.Errorf("%s: the top's texture averages %v, want near %v", what, c, want)
				return
			}
		}
	}
	near("exported", got.First.Loaded.TopColor, [3]int{0xc0, 0x30, 0x7a})

	// What Kiln kept at the first export is what the person chose.
	cfg := got.First.Fetched.Configuration
	pick := func(c map[string]any, path string) any {
		var v any = c
		for _, k := range strings.Split(path, ".") {
			m, _ := v.(map[string]any)
			v = m[k]
		}
		return v
	}
	if pick(cfg, "hair.style") != "bun" || pick(cfg, "outfit.top.color") != "#c0307a" || pick(cfg, "body.height") == 1.78 {
		t.Errorf("kept configuration %v: want bun hair, a #c0307a top and another height", cfg)
	}
	if _, ok := pick(cfg, "face."+strings.Join(strings.Split(strings.TrimPrefix(got.FaceSlider, "face."), "."), ".")).(float64); !ok {
		t.Errorf("the dragged face slider %s is not in the configuration %v", got.FaceSlider, cfg["face"])
	}

	if !strings.HasPrefix(got.Bare, r.AvatarURL+"/") || !strings.HasSuffix(got.Bare, ".glb") || got.BareCount != 1 || got.BareOthers != 0 {
		t.Errorf("without frameApi the parent got %q %d times and %d other messages, want a bare model URL once", got.Bare, got.BareCount, got.BareOthers)
	}

	if got.ReopenedTop != "#c0307a" {
		t.Errorf("reopened, the top picker shows %q", got.ReopenedTop)
	}
	if got.Edited.V1.Data.URL != first.URL || got.Edited.V1.Data.AvatarID != id {
		t.Errorf("after the edit the URL is %q (id %s), want %q", got.Edited.V1.Data.URL, got.Edited.V1.Data.AvatarID, first.URL)
	}
	if v2 := got.Edited.V2.Data; v2.URL != first.URL || v2.AvatarID != id || v2.Metadata["bodyType"] != "fullbody" || v2.Metadata["outfitGender"] == nil {
		t.Errorf("v2.avatar.exported %+v, want the URL %s with metadata", v2, first.URL)
	}
	near("edited", got.Edited.Loaded.TopColor, [3]int{0x20, 0x80, 0xc0})
	if c := pick(got.Edited.Fetched.Configuration, "outfit.top.color"); c != "#2080c0" || pick(got.Edited.Fetched.Configuration, "hair.style") != "bun" {
		t.Errorf("after the edit the configuration is %v, want the top #2080c0 and the hair kept", got.Edited.Fetched.Configuration)
	}

	// The same URL now answers other bytes, under another ETag, in a
	// shape any cache must revalidate, and the avatar says when it changed.
	before, after := got.First.Fetched, got.Edited.Fetched
	if before.ETag == "" || before.ETag == after.ETag || !after.UpdatedAt.After(before.UpdatedAt) {
		t.Errorf("after the edit: ETag %q -> %q, updatedAt %v -> %v; want a new ETag and a later updatedAt", before.ETag, after.ETag, before.UpdatedAt, after.UpdatedAt)
	}
	for _, f := range []fetched{before, after} {
		if !strings.Contains(f.CacheControl, "no-cache") {
			t.Errorf("%s served with Cache-Control %q: a client would not revalidate", f.File, f.CacheControl)
		}
	}
	glbs := map[string][]byte{}
	for _, f := range []fetched{before, after} {
		b, err := os.ReadFile(filepath.Join(outDir, f.File))
		if err != nil {
			t.Fatal(err)
		}
		gltfcheck.RequireValid(t, b)
		s, err := scene.Read(b, scene.ReadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", f.File, err)
		}
		if !hasMesh(s, "Wolf3D_Hair") {
			t.Errorf("%s has no Wolf3D_Hair", f.File)
		}
		glbs[f.File] = b
	}
	if bytes.Equal(glbs[before.File], glbs[after.File]) {
		t.Error("the edited model's bytes are the first model's")
	}
}

// testLogWriter logs what a tool writes, line by line as it comes.
type testLogWriter struct{ t *testing.T }

func (w testLogWriter) Write(p []byte) (int, error) {
	w.t.Logf("%s", bytes.TrimRight(p, "\n"))
	return len(p), nil
}
