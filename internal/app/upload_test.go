package app

import (
	"bytes"
	"image/png"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets"
	"github.com/kilnhq/kiln/internal/fixture"
	"github.com/kilnhq/kiln/internal/gltfcheck"
)

type prepared struct {
	ObjectID string `json:"objectId"`
	Upload   struct {
		URL       string            `json:"url"`
		Method    string            `json:"method"`
		Headers   map[string]string `json:"headers"`
		ExpiresAt time.Time         `json:"expiresAt"`
	} `json:"upload"`
}

type objectJSON struct {
	ObjectID    string           `json:"objectId"`
	Name        string           `json:"name"`
	Description string           `json:"description"`
	Type        string           `json:"type"`
	Extension   string           `json:"extension"`
	State       string           `json:"state"`
	Error       string           `json:"error"`
	Stats       *kiln.ModelStats `json:"stats"`
	Files       map[string]string
	LODs        []struct {
		Level     int    `json:"lod"`
		Triangles int    `json:"triangles"`
		URL       string `json:"url"`
	} `json:"lods"`
	CreatedAt time.Time `json:"createdAt"`
}

func prepare(t *testing.T, r *Running, key string, fields map[string]string) prepared {
	t.Helper()
	body, h := form(t, fields)
	res := do(t, "POST", r.PlatformURL+"/resources/objects/prepare-upload", key, body, h)
	if res.Status != http.StatusOK {
		t.Fatalf("prepare-upload: %d %s", res.Status, res.Body)
	}
	var out []prepared
	res.json(t, &out)
	if len(out) != 1 || out[0].ObjectID == "" || out[0].Upload.URL == "" || out[0].Upload.Method != "PUT" {
		t.Fatalf("prepare-upload answered %s", res.Body)
	}
	if time.Until(out[0].Upload.ExpiresAt) < kiln.UploadURLTTL-time.Minute {
		t.Fatalf("upload URL expires too soon: %v", out[0].Upload.ExpiresAt)
	}
	return out[0]
}

func upload(t *testing.T, p prepared, data []byte) response {
	t.Helper()
	return do(t, p.Upload.Method, p.Upload.URL, "", bytes.NewReader(data), p.Upload.Headers)
}

func getObject(t *testing.T, r *Running, key, id string) (response, objectJSON) {
	t.Helper()
	res := do(t, "GET", r.PlatformURL+"/resources/objects/"+id, key, nil, nil)
	var out []objectJSON
	if res.Status == http.StatusOK {
		res.json(t, &out)
		if len(out) != 1 {
			t.Fatalf("GET object answered %s", res.Body)
		}
		return res, out[0]
	}
	return res, objectJSON{}
}

func waitState(t *testing.T, r *Running, key, id string) objectJSON {
	t.Helper()
	var o objectJSON
	eventually(t, 60*time.Second, "object "+id+" to be processed", func() bool {
		_, o = getObject(t, r, key, id)
		return o.State == "ready" || o.State == "failed"
	})
	return o
}

func finish(t *testing.T, r *Running, key, id string, fields map[string]string) response {
	t.Helper()
	body, h := form(t, fields)
	return do(t, "POST", r.PlatformURL+"/resources/objects/"+id+"/finish-upload", key, body, h)
}

