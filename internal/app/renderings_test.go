package app

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/jpeg"
	"image/png"
	"log/slog"
	"mime/multipart"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/internal/fixture"
	"github.com/kilnhq/kiln/internal/testenv"
)

type renderingJSON struct {
	ID          string              `json:"id"`
	ViewerToken string              `json:"viewerToken"`
	State       string              `json:"state"`
	Settings    kiln.RenderSettings `json:"render_settings"`
	TemplateID  string              `json:"template_id"`
	FormatKey   string              `json:"format_key"`
	Format      string              `json:"format"`
	URL         string              `json:"url"`
	Duration    float64             `json:"durationSeconds"`
	ErrorCode   string              `json:"errorCode"`
	Error       string              `json:"error"`
}

// readyObject uploads the unit cube and waits until it is processed.
func readyObject(t *testing.T, r *Running, key string) string {
	t.Helper()
	p := prepare(t, r, key, map[string]string{"name": "Cube", "type": "raw_model", "extension": "glb"})
	if res := upload(t, p, fixture.CubeGLB()); res.Status != http.StatusOK {
		t.Fatalf("PUT upload: %d %s", res.Status, res.Body)
	}
	want(t, "finish-upload", finish(t, r, key, p.ObjectID, map[string]string{"success": "true"}), http.StatusOK, "")
	if o := waitState(t, r, key, p.ObjectID); o.State != "ready" {
		t.Fatalf("object ended %s: %s", o.State, o.Error)
	}
	return p.ObjectID
}

// startBlender starts a Kiln whose worker runs blender.
func startBlender(t *testing.T, blender string) *Running {
	t.Helper()
	cfg := testenv.Config(t, 1)
	cfg.Blender = blender
	r, err := Start(context.Background(), cfg, slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})), Roles{API: true, Worker: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Stop)
	return r
}

// renderKeys is an account with every scope a rendering needs, the same
// account without renderings:write, and another account.
type renderKeys struct{ key, readOnly, other string }

func newRenderKeys(t *testing.T, r *Running) renderKeys {
	all := []string{kiln.ScopeProductWrite, kiln.ScopeProductRead, kiln.ScopeViewerWrite, kiln.ScopeViewerRead,
		kiln.ScopeSpaceWrite, kiln.ScopeRenderingsWrite, kiln.ScopeRenderingsRead, kiln.ScopeRenderingRead}
	return renderKeys{
		key:      newKey(t, r, "acme", all...),
		readOnly: newKey(t, r, "acme", kiln.ScopeRenderingsRead, kiln.ScopeRenderingRead),
		other:    newKey(t, r, "globex", all...),
	}
}

func requestRendering(t *testing.T, r *Running, key, token string, body any) response {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	return do(t, "POST", r.PlatformURL+"/viewers/"+token+"/renderings", key, bytes.NewReader(b), map[string]string{"Content-Type": "text/json"})
}

// waitRendering polls the viewer's list until the rendering is done or
// failed.
func waitRendering(t *testing.T, r *Running, key, token, id string) renderingJSON {
	t.Helper()
	var got renderingJSON
	eventually(t, 3*time.Minute, "rendering "+id, func() bool {
		res := call(t, r, "GET", "/viewers/"+token+"/renderings", key, nil)
		want(t, "list renderings", res, http.StatusOK, "")
		var list struct {
			Renderings []renderingJSON `json:"renderings"`
		}
		res.json(t, &list)
		for _, x := range list.Renderings {
			if x.ID == id {
				got = x
			}
		}
		return got.State == "done" || got.State == "failed"
	})
	return got
}

