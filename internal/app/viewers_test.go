package app

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kilnhq/kiln"
)

type viewerJSON struct {
	Token     string    `json:"viewerToken"`
	Account   string    `json:"account"`
	Kind      string    `json:"type"`
	Name      string    `json:"name"`
	Public    bool      `json:"public"`
	ObjectID  string    `json:"objectId"`
	SpaceID   string    `json:"spaceId"`
	CreatedAt time.Time `json:"createdAt"`
}

func newViewer(t *testing.T, r *Running, key string, body map[string]any) viewerJSON {
	t.Helper()
	res := call(t, r, "POST", "/viewers", key, body)
	want(t, "create viewer", res, http.StatusCreated, "")
	var v viewerJSON
	res.json(t, &v)
	return v
}

// viewerFixture is an account with an object, a space, and a space and a
// product viewer, plus another account to be refused.
type viewerFixture struct {
	key, readOnly, other    string
	object, otherObject     string
	space                   spaceJSON
	spaceViewer, prodViewer viewerJSON
	otherViewer             viewerJSON
}

func newViewerFixture(t *testing.T, r *Running) viewerFixture {
	t.Helper()
	all := []string{kiln.ScopeSpaceWrite, kiln.ScopeProductWrite, kiln.ScopeViewerRead, kiln.ScopeViewerWrite}
	f := viewerFixture{
		key:      newKey(t, r, "acme", all...),
		readOnly: newKey(t, r, "acme", kiln.ScopeViewerRead),
		other:    newKey(t, r, "globex", all...),
	}
	f.object = newObject(t, r, f.key)
	f.otherObject = newObject(t, r, f.other)
	f.space = newSpace(t, r, f.key, "gallery")
	f.spaceViewer = newViewer(t, r, f.key, map[string]any{"type": "space", "name": "Gallery tour", "spaceId": f.space.ID})
	f.prodViewer = newViewer(t, r, f.key, map[string]any{"type": "product", "name": "Chair", "objectId": f.object, "public": true})
	f.otherViewer = newViewer(t, r, f.other, map[string]any{"type": "product", "name": "Theirs", "objectId": f.otherObject})
	return f
}