// TestUploadFlow walks spec 4.2's upload flow over real HTTP: prepare,
// PUT, finish, process, read the object, download its GLB.
func TestUploadFlow(t *testing.T) {
	r := start(t)
	key := newKey(t, r, "acme", kiln.ScopeProductRead, kiln.ScopeProductWrite)
	other := newKey(t, r, "globex", kiln.ScopeProductRead, kiln.ScopeProductWrite)
	cube := fixture.CubeGLB()

	p := prepare(t, r, key, map[string]string{
		"name": "Cube", "description": "a unit cube", "type": "raw_model", "extension": "glb",
		"file_size": strconv.Itoa(len(cube)), "file_count": "1",
	})
	if res := upload(t, p, cube); res.Status != http.StatusOK {
		t.Fatalf("PUT upload: %d %s", res.Status, res.Body)
	}
	if strings.HasPrefix(p.Upload.URL, r.PlatformURL) {
		// The local upload URL works once.
		if res := upload(t, p, cube); res.Status != http.StatusConflict {
			t.Fatalf("second PUT: %d %s, want 409", res.Status, res.Body)
		}
	}
	res := finish(t, r, key, p.ObjectID, map[string]string{"success": "true", "optimize": "true"})
	if res.Status != http.StatusOK {
		t.Fatalf("finish-upload: %d %s", res.Status, res.Body)
	}
	o := waitState(t, r, key, p.ObjectID)
	if o.State != "ready" {
		t.Fatalf("object ended %s: %s", o.State, o.Error)
	}
	want := kiln.ModelStats{Triangles: 12, Vertices: 24, Meshes: 1, Materials: 1, Textures: 0}
	if o.Stats == nil || *o.Stats != want {
		t.Fatalf("stats %+v, want %+v", o.Stats, want)
	}
	if o.Name != "Cube" || o.Description != "a unit cube" || o.Type != "raw_model" || o.Extension != "glb" || o.CreatedAt.IsZero() {
		t.Fatalf("object fields: %+v", o)
	}
	glbURL := o.Files["glb"]
	if glbURL == "" {
		t.Fatalf("no files.glb in %+v", o)
	}

	dl := do(t, "GET", glbURL, key, nil, nil)
	if dl.Status != http.StatusOK || dl.Header.Get("Content-Type") != "model/gltf-binary" {
		t.Fatalf("download: %d %s", dl.Status, dl.Header.Get("Content-Type"))
	}
	if m, err := assets.Read(dl.Body); err != nil || assets.ModelStats(m.Stats()) != want {
		t.Fatalf("downloaded GLB: %v", err)
	}
	gltfcheck.RequireValid(t, dl.Body)
	etag := dl.Header.Get("ETag")
	if etag == "" {
		t.Fatal("download has no ETag")
	}
	if res := do(t, "GET", glbURL, key, nil, map[string]string{"If-None-Match": etag}); res.Status != http.StatusNotModified {
		t.Fatalf("If-None-Match: %d", res.Status)
	}
	rng := do(t, "GET", glbURL, key, nil, map[string]string{"Range": "bytes=0-3"})
	if rng.Status != http.StatusPartialContent || string(rng.Body) != "glTF" {
		t.Fatalf("Range: %d %q", rng.Status, rng.Body)
	}

	// Processing draws a thumbnail when no preview was uploaded.
	thumb := do(t, "GET", o.Files["preview"], key, nil, nil)
	if o.Files["preview"] == "" || thumb.Status != http.StatusOK || thumb.Header.Get("Content-Type") != "image/png" {
		t.Fatalf("thumbnail %q: %d %s", o.Files["preview"], thumb.Status, thumb.Header.Get("Content-Type"))
	}
	img, err := png.Decode(bytes.NewReader(thumb.Body))
	if err != nil || img.Bounds().Dx() != 256 || img.Bounds().Dy() != 256 {
		t.Fatalf("thumbnail: %v %v", img.Bounds(), err)
	}
	if _, _, _, a := img.At(128, 128).RGBA(); a == 0 {
		t.Error("the thumbnail's centre is transparent: no model drawn")
	}
	if _, _, _, a := img.At(0, 0).RGBA(); a != 0 {
		t.Error("the thumbnail's corner is not transparent")
	}

	// optimize=true (the default) builds lod 0, 1 and 2.
	if len(o.LODs) != 3 || o.LODs[0].Triangles != 12 {
		t.Fatalf("lods: %+v", o.LODs)
	}
	for _, l := range o.LODs {
		res := do(t, "GET", l.URL, key, nil, nil)
		if res.Status != http.StatusOK {
			t.Fatalf("lod %d: %d %s", l.Level, res.Status, res.Body)
		}
		m, err := assets.Read(res.Body)
		if err != nil || m.Stats().Triangles != l.Triangles {
			t.Fatalf("lod %d: record says %d triangles (%v)", l.Level, l.Triangles, err)
		}
		gltfcheck.RequireValid(t, res.Body)
	}
	if res := do(t, "GET", glbURL+"?lod=3", key, nil, nil); res.Status != http.StatusBadRequest || res.errorCode(t) != "invalid_lod" {
		t.Fatalf("lod=3: %d %s", res.Status, res.Body)
	}

	// Another account's object is as missing as a missing one.
	for _, tc := range []struct{ name, key, id string }{
		{"other account", other, p.ObjectID},
		{"missing", key, "obj_doesnotexist"},
	} {
		res, _ := getObject(t, r, tc.key, tc.id)
		if res.Status != http.StatusNotFound || res.errorCode(t) != "object_not_found" {
			t.Errorf("%s: %d %s", tc.name, res.Status, res.Body)
		}
		if res := do(t, "GET", r.PlatformURL+"/resources/objects/"+tc.id+"/model.glb", tc.key, nil, nil); res.Status != http.StatusNotFound {
			t.Errorf("%s download: %d", tc.name, res.Status)
		}
	}

	// Finishing twice changes nothing.
	if res := finish(t, r, key, p.ObjectID, nil); res.Status != http.StatusOK {
		t.Fatalf("second finish-upload: %d %s", res.Status, res.Body)
	}
	if _, o2 := getObject(t, r, key, p.ObjectID); o2.State != "ready" {
		t.Fatalf("after second finish: %s", o2.State)
	}
}