// TestRenderingWithBlender renders the cube with the real Blender: a
// transparent print PNG, where the product alone is opaque, and a web
// JPEG on the dark studio, where it is brighter than the backdrop.
func TestRenderingWithBlender(t *testing.T) {
	blender, err := exec.LookPath("blender")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("CI is set but blender is not installed: .ci/run installs it")
		}
		t.Skip("blender is not installed")
	}
	r := startBlender(t, blender)
	k := newRenderKeys(t, r)
	obj := readyObject(t, r, k.key)
	v := newViewer(t, r, k.key, map[string]any{"type": "product", "name": "Cube", "objectId": obj})

	res := requestRendering(t, r, k.key, v.Token, map[string]any{
		"render_settings": map[string]any{"resolution": []int{64, 64}, "samples": 4, "transparent": true},
		"template_id":     "studio-white", "format_key": "print",
	})
	want(t, "POST rendering", res, http.StatusOK, "")
	var png1 renderingJSON
	res.json(t, &png1)
	if png1.ID == "" || png1.State != "queued" || png1.Format != "png" || png1.TemplateID != "studio-white" {
		t.Fatalf("new rendering: %s", res.Body)
	}
	jpg := requestRendering(t, r, k.key, v.Token, map[string]any{
		"render_settings": map[string]any{"resolution": []int{64, 48}, "samples": 4, "camera": map[string]any{"yaw": 0, "pitch": 20}},
		"template_id":     "studio-dark", "format_key": "web",
	})
	want(t, "POST web rendering", jpg, http.StatusOK, "")
	var jpg1 renderingJSON
	jpg.json(t, &jpg1)

	done := waitRendering(t, r, k.key, v.Token, png1.ID)
	if done.State != "done" || done.URL == "" || done.Duration <= 0 || done.Error != "" {
		t.Fatalf("rendering ended %+v", done)
	}
	t.Logf("64x64, 4 samples: Blender took %.1f s", done.Duration)
	img := download(t, k.key, done.URL, "image/png")
	noInternals(t, k.key, done.URL)
	if b := img.Bounds(); b.Dx() != 64 || b.Dy() != 64 {
		t.Fatalf("PNG is %v, want 64x64", b)
	}
	centre, corners := alpha(img, 24, 40), cornerAlpha(img)
	if centre < 0.95 || corners > 0.2 {
		t.Fatalf("transparent rendering: centre alpha %.2f (want the cube, opaque), corners %.2f (want see-through)", centre, corners)
	}

	done = waitRendering(t, r, k.key, v.Token, jpg1.ID)
	if done.State != "done" {
		t.Fatalf("web rendering ended %+v", done)
	}
	img = download(t, k.key, done.URL, "image/jpeg")
	noInternals(t, k.key, done.URL)
	if b := img.Bounds(); b.Dx() != 64 || b.Dy() != 48 {
		t.Fatalf("JPEG is %v, want 64x48", b)
	}
	// The unit cube's default material is light grey; the dark studio's
	// backdrop is nearly black.
	if in, out := luma(img, 26, 38, 18, 30), cornerLuma(img); in < out+40 {
		t.Fatalf("cube not visible on the dark backdrop: centre luma %.0f, corners %.0f", in, out)
	}

	// Another account's key cannot download it; the file needs the viewer.
	if res := do(t, "GET", done.URL, k.other, nil, nil); res.Status != http.StatusNotFound {
		t.Fatalf("other account's download: %d", res.Status)
	}
}

// noInternals checks a served rendering says nothing of the worker that
// made it: Blender writes its temporary paths and version into the file.
func noInternals(t *testing.T, key, url string) {
	t.Helper()
	res := do(t, "GET", url, key, nil, nil)
	for _, s := range []string{os.TempDir() + "/", ".blend", "Blender"} {
		if bytes.Contains(res.Body, []byte(s)) {
			t.Errorf("%s: the served file contains %q", url, s)
		}
	}
}

func download(t *testing.T, key, url, contentType string) image.Image {
	t.Helper()
	res := do(t, "GET", url, key, nil, nil)
	if res.Status != http.StatusOK || res.Header.Get("Content-Type") != contentType {
		t.Fatalf("download %s: %d %s %.200s", url, res.Status, res.Header.Get("Content-Type"), res.Body)
	}
	decode := png.Decode
	if contentType == "image/jpeg" {
		decode = jpeg.Decode
	}
	img, err := decode(bytes.NewReader(res.Body))
	if err != nil {
		t.Fatalf("decode %s: %v", url, err)
	}
	return img
}

// alpha is the mean alpha (0..1) of the square [lo, hi) of img.
func alpha(img image.Image, lo, hi int) float64 {
	var sum, n float64
	for y := lo; y < hi; y++ {
		for x := lo; x < hi; x++ {
			_, _, _, a := img.At(x, y).RGBA()
			sum += float64(a) / 0xffff
			n++
		}
	}
	return sum / n
}

