package app

import (
	"archive/zip"
	"bytes"
	"context"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"log/slog"
	"math"
	"mime/multipart"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/internal/fixture"
	"github.com/kilnhq/kiln/internal/gltfcheck"
	"github.com/kilnhq/kiln/internal/mail/mailtest"
	"github.com/kilnhq/kiln/internal/testenv"
)

// startWithMail runs a whole Kiln whose worker sends mail through the
// SMTP server at smtpURL.
func startWithMail(t *testing.T, smtpURL string) *Running {
	t.Helper()
	cfg := testenv.Config(t, 1)
	cfg.SMTPURL, cfg.MailFrom, cfg.PublicPlatformURL = smtpURL, "Kiln <kiln@example.com>", "https://kiln.example.com"
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	r, err := Start(context.Background(), cfg, log, Roles{API: true, Worker: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Stop)
	return r
}

// multipartForm is a form with fields and files (field name → content).
func multipartForm(t *testing.T, fields map[string]string, files map[string][]byte) (io.Reader, map[string]string) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for k, v := range fields {
		if err := w.WriteField(k, v); err != nil {
			t.Fatal(err)
		}
	}
	for k, data := range files {
		f, err := w.CreateFormFile(k, k+".bin")
		if err != nil {
			t.Fatal(err)
		}
		f.Write(data)
	}
	w.Close()
	return &b, map[string]string{"Content-Type": w.FormDataContentType()}
}

