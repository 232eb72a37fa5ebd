package app

import (
	"net/http"
	"strings"
	"testing"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/internal/fixture"
)

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
