package app

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/internal/gltfcheck"
)

type avatarResult struct {
	Status string `json:"status"`
	Data   struct {
		ModelID    string `json:"modelId"`
		ModelURL   string `json:"modelUrl"`
		PreviewURL string `json:"previewUrl"`
	} `json:"data"`
}

// postAvatar registers body and checks the answer's shape and URLs.
func postAvatar(t *testing.T, r *Running, key, body string) string {
	t.Helper()
	res := do(t, "POST", r.AvatarURL+"/avatar", key, strings.NewReader(body), map[string]string{"Content-Type": "application/json"})
	if res.Status != http.StatusOK {
		t.Fatalf("POST /avatar %s: %d %s", body, res.Status, res.Body)
	}
	var out avatarResult
	res.json(t, &out)
	id := out.Data.ModelID
	base := r.Config.PublicAvatarURL
	if out.Status != "ok" || !strings.HasPrefix(id, "av_") || !kiln.ValidID(id) ||
		out.Data.ModelURL != base+"/model/"+id+".glb" || out.Data.PreviewURL != base+"/preview/"+id+".png" {
		t.Fatalf("POST /avatar %s: %s", body, res.Body)
	}
	return id
}

// getModel downloads a model and checks it is a valid GLB served as one.
func getModel(t *testing.T, r *Running, id, query string) (response, *scene.Scene, gltfcheck.Report) {
	t.Helper()
	res := do(t, "GET", r.AvatarURL+"/model/"+id+".glb"+query, "", nil, nil)
	if res.Status != http.StatusOK || res.Header.Get("Content-Type") != "model/gltf-binary" || res.Header.Get("ETag") == "" {
		t.Fatalf("GET %s%s: %d %s %s", id, query, res.Status, res.Header.Get("Content-Type"), res.Body)
	}
	rep := gltfcheck.RequireValid(t, res.Body)
	s, err := scene.Read(res.Body, scene.ReadOptions{})
	if err != nil {
		t.Fatalf("GET %s%s: %v", id, query, err)
	}
	return res, s, rep
}

// TestAvatarRegistration registers avatars through POST /avatar: `{}`, a
// full configuration, bad ones (each a 400 naming the field), and the
// 401/403 of the key; then downloads each new model.
func TestAvatarRegistration(t *testing.T) {
	r := start(t)
	writer := newKey(t, r, "acme", kiln.ScopeAvatarWrite)
	reader := newKey(t, r, "acme", kiln.ScopeProductRead)

	for _, tc := range []struct {
		name, key string
		status    int
		code      string
	}{
		{"no key", "", 401, "unauthorized"},
		{"unknown key", "not-a-key", 401, "unauthorized"},
		{"key without avatar:write", reader, 403, "missing_scope"},
	} {
		res := do(t, "POST", r.AvatarURL+"/avatar", tc.key, strings.NewReader(`{}`), map[string]string{"Content-Type": "application/json"})
		if res.Status != tc.status || res.errorCode(t) != tc.code {
			t.Errorf("%s: %d %s, want %d %s", tc.name, res.Status, res.Body, tc.status, tc.code)
		}
	}

	for _, tc := range []struct{ body, field string }{
		{`{"version":"2"}`, "version"},
		{`{"version":"1","wings":true}`, "wings"},
		{`{"version":"1","body":{"height":7}}`, "height"},
		{`{"version":"1","body":{"type":"robot"}}`, "type"},
		{`{"version":"1","hair":{"style":"mohawk-of-doom"}}`, "style"},
		{`{"version":"1","eyes":{"color":"#12345"}}`, "color"},
		{`{"version":`, ""},
		{`[1,2]`, ""},
	} {
		res := do(t, "POST", r.AvatarURL+"/avatar", writer, strings.NewReader(tc.body), map[string]string{"Content-Type": "application/json"})
		if res.Status != http.StatusBadRequest {
			t.Errorf("%s: %d %s, want 400", tc.body, res.Status, res.Body)
			continue
		}
		res.errorCode(t)
		if tc.field != "" && !strings.Contains(string(res.Body), tc.field) {
			t.Errorf("%s: the error does not name %s: %s", tc.body, tc.field, res.Body)
		}
	}

	random := postAvatar(t, r, writer, `{}`)
	full := postAvatar(t, r, writer, `{"version":"1","body":{"type":"feminine","height":1.68,"build":0.4},
		"skin":{"tone":"#8d5524"},"hair":{"style":"long","color":"#2b1b10"},"eyes":{"color":"#3a6ea5"},
		"outfit":{"top":{"style":"shirt","color":"#ffffff"},"bottom":{"style":"trousers","color":"#1f2a44"},
		"footwear":{"style":"sneakers","color":"#dddddd"}},"glasses":{"style":"round","color":"#111111"}}`)
	if random == full {
		t.Fatal("two registrations share an id")
	}
	for _, id := range []string{random, full} {
		_, s, _ := getModel(t, r, id, "")
		if st := s.Stats(); st.Joints != 67 || st.Triangles == 0 || st.Triangles > 30000 {
			t.Errorf("%s: %d joints, %d triangles", id, st.Joints, st.Triangles)
		}
	}
	// The record keeps the resolved configuration: the same bytes again.
	a, b := do(t, "GET", r.AvatarURL+"/model/"+random+".glb", "", nil, nil), do(t, "GET", r.AvatarURL+"/model/"+random+".glb", "", nil, nil)
	if !bytes.Equal(a.Body, b.Body) {
		t.Error("the random avatar changed between downloads")
	}
}

