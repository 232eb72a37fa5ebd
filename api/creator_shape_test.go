package api

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/kilnhq/kiln/assets"
	"github.com/kilnhq/kiln/assets/avatar"
)

// TestCreatorBuild asks for a preview build as the creator page does:
// the answer is a GLB (gzipped when asked) whose meshes carry the asked
// sliders as named morph targets and whose scene says where they were
// measured from; bad requests are 400s with a code.
func TestCreatorBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an avatar")
	}
	h := New(Config{Registry: prometheus.NewRegistry()}).Avatar()
	post := func(body string, gz bool) *httptest.ResponseRecorder {
		req := httptest.NewRequest("POST", "/creator/builds", strings.NewReader(body))
		if gz {
			req.Header.Set("Accept-Encoding", "gzip")
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w
	}
	for _, tc := range []struct{ name, body, code string }{
		{"not JSON", `{`, "invalid_json"},
		{"unknown slider", `{"configuration":{},"sliders":["body.type"]}`, "invalid_avatar_config"},
		{"bad configuration", `{"configuration":{"body":{"height":9}},"sliders":[]}`, "invalid_avatar_config"},
		{"too many", `{"configuration":{},"sliders":["face.head.*","face.nose.*","face.mouth.*"]}`, "too_many_sliders"},
		{"unknown feature", `{"configuration":{},"sliders":["face.tail.*"]}`, "invalid_avatar_config"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := post(tc.body, false)
			var e struct{ Error struct{ Code string } }
			_ = json.Unmarshal(w.Body.Bytes(), &e)
			if w.Code != http.StatusBadRequest || e.Error.Code != tc.code {
				t.Fatalf("%d %s, want 400 %s", w.Code, w.Body.String(), tc.code)
			}
		})
	}

	w := post(`{"configuration":{"body":{"type":"feminine","height":1.7}},"sliders":["body.height","face.nose.scale-horiz"]}`, true)
	if w.Code != http.StatusOK || w.Header().Get("Content-Encoding") != "gzip" || w.Header().Get("Content-Type") != "model/gltf-binary" {
		t.Fatalf("%d %v", w.Code, w.Header())
	}
	gzipped := w.Body.Len()
	zr, err := gzip.NewReader(w.Body)
	if err != nil {
		t.Fatal(err)
	}
	glb, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d bytes, %d gzipped", len(glb), gzipped)
	doc, err := assets.Read(glb)
	if err != nil {
		t.Fatal(err)
	}
	extras, _ := doc.Scenes[0].Extras.(map[string]any)
	sliders, _ := extras["sliders"].(map[string]any)
	if sliders["body.height"] != 1.7 {
		t.Errorf("extras.sliders = %v, want body.height 1.7", sliders)
	}
	named := map[string][]string{}
	for _, m := range doc.Meshes {
		ex, _ := m.Extras.(map[string]any)
		names, _ := ex["targetNames"].([]any)
		for _, n := range names {
			named[m.Name] = append(named[m.Name], n.(string))
		}
	}
	if got := strings.Join(named["Wolf3D_Head"], ","); got != "body.height,face.nose.scale-horiz" {
		t.Errorf("head targets %q", got)
	}
	if got := strings.Join(named["Wolf3D_Outfit_Footwear"], ","); got != "body.height" {
		t.Errorf("footwear targets %q, want the height's only (the nose moves no shoe)", got)
	}

	// The same request again comes from the cache: the same bytes.
	if again := post(`{"configuration":{"body":{"type":"feminine","height":1.7}},"sliders":["body.height","face.nose.scale-horiz"]}`, false); !bytes.Equal(again.Body.Bytes(), glb) {
		t.Error("the plain answer differs from the gzipped one")
	}
}

// TestCreatorRandom is the creator's Shuffle: a seed gives one valid
// configuration every time, other seeds other ones, no seed a fresh one;
// a seed that is not a number is a 400 with a code.
func TestCreatorRandom(t *testing.T) {
	h := New(Config{Registry: prometheus.NewRegistry()}).Avatar()
	get := func(query string) (int, string, json.RawMessage) {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", "/creator/random"+query, nil))
		var v struct {
			Data  struct{ Configuration json.RawMessage }
			Error struct{ Code string }
		}
		_ = json.Unmarshal(w.Body.Bytes(), &v)
		return w.Code, v.Error.Code, v.Data.Configuration
	}
	for _, tc := range []struct {
		query, code string
		status      int
	}{
		{"?seed=abc", "invalid_seed", http.StatusBadRequest},
		{"?seed=1.5", "invalid_seed", http.StatusBadRequest},
		{"?seed=", "invalid_seed", http.StatusBadRequest},
	} {
		if status, code, _ := get(tc.query); status != tc.status || code != tc.code {
			t.Errorf("GET /creator/random%s: %d %s, want %d %s", tc.query, status, code, tc.status, tc.code)
		}
	}
	seen := map[string]bool{}
	for _, q := range []string{"?seed=7", "?seed=7", "?seed=8", "?seed=-3", "", ""} {
		status, _, cfg := get(q)
		if status != http.StatusOK {
			t.Fatalf("GET /creator/random%s: %d", q, status)
		}
		if _, err := avatar.ParseConfig(cfg); err != nil {
			t.Errorf("GET /creator/random%s: %s is not a valid configuration: %v", q, cfg, err)
		}
		seen[string(cfg)] = true
	}
	// seed 7 twice is one configuration; the other four are new.
	if len(seen) != 5 {
		t.Errorf("%d distinct configurations of 6 calls (two with seed 7), want 5", len(seen))
	}
}