func TestViewers(t *testing.T) {
	r := start(t)
	f := newViewerFixture(t, r)
	if v := f.spaceViewer; !strings.HasPrefix(v.Token, "vw_") || v.Kind != "space" || v.SpaceID != f.space.ID || v.Public || v.Account != "acme" {
		t.Fatalf("space viewer %+v", v)
	}
	if v := f.prodViewer; v.Kind != "product" || v.ObjectID != f.object || !v.Public || v.SpaceID != "" {
		t.Fatalf("product viewer %+v", v)
	}
	otherSpace := newSpace(t, r, f.other, "loft")
	for _, tc := range []struct {
		name   string
		body   any
		status int
		code   string
	}{
		{"not json", "type=space", 400, "invalid_json"},
		{"unknown field", `{"type":"product","name":"x","objectId":"` + f.object + `","token":"mine"}`, 400, "invalid_json"},
		{"public not a boolean", `{"type":"product","name":"x","objectId":"` + f.object + `","public":"yes"}`, 400, "invalid_json"},
		{"no type", map[string]any{"name": "x", "objectId": f.object}, 400, "missing_type"},
		{"bad type", map[string]any{"type": "room", "name": "x", "objectId": f.object}, 400, "invalid_type"},
		{"no name", map[string]any{"type": "product", "objectId": f.object}, 400, "missing_name"},
		{"product without object", map[string]any{"type": "product", "name": "x"}, 400, "missing_object_id"},
		{"product with space", map[string]any{"type": "product", "name": "x", "objectId": f.object, "spaceId": f.space.ID}, 400, "invalid_space_id"},
		{"space without space", map[string]any{"type": "space", "name": "x"}, 400, "missing_space_id"},
		{"space with object", map[string]any{"type": "space", "name": "x", "spaceId": f.space.ID, "objectId": f.object}, 400, "invalid_object_id"},
		{"bad object id", map[string]any{"type": "product", "name": "x", "objectId": "a/b"}, 400, "invalid_id"},
		{"bad space id", map[string]any{"type": "space", "name": "x", "spaceId": "a b"}, 400, "invalid_id"},
		{"unknown object", map[string]any{"type": "product", "name": "x", "objectId": "obj_nope"}, 404, "object_not_found"},
		{"another account's object", map[string]any{"type": "product", "name": "x", "objectId": f.otherObject}, 404, "object_not_found"},
		{"unknown space", map[string]any{"type": "space", "name": "x", "spaceId": "sp_nope"}, 404, "space_not_found"},
		{"another account's space", map[string]any{"type": "space", "name": "x", "spaceId": otherSpace.ID}, 404, "space_not_found"},
	} {
		want(t, tc.name, call(t, r, "POST", "/viewers", f.key, tc.body), tc.status, tc.code)
	}
	want(t, "create with viewer:read only", call(t, r, "POST", "/viewers", f.readOnly, map[string]any{}), 403, "missing_scope")

	res := call(t, r, "GET", "/viewers/"+f.spaceViewer.Token, f.readOnly, nil)
	want(t, "get own viewer", res, 200, "")
	var got viewerJSON
	res.json(t, &got)
	if got != f.spaceViewer {
		t.Fatalf("get viewer: %+v, want %+v", got, f.spaceViewer)
	}
	want(t, "get another's viewer", call(t, r, "GET", "/viewers/"+f.otherViewer.Token, f.key, nil), 404, "viewer_not_found")
	want(t, "get unknown viewer", call(t, r, "GET", "/viewers/vw_nope", f.key, nil), 404, "viewer_not_found")
	want(t, "get bad token", call(t, r, "GET", "/viewers/a.b", f.key, nil), 400, "invalid_id")

	res = call(t, r, "GET", "/viewers", f.readOnly, nil)
	var mine struct {
		Viewers []viewerJSON `json:"viewers"`
	}
	res.json(t, &mine)
	if res.Status != 200 || len(mine.Viewers) != 2 || mine.Viewers[0].Token != f.prodViewer.Token {
		t.Fatalf("own viewers, newest first: %d %s", res.Status, res.Body)
	}

	want(t, "delete another's viewer", call(t, r, "DELETE", "/viewers/"+f.otherViewer.Token, f.key, nil), 404, "viewer_not_found")
	want(t, "delete with viewer:read", call(t, r, "DELETE", "/viewers/"+f.prodViewer.Token, f.readOnly, nil), 403, "missing_scope")
	want(t, "delete viewer", call(t, r, "DELETE", "/viewers/"+f.prodViewer.Token, f.key, nil), 200, "")
	want(t, "get deleted viewer", call(t, r, "GET", "/viewers/"+f.prodViewer.Token, f.key, nil), 404, "viewer_not_found")
	want(t, "annotations of deleted viewer", call(t, r, "GET", "/viewers/"+f.prodViewer.Token+"/annotations", f.key, nil), 404, "viewer_not_found")
	if strings.Contains(string(call(t, r, "GET", "/viewers/public?type=product", "", nil).Body), f.prodViewer.Token) {
		t.Fatal("a deleted viewer is still listed as public")
	}
}