// TestAvatarModels downloads the built-in avatars with every parameter
// of spec 4.1, and the errors of the model endpoint.
func TestAvatarModels(t *testing.T) {
	r := start(t)
	for _, id := range []string{kiln.AvatarDefaultMale, kiln.AvatarDefaultFemale} {
		t.Run(id, func(t *testing.T) {
			res, s, _ := getModel(t, r, id, "")
			st := s.Stats()
			if st.Joints != 67 || st.Triangles > 30000 || st.Animations != 0 {
				t.Errorf("lod 0: %+v", st)
			}
			if doc := glbJSON(t, res.Body); !slices.Contains(doc.ExtensionsRequired, "EXT_texture_webp") {
				t.Errorf("default textureFormat is not webp: %v", doc.ExtensionsRequired)
			}
			again := do(t, "GET", r.AvatarURL+"/model/"+id+".glb", "", nil, map[string]string{"If-None-Match": res.Header.Get("ETag")})
			if again.Status != http.StatusNotModified {
				t.Errorf("If-None-Match: %d", again.Status)
			}
			prev := st.Triangles
			for _, q := range []string{"?lod=1", "?lod=2"} {
				_, s, _ := getModel(t, r, id, q)
				if n := s.Stats().Triangles; n >= prev || s.Stats().Joints != 67 {
					t.Errorf("%s: %d triangles after %d", q, n, prev)
				} else {
					prev = n
				}
			}
		})
	}

	id := kiln.AvatarDefaultMale
	_, s, _ := getModel(t, r, id, "?animations=locomotion")
	var names []string
	for _, a := range s.Animations {
		names = append(names, a.Name)
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"locomotion_idle", "locomotion_run", "locomotion_walk"}) {
		t.Errorf("animations=locomotion: clips %v", names)
	}
	_, s, _ = getModel(t, r, id, "?animations=gesture_wave,locomotion_walk&lod=1")
	if len(s.Animations) != 2 {
		t.Errorf("a list of two names: %d clips", len(s.Animations))
	}
	// Identical first requests share one job and get the same bytes.
	var wg sync.WaitGroup
	same := make([]response, 3)
	for i := range same {
		wg.Go(func() { same[i] = do(t, "GET", r.AvatarURL+"/model/"+id+".glb?textureFormat=compat", "", nil, nil) })
	}
	wg.Wait()
	for i, res := range same {
		if res.Status != http.StatusOK || !bytes.Equal(res.Body, same[0].Body) || res.Header.Get("ETag") != same[0].Header.Get("ETag") {
			t.Fatalf("compat request %d: %d, other bytes than request 0", i, res.Status)
		}
	}
	res, _, _ := getModel(t, r, id, "?textureFormat=compat")
	if doc := glbJSON(t, res.Body); len(doc.ExtensionsRequired) != 0 {
		t.Errorf("compat requires %v", doc.ExtensionsRequired)
	}
	_, s, rep := getModel(t, r, id, "?mergeMesh=1&textureAtlasSize=512")
	if draws, _ := rep.Info["drawCallCount"].(float64); draws > 2 || s.Stats().DrawCalls > 2 {
		// The atlas keeps out materials whose UVs leave 0..1 (a texture
		// that tiles), and each of those stays a draw call of its own.
		t.Errorf("mergeMesh=1&textureAtlasSize=512: %v draw calls (%d), want at most 2", draws, s.Stats().DrawCalls)
	}

	for _, tc := range []struct {
		path   string
		status int
		code   string
	}{
		{"/model/default-male.glb?lod=3", 400, "invalid_lod"},
		{"/model/default-male.glb?lod=one", 400, "invalid_lod"},
		{"/model/default-male.glb?textureFormat=gif", 400, "invalid_texture_format"},
		{"/model/default-male.glb?textureAtlasSize=100", 400, "invalid_texture_atlas_size"},
		{"/model/default-male.glb?textureAtlasSize=4096", 400, "invalid_texture_atlas_size"},
		{"/model/default-male.glb?mergeMesh=yes", 400, "invalid_merge_mesh"},
		{"/model/default-male.glb?animations=locomotion_walk,moonwalk", 400, "invalid_animations"},
		{"/model/av_nosuchavatar.glb", 404, "avatar_not_found"},
		{"/model/no%20such.glb", 400, "invalid_id"},
		{"/model/default-male", 404, "route_not_found"},
		{"/model/default-male.gltf", 404, "route_not_found"},
	} {
		res := do(t, "GET", r.AvatarURL+tc.path, "", nil, nil)
		if res.Status != tc.status || res.errorCode(t) != tc.code {
			t.Errorf("%s: %d %s, want %d %s", tc.path, res.Status, res.Body, tc.status, tc.code)
		}
		if tc.code == "invalid_animations" && !strings.Contains(string(res.Body), "moonwalk") {
			t.Errorf("%s: the error does not name the clip: %s", tc.path, res.Body)
		}
	}
}

