package app

import (
	"bytes"
	"image/color"
	"image/png"
	"math"
	"net/http"
	"strings"
	"testing"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/internal/gltfcheck"
)

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