func cornerAlpha(img image.Image) float64 {
	b := img.Bounds()
	var sum float64
	for _, p := range [][2]int{{0, 0}, {b.Dx() - 1, 0}, {0, b.Dy() - 1}, {b.Dx() - 1, b.Dy() - 1}} {
		_, _, _, a := img.At(p[0], p[1]).RGBA()
		sum += float64(a) / 0xffff / 4
	}
	return sum
}

// luma is the mean luma (0..255) of the rectangle x0..x1, y0..y1.
func luma(img image.Image, x0, x1, y0, y1 int) float64 {
	var sum, n float64
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			sum += (0.299*float64(r) + 0.587*float64(g) + 0.114*float64(b)) / 257
			n++
		}
	}
	return sum / n
}

func cornerLuma(img image.Image) float64 {
	b := img.Bounds()
	return (luma(img, 0, 4, 0, 4) + luma(img, b.Dx()-4, b.Dx(), 0, 4)) / 2
}

// TestRenderingRequests covers the refusals, without rendering: a worker
// with no Blender fails what is queued with renderer_unavailable, and
// /readyz reports the missing renderer while staying ready.
func TestRenderingRequests(t *testing.T) {
	r := startBlender(t, "/nonexistent/blender")
	k := newRenderKeys(t, r)
	obj := readyObject(t, r, k.key)
	v := newViewer(t, r, k.key, map[string]any{"type": "product", "name": "Cube", "objectId": obj})
	pending := newViewer(t, r, k.key, map[string]any{"type": "product", "name": "Pending", "objectId": newObject(t, r, k.key)})
	theirs := newViewer(t, r, k.other, map[string]any{"type": "product", "name": "Theirs", "objectId": readyObject(t, r, k.other)})
	space := newViewer(t, r, k.key, map[string]any{"type": "space", "name": "Tour",
		"spaceId": newSpace(t, r, k.key, newTemplate(t, r, k.key, "upload", obj).ID).ID})

	ok := func() map[string]any {
		return map[string]any{"render_settings": map[string]any{"resolution": []int{64, 64}, "samples": 4}, "template_id": "studio-white", "format_key": "web"}
	}
	with := func(f func(m map[string]any)) map[string]any { m := ok(); f(m); return m }
	settings := func(k string, v any) map[string]any {
		return with(func(m map[string]any) { m["render_settings"].(map[string]any)[k] = v })
	}
	for _, c := range []struct {
		name   string
		key    string
		token  string
		body   any
		status int
		code   string
	}{
		{"no key", "", v.Token, ok(), http.StatusUnauthorized, ""},
		{"no renderings:write", k.readOnly, v.Token, ok(), http.StatusForbidden, ""},
		{"unknown viewer", k.key, "vw_nosuchviewer", ok(), http.StatusNotFound, "viewer_not_found"},
		{"another account's viewer", k.key, theirs.Token, ok(), http.StatusNotFound, "viewer_not_found"},
		{"space viewer", k.key, space.Token, ok(), http.StatusConflict, "not_a_product_viewer"},
		{"object not ready", k.key, pending.Token, ok(), http.StatusConflict, "object_not_ready"},
		{"unknown field", k.key, v.Token, with(func(m map[string]any) { m["quality"] = 1 }), http.StatusBadRequest, "invalid_json"},
		{"no render_settings", k.key, v.Token, with(func(m map[string]any) { delete(m, "render_settings") }), http.StatusBadRequest, "missing_render_settings"},
		{"one side", k.key, v.Token, settings("resolution", []int{64}), http.StatusBadRequest, "invalid_resolution"},
		{"side too large", k.key, v.Token, settings("resolution", []int{4097, 64}), http.StatusBadRequest, "invalid_resolution"},
		{"side zero", k.key, v.Token, settings("resolution", []int{64, 0}), http.StatusBadRequest, "invalid_resolution"},
		{"no samples", k.key, v.Token, settings("samples", 0), http.StatusBadRequest, "invalid_samples"},
		{"too many samples", k.key, v.Token, settings("samples", 4097), http.StatusBadRequest, "invalid_samples"},
		{"pitch", k.key, v.Token, settings("camera", map[string]any{"yaw": 0, "pitch": 90}), http.StatusBadRequest, "invalid_camera"},
		{"transparent JPEG", k.key, v.Token, settings("transparent", true), http.StatusBadRequest, "invalid_transparent"},
		{"image_format", k.key, v.Token, settings("image_format", "gif"), http.StatusBadRequest, "invalid_image_format"},
		{"no format_key", k.key, v.Token, with(func(m map[string]any) { delete(m, "format_key") }), http.StatusBadRequest, "missing_format_key"},
		{"format_key", k.key, v.Token, with(func(m map[string]any) { m["format_key"] = "tiff" }), http.StatusBadRequest, "invalid_format_key"},
		{"no template_id", k.key, v.Token, with(func(m map[string]any) { delete(m, "template_id") }), http.StatusBadRequest, "missing_template_id"},
		{"unknown template_id", k.key, v.Token, with(func(m map[string]any) { m["template_id"] = "studio-pink" }), http.StatusBadRequest, "unknown_template_id"},
		{"bad template_id", k.key, v.Token, with(func(m map[string]any) { m["template_id"] = "../x" }), http.StatusBadRequest, "invalid_id"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := requestRendering(t, r, c.key, c.token, c.body)
			if res.Status != c.status {
				t.Fatalf("%d %s, want %d", res.Status, res.Body, c.status)
			}
			if c.code != "" {
				if got := res.errorCode(t); got != c.code {
					t.Fatalf("code %s (%s), want %s", got, res.Body, c.code)
				}
			}
		})
	}
	res := do(t, "POST", r.PlatformURL+"/viewers/"+v.Token+"/renderings", k.key, strings.NewReader(`{}`), map[string]string{"Content-Type": "text/plain"})
	want(t, "text/plain body", res, http.StatusBadRequest, "invalid_content_type")
	want(t, "list, another account's viewer", call(t, r, "GET", "/viewers/"+theirs.Token+"/renderings", k.key, nil), http.StatusNotFound, "viewer_not_found")

	// application/json is accepted as well; without Blender the rendering
	// is queued and then fails with renderer_unavailable.
	res = call(t, r, "POST", "/viewers/"+v.Token+"/renderings", k.key, with(func(m map[string]any) {
		m["format_key"] = "web"
		m["render_settings"].(map[string]any)["image_format"] = "webp"
	}))
	want(t, "POST rendering without Blender", res, http.StatusOK, "")
	var queued renderingJSON
	res.json(t, &queued)
	if queued.State != "queued" || queued.Format != "webp" {
		t.Fatalf("new rendering: %s", res.Body)
	}
	got := waitRendering(t, r, k.readOnly, v.Token, queued.ID)
	if got.State != "failed" || got.ErrorCode != "renderer_unavailable" || !strings.Contains(got.Error, "Blender") || got.URL != "" {
		t.Fatalf("rendering without Blender: %+v", got)
	}
	want(t, "download a failed rendering", call(t, r, "GET", "/viewers/"+v.Token+"/renderings/"+queued.ID+"/file", k.key, nil), http.StatusConflict, "rendering_not_done")

	res = do(t, "GET", r.PlatformURL+"/readyz", "", nil, nil)
	var ready struct {
		Status string            `json:"status"`
		Checks map[string]string `json:"checks"`
	}
	res.json(t, &ready)
	if res.Status != http.StatusOK || ready.Status != "ok" || !strings.HasPrefix(ready.Checks["renderer"], "missing:") {
		t.Fatalf("/readyz without Blender: %d %s", res.Status, res.Body)
	}
}