// picture encodes a w×h image: a red disc on bg, as png or jpeg.
func picture(t *testing.T, format string, w, h int, bg color.NRGBA) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			c := bg
			dx, dy := x-w/2, y-h/2
			if 4*(dx*dx+dy*dy) < min(w, h)*min(w, h)/2 {
				c = color.NRGBA{200, 30, 30, 255}
			}
			img.SetNRGBA(x, y, c)
		}
	}
	var b bytes.Buffer
	var err error
	if format == "jpeg" {
		err = jpeg.Encode(&b, img, nil)
	} else {
		err = png.Encode(&b, img)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func zipOf(t *testing.T, files map[string][]byte) []byte {
	t.Helper()
	var b bytes.Buffer
	z := zip.NewWriter(&b)
	for name, data := range files {
		f, err := z.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		f.Write(data)
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// prepareWith runs prepare-upload with files and answers the response.
func prepareWith(t *testing.T, r *Running, key string, fields map[string]string, files map[string][]byte) response {
	t.Helper()
	body, h := multipartForm(t, fields, files)
	return do(t, "POST", r.PlatformURL+"/resources/objects/prepare-upload", key, body, h)
}

// uploadObject prepares, uploads and finishes an object, and waits until
// processing has ended.
func uploadObject(t *testing.T, r *Running, key string, fields map[string]string, files map[string][]byte, data []byte) objectJSON {
	t.Helper()
	res := prepareWith(t, r, key, fields, files)
	if res.Status != http.StatusOK {
		t.Fatalf("prepare-upload: %d %s", res.Status, res.Body)
	}
	var p []prepared
	res.json(t, &p)
	if res := upload(t, p[0], data); res.Status != http.StatusOK {
		t.Fatalf("PUT upload: %d %s", res.Status, res.Body)
	}
	if res := finish(t, r, key, p[0].ObjectID, map[string]string{"success": "true"}); res.Status != http.StatusOK {
		t.Fatalf("finish-upload: %d %s", res.Status, res.Body)
	}
	var o objectJSON
	eventually(t, 60*time.Second, "object "+p[0].ObjectID+" to be processed", func() bool {
		_, o = getObject(t, r, key, p[0].ObjectID)
		return o.State != "processing" && o.State != "uploading" && o.State != ""
	})
	return o
}

// TestObjectTypes uploads each type of spec 4.2 and checks where it ends
// and what can be downloaded.
func TestObjectTypes(t *testing.T) {
	r := start(t)
	key := newKey(t, r, "acme", kiln.ScopeProductRead, kiln.ScopeProductWrite)
	other := newKey(t, r, "globex", kiln.ScopeProductRead, kiln.ScopeProductWrite)
	cube := fixture.CubeGLB()
	preview := picture(t, "png", 64, 48, color.NRGBA{255, 255, 255, 255})
	photos := zipOf(t, map[string][]byte{"001.jpg": picture(t, "jpeg", 32, 32, color.NRGBA{0, 0, 0, 255}), "002.png": preview})
	oc := []byte(`{"format":"OpenConfiguration","version":"1.0"}`)
	for _, tc := range []struct {
		name, typ, ext string
		data           []byte
		preview        []byte
		state          string
		glb            bool
		errorHas       []string
		sourceType     string
	}{
		{"raw model glb", "raw_model", "glb", cube, nil, "ready", true, nil, "model/gltf-binary"},
		{"mesh with a preview", "mesh", "glb", cube, preview, "ready", true, nil, "model/gltf-binary"},
		{"ai model glb", "ai_model", "glb", cube, nil, "ready", true, nil, "model/gltf-binary"},
		{"ai model image kept", "ai_model", "png", preview, nil, "ready", false, nil, "image/png"},
		{"raw model fbx unsupported", "raw_model", "fbx", []byte("Kaydara FBX Binary"), nil, "failed", false,
			[]string{`"fbx"`, "stored but not processed", "glb, gltf, obj"}, "application/octet-stream"},
		{"mesh 3ds unsupported", "mesh", "3ds", []byte{0x4d, 0x4d, 0, 0}, nil, "failed", false, []string{`"3ds"`, "glb"}, "application/octet-stream"},
		{"image series zip", "images", "zip", photos, preview, "awaiting_reconstruction", false, nil, "application/zip"},
		{"image series one image", "images", "jpg", picture(t, "jpeg", 40, 30, color.NRGBA{0, 0, 255, 255}), preview, "awaiting_reconstruction", false, nil, "image/jpeg"},
		{"openconfiguration", "openconfiguration", "oc", oc, nil, "ready", false, nil, "application/json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var files map[string][]byte
			if tc.preview != nil {
				files = map[string][]byte{"preview": tc.preview}
			}
			o := uploadObject(t, r, key, map[string]string{"name": tc.name, "type": tc.typ, "extension": tc.ext}, files, tc.data)
			if o.State != tc.state {
				t.Fatalf("state %s (%s), want %s", o.State, o.Error, tc.state)
			}
			for _, s := range tc.errorHas {
				if !strings.Contains(o.Error, s) {
					t.Errorf("error %q does not say %q", o.Error, s)
				}
			}
			if _, ok := o.Files["glb"]; ok != tc.glb {
				t.Errorf("files %v: glb listed %v, want %v", o.Files, ok, tc.glb)
			}
			glb := do(t, "GET", r.PlatformURL+"/resources/objects/"+o.ObjectID+"/model.glb", key, nil, nil)
			switch {
			case tc.glb && glb.Status != http.StatusOK:
				t.Errorf("model.glb: %d %s", glb.Status, glb.Body)
			case !tc.glb && tc.state == "ready" && (glb.Status != http.StatusNotFound || glb.errorCode(t) != "no_glb"):
				t.Errorf("model.glb of a kept file: %d %s, want 404 no_glb", glb.Status, glb.Body)
			}
			src := do(t, "GET", o.Files["source"], key, nil, nil)
			if src.Status != http.StatusOK || !bytes.Equal(src.Body, tc.data) || src.Header.Get("Content-Type") != tc.sourceType {
				t.Errorf("source %s: %d %s, %d bytes, want the upload as %s", o.Files["source"], src.Status, src.Header.Get("Content-Type"), len(src.Body), tc.sourceType)
			}
			if res := do(t, "GET", r.PlatformURL+"/resources/objects/"+o.ObjectID+"/source", other, nil, nil); res.Status != http.StatusNotFound || res.errorCode(t) != "object_not_found" {
				t.Errorf("another account's source: %d %s", res.Status, res.Body)
			}
			prev := do(t, "GET", r.PlatformURL+"/resources/objects/"+o.ObjectID+"/preview", key, nil, nil)
			if tc.preview != nil {
				if prev.Status != http.StatusOK || !bytes.Equal(prev.Body, tc.preview) || prev.Header.Get("Content-Type") != "image/png" || o.Files["preview"] == "" {
					t.Errorf("preview: %d %s, files %v", prev.Status, prev.Header.Get("Content-Type"), o.Files)
				}
			} else if len(o.LODs) > 0 {
				// A processed model gets a rendered thumbnail instead.
				if prev.Status != http.StatusOK || prev.Header.Get("Content-Type") != "image/png" || o.Files["preview"] == "" {
					t.Errorf("thumbnail of a processed model: %d %s", prev.Status, prev.Header.Get("Content-Type"))
				}
			} else if prev.Status != http.StatusNotFound || prev.errorCode(t) != "no_preview" {
				t.Errorf("preview of an object without one: %d %.200s", prev.Status, prev.Body)
			}
		})
	}
}

func TestPrepareUploadChecksMailAndPreview(t *testing.T) {
	r := start(t)
	key := newKey(t, r, "acme", kiln.ScopeProductRead, kiln.ScopeProductWrite)
	base := map[string]string{"name": "Chair", "type": "images", "extension": "zip"}
	with := func(k, v string) map[string]string {
		m := map[string]string{k: v}
		for bk, bv := range base {
			m[bk] = bv
		}
		return m
	}
	for _, tc := range []struct {
		name   string
		fields map[string]string
		files  map[string][]byte
		status int
		code   string
	}{
		{"mail without at", with("mail_after_upload", "ana.example.com"), nil, 400, "invalid_mail_after_upload"},
		{"two addresses", with("mail_after_upload", "a@example.com, b@example.com"), nil, 400, "invalid_mail_after_upload"},
		{"preview not an image", base, map[string][]byte{"preview": []byte("hello")}, 400, "invalid_preview"},
		{"preview a gif", base, map[string][]byte{"preview": []byte("GIF89a\x01\x00\x01\x00\x00\x00\x00;")}, 400, "invalid_preview"},
		{"good mail", with("mail_after_upload", "Ana <ana@example.com>"), nil, 200, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := prepareWith(t, r, key, tc.fields, tc.files)
			if res.Status != tc.status || (tc.code != "" && res.errorCode(t) != tc.code) {
				t.Fatalf("%d %s, want %d %s", res.Status, res.Body, tc.status, tc.code)
			}
			if tc.status == 400 && !strings.Contains(string(res.Body), strings.TrimPrefix(tc.code, "invalid_")) {
				t.Errorf("message does not name the field: %s", res.Body)
			}
		})
	}
	// The source of an object not uploaded yet.
	var p []prepared
	prepareWith(t, r, key, base, nil).json(t, &p)
	if res := do(t, "GET", r.PlatformURL+"/resources/objects/"+p[0].ObjectID+"/source", key, nil, nil); res.Status != 404 || res.errorCode(t) != "source_not_uploaded" {
		t.Errorf("source before upload: %d %s", res.Status, res.Body)
	}
}

type spriteJSON struct {
	objectJSON
	PreviewType string `json:"previewType"`
}

func TestSprite(t *testing.T) {
	r := start(t)
	key := newKey(t, r, "acme", kiln.ScopeProductRead, kiln.ScopeProductWrite)
	clear := color.NRGBA{}
	for _, tc := range []struct {
		name, format string
		w, h         int
		bg           color.NRGBA
		alpha        gltf.AlphaMode
		thumbW       int
	}{
		{"png cut-out", "png", 800, 400, clear, gltf.AlphaMask, 256},
		{"png soft", "png", 100, 200, color.NRGBA{0, 0, 255, 100}, gltf.AlphaBlend, 100},
		{"jpeg", "jpeg", 300, 600, color.NRGBA{255, 255, 255, 255}, gltf.AlphaOpaque, 128},
	} {
		t.Run(tc.name, func(t *testing.T) {
			img := picture(t, tc.format, tc.w, tc.h, tc.bg)
			body, h := multipartForm(t, map[string]string{"name": "Plant", "description": "a cut-out"}, map[string][]byte{"file": img})
			res := do(t, "POST", r.PlatformURL+"/resources/objects/sprite", key, body, h)
			if res.Status != http.StatusOK {
				t.Fatalf("sprite: %d %s", res.Status, res.Body)
			}
			var out []spriteJSON
			res.json(t, &out)
			if len(out) != 1 || out[0].State != "ready" || out[0].Type != "sprite" || out[0].Name != "Plant" {
				t.Fatalf("sprite answered %s", res.Body)
			}
			o := out[0]
			// The answer is the object as GET shows it.
			if get, g := getObject(t, r, key, o.ObjectID); get.Status != 200 || g.State != "ready" || g.Files["glb"] != o.Files["glb"] {
				t.Errorf("GET the sprite: %d %s", get.Status, get.Body)
			}
			glb := do(t, "GET", o.Files["glb"], key, nil, nil)
			if glb.Status != 200 {
				t.Fatalf("GLB: %d %s", glb.Status, glb.Body)
			}
			gltfcheck.RequireValid(t, glb.Body)
			s, err := scene.Read(glb.Body, scene.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			m := s.Materials[0]
			if m.AlphaMode != tc.alpha || !m.DoubleSided || len(s.Images) != 1 {
				t.Errorf("material alpha %v doubleSided %v images %d, want %v, true, 1", m.AlphaMode, m.DoubleSided, len(s.Images), tc.alpha)
			}
			if st := s.Stats(); st.Triangles != 2 {
				t.Errorf("%d triangles, want a quad", st.Triangles)
			}
			lo, hi := [3]float32{1e9, 1e9, 1e9}, [3]float32{-1e9, -1e9, -1e9}
			for _, p := range s.Meshes[0].Primitives[0].Positions {
				for i := range 3 {
					lo[i], hi[i] = min(lo[i], p[i]), max(hi[i], p[i])
				}
			}
			if w, h := float64(hi[0]-lo[0]), float64(hi[1]-lo[1]); h != 1 || math.Abs(w-float64(tc.w)/float64(tc.h)) > 1e-5 {
				t.Errorf("quad %gx%g, want %gx1", w, h, float64(tc.w)/float64(tc.h))
			}
			th := do(t, "GET", o.Files["preview"], key, nil, nil)
			cfg, err := png.DecodeConfig(bytes.NewReader(th.Body))
			if th.Status != 200 || err != nil || cfg.Width != tc.thumbW || max(cfg.Width, cfg.Height) > 256 {
				t.Errorf("thumbnail: %d %v %dx%d, want %d wide, at most 256", th.Status, err, cfg.Width, cfg.Height, tc.thumbW)
			}
			if src := do(t, "GET", o.Files["source"], key, nil, nil); src.Status != 200 || !bytes.Equal(src.Body, img) {
				t.Errorf("source: %d, %d bytes", src.Status, len(src.Body))
			}
		})
	}

	for _, tc := range []struct {
		name   string
		fields map[string]string
		files  map[string][]byte
		json   bool
		status int
		code   string
		says   string
	}{
		{"no file", map[string]string{"name": "x"}, nil, false, 400, "missing_file", "file"},
		{"not an image", map[string]string{"name": "x"}, map[string][]byte{"file": []byte("just text")}, false, 400, "invalid_image", "PNG, JPEG or WebP"},
		{"gif", map[string]string{"name": "x"}, map[string][]byte{"file": []byte("GIF89a\x01\x00\x01\x00\x00\x00\x00;")}, false, 400, "invalid_image", "PNG, JPEG or WebP"},
		{"truncated png", map[string]string{"name": "x"}, map[string][]byte{"file": picture(t, "png", 64, 64, clear)[:80]}, false, 400, "invalid_image", "corrupt"},
		{"too wide", map[string]string{"name": "x"}, map[string][]byte{"file": picture(t, "png", 4097, 1, clear)}, false, 400, "image_too_large", "4097x1"},
		{"no name", map[string]string{}, map[string][]byte{"file": picture(t, "png", 8, 8, clear)}, false, 400, "missing_name", "name"},
		{"json body", nil, nil, true, 400, "invalid_content_type", "multipart"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body, h := multipartForm(t, tc.fields, tc.files)
			if tc.json {
				body, h = jsonBody(t, map[string]string{"name": "x"})
			}
			res := do(t, "POST", r.PlatformURL+"/resources/objects/sprite", key, body, h)
			if res.Status != tc.status || res.errorCode(t) != tc.code || !strings.Contains(string(res.Body), tc.says) {
				t.Errorf("%d %s, want %d %s saying %q", res.Status, res.Body, tc.status, tc.code, tc.says)
			}
		})
	}
}

type likeJSON struct {
	ObjectID  string `json:"objectId"`
	Likes     int64  `json:"likes"`
	LikedByMe bool   `json:"likedByMe"`
}

func TestLikes(t *testing.T) {
	r := start(t)
	owner := newKey(t, r, "acme", kiln.ScopeProductRead, kiln.ScopeProductWrite, kiln.ScopeViewerWrite)
	fan := newKey(t, r, "globex", kiln.ScopeAvatarWrite) // a valid key without product scopes
	o := uploadObject(t, r, owner, map[string]string{"name": "Lamp", "type": "mesh", "extension": "glb"}, nil, fixture.CubeGLB())
	url := r.PlatformURL + "/resources/objects/" + o.ObjectID + "/like"
	like := func(method, key string, status int, want likeJSON) {
		t.Helper()
		res := do(t, method, url, key, nil, nil)
		if res.Status != status {
			t.Fatalf("%s like: %d %s, want %d", method, res.Status, res.Body, status)
		}
		if status != 200 {
			if res.errorCode(t) != "object_not_found" {
				t.Fatalf("%s like: %s, want object_not_found", method, res.Body)
			}
			return
		}
		var out []likeJSON
		res.json(t, &out)
		if len(out) != 1 || out[0] != want {
			t.Fatalf("%s like: %s, want [%+v]", method, res.Body, want)
		}
	}
	like("POST", owner, 200, likeJSON{o.ObjectID, 1, true})
	like("POST", owner, 200, likeJSON{o.ObjectID, 1, true}) // idempotent
	like("POST", fan, 404, likeJSON{})                      // private to acme

	body, h := jsonBody(t, map[string]any{"type": "product", "name": "shop", "public": true, "objectId": o.ObjectID})
	if res := do(t, "POST", r.PlatformURL+"/viewers", owner, body, h); res.Status != http.StatusCreated {
		t.Fatalf("create viewer: %d %s", res.Status, res.Body)
	}
	like("POST", fan, 200, likeJSON{o.ObjectID, 2, true}) // shown by a public viewer
	like("DELETE", fan, 200, likeJSON{o.ObjectID, 1, false})
	like("DELETE", fan, 200, likeJSON{o.ObjectID, 1, false})

	res := do(t, "GET", r.PlatformURL+"/resources/objects/"+o.ObjectID, owner, nil, nil)
	var got []likeJSON
	res.json(t, &got)
	if res.Status != 200 || got[0].Likes != 1 || !got[0].LikedByMe {
		t.Errorf("GET object: %s, want likes 1 likedByMe true", res.Body)
	}
	like("DELETE", owner, 200, likeJSON{o.ObjectID, 0, false})
	res = do(t, "GET", r.PlatformURL+"/resources/objects/"+o.ObjectID, owner, nil, nil)
	if !strings.Contains(string(res.Body), `"likes":0`) || !strings.Contains(string(res.Body), `"likedByMe":false`) {
		t.Errorf("GET object without likes: %s", res.Body)
	}

	for _, tc := range []struct {
		path   string
		status int
		code   string
	}{
		{"/resources/objects/obj_missing/like", 404, "object_not_found"},
		{"/resources/objects/bad%20id/like", 400, "invalid_id"},
	} {
		for _, m := range []string{"POST", "DELETE"} {
			if res := do(t, m, r.PlatformURL+tc.path, fan, nil, nil); res.Status != tc.status || res.errorCode(t) != tc.code {
				t.Errorf("%s %s: %d %s, want %d %s", m, tc.path, res.Status, res.Body, tc.status, tc.code)
			}
		}
	}
}

type catalogJSON struct {
	ObjectID     string   `json:"objectId"`
	Name         string   `json:"name"`
	Category     string   `json:"category"`
	SKU          string   `json:"sku"`
	Price        *float64 `json:"price"`
	Currency     string   `json:"currency"`
	GLBURL       string   `json:"glbUrl"`
	ThumbnailURL string   `json:"thumbnailUrl"`
}

func TestCustomCatalog(t *testing.T) {
	r := start(t)
	key := newKey(t, r, "acme", kiln.ScopeProductRead, kiln.ScopeProductWrite)
	other := newKey(t, r, "globex", kiln.ScopeProductRead, kiln.ScopeProductWrite)
	chair := uploadObject(t, r, key, map[string]string{"name": "Chair", "type": "mesh", "extension": "glb"}, nil, fixture.CubeGLB())
	body, h := multipartForm(t, map[string]string{"name": "Plant"}, map[string][]byte{"file": picture(t, "png", 20, 40, color.NRGBA{})})
	var sp []objectJSON
	do(t, "POST", r.PlatformURL+"/resources/objects/sprite", key, body, h).json(t, &sp)
	plant := sp[0]
	theirs := uploadObject(t, r, other, map[string]string{"name": "Sofa", "type": "mesh", "extension": "glb"}, nil, fixture.CubeGLB())
	var pending []prepared
	prepareWith(t, r, key, map[string]string{"name": "Table", "type": "mesh", "extension": "glb"}, nil).json(t, &pending)
	url := r.PlatformURL + "/resources/furniture/custom-catalog"

	catalog := func(res response) []catalogJSON {
		t.Helper()
		if res.Status != 200 {
			t.Fatalf("catalog: %d %s", res.Status, res.Body)
		}
		var out []catalogJSON
		res.json(t, &out)
		return out
	}
	if res := do(t, "GET", url, key, nil, nil); res.Status != 200 || string(res.Body) != "[]" {
		t.Fatalf("empty catalog: %d %s, want []", res.Status, res.Body)
	}
	price := 249.5
	body, h = jsonBody(t, []map[string]any{
		{"objectId": chair.ObjectID, "category": "chairs", "sku": "CH-1", "price": price, "currency": "EUR"},
		{"objectId": plant.ObjectID, "category": "decoration"},
	})
	got := catalog(do(t, "PUT", url, key, body, h))
	if len(got) != 2 || got[0].ObjectID != chair.ObjectID || got[0].Name != "Chair" || got[0].SKU != "CH-1" ||
		got[0].Price == nil || *got[0].Price != price || got[0].Currency != "EUR" || got[0].GLBURL != chair.Files["glb"] ||
		got[1].ThumbnailURL == "" || got[1].Category != "decoration" {
		t.Fatalf("PUT catalog answered %+v", got)
	}
	if again := catalog(do(t, "GET", url, key, nil, nil)); len(again) != 2 || again[1].ObjectID != plant.ObjectID {
		t.Errorf("GET catalog: %+v", again)
	}
	if res := do(t, "GET", url, other, nil, nil); string(res.Body) != "[]" {
		t.Errorf("another account's catalog: %s, want []", res.Body)
	}

	// POST replaces the entry of its object, or adds one; DELETE removes.
	body, h = jsonBody(t, map[string]any{"objectId": plant.ObjectID, "category": "plants"})
	if got := catalog(do(t, "POST", url, key, body, h)); len(got) != 2 || got[1].Category != "plants" {
		t.Errorf("POST replace: %+v", got)
	}
	if got := catalog(do(t, "DELETE", url+"/"+chair.ObjectID, key, nil, nil)); len(got) != 1 || got[0].ObjectID != plant.ObjectID {
		t.Errorf("DELETE: %+v", got)
	}
	body, h = jsonBody(t, map[string]any{"objectId": chair.ObjectID})
	if got := catalog(do(t, "POST", url, key, body, h)); len(got) != 2 || got[1].ObjectID != chair.ObjectID {
		t.Errorf("POST add: %+v", got)
	}

	for _, tc := range []struct {
		name, method, path string
		body               any
		status             int
		code, says         string
	}{
		{"unknown objects named", "PUT", "", []map[string]any{{"objectId": chair.ObjectID}, {"objectId": "obj_nope"}, {"objectId": theirs.ObjectID}},
			400, "unknown_catalog_objects", "obj_nope, " + theirs.ObjectID},
		{"object not ready", "POST", "", map[string]any{"objectId": pending[0].ObjectID}, 400, "unknown_catalog_objects", pending[0].ObjectID},
		{"duplicate", "PUT", "", []map[string]any{{"objectId": chair.ObjectID}, {"objectId": chair.ObjectID}}, 400, "duplicate_catalog_object", "[1].objectId"},
		{"bad id", "PUT", "", []map[string]any{{"objectId": "../etc"}}, 400, "invalid_id", "[0].objectId"},
		{"negative price", "POST", "", map[string]any{"objectId": chair.ObjectID, "price": -1}, 400, "invalid_price", "price"},
		{"bad currency", "POST", "", map[string]any{"objectId": chair.ObjectID, "currency": "euro"}, 400, "invalid_currency", "currency"},
		{"unknown field", "POST", "", map[string]any{"objectId": chair.ObjectID, "colour": "red"}, 400, "invalid_json", "colour"},
		{"object instead of array", "PUT", "", map[string]any{"objectId": chair.ObjectID}, 400, "invalid_json", "JSON"},
		{"null body", "PUT", "", nil, 400, "invalid_json", "array"},
		{"delete not listed", "DELETE", "/" + pending[0].ObjectID, nil, 404, "not_in_catalog", pending[0].ObjectID},
		{"delete bad id", "DELETE", "/bad%20id", nil, 400, "invalid_id", "objectId"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var body io.Reader
			var h map[string]string
			if tc.method != "DELETE" {
				body, h = jsonBody(t, tc.body)
			}
			res := do(t, tc.method, url+tc.path, key, body, h)
			if res.Status != tc.status || res.errorCode(t) != tc.code || !strings.Contains(string(res.Body), tc.says) {
				t.Errorf("%d %s, want %d %s saying %q", res.Status, res.Body, tc.status, tc.code, tc.says)
			}
		})
	}
	if got := catalog(do(t, "GET", url, key, nil, nil)); len(got) != 2 {
		t.Errorf("rejected requests changed the catalog: %+v", got)
	}
	body, h = jsonBody(t, []any{})
	if res := do(t, "PUT", url, key, body, h); res.Status != 200 || string(res.Body) != "[]" {
		t.Errorf("PUT []: %d %s", res.Status, res.Body)
	}
}

