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
	"mime/multipart"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/internal/fixture"
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
	// A configured public URL names a proxy in front of this Kiln (the
	// upload URL is built from it): the test goes straight to Kiln.
	p[0].Upload.URL = strings.Replace(p[0].Upload.URL, r.Config.PublicPlatformURL, r.PlatformURL, 1)
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
