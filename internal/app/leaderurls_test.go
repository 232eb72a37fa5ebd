package app

import (
	"bytes"
	"encoding/json"
	"math"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/avatar/face"
	"github.com/kilnhq/kiln/internal/gltfcheck"
)

// TestLeaderURLs asks the leader's URLs at the root of the avatar
// listener, as its clients saved them: {id}.glb with its parameters (and
// the query keys engine SDKs add), {id}.json in the shape the Unity SDK
// parses, {id}.png and .jpg; and the 404s of what the leader did not
// serve either.
func TestLeaderURLs(t *testing.T) {
	r := start(t)
	writer := newKey(t, r, "acme", kiln.ScopeAvatarWrite)
	fem := postAvatar(t, r, writer, `{"version":"1","body":{"type":"feminine"},"skin":{"tone":"#8D5524"}}`)
	masc := postAvatar(t, r, writer, `{"version":"1","body":{"type":"masculine"},"skin":{"tone":"olive"}}`)

	// The same bytes at the root as under /model/, whatever the SDK adds.
	for _, tc := range []struct{ id, query string }{
		{kiln.AvatarDefaultMale, ""},
		{kiln.AvatarDefaultFemale, "?tail=6f1c2a4e-0b9d-4c8e-9a51-3d2f7e8b1c00"},
		{fem, "?morphTargets=ARKit&textureAtlas=none&lod=1&tail=x"},
	} {
		root := do(t, "GET", r.AvatarURL+"/"+tc.id+".glb"+tc.query, "", nil, nil)
		model := do(t, "GET", r.AvatarURL+"/model/"+tc.id+".glb"+tc.query, "", nil, nil)
		if root.Status != http.StatusOK || root.Header.Get("Content-Type") != "model/gltf-binary" || !bytes.Equal(root.Body, model.Body) {
			t.Errorf("/%s.glb%s: %d %s, %d bytes; /model/ gave %d bytes", tc.id, tc.query, root.Status, root.Header.Get("Content-Type"), len(root.Body), len(model.Body))
			continue
		}
		gltfcheck.RequireValid(t, root.Body)
		head := do(t, "HEAD", r.AvatarURL+"/"+tc.id+".glb"+tc.query, "", nil, nil)
		if head.Status != http.StatusOK || len(head.Body) != 0 || head.Header.Get("ETag") != root.Header.Get("ETag") {
			t.Errorf("HEAD /%s.glb%s: %d, %d bytes, ETag %q want %q", tc.id, tc.query, head.Status, len(head.Body), head.Header.Get("ETag"), root.Header.Get("ETag"))
		}
	}

	// The metadata, as NOTES.md gives the leader's and its SDKs parse it.
	stamp := regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`)
	for _, tc := range []struct{ id, gender, skin string }{
		{kiln.AvatarDefaultMale, "masculine", "#b78068"},
		{kiln.AvatarDefaultFemale, "feminine", "#dea08c"},
		{fem, "feminine", "#8d5524"},
		{masc, "masculine", "#a0755b"},
	} {
		res := do(t, "GET", r.AvatarURL+"/"+tc.id+".json?tail=abc", "", nil, nil)
		if res.Status != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
			t.Errorf("/%s.json: %d %s %s", tc.id, res.Status, res.Header.Get("Content-Type"), res.Body)
			continue
		}
		var m map[string]any
		res.json(t, &m)
		if len(m) != 6 || m["bodyType"] != "fullbody" || m["outfitGender"] != tc.gender || m["outfitVersion"] != float64(2) || m["skinTone"] != tc.skin {
			t.Errorf("/%s.json: %s", tc.id, res.Body)
		}
		for _, k := range []string{"createdAt", "updatedAt"} {
			s, _ := m[k].(string)
			ts, err := time.Parse(time.RFC3339Nano, s)
			if !stamp.MatchString(s) || err != nil || ts.After(time.Now()) {
				t.Errorf("/%s.json: %s = %q, want yyyy-MM-ddTHH:mm:ss.fffZ in the past", tc.id, k, s)
			}
		}
		if head := do(t, "HEAD", r.AvatarURL+"/"+tc.id+".json", "", nil, nil); head.Status != http.StatusOK || len(head.Body) != 0 || head.Header.Get("Content-Length") != strconv.Itoa(len(res.Body)) {
			t.Errorf("HEAD /%s.json: %d, %d bytes, Content-Length %s", tc.id, head.Status, len(head.Body), head.Header.Get("Content-Length"))
		}
	}
	var meta struct{ CreatedAt, UpdatedAt string }
	do(t, "GET", r.AvatarURL+"/"+fem+".json", "", nil, nil).json(t, &meta)
	if meta.UpdatedAt < meta.CreatedAt || meta.CreatedAt < time.Now().Add(-time.Hour).UTC().Format("2006-01-02T15:04:05.000Z") {
		t.Errorf("%s: created %s, updated %s: not this avatar's times", fem, meta.CreatedAt, meta.UpdatedAt)
	}

	// Pictures: PNG and JPEG bytes.
	for ext, magic := range map[string][]byte{".png": []byte("\x89PNG"), ".jpg": {0xff, 0xd8, 0xff}} {
		res := do(t, "GET", r.AvatarURL+"/"+kiln.AvatarDefaultFemale+ext+"?size=64", "", nil, nil)
		if res.Status != http.StatusOK || !bytes.HasPrefix(res.Body, magic) {
			t.Errorf("/%s%s: %d %s", kiln.AvatarDefaultFemale, ext, res.Status, res.Header.Get("Content-Type"))
		}
	}

	// What is not an avatar file: 404 (as a missing .glb was with the
	// leader), an unknown avatar 404 naming it, a bad id 400; the
	// listener's own files still answer.
	for _, tc := range []struct {
		path   string
		status int
		code   string
	}{
		{"/" + kiln.AvatarDefaultMale, 404, "route_not_found"},
		{"/" + kiln.AvatarDefaultMale + ".txt", 404, "route_not_found"},
		{"/av_nobody.glb", 404, "avatar_not_found"},
		{"/av_nobody.json", 404, "avatar_not_found"},
		{"/av_nobody.png", 404, "avatar_not_found"},
		{"/bad%20id.json", 400, ""},
		{"/default-male.glb?lod=9", 400, "invalid_lod"},
	} {
		res := do(t, "GET", r.AvatarURL+tc.path, "", nil, nil)
		if code := res.errorCode(t); res.Status != tc.status || (tc.code != "" && code != tc.code) {
			t.Errorf("GET %s: %d %s, want %d %s", tc.path, res.Status, res.Body, tc.status, tc.code)
		}
	}
	for _, p := range []string{"/healthz", "/openapi.json", "/avatar/schema.json"} {
		res := do(t, "GET", r.AvatarURL+p, "", nil, nil)
		var v any
		if res.Status != http.StatusOK || json.Unmarshal(res.Body, &v) != nil {
			t.Errorf("GET %s: %d", p, res.Status)
		}
	}
}

// TestLeaderMorphTargets asks, at the leader's URL, for the morph
// targets lip-sync apps saved in their URLs (every group the leader had,
// the eye shapes among them, mixed with names) and checks that each name
// is there and moves vertices (viseme_sil, the rest face, moves none by
// definition); each group alone gives its names; unknown names are a 400
// naming them, in either parameter.
func TestLeaderMorphTargets(t *testing.T) {
	r := start(t)
	const id = kiln.AvatarDefaultFemale
	_, s, _ := getModel(t, r, id, "?morphTargets=ARKit,Oculus%20Visemes,mouthOpen,mouthSmile,eyesClosed,eyesLookUp,eyesLookDown&textureFormat=png")
	moved := map[string]float64{} // the largest offset of each name, over every mesh
	for _, m := range s.Meshes {
		for ti, name := range m.TargetNames() {
			if _, ok := moved[name]; !ok {
				moved[name] = 0
			}
			for _, p := range m.Primitives {
				for _, d := range p.Targets[ti].Positions {
					moved[name] = max(moved[name], math.Sqrt(float64(d[0]*d[0]+d[1]*d[1]+d[2]*d[2])))
				}
			}
		}
	}
	for _, name := range face.All() {
		off, ok := moved[name]
		switch {
		case !ok:
			t.Errorf("%s is missing", name)
		case name == "viseme_sil" && off != 0:
			t.Errorf("viseme_sil, the rest face, moves a vertex by %.2f mm", off*1000)
		case name != "viseme_sil" && off < 1e-3:
			t.Errorf("%s moves no vertex by 1 mm (largest %.3f mm)", name, off*1000)
		}
	}
	if len(moved) != len(face.All()) {
		t.Errorf("%d names, want %d", len(moved), len(face.All()))
	}
	t.Logf("eyesClosed moves up to %.1f mm, eyesLookUp %.1f mm, eyesLookDown %.1f mm", moved["eyesClosed"]*1000, moved["eyesLookUp"]*1000, moved["eyesLookDown"]*1000)

	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"?morphTargets=Eyes%20Extra", face.EyesExtra},
		{"?morphTargetsGroup=Oculus%20Visemes", face.Visemes},
		{"?morphTargetsGroup=ARKit&morphTargets=eyesClosed", append(slices.Clone(face.ARKit), "eyesClosed")},
	} {
		_, s, _ := getModel(t, r, id, tc.query)
		head := meshTargets(s)["Wolf3D_Head"]
		if !slices.Equal(slices.Sorted(slices.Values(head)), slices.Sorted(slices.Values(tc.want))) {
			t.Errorf("%s: the head carries %v, want %v", tc.query, head, tc.want)
		}
	}
	for _, tc := range []struct{ query, names string }{
		{"?morphTargets=ARKit,eyesShut,Eyes%20Extra", `"eyesShut"`},
		{"?morphTargetsGroup=Basic%20expressions", `"Basic expressions"`},
	} {
		res := do(t, "GET", r.AvatarURL+"/"+id+".glb"+tc.query, "", nil, nil)
		if res.Status != http.StatusBadRequest || res.errorCode(t) != "invalid_morph_targets" || !strings.Contains(string(res.Body), strings.ReplaceAll(tc.names, `"`, `\"`)) {
			t.Errorf("%s: %d %s, want 400 invalid_morph_targets naming %s", tc.query, res.Status, res.Body, tc.names)
		}
	}
}