type detailsJSON struct {
	ObjectID      string            `json:"objectId"`
	Name          string            `json:"name"`
	Description   string            `json:"description"`
	Lang          string            `json:"lang"`
	RequestedLang string            `json:"requestedLang"`
	Fallback      bool              `json:"fallback"`
	Languages     []string          `json:"languages"`
	Files         map[string]string `json:"files"`
	Viewers       []struct {
		Token  string `json:"viewerToken"`
		Public bool   `json:"public"`
	} `json:"viewers"`
}

func TestConsoleDetails(t *testing.T) {
	r := start(t)
	key := newKey(t, r, "acme", kiln.ScopeProductRead, kiln.ScopeProductWrite, kiln.ScopeProductService, kiln.ScopeViewerWrite)
	other := newKey(t, r, "globex", kiln.ScopeProductService)
	o := uploadObject(t, r, key, map[string]string{"name": "Chair", "description": "a chair", "type": "mesh", "extension": "glb"}, nil, fixture.CubeGLB())
	objURL := r.PlatformURL + "/resources/objects/" + o.ObjectID
	body, h := jsonBody(t, map[string]any{
		"de_DE": map[string]string{"name": "Stuhl", "description": "ein Stuhl"},
		"fr":    map[string]string{"name": "Chaise"},
	})
	if res := do(t, "PUT", objURL+"/translations", key, body, h); res.Status != 200 || !strings.Contains(string(res.Body), "Stuhl") {
		t.Fatalf("PUT translations: %d %s", res.Status, res.Body)
	}
	body, h = jsonBody(t, map[string]any{"type": "product", "name": "shop", "objectId": o.ObjectID})
	if res := do(t, "POST", r.PlatformURL+"/viewers", key, body, h); res.Status != http.StatusCreated {
		t.Fatalf("create viewer: %d %s", res.Status, res.Body)
	}
	url := r.PlatformURL + "/console/objects/" + o.ObjectID + "/details"
	for _, tc := range []struct {
		query, name, desc, lang string
		fallback                bool
	}{
		{"?lang=de_DE", "Stuhl", "ein Stuhl", "de_DE", false},
		{"?lang=de_AT", "Stuhl", "ein Stuhl", "de_DE", true},
		{"?lang=de", "Stuhl", "ein Stuhl", "de_DE", true},
		{"?lang=fr_FR", "Chaise", "a chair", "fr", true}, // the description falls back field by field
		{"?lang=en_US", "Chair", "a chair", "default", true},
		{"", "Chair", "a chair", "default", false},
	} {
		t.Run(tc.query, func(t *testing.T) {
			res := do(t, "GET", url+tc.query, key, nil, nil)
			if res.Status != 200 {
				t.Fatalf("%d %s", res.Status, res.Body)
			}
			var d detailsJSON
			res.json(t, &d)
			if d.Name != tc.name || d.Description != tc.desc || d.Lang != tc.lang || d.Fallback != tc.fallback {
				t.Errorf("got %q %q lang %s fallback %v, want %q %q %s %v", d.Name, d.Description, d.Lang, d.Fallback, tc.name, tc.desc, tc.lang, tc.fallback)
			}
			if d.Files["glb"] == "" || d.Files["source"] == "" || len(d.Viewers) != 1 || len(d.Languages) != 2 {
				t.Errorf("files %v viewers %v languages %v", d.Files, d.Viewers, d.Languages)
			}
		})
	}
	for _, tc := range []struct {
		name, url, key string
		status         int
		code           string
	}{
		{"no key", url, "", 401, "unauthorized"},
		{"unknown object", r.PlatformURL + "/console/objects/obj_nope/details", key, 404, "object_not_found"},
		{"another account", url, other, 404, "object_not_found"},
		{"lang word", url + "?lang=german", key, 400, "invalid_lang"},
		{"lang with hyphen", url + "?lang=de-DE", key, 400, "invalid_lang"},
		{"lang empty", url + "?lang=", key, 400, "invalid_lang"},
		{"bad id", r.PlatformURL + "/console/objects/bad%20id/details", key, 400, "invalid_id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := do(t, "GET", tc.url, tc.key, nil, nil)
			if res.Status != tc.status || res.errorCode(t) != tc.code {
				t.Errorf("%d %s, want %d %s", res.Status, res.Body, tc.status, tc.code)
			}
		})
	}
	for _, tc := range []struct {
		name string
		body any
		code string
	}{
		{"bad locale", map[string]any{"deutsch": map[string]string{"name": "Stuhl"}}, "invalid_lang"},
		{"empty translation", map[string]any{"de": map[string]string{}}, "invalid_translation"},
		{"long name", map[string]any{"de": map[string]string{"name": strings.Repeat("x", 201)}}, "invalid_translation"},
		{"array", []string{"de"}, "invalid_json"},
	} {
		t.Run("translations "+tc.name, func(t *testing.T) {
			body, h := jsonBody(t, tc.body)
			if res := do(t, "PUT", objURL+"/translations", key, body, h); res.Status != 400 || res.errorCode(t) != tc.code {
				t.Errorf("%d %s, want 400 %s", res.Status, res.Body, tc.code)
			}
		})
	}
}