func TestPublicViewers(t *testing.T) {
	r := start(t)
	f := newViewerFixture(t, r)
	// 25 public product viewers besides the fixture's, and private ones
	// that must not show.
	var tokens []string
	for i := range 25 {
		v := newViewer(t, r, f.key, map[string]any{"type": "product", "name": fmt.Sprint("P", i), "objectId": f.object, "public": true})
		tokens = append(tokens, v.Token)
		newViewer(t, r, f.other, map[string]any{"type": "product", "name": "private", "objectId": f.otherObject})
	}
	tokens = append([]string{f.prodViewer.Token}, tokens...)
	slices.Reverse(tokens) // newest first
	pub := newViewer(t, r, f.key, map[string]any{"type": "space", "name": "Open house", "spaceId": f.space.ID, "public": true})

	page := func(query string) []map[string]any {
		t.Helper()
		res := call(t, r, "GET", "/viewers/public?"+query, "", nil)
		want(t, query, res, 200, "")
		var out []map[string]any
		res.json(t, &out)
		return out
	}
	ids := func(vs []map[string]any) []string {
		var out []string
		for _, v := range vs {
			if _, has := v["account"]; has {
				t.Fatalf("public viewer shows its account: %v", v)
			}
			out = append(out, v["viewerToken"].(string))
		}
		return out
	}
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"type=product", tokens[:20]},
		{"type=product&page=2", tokens[20:]},
		{"type=product&page=3", nil},
		{"type=product&length=100", tokens},
		{"type=product&page=2&length=5", tokens[5:10]},
		{"type=product%20viewer&length=1", tokens[:1]},
		{"type=Product_Viewer&length=1", tokens[:1]},
		{"type=space", []string{pub.Token}},
		{"type=space+viewer", []string{pub.Token}},
		{"type=space&page=1000000", nil},
	} {
		if got := ids(page(tc.query)); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.query, got, tc.want)
		}
	}
	if res := call(t, r, "GET", "/viewers/public?type=space", "", nil); strings.TrimSpace(string(res.Body)) == "null" || res.Body[0] != '[' {
		t.Fatalf("not a bare array: %s", res.Body)
	}
	if res := call(t, r, "GET", "/viewers/public?type=space&page=9", "", nil); strings.TrimSpace(string(res.Body)) != "[]" {
		t.Fatalf("an empty page is not []: %s", res.Body)
	}
	first := page("type=space")[0]
	if first["name"] != "Open house" || first["type"] != "space" || first["spaceId"] != f.space.ID || first["createdAt"] == nil {
		t.Fatalf("public viewer fields: %v", first)
	}
	for _, tc := range []struct{ query, code string }{
		{"", "missing_type"},
		{"type=", "missing_type"},
		{"type=room", "invalid_type"},
		{"type=product&page=0", "invalid_page"},
		{"type=product&page=-1", "invalid_page"},
		{"type=product&page=x", "invalid_page"},
		{"type=product&page=1.5", "invalid_page"},
		{"type=product&page=", "invalid_page"},
		{"type=product&page=1000001", "invalid_page"},
		{"type=product&length=0", "invalid_length"},
		{"type=product&length=101", "invalid_length"},
		{"type=product&length=abc", "invalid_length"},
		{"type=product&length=99999999999999999999", "invalid_length"},
	} {
		want(t, "public ?"+tc.query, call(t, r, "GET", "/viewers/public?"+tc.query, "", nil), 400, tc.code)
	}
}

type annotationJSON struct {
	ID          string    `json:"annotationId"`
	ViewerToken string    `json:"viewerToken"`
	Title       string    `json:"title"`
	Text        string    `json:"text"`
	Position    []float64 `json:"position"`
	Normal      []float64 `json:"normal"`
}

