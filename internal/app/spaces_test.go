package app

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kilnhq/kiln"
)

type templateJSON struct {
	ID          string `json:"spaceTemplateId"`
	Account     string `json:"account"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Origin      struct {
		Source   string `json:"source"`
		ObjectID string `json:"objectId"`
	} `json:"origin"`
	CreatedAt time.Time `json:"createdAt"`
}

type spaceJSON struct {
	ID              string    `json:"spaceId"`
	Account         string    `json:"account"`
	Name            string    `json:"name"`
	SpaceTemplateID string    `json:"spaceTemplateId"`
	CreatedAt       time.Time `json:"createdAt"`
}

// call sends body (nil, a string sent as is, or a value sent as JSON).
func call(t *testing.T, r *Running, method, path, key string, body any) response {
	t.Helper()
	switch b := body.(type) {
	case nil:
		return do(t, method, r.PlatformURL+path, key, nil, nil)
	case string:
		return do(t, method, r.PlatformURL+path, key, strings.NewReader(b), map[string]string{"Content-Type": "application/json"})
	default:
		rd, h := jsonBody(t, b)
		return do(t, method, r.PlatformURL+path, key, rd, h)
	}
}

// want checks a response's status and, for an error, its code.
func want(t *testing.T, what string, res response, status int, code string) {
	t.Helper()
	if res.Status != status {
		t.Fatalf("%s: %d %s, want %d %s", what, res.Status, res.Body, status, code)
	}
	if code != "" {
		if got := res.errorCode(t); got != code {
			t.Fatalf("%s: code %s (%s), want %s", what, got, res.Body, code)
		}
	}
}

// newObject prepares an upload, which is enough of an object for the
// records that point at one.
func newObject(t *testing.T, r *Running, key string) string {
	t.Helper()
	return prepare(t, r, key, map[string]string{"name": "Room", "type": "raw_model", "extension": "glb"}).ObjectID
}

func newTemplate(t *testing.T, r *Running, key, source, objectID string) templateJSON {
	t.Helper()
	res := call(t, r, "POST", "/resources/spaces/templates", key,
		map[string]any{"name": "Room " + source, "description": "mine", "origin": map[string]string{"source": source, "objectId": objectID}})
	want(t, "create template", res, http.StatusCreated, "")
	var tpl templateJSON
	res.json(t, &tpl)
	return tpl
}

func newSpace(t *testing.T, r *Running, key, templateID string) spaceJSON {
	t.Helper()
	res := call(t, r, "POST", "/resources/spaces", key, map[string]string{"name": "Showroom", "spaceTemplateId": templateID})
	want(t, "create space", res, http.StatusCreated, "")
	var sp spaceJSON
	res.json(t, &sp)
	return sp
}

func listTemplates(t *testing.T, r *Running, key string) []templateJSON {
	t.Helper()
	res := call(t, r, "GET", "/resources/spaces/templates", key, nil)
	want(t, "list templates", res, http.StatusOK, "")
	var out struct {
		Templates []templateJSON `json:"templates"`
	}
	res.json(t, &out)
	return out.Templates
}

func TestSpaceTemplates(t *testing.T) {
	r := start(t)
	acme := newKey(t, r, "acme", kiln.ScopeSpaceWrite, kiln.ScopeProductWrite)
	globex := newKey(t, r, "globex", kiln.ScopeSpaceWrite, kiln.ScopeProductWrite)
	obj := newObject(t, r, acme)
	globexObj := newObject(t, r, globex)

	sys := listTemplates(t, r, globex)
	if len(sys) != 3 {
		t.Fatalf("system templates: %+v", sys)
	}
	for _, tpl := range sys {
		if tpl.Origin.Source != kiln.OriginSystem || tpl.Account != kiln.SystemAccount || tpl.Name == "" {
			t.Errorf("system template %+v", tpl)
		}
	}
	// Seeding again, as every start does, changes nothing.
	for range 2 {
		if err := r.DB.SeedSystemTemplates(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if again := listTemplates(t, r, globex); len(again) != 3 || again[0] != sys[0] {
		t.Fatalf("after seeding again: %+v", again)
	}

	upload := newTemplate(t, r, acme, kiln.OriginUpload, obj)
	scan := newTemplate(t, r, acme, kiln.OriginScan, obj)
	if upload.Account != "acme" || upload.Origin.ObjectID != obj || !strings.HasPrefix(upload.ID, "spt_") || scan.Origin.Source != "ios-scan" {
		t.Fatalf("templates: %+v %+v", upload, scan)
	}
	mine := listTemplates(t, r, acme)
	if len(mine) != 5 || mine[0].Origin.Source != kiln.OriginSystem || mine[3].ID != scan.ID || mine[4].ID != upload.ID {
		t.Fatalf("acme's templates (system by name, then own newest first): %+v", mine)
	}
	if len(listTemplates(t, r, globex)) != 3 {
		t.Fatal("globex sees acme's templates")
	}

	origin := func(source, id string) map[string]string { return map[string]string{"source": source, "objectId": id} }
	for _, tc := range []struct {
		name   string
		body   any
		status int
		code   string
	}{
		{"not json", "name=x", 400, "invalid_json"},
		{"empty body", "", 400, "invalid_json"},
		{"unknown field", `{"name":"a","origin":{"source":"upload","objectId":"` + obj + `"},"color":"red"}`, 400, "invalid_json"},
		{"unknown origin field", `{"name":"a","origin":{"source":"upload","objectId":"` + obj + `","x":1}}`, 400, "invalid_json"},
		{"no name", map[string]any{"origin": origin("upload", obj)}, 400, "missing_name"},
		{"long name", map[string]any{"name": strings.Repeat("n", 201), "origin": origin("upload", obj)}, 400, "invalid_name"},
		{"long description", map[string]any{"name": "a", "description": strings.Repeat("d", 5001), "origin": origin("upload", obj)}, 400, "invalid_description"},
		{"no origin", map[string]any{"name": "a"}, 400, "missing_origin"},
		{"system origin", map[string]any{"name": "a", "origin": origin("system", obj)}, 400, "invalid_origin"},
		{"unknown origin", map[string]any{"name": "a", "origin": origin("lidar", obj)}, 400, "invalid_origin"},
		{"no object", map[string]any{"name": "a", "origin": map[string]string{"source": "upload"}}, 400, "missing_object_id"},
		{"bad object id", map[string]any{"name": "a", "origin": origin("upload", "../x")}, 400, "invalid_id"},
		{"unknown object", map[string]any{"name": "a", "origin": origin("upload", "obj_nope")}, 404, "object_not_found"},
		{"another account's object", map[string]any{"name": "a", "origin": origin("ios-scan", globexObj)}, 404, "object_not_found"},
	} {
		res := call(t, r, "POST", "/resources/spaces/templates", acme, tc.body)
		want(t, tc.name, res, tc.status, tc.code)
	}

	// Spaces use a system template or one of the account's own.
	sp := newSpace(t, r, acme, upload.ID)
	if sp.Account != "acme" || sp.SpaceTemplateID != upload.ID || !strings.HasPrefix(sp.ID, "sp_") {
		t.Fatalf("space %+v", sp)
	}
	sysSpace := newSpace(t, r, globex, "studio")
	for _, tc := range []struct {
		name   string
		body   any
		status int
		code   string
	}{
		{"another account's template", map[string]string{"name": "x", "spaceTemplateId": upload.ID}, 404, "template_not_found"},
		{"unknown template", map[string]string{"name": "x", "spaceTemplateId": "spt_nope"}, 404, "template_not_found"},
		{"no template", map[string]string{"name": "x"}, 400, "missing_space_template_id"},
		{"bad template id", map[string]string{"name": "x", "spaceTemplateId": "a b"}, 400, "invalid_id"},
		{"no name", map[string]string{"spaceTemplateId": "studio"}, 400, "missing_name"},
		{"unknown field", `{"name":"x","spaceTemplateId":"studio","template":"studio"}`, 400, "invalid_json"},
	} {
		want(t, "space: "+tc.name, call(t, r, "POST", "/resources/spaces", globex, tc.body), tc.status, tc.code)
	}
	res := call(t, r, "GET", "/resources/spaces", globex, nil)
	var spaces struct {
		Spaces []spaceJSON `json:"spaces"`
	}
	res.json(t, &spaces)
	if res.Status != 200 || len(spaces.Spaces) != 1 || spaces.Spaces[0] != sysSpace {
		t.Fatalf("globex's spaces: %d %s", res.Status, res.Body)
	}
	want(t, "get own space", call(t, r, "GET", "/resources/spaces/instances/"+sp.ID, acme, nil), 200, "")
	want(t, "get another's space", call(t, r, "GET", "/resources/spaces/instances/"+sp.ID, globex, nil), 404, "space_not_found")
	want(t, "delete another's space", call(t, r, "DELETE", "/resources/spaces/instances/"+sp.ID, globex, nil), 404, "space_not_found")
}

// TestDeleteTemplate checks every row of spec section 7 for
// DELETE /resources/spaces/{spaceTemplateId}.
func TestDeleteTemplate(t *testing.T) {
	r := start(t)
	acme := newKey(t, r, "acme", kiln.ScopeSpaceWrite, kiln.ScopeProductWrite, kiln.ScopeViewerWrite)
	globex := newKey(t, r, "globex", kiln.ScopeSpaceWrite)
	noScope := newKey(t, r, "acme", kiln.ScopeProductWrite, kiln.ScopeViewerWrite)
	obj := newObject(t, r, acme)
	tpl := newTemplate(t, r, acme, kiln.OriginScan, obj)
	sp := newSpace(t, r, acme, tpl.ID)
	path := "/resources/spaces/" + tpl.ID

	for _, tc := range []struct {
		name, path, key string
		status          int
		code            string
	}{
		{"no key", path, "", 401, "unauthorized"},
		{"unknown key", path, "kiln_nope", 401, "unauthorized"},
		{"key without space:write", path, noScope, 403, "missing_scope"},
		{"another owner's template", path, globex, 403, "not_owner"},
		{"system template", "/resources/spaces/studio", acme, 403, "system_template"},
		{"system template, other account", "/resources/spaces/loft", globex, 403, "system_template"},
		{"unknown template", "/resources/spaces/spt_nope", acme, 404, "template_not_found"},
		{"bad id", "/resources/spaces/a.b", acme, 400, "invalid_id"},
		{"in use by a space", path, acme, 409, "template_in_use"},
	} {
		want(t, tc.name, call(t, r, "DELETE", tc.path, tc.key, nil), tc.status, tc.code)
	}
	if len(listTemplates(t, r, acme)) != 4 {
		t.Fatal("a refused deletion deleted")
	}

	// A space that a viewer shows cannot go either; deleting the viewer,
	// then the space, frees the template.
	res := call(t, r, "POST", "/viewers", acme, map[string]any{"type": "space", "name": "v", "spaceId": sp.ID})
	want(t, "space viewer", res, 201, "")
	var v viewerJSON
	res.json(t, &v)
	want(t, "delete space shown by a viewer", call(t, r, "DELETE", "/resources/spaces/instances/"+sp.ID, acme, nil), 409, "space_in_use")
	want(t, "delete viewer", call(t, r, "DELETE", "/viewers/"+v.Token, acme, nil), 200, "")
	want(t, "delete space", call(t, r, "DELETE", "/resources/spaces/instances/"+sp.ID, acme, nil), 200, "")
	want(t, "delete space twice", call(t, r, "DELETE", "/resources/spaces/instances/"+sp.ID, acme, nil), 404, "space_not_found")

	res = call(t, r, "DELETE", path, acme, nil)
	want(t, "delete unused template", res, 200, "")
	var out struct {
		Deleted bool   `json:"deleted"`
		ID      string `json:"spaceTemplateId"`
	}
	res.json(t, &out)
	if !out.Deleted || out.ID != tpl.ID {
		t.Fatalf("delete body: %s", res.Body)
	}
	want(t, "delete twice", call(t, r, "DELETE", path, acme, nil), 404, "template_not_found")
	want(t, "space on a deleted template", call(t, r, "POST", "/resources/spaces", acme, map[string]string{"name": "x", "spaceTemplateId": tpl.ID}), 404, "template_not_found")
	if len(listTemplates(t, r, acme)) != 3 {
		t.Fatal("the deleted template is still listed")
	}

	// 500 deletion failed: the store is gone. The admin key authenticates
	// without Redis, so the request reaches the deletion.
	r.Redis.Close()
	want(t, "store down", call(t, r, "DELETE", "/resources/spaces/spt_any", r.AdminKey, nil), 500, "deletion_failed")
}

// TestDeleteTemplateRace races space creations, spread over a few
// milliseconds, against the deletion of their template at a different
// moment each round: the deletion succeeds only if no creation did, and
// the use count ends where it started.
func TestDeleteTemplateRace(t *testing.T) {
	r := start(t)
	acme := newKey(t, r, "acme", kiln.ScopeSpaceWrite, kiln.ScopeProductWrite)
	obj := newObject(t, r, acme)
	for round := range 4 {
		tpl := newTemplate(t, r, acme, kiln.OriginUpload, obj)
		const n = 8
		var wg sync.WaitGroup
		go1 := make(chan struct{})
		created := make(chan string, n)
		statuses := make(chan int, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-go1
				time.Sleep(time.Duration(i+1) * 400 * time.Microsecond)
				status, sp, err := postSpace(r, acme, tpl.ID)
				if err != nil {
					t.Error(err)
					return
				}
				statuses <- status
				if status == 201 {
					created <- sp.ID
				}
			}()
		}
		var delStatus int
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-go1
			time.Sleep(time.Duration(round) * 1200 * time.Microsecond)
			req, err := http.NewRequest("DELETE", r.PlatformURL+"/resources/spaces/"+tpl.ID, nil)
			if err != nil {
				t.Error(err)
				return
			}
			req.Header.Set("Authorization", "Bearer "+acme)
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			res.Body.Close()
			delStatus = res.StatusCode
		}()
		close(go1)
		wg.Wait()
		close(created)
		close(statuses)
		for s := range statuses {
			if s != 201 && s != 404 {
				t.Fatalf("round %d: space creation answered %d", round, s)
			}
		}
		var ids []string
		for id := range created {
			ids = append(ids, id)
		}
		switch delStatus {
		case 200:
			if len(ids) > 0 {
				t.Fatalf("round %d: template deleted while %d spaces were created on it", round, len(ids))
			}
		case 409:
			if len(ids) == 0 {
				t.Fatalf("round %d: 409 without any space", round)
			}
			for _, id := range ids {
				want(t, "delete space", call(t, r, "DELETE", "/resources/spaces/instances/"+id, acme, nil), 200, "")
			}
			want(t, "delete freed template", call(t, r, "DELETE", "/resources/spaces/"+tpl.ID, acme, nil), 200, "")
		default:
			t.Fatalf("round %d: delete answered %d", round, delStatus)
		}
		t.Logf("round %d: delete %d, %d spaces created", round, delStatus, len(ids))
	}
}

// postSpace creates a space without the test helpers, which must not
// fail the test from another goroutine.
func postSpace(r *Running, key, templateID string) (int, spaceJSON, error) {
	var sp spaceJSON
	body, err := json.Marshal(map[string]string{"name": "x", "spaceTemplateId": templateID})
	if err != nil {
		return 0, sp, err
	}
	req, err := http.NewRequest("POST", r.PlatformURL+"/resources/spaces", bytes.NewReader(body))
	if err != nil {
		return 0, sp, err
	}
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, sp, err
	}
	defer res.Body.Close()
	if res.StatusCode == http.StatusCreated {
		err = json.NewDecoder(res.Body).Decode(&sp)
	}
	return res.StatusCode, sp, err
}

// TestSpaceRoutesAuth checks the scope of every space and viewer route
// beyond the spec's table.
func TestSpaceRoutesAuth(t *testing.T) {
	r := start(t)
	other := newKey(t, r, "acme", kiln.ScopeAvatarWrite)
	for _, rt := range []struct{ method, path, scope string }{
		{"GET", "/resources/spaces/templates", kiln.ScopeSpaceWrite},
		{"POST", "/resources/spaces/templates", kiln.ScopeSpaceWrite},
		{"GET", "/resources/spaces", kiln.ScopeSpaceWrite},
		{"POST", "/resources/spaces", kiln.ScopeSpaceWrite},
		{"GET", "/resources/spaces/instances/sp_x", kiln.ScopeSpaceWrite},
		{"DELETE", "/resources/spaces/instances/sp_x", kiln.ScopeSpaceWrite},
		{"GET", "/viewers", kiln.ScopeViewerRead},
		{"POST", "/viewers", kiln.ScopeViewerWrite},
		{"GET", "/viewers/vw_x", kiln.ScopeViewerRead},
		{"DELETE", "/viewers/vw_x", kiln.ScopeViewerWrite},
		{"POST", "/viewers/vw_x/annotations", kiln.ScopeViewerWrite},
		{"GET", "/viewers/vw_x/objects", kiln.ScopeViewerRead},
		{"POST", "/viewers/vw_x/objects", kiln.ScopeViewerWrite},
		{"PATCH", "/viewers/vw_x/objects/so_x", kiln.ScopeViewerWrite},
	} {
		want(t, rt.method+" "+rt.path+" without key", call(t, r, rt.method, rt.path, "", nil), 401, "unauthorized")
		res := call(t, r, rt.method, rt.path, other, nil)
		want(t, rt.method+" "+rt.path+" without scope", res, 403, "missing_scope")
		if !strings.Contains(string(res.Body), rt.scope) {
			t.Errorf("%s %s: 403 does not name %s: %s", rt.method, rt.path, rt.scope, res.Body)
		}
	}
}