// TestMailAfterUpload runs uploads against a real SMTP server: each way
// processing ends sends one mail to mail_after_upload with the object's
// name, state, error and links.
func TestMailAfterUpload(t *testing.T) {
	smtp := mailtest.Start(t)
	r := startWithMail(t, smtp.URL())
	key := newKey(t, r, "acme", kiln.ScopeProductRead, kiln.ScopeProductWrite)
	for _, tc := range []struct {
		name, typ, ext, to string
		data               []byte
		subject            string
		body               []string
	}{
		{"Chair", "mesh", "glb", "ana@example.com", fixture.CubeGLB(), `"Chair" is ready`,
			[]string{"State:   ready", "/model.glb", "https://kiln.example.com/resources/objects/"}},
		{"Broken", "raw_model", "glb", "Bo <bo@example.com>", []byte("glTF but not really"), `"Broken" could not be processed`,
			[]string{"State:   failed", "Error:   not a valid GLB"}},
		{"Photos", "images", "zip", "cy@example.com", zipOf(t, map[string][]byte{"1.png": picture(t, "png", 8, 8, color.NRGBA{})}), `"Photos" is uploaded and awaits reconstruction`,
			[]string{"State:   awaiting_reconstruction", "/source"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := len(smtp.Messages())
			o := uploadObject(t, r, key, map[string]string{"name": tc.name, "type": tc.typ, "extension": tc.ext, "mail_after_upload": tc.to}, nil, tc.data)
			var m mailtest.Received
			eventually(t, 30*time.Second, "the mail about "+tc.name, func() bool {
				msgs := smtp.Messages()
				if len(msgs) > before {
					m = msgs[len(msgs)-1]
					return true
				}
				return false
			})
			addr := tc.to
			if i := strings.Index(addr, "<"); i >= 0 {
				addr = strings.Trim(addr[i:], "<>")
			}
			if len(m.To) != 1 || m.To[0] != addr || m.From != "kiln@example.com" {
				t.Errorf("envelope from %s to %v, want to %s", m.From, m.To, addr)
			}
			if s := m.Message.Header.Get("Subject"); !strings.Contains(s, tc.subject) {
				t.Errorf("subject %q, want %q", s, tc.subject)
			}
			for _, want := range append(tc.body, o.ObjectID) {
				if !strings.Contains(m.Text, want) {
					t.Errorf("body lacks %q:\n%s", want, m.Text)
				}
			}
		})
	}
	time.Sleep(500 * time.Millisecond)
	if n := len(smtp.Messages()); n != 3 {
		t.Errorf("%d mails, want one per upload (3)", n)
	}
}