func uploadSetup(t *testing.T, r *Running, key string, fields map[string]string, file []byte) response {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for k, v := range fields {
		if err := w.WriteField(k, v); err != nil {
			t.Fatal(err)
		}
	}
	if file != nil {
		fw, err := w.CreateFormFile("file", "studio.blend")
		if err != nil {
			t.Fatal(err)
		}
		fw.Write(file)
	}
	w.Close()
	return do(t, "POST", r.PlatformURL+"/renderings/custom-setups", key, &b, map[string]string{"Content-Type": w.FormDataContentType()})
}

// TestCustomSetups lists the built-in setups and uploads one of the
// account's; uploaded product setups are a template_id of that account
// only.
func TestCustomSetups(t *testing.T) {
	r := startBlender(t, "/nonexistent/blender")
	k := newRenderKeys(t, r)
	blend := append([]byte("BLENDER-v304"), make([]byte, 100)...)

	want(t, "upload, read-only key", uploadSetup(t, r, k.readOnly, map[string]string{"name": "Loft", "type": "product"}, blend), http.StatusForbidden, "")
	want(t, "upload, bad type", uploadSetup(t, r, k.key, map[string]string{"name": "Loft", "type": "car"}, blend), http.StatusBadRequest, "invalid_type")
	want(t, "upload, no name", uploadSetup(t, r, k.key, map[string]string{"type": "product"}, blend), http.StatusBadRequest, "missing_name")
	want(t, "upload, no file", uploadSetup(t, r, k.key, map[string]string{"name": "Loft", "type": "product"}, nil), http.StatusBadRequest, "missing_file")
	want(t, "upload, not a blend", uploadSetup(t, r, k.key, map[string]string{"name": "Loft", "type": "product"}, []byte("glTF....")), http.StatusBadRequest, "invalid_file")
	res := uploadSetup(t, r, k.key, map[string]string{"name": "Loft", "type": "product"}, blend)
	want(t, "upload", res, http.StatusCreated, "")
	var loft struct {
		ID, Name, Type, URL string
		BuiltIn             bool
	}
	res.json(t, &loft)
	if loft.ID == "" || loft.Name != "Loft" || loft.Type != "product" || loft.BuiltIn || loft.URL == "" {
		t.Fatalf("uploaded setup: %s", res.Body)
	}
	want(t, "upload a space setup", uploadSetup(t, r, k.key, map[string]string{"name": "Hall", "type": "space"}, blend), http.StatusCreated, "")
	if res := do(t, "GET", loft.URL, k.key, nil, nil); res.Status != http.StatusOK || !bytes.Equal(res.Body, blend) {
		t.Fatalf("download setup: %d", res.Status)
	}
	want(t, "another account's setup file", do(t, "GET", loft.URL, k.other, nil, nil), http.StatusNotFound, "setup_not_found")

	list := func(key, query string) []string {
		res := call(t, r, "GET", "/renderings/custom-setups"+query, key, nil)
		want(t, "list setups "+query, res, http.StatusOK, "")
		var out struct {
			Setups []struct {
				ID      string `json:"id"`
				BuiltIn bool   `json:"builtIn"`
			} `json:"setups"`
		}
		res.json(t, &out)
		var ids []string
		for _, s := range out.Setups {
			ids = append(ids, s.ID)
		}
		return ids
	}
	if got := strings.Join(list(k.readOnly, "?type=product"), ","); got != "studio-white,studio-dark,studio-warm,"+loft.ID {
		t.Fatalf("product setups: %s", got)
	}
	if got := list(k.key, "?type=space"); len(got) != 1 {
		t.Fatalf("space setups: %v", got)
	}
	if got := list(k.other, "?type=product"); len(got) != 3 {
		t.Fatalf("another account sees %v", got)
	}
	want(t, "list, bad type", call(t, r, "GET", "/renderings/custom-setups?type=car", k.key, nil), http.StatusBadRequest, "invalid_type")
	want(t, "list, no key", call(t, r, "GET", "/renderings/custom-setups", "", nil), http.StatusUnauthorized, "")

	// The uploaded setup is a template_id of its account only.
	obj := readyObject(t, r, k.other)
	theirs := newViewer(t, r, k.other, map[string]any{"type": "product", "name": "Theirs", "objectId": obj})
	body := map[string]any{"render_settings": map[string]any{"resolution": []int{8, 8}, "samples": 1}, "template_id": loft.ID, "format_key": "print"}
	want(t, "another account's setup", requestRendering(t, r, k.other, theirs.Token, body), http.StatusBadRequest, "unknown_template_id")
	mine := newViewer(t, r, k.key, map[string]any{"type": "product", "name": "Mine", "objectId": readyObject(t, r, k.key)})
	want(t, "own setup", requestRendering(t, r, k.key, mine.Token, body), http.StatusOK, "")
}
