package app

import (
	"net/http"
	"strings"
	"testing"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/internal/fixture"
)

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