func TestAnnotations(t *testing.T) {
	r := start(t)
	f := newViewerFixture(t, r)
	path := "/viewers/" + f.prodViewer.Token + "/annotations"
	var made []annotationJSON
	for i, body := range []map[string]any{
		{"title": "Seat", "text": "Hand-stitched leather.", "position": []float64{0, 0.45, 0.1}, "normal": []float64{0, 2, 0}},
		{"title": "Leg", "position": []float64{-0.2, 0, 0.2}},
		{"title": "Max", "text": strings.Repeat("x", 2000), "position": []float64{1e6, -1e6, 0}},
	} {
		res := call(t, r, "POST", path, f.key, body)
		want(t, fmt.Sprint("annotation ", i), res, 201, "")
		var a annotationJSON
		res.json(t, &a)
		if !strings.HasPrefix(a.ID, "ann_") || a.ViewerToken != f.prodViewer.Token || a.Title != body["title"] {
			t.Fatalf("annotation %s", res.Body)
		}
		made = append(made, a)
	}
	if n := made[0].Normal; len(n) != 3 || n[1] != 1 || n[0] != 0 {
		t.Fatalf("normal not made unit: %v", n)
	}
	if made[1].Normal != nil {
		t.Fatalf("absent normal: %v", made[1].Normal)
	}
	for _, tc := range []struct {
		name   string
		body   any
		status int
		code   string
	}{
		{"not json", "title=x", 400, "invalid_json"},
		{"unknown field", `{"title":"a","position":[0,0,0],"color":"red"}`, 400, "invalid_json"},
		{"position not numbers", `{"title":"a","position":["0","0","0"]}`, 400, "invalid_json"},
		{"number too large for float64", `{"title":"a","position":[1e400,0,0]}`, 400, "invalid_json"},
		{"NaN", `{"title":"a","position":[NaN,0,0]}`, 400, "invalid_json"},
		{"no title", map[string]any{"position": []float64{0, 0, 0}}, 400, "missing_title"},
		{"blank title", map[string]any{"title": "  ", "position": []float64{0, 0, 0}}, 400, "missing_title"},
		{"long title", map[string]any{"title": strings.Repeat("t", 201), "position": []float64{0, 0, 0}}, 400, "invalid_title"},
		{"long text", map[string]any{"title": "a", "text": strings.Repeat("x", 2001), "position": []float64{0, 0, 0}}, 400, "invalid_text"},
		{"no position", map[string]any{"title": "a"}, 400, "missing_position"},
		{"short position", map[string]any{"title": "a", "position": []float64{0, 0}}, 400, "invalid_position"},
		{"long position", map[string]any{"title": "a", "position": []float64{0, 0, 0, 0}}, 400, "invalid_position"},
		{"far position", map[string]any{"title": "a", "position": []float64{0, 2e6, 0}}, 400, "invalid_position"},
		{"zero normal", map[string]any{"title": "a", "position": []float64{0, 0, 0}, "normal": []float64{0, 0, 0}}, 400, "invalid_normal"},
		{"short normal", map[string]any{"title": "a", "position": []float64{0, 0, 0}, "normal": []float64{0, 1}}, 400, "invalid_normal"},
	} {
		want(t, tc.name, call(t, r, "POST", path, f.key, tc.body), tc.status, tc.code)
	}
	ok := map[string]any{"title": "a", "position": []float64{0, 0, 0}}
	want(t, "no key", call(t, r, "POST", path, "", ok), 401, "unauthorized")
	want(t, "list without key", call(t, r, "GET", path, "", nil), 401, "unauthorized")
	want(t, "viewer:read only", call(t, r, "POST", path, f.readOnly, ok), 403, "missing_scope")
	want(t, "another account's viewer", call(t, r, "POST", path, f.other, ok), 404, "viewer_not_found")
	want(t, "list another account's viewer", call(t, r, "GET", path, f.other, nil), 404, "viewer_not_found")
	want(t, "unknown viewer", call(t, r, "POST", "/viewers/vw_nope/annotations", f.key, ok), 404, "viewer_not_found")

	res := call(t, r, "GET", path, f.readOnly, nil)
	want(t, "list", res, 200, "")
	var list struct {
		ViewerToken string           `json:"viewerToken"`
		Annotations []annotationJSON `json:"annotations"`
	}
	res.json(t, &list)
	if list.ViewerToken != f.prodViewer.Token || len(list.Annotations) != 3 {
		t.Fatalf("list: %s", res.Body)
	}
	for i, a := range list.Annotations {
		if a.ID != made[i].ID {
			t.Fatalf("not in creation order: %s", res.Body)
		}
	}
	res = call(t, r, "GET", "/viewers/"+f.spaceViewer.Token+"/annotations", f.key, nil)
	if res.Status != 200 || !strings.Contains(string(res.Body), `"annotations":[]`) {
		t.Fatalf("empty list: %d %s", res.Status, res.Body)
	}

	// The limit per viewer, reached through the store to keep the test fast.
	for i := len(made); i < kiln.MaxAnnotations; i++ {
		a := &kiln.Annotation{ID: fmt.Sprint("ann_", i), ViewerToken: f.prodViewer.Token, Title: "t", Position: []float64{0, 0, 0}}
		if err := r.DB.AddAnnotation(context.Background(), a); err != nil {
			t.Fatal(err)
		}
	}
	want(t, "beyond the limit", call(t, r, "POST", path, f.key, ok), 409, "too_many_annotations")
}