// TestAnimations lists the built-in clips and downloads every one of
// them for both genders.
func TestAnimations(t *testing.T) {
	r := start(t)
	res := do(t, "GET", r.AvatarURL+"/animations", "", nil, nil)
	var list struct {
		Status string              `json:"status"`
		Data   map[string][]string `json:"data"`
	}
	res.json(t, &list)
	if res.Status != 200 || list.Status != "ok" || len(list.Data) != 2 {
		t.Fatalf("GET /animations: %d %s", res.Status, res.Body)
	}
	for _, gender := range []string{"masculine", "feminine"} {
		names := list.Data[gender]
		for _, want := range []string{"locomotion_idle", "locomotion_walk", "locomotion_run", "gesture_wave", "gesture_nod", "gesture_clap", "gesture_point"} {
			if !slices.Contains(names, want) {
				t.Errorf("%s lacks %s: %v", gender, want, names)
			}
		}
		for _, name := range names {
			res := do(t, "GET", r.AvatarURL+"/animations/"+gender+"/"+name+".glb", "", nil, nil)
			if res.Status != 200 || res.Header.Get("Content-Type") != "model/gltf-binary" {
				t.Errorf("%s/%s: %d %s", gender, name, res.Status, res.Body)
				continue
			}
			gltfcheck.RequireValid(t, res.Body)
			s, err := scene.Read(res.Body, scene.ReadOptions{})
			if err != nil || len(s.Animations) != 1 {
				t.Errorf("%s/%s: %v, not one clip", gender, name, err)
			}
		}
	}
	for _, tc := range []struct {
		path   string
		status int
		code   string
	}{
		{"/animations/robot/locomotion_walk.glb", 400, "invalid_gender"},
		{"/animations/masculine/moonwalk.glb", 400, "invalid_animation"},
		{"/animations/masculine/locomotion_walk", 404, "route_not_found"},
	} {
		res := do(t, "GET", r.AvatarURL+tc.path, "", nil, nil)
		if res.Status != tc.status || res.errorCode(t) != tc.code {
			t.Errorf("%s: %d %s, want %d %s", tc.path, res.Status, res.Body, tc.status, tc.code)
		}
	}

	res = do(t, "GET", r.AvatarURL+"/avatar/schema.json", "", nil, nil)
	var schema map[string]any
	if res.Status != 200 || res.Header.Get("Content-Type") != "application/schema+json" || json.Unmarshal(res.Body, &schema) != nil || schema["properties"] == nil {
		t.Errorf("schema: %d %s %.200s", res.Status, res.Header.Get("Content-Type"), res.Body)
	}
}
