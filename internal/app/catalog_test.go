package app

import (
	"image/color"
	"io"
	"strings"
	"testing"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/internal/fixture"
)

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