// TestUploadFailures checks that bad files end failed with a reason and
// bad requests get a 4xx with the error body.
func TestUploadFailures(t *testing.T) {
	r := start(t)
	key := newKey(t, r, "acme", kiln.ScopeProductRead, kiln.ScopeProductWrite)

	files := []struct {
		name, ext string
		data      []byte
		wantErr   string
	}{
		{"text", "glb", []byte("this is not a model at all"), "not a valid GLB"},
		{"truncated", "glb", fixture.CubeGLB()[:100], "not a valid GLB"},
		{"unsupported", "fbx", []byte("Kaydara FBX Binary"), "not processed"},
	}
	for _, f := range files {
		t.Run(f.name, func(t *testing.T) {
			p := prepare(t, r, key, map[string]string{"name": f.name, "type": "mesh", "extension": f.ext})
			if res := upload(t, p, f.data); res.Status != http.StatusOK {
				t.Fatalf("PUT: %d %s", res.Status, res.Body)
			}
			if res := finish(t, r, key, p.ObjectID, nil); res.Status != http.StatusOK {
				t.Fatalf("finish: %d %s", res.Status, res.Body)
			}
			o := waitState(t, r, key, p.ObjectID)
			if o.State != "failed" || !strings.Contains(o.Error, f.wantErr) {
				t.Fatalf("state %s error %q, want failed with %q", o.State, o.Error, f.wantErr)
			}
			if o.Files["glb"] != "" {
				t.Fatalf("failed object lists a GLB: %v", o.Files)
			}
		})
	}

	t.Run("optimize false builds lod 0 only", func(t *testing.T) {
		p := prepare(t, r, key, map[string]string{"name": "x", "type": "mesh", "extension": "glb"})
		upload(t, p, fixture.CubeGLB())
		if res := finish(t, r, key, p.ObjectID, map[string]string{"optimize": "false"}); res.Status != http.StatusOK {
			t.Fatalf("finish: %d %s", res.Status, res.Body)
		}
		if o := waitState(t, r, key, p.ObjectID); o.State != "ready" || len(o.LODs) != 1 {
			t.Fatalf("%+v", o)
		}
		res := do(t, "GET", r.PlatformURL+"/resources/objects/"+p.ObjectID+"/model.glb?lod=1", key, nil, nil)
		if res.Status != http.StatusNotFound || res.errorCode(t) != "lod_not_built" {
			t.Fatalf("lod 1 of an unoptimized object: %d %s", res.Status, res.Body)
		}
	})

	t.Run("client reports failure", func(t *testing.T) {
		p := prepare(t, r, key, map[string]string{"name": "x", "type": "mesh", "extension": "glb"})
		res := finish(t, r, key, p.ObjectID, map[string]string{"success": "false", "message": "disk full"})
		var out []objectJSON
		res.json(t, &out)
		if res.Status != http.StatusOK || out[0].State != "failed" || !strings.Contains(out[0].Error, "disk full") {
			t.Fatalf("%d %s", res.Status, res.Body)
		}
	})

	bad := []struct {
		name   string
		fields map[string]string
		status int
		code   string
	}{
		{"unknown type", map[string]string{"name": "x", "type": "video", "extension": "glb"}, 400, "invalid_type"},
		{"missing type", map[string]string{"name": "x", "extension": "glb"}, 400, "missing_type"},
		{"missing name", map[string]string{"type": "mesh", "extension": "glb"}, 400, "missing_name"},
		{"missing extension", map[string]string{"name": "x", "type": "mesh"}, 400, "missing_extension"},
		{"bad extension", map[string]string{"name": "x", "type": "mesh", "extension": "../glb"}, 400, "invalid_extension"},
		{"bad file_size", map[string]string{"name": "x", "type": "mesh", "extension": "glb", "file_size": "big"}, 400, "invalid_file_size"},
		{"negative file_count", map[string]string{"name": "x", "type": "mesh", "extension": "glb", "file_count": "-1"}, 400, "invalid_file_count"},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			body, h := form(t, tc.fields)
			res := do(t, "POST", r.PlatformURL+"/resources/objects/prepare-upload", key, body, h)
			if res.Status != tc.status || res.errorCode(t) != tc.code {
				t.Fatalf("%d %s, want %d %s", res.Status, res.Body, tc.status, tc.code)
			}
		})
	}

	t.Run("finish without upload", func(t *testing.T) {
		p := prepare(t, r, key, map[string]string{"name": "x", "type": "mesh", "extension": "glb"})
		res := finish(t, r, key, p.ObjectID, nil)
		if res.Status != http.StatusConflict || res.errorCode(t) != "upload_missing" {
			t.Fatalf("%d %s", res.Status, res.Body)
		}
	})

	t.Run("upload larger than file_size", func(t *testing.T) {
		p := prepare(t, r, key, map[string]string{"name": "x", "type": "mesh", "extension": "glb", "file_size": "10"})
		res := upload(t, p, fixture.CubeGLB())
		// The local URL answers 413; S3 refuses a body of another length
		// than the one signed into its URL with 403.
		want := http.StatusRequestEntityTooLarge
		if !strings.HasPrefix(p.Upload.URL, r.PlatformURL) {
			want = http.StatusForbidden
		}
		if res.Status != want {
			t.Fatalf("%d %s, want %d", res.Status, res.Body, want)
		}
	})

	t.Run("forged upload URL", func(t *testing.T) {
		p := prepare(t, r, key, map[string]string{"name": "x", "type": "mesh", "extension": "glb"})
		if !strings.HasPrefix(p.Upload.URL, r.PlatformURL) {
			t.Skip("presigned S3 URLs are checked by S3")
		}
		p.Upload.URL = p.Upload.URL[:len(p.Upload.URL)-4] + "AAAA"
		res := upload(t, p, fixture.CubeGLB())
		if res.Status != http.StatusForbidden || res.errorCode(t) != "invalid_upload_url" {
			t.Fatalf("%d %s", res.Status, res.Body)
		}
	})
}