type spaceObjectJSON struct {
	ID              string    `json:"spaceObjectId"`
	Kind            string    `json:"kind"`
	Text            string    `json:"text"`
	ObjectID        string    `json:"objectId"`
	Position        []float64 `json:"position"`
	Rotation        []float64 `json:"rotation"`
	InitialPosition []float64 `json:"initialPosition"`
}

func TestSpaceObjects(t *testing.T) {
	r := start(t)
	f := newViewerFixture(t, r)
	path := "/viewers/" + f.spaceViewer.Token + "/objects"
	add := func(body map[string]any) spaceObjectJSON {
		t.Helper()
		res := call(t, r, "POST", path, f.key, body)
		want(t, "add space-object", res, 201, "")
		var o spaceObjectJSON
		res.json(t, &o)
		return o
	}
	note := add(map[string]any{"kind": "sticky_note", "text": "Nice!", "position": []float64{1, 1.5, 0}})
	chair := add(map[string]any{"kind": "movable", "objectId": f.object, "position": []float64{2, 0, 1}})
	lamp := add(map[string]any{"kind": "movable", "objectId": f.object, "position": []float64{3, 0, 0},
		"initialPosition": []float64{0, 0, 0}, "rotation": []float64{0, 0, 0, 2}})
	if !strings.HasPrefix(note.ID, "so_") || note.Kind != "sticky_note" || !slices.Equal(note.Rotation, []float64{0, 0, 0, 1}) || note.InitialPosition != nil {
		t.Fatalf("sticky note %+v", note)
	}
	if !slices.Equal(chair.InitialPosition, chair.Position) || chair.ObjectID != f.object {
		t.Fatalf("movable without initialPosition: %+v", chair)
	}
	if !slices.Equal(lamp.Rotation, []float64{0, 0, 0, 1}) || !slices.Equal(lamp.InitialPosition, []float64{0, 0, 0}) {
		t.Fatalf("movable with initial position and rotation: %+v", lamp)
	}

	for _, tc := range []struct {
		name   string
		body   any
		status int
		code   string
	}{
		{"unknown field", `{"kind":"sticky_note","text":"a","position":[0,0,0],"color":"red"}`, 400, "invalid_json"},
		{"no kind", map[string]any{"text": "a", "position": []float64{0, 0, 0}}, 400, "missing_kind"},
		{"bad kind", map[string]any{"kind": "poster", "position": []float64{0, 0, 0}}, 400, "invalid_kind"},
		{"note without text", map[string]any{"kind": "sticky_note", "position": []float64{0, 0, 0}}, 400, "missing_text"},
		{"note with object", map[string]any{"kind": "sticky_note", "text": "a", "objectId": f.object, "position": []float64{0, 0, 0}}, 400, "invalid_object_id"},
		{"note with initial position", map[string]any{"kind": "sticky_note", "text": "a", "position": []float64{0, 0, 0}, "initialPosition": []float64{0, 0, 0}}, 400, "invalid_initial_position"},
		{"long text", map[string]any{"kind": "sticky_note", "text": strings.Repeat("x", 2001), "position": []float64{0, 0, 0}}, 400, "invalid_text"},
		{"movable without object", map[string]any{"kind": "movable", "position": []float64{0, 0, 0}}, 400, "missing_object_id"},
		{"movable with text", map[string]any{"kind": "movable", "text": "a", "objectId": f.object, "position": []float64{0, 0, 0}}, 400, "invalid_text"},
		{"movable, bad object id", map[string]any{"kind": "movable", "objectId": "a b", "position": []float64{0, 0, 0}}, 400, "invalid_id"},
		{"movable, another's object", map[string]any{"kind": "movable", "objectId": f.otherObject, "position": []float64{0, 0, 0}}, 404, "object_not_found"},
		{"no position", map[string]any{"kind": "sticky_note", "text": "a"}, 400, "missing_position"},
		{"short rotation", map[string]any{"kind": "sticky_note", "text": "a", "position": []float64{0, 0, 0}, "rotation": []float64{0, 0, 1}}, 400, "invalid_rotation"},
		{"zero rotation", map[string]any{"kind": "sticky_note", "text": "a", "position": []float64{0, 0, 0}, "rotation": []float64{0, 0, 0, 0}}, 400, "invalid_rotation"},
		{"far initial position", map[string]any{"kind": "movable", "objectId": f.object, "position": []float64{0, 0, 0}, "initialPosition": []float64{0, 0, 1e7}}, 400, "invalid_initial_position"},
	} {
		want(t, tc.name, call(t, r, "POST", path, f.key, tc.body), tc.status, tc.code)
	}
	sticky := map[string]any{"kind": "sticky_note", "text": "a", "position": []float64{0, 0, 0}}
	want(t, "product viewer", call(t, r, "POST", "/viewers/"+f.prodViewer.Token+"/objects", f.key, sticky), 409, "not_a_space_viewer")
	want(t, "not the caller's viewer", call(t, r, "POST", path, f.other, sticky), 404, "viewer_not_found")

	// Move the chair and the lamp, edit the note.
	move := func(id string, body any, status int, code string) spaceObjectJSON {
		t.Helper()
		res := call(t, r, "PATCH", path+"/"+id, f.key, body)
		want(t, "move "+id, res, status, code)
		var o spaceObjectJSON
		if status == 200 {
			res.json(t, &o)
		}
		return o
	}
	if o := move(chair.ID, map[string]any{"position": []float64{5, 0, 5}, "rotation": []float64{0, 1, 0, 1}}, 200, ""); !slices.Equal(o.Position, []float64{5, 0, 5}) || o.Rotation[1] == 0 {
		t.Fatalf("moved chair %+v", o)
	}
	if o := move(lamp.ID, map[string]any{"rotation": []float64{1, 0, 0, 0}}, 200, ""); !slices.Equal(o.Position, lamp.Position) || o.Rotation[0] != 1 {
		t.Fatalf("rotated lamp %+v", o)
	}
	if o := move(note.ID, map[string]any{"text": "Edited"}, 200, ""); o.Text != "Edited" || !slices.Equal(o.Position, note.Position) {
		t.Fatalf("edited note %+v", o)
	}
	move(chair.ID, map[string]any{"text": "x"}, 400, "invalid_text")
	move(note.ID, map[string]any{"text": ""}, 400, "invalid_text")
	move(chair.ID, map[string]any{}, 400, "empty_change")
	move(chair.ID, map[string]any{"position": []float64{0, 0}}, 400, "invalid_position")
	move(chair.ID, `{"position":[0,0,0],"kind":"sticky_note"}`, 400, "invalid_json")
	move("so_nope", map[string]any{"position": []float64{0, 0, 0}}, 404, "space_object_not_found")
	move("a.b", map[string]any{"position": []float64{0, 0, 0}}, 400, "invalid_id")

	list := func() []spaceObjectJSON {
		t.Helper()
		res := call(t, r, "GET", path, f.readOnly, nil)
		want(t, "list space-objects", res, 200, "")
		var out struct {
			Objects []spaceObjectJSON `json:"objects"`
		}
		res.json(t, &out)
		return out.Objects
	}
	if got := list(); len(got) != 3 || got[0].ID != note.ID || got[1].ID != chair.ID || got[2].ID != lamp.ID {
		t.Fatalf("list in creation order: %+v", got)
	}

	// The spec's DELETE: notes go, movable objects return to where they
	// started.
	for _, tc := range []struct {
		name, key, path string
		status          int
		code            string
	}{
		{"no key", "", path, 401, "unauthorized"},
		{"viewer:read only", f.readOnly, path, 403, "missing_scope"},
		{"another account", f.other, path, 404, "viewer_not_found"},
		{"unknown viewer", f.key, "/viewers/vw_nope/objects", 404, "viewer_not_found"},
		{"bad token", f.key, "/viewers/a.b/objects", 400, "invalid_id"},
	} {
		want(t, "reset: "+tc.name, call(t, r, "DELETE", tc.path, tc.key, nil), tc.status, tc.code)
	}
	for i, wantCounts := range []string{`{"removed":1,"reset":2}`, `{"removed":0,"reset":2}`} {
		res := call(t, r, "DELETE", path, f.key, nil)
		if res.Status != 200 || strings.TrimSpace(string(res.Body)) != wantCounts {
			t.Fatalf("reset %d: %d %s, want %s", i, res.Status, res.Body, wantCounts)
		}
	}
	got := list()
	if len(got) != 2 || got[0].ID != chair.ID || got[1].ID != lamp.ID {
		t.Fatalf("after reset: %+v", got)
	}
	if !slices.Equal(got[0].Position, []float64{2, 0, 1}) || !slices.Equal(got[0].Rotation, []float64{0, 0, 0, 1}) {
		t.Fatalf("chair not back at its initial pose: %+v", got[0])
	}
	if !slices.Equal(got[1].Position, []float64{0, 0, 0}) || !slices.Equal(got[1].Rotation, []float64{0, 0, 0, 1}) {
		t.Fatalf("lamp not back at its initial pose: %+v", got[1])
	}
	res := call(t, r, "DELETE", "/viewers/"+f.prodViewer.Token+"/objects", f.key, nil)
	if res.Status != 200 || strings.TrimSpace(string(res.Body)) != `{"removed":0,"reset":0}` {
		t.Fatalf("reset of a product viewer: %d %s", res.Status, res.Body)
	}

	// Deleting the viewer takes its space-objects with it.
	want(t, "delete viewer", call(t, r, "DELETE", "/viewers/"+f.spaceViewer.Token, f.key, nil), 200, "")
	n, err := r.Redis.Exists(context.Background(), "kiln:viewer:"+f.spaceViewer.Token+":objects").Result()
	if err != nil || n != 0 {
		t.Fatalf("space-objects left after the viewer was deleted: %d %v", n, err)
	}
	want(t, "delete the freed space", call(t, r, "DELETE", "/resources/spaces/instances/"+f.space.ID, f.key, nil), 200, "")
}

// TestSpaceViewerPage opens a space viewer's page as a visitor: its
// sticky notes and movable objects show where they are, and after a
// reset the notes are gone and the objects are back where they started.
func TestSpaceViewerPage(t *testing.T) {
	r := start(t)
	f := newViewerFixture(t, r)
	path := "/viewers/" + f.spaceViewer.Token + "/objects"
	want(t, "add note", call(t, r, "POST", path, f.key, map[string]any{"kind": "sticky_note", "text": "Meet <here> at 3", "position": []float64{1, 1.5, 0}}), 201, "")
	want(t, "add object", call(t, r, "POST", path, f.key, map[string]any{"kind": "movable", "objectId": f.object,
		"position": []float64{3, 0, 0}, "initialPosition": []float64{0.5, 0, 0}}), 201, "")
	page := func() string {
		t.Helper()
		res := do(t, "GET", r.PlatformURL+"/v/"+f.spaceViewer.Token, "", nil, nil)
		if res.Status != http.StatusOK {
			t.Fatalf("page: %d %s", res.Status, res.Body)
		}
		return string(res.Body)
	}
	before := page()
	for _, s := range []string{
		`class="hotspot sticky_note"`, `data-position="1m 1.5m 0m"`, "Meet &lt;here&gt; at 3",
		`class="hotspot movable"`, `data-position="3m 0m 0m"`, "<strong>Room</strong>",
	} {
		if !strings.Contains(before, s) {
			t.Errorf("page before the reset has no %q", s)
		}
	}
	want(t, "reset", call(t, r, "DELETE", path, f.key, nil), http.StatusOK, "")
	after := page()
	if strings.Contains(after, "Meet &lt;here&gt;") || strings.Contains(after, "sticky_note") {
		t.Error("the note still shows after the reset")
	}
	if !strings.Contains(after, `data-position="0.5m 0m 0m"`) || strings.Contains(after, `data-position="3m 0m 0m"`) {
		t.Error("the object did not go back to where it started")
	}
	// A product viewer's page lists no space-objects.
	if res := do(t, "GET", r.PlatformURL+"/v/"+f.prodViewer.Token, "", nil, nil); strings.Contains(string(res.Body), "space-objects") {
		t.Error("a product viewer's page lists space-objects")
	}
}
