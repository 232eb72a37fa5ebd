package app

import (
	"bytes"
	"encoding/json"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/avatar/face"
	"github.com/kilnhq/kiln/assets/avatar/leaderimport"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/internal/fixture"
	"github.com/kilnhq/kiln/internal/gltfcheck"
)

// leaderAvatar reads one of the leader's avatars from ../shared, or skips.
func leaderAvatar(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "testdata", name))
	if err != nil {
		t.Skipf("the leader's avatar is not here: %v", err)
	}
	return data
}

// importAvatar posts a GLB to /avatar/import and returns the new id.
func importAvatar(t *testing.T, r *Running, key string, glb []byte) string {
	t.Helper()
	res := do(t, "POST", r.AvatarURL+"/avatar/import", key, bytes.NewReader(glb), map[string]string{"Content-Type": "model/gltf-binary"})
	if res.Status != http.StatusOK {
		t.Fatalf("POST /avatar/import: %d %s", res.Status, res.Body)
	}
	var out avatarResult
	res.json(t, &out)
	id := out.Data.ModelID
	base := r.Config.PublicAvatarURL
	if out.Status != "ok" || !strings.HasPrefix(id, "av_") || out.Data.ModelURL != base+"/model/"+id+".glb" || out.Data.PreviewURL != base+"/preview/"+id+".png" {
		t.Fatalf("POST /avatar/import: %s", res.Body)
	}
	return id
}

// TestAvatarImportRefuses: what is not one of the leader's avatars is a
// 400 saying what it lacks, and nothing is registered; the key needs
// avatar:write. It needs no file from outside the repository.
func TestAvatarImportRefuses(t *testing.T) {
	r := start(t)
	writer := newKey(t, r, "acme", kiln.ScopeAvatarWrite)
	reader := newKey(t, r, "acme", kiln.ScopeProductRead)
	cube := fixture.CubeGLB()
	for _, tc := range []struct {
		name, key, query string
		body             []byte
		status           int
		code, says       string
	}{
		{"no key", "", "", cube, 401, "unauthorized", ""},
		{"key without avatar:write", reader, "", cube, 403, "missing_scope", ""},
		{"empty body", writer, "", nil, 400, "invalid_avatar", "empty"},
		{"not a GLB", writer, "", []byte("hello, this is not a model"), 400, "invalid_avatar", "not a valid GLB"},
		{"truncated GLB", writer, "", cube[:len(cube)/2], 400, "invalid_avatar", "not a valid GLB"},
		{"a cube", writer, "", cube, 400, "invalid_avatar", "missing the skeleton"},
		{"a cube names the meshes", writer, "", cube, 400, "invalid_avatar", "Wolf3D_Head, Wolf3D_Body, EyeLeft, EyeRight, Wolf3D_Teeth"},
		{"unknown gender", writer, "?outfitGender=other", cube, 400, "invalid_gender", "outfitGender"},
		{"too large", writer, "", make([]byte, 33<<20), 413, "body_too_large", ""},
	} {
		res := do(t, "POST", r.AvatarURL+"/avatar/import"+tc.query, tc.key, bytes.NewReader(tc.body), map[string]string{"Content-Type": "model/gltf-binary"})
		if res.Status != tc.status || res.errorCode(t) != tc.code || !strings.Contains(string(res.Body), tc.says) {
			t.Errorf("%s: %d %s, want %d %s saying %q", tc.name, res.Status, res.Body, tc.status, tc.code, tc.says)
		}
	}
}

// TestAvatarImport imports the leader's two avatars over HTTP and
// downloads variants of each: every one validates with zero errors, and
// the face shapes Kiln carried onto them move what they name.
func TestAvatarImport(t *testing.T) {
	files := map[string][]byte{}
	for _, name := range []string{"rpm-avatar-casual.glb", "rpm-avatar-office.glb"} {
		files[name] = leaderAvatar(t, name)
	}
	r := start(t)
	key := newKey(t, r, "acme", kiln.ScopeAvatarWrite)
	for name, glb := range files {
		id := importAvatar(t, r, key, glb)
		// Its model is the file: a configuration edit would change nothing.
		wantError(t, name+": PUT /avatar/"+id, putJSON(t, r.AvatarURL+"/avatar/"+id, key, `{}`), http.StatusConflict, "imported_avatar")
		all := "?morphTargets=ARKit,Oculus%20Visemes,Default,Eyes%20Extra"
		_, s, rep := getModel(t, r, id, all)
		t.Logf("%s as %s: %v triangles, %v draw calls, %d errors, %d warnings (validator skipped: %v)", name, id, rep.Info["totalTriangleCount"], rep.Info["drawCallCount"], rep.NumErrors, rep.NumWarnings, rep.Skipped)
		checkImportedFace(t, name, s)

		for _, q := range []string{"", "?lod=1", "?lod=2", "?mergeMesh=1&textureAtlasSize=512", "?textureAtlasSize=256&textureFormat=png",
			"?textureFormat=compat", "?useMeshOptCompression=true", "?animations=locomotion", "?morphTargets=none", all + "&mergeMesh=1&textureAtlasSize=1024&lod=1"} {
			_, v, rep := getModel(t, r, id, q)
			t.Logf("%s%s: %v triangles, %v draw calls, %d errors, %d warnings", name, q, rep.Info["totalTriangleCount"], rep.Info["drawCallCount"], rep.NumErrors, rep.NumWarnings)
			if q == "?morphTargets=none" {
				for _, m := range v.Meshes {
					if n := len(m.TargetNames()); n > 0 {
						t.Errorf("%s%s: %s keeps %d targets", name, q, m.Name, n)
					}
				}
			}
		}
		for _, u := range []string{"/preview/" + id + ".png?size=128", "/" + id + ".png", "/" + id + ".jpg"} {
			res := do(t, "GET", r.AvatarURL+u, "", nil, nil)
			if res.Status != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "image/") {
				t.Errorf("%s: %s: %d %s", name, u, res.Status, res.Body)
			}
		}
		// The leader's own URLs: the model at the root, and the metadata
		// its engine SDKs fetch beside it.
		res := do(t, "GET", r.AvatarURL+"/"+id+".glb?morphTargets=ARKit", "", nil, nil)
		if res.Status != http.StatusOK {
			t.Errorf("%s: /%s.glb: %d %s", name, id, res.Status, res.Body)
		} else {
			gltfcheck.RequireValid(t, res.Body)
		}
		res = do(t, "GET", r.AvatarURL+"/"+id+".json", "", nil, nil)
		var meta struct {
			BodyType, OutfitGender, SkinTone string
		}
		res.json(t, &meta)
		src, err := scene.Read(glb, scene.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		tone, _ := leaderimport.SkinTone(src)
		if res.Status != http.StatusOK || meta.BodyType != "fullbody" || meta.OutfitGender != "masculine" || meta.SkinTone != tone {
			t.Errorf("%s: /%s.json: %d %s", name, id, res.Status, res.Body)
		}
	}
}

// checkImportedFace checks the shapes of an imported leader avatar: the
// head carries every ARKit shape, viseme, default and Eyes Extra shape, and each
// moves what it names. Regions are found on the leader's own meshes
// (eyes from the eye meshes, the mouth from the front teeth), which sit
// at their bind pose in the leader's files.
func checkImportedFace(t *testing.T, file string, s *scene.Scene) {
	t.Helper()
	mesh := func(name string) *scene.Mesh {
		i := slices.IndexFunc(s.Nodes, func(n *gltf.Node) bool { return n.Name == name && n.Mesh != nil })
		if i < 0 {
			t.Fatalf("%s: no mesh %s", file, name)
		}
		return s.Meshes[*s.Nodes[i].Mesh]
	}
	head, teeth, eyeL, eyeR := mesh("Wolf3D_Head"), mesh("Wolf3D_Teeth"), mesh("EyeLeft"), mesh("EyeRight")
	names := head.TargetNames()
	for _, n := range face.All() {
		if !slices.Contains(names, n) {
			t.Errorf("%s: Wolf3D_Head has no %s", file, n)
		}
	}
	centre := func(m *scene.Mesh) [3]float64 {
		lo, hi := [3]float64{9, 9, 9}, [3]float64{-9, -9, -9}
		for _, p := range m.Primitives[0].Positions {
			for c := range 3 {
				lo[c], hi[c] = min(lo[c], float64(p[c])), max(hi[c], float64(p[c]))
			}
		}
		return [3]float64{(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2}
	}
	cl, cr := centre(eyeL), centre(eyeR)
	tc := centre(teeth)
	// largest offset (mm) of a shape on a mesh among the vertices where
	// keep holds, and the largest downward one.
	moves := func(m *scene.Mesh, shape string, keep func(p [3]float64) bool) (most, down float64) {
		ti := slices.Index(m.TargetNames(), shape)
		if ti < 0 {
			t.Fatalf("%s: %s has no %s", file, m.Name, shape)
		}
		p := m.Primitives[0]
		for v, d := range p.Targets[ti].Positions {
			q := [3]float64{float64(p.Positions[v][0]), float64(p.Positions[v][1]), float64(p.Positions[v][2])}
			if keep(q) {
				most = max(most, 1000*math.Sqrt(float64(d[0]*d[0]+d[1]*d[1]+d[2]*d[2])))
				down = max(down, -1000*float64(d[1]))
			}
		}
		return most, down
	}
	near := func(c [3]float64, r float64) func([3]float64) bool {
		return func(p [3]float64) bool { return math.Hypot(p[0]-c[0], p[1]-c[1]) < r && p[2] > c[2]-0.01 }
	}
	anywhere := func([3]float64) bool { return true }
	// The lids: 18 mm either side of an eye's centre, from 9 mm below it
	// (the lower lid, not the cheek, which the jaw pulls) to 14 mm above.
	lidsOf := func(c [3]float64) func([3]float64) bool {
		return func(p [3]float64) bool {
			return math.Abs(p[0]-c[0]) < 0.018 && p[1] > c[1]-0.009 && p[1] < c[1]+0.014 && p[2] > c[2]-0.01
		}
	}
	leftEye, rightEye := lidsOf(cl), lidsOf(cr)
	mouth := near([3]float64{tc[0], tc[1] - 0.01, tc[2]}, 0.035)
	lower := func(p [3]float64) bool { return p[1] < tc[1]-0.004 && p[2] > tc[2] }
	upper := func(p [3]float64) bool { return p[1] > tc[1]+0.004 && p[2] > tc[2] }

	type region struct {
		what string
		m    *scene.Mesh
		in   func([3]float64) bool
	}
	for _, tc := range []struct {
		shape string
		moves []region
		minMM float64
		down  bool // the moving regions go down by minMM
		still []region
	}{
		{"eyeBlinkLeft", []region{{"left lids", head, leftEye}}, 5, true, []region{{"right lids", head, rightEye}, {"mouth", head, mouth}, {"left eye", eyeL, anywhere}}},
		{"eyeBlinkRight", []region{{"right lids", head, rightEye}}, 5, true, []region{{"left lids", head, leftEye}, {"mouth", head, mouth}}},
		{"eyesClosed", []region{{"left lids", head, leftEye}, {"right lids", head, rightEye}}, 5, true, []region{{"mouth", head, mouth}}},
		{"eyesLookUp", []region{{"left eye", eyeL, anywhere}, {"right eye", eyeR, anywhere}}, 1, false, []region{{"mouth", head, mouth}}},
		{"jawOpen", []region{{"mouth and chin", head, mouth}, {"lower teeth", teeth, lower}}, 5, true, []region{{"upper teeth", teeth, upper}, {"left lids", head, leftEye}, {"right lids", head, rightEye}}},
		{"viseme_PP", []region{{"lips", head, mouth}}, 1, false, []region{{"left lids", head, leftEye}, {"right lids", head, rightEye}, {"upper teeth", teeth, upper}}},
		{"viseme_aa", []region{{"mouth and chin", head, mouth}, {"lower teeth", teeth, lower}}, 3, true, []region{{"left lids", head, leftEye}, {"upper teeth", teeth, upper}}},
		{"eyeLookUpLeft", []region{{"left eye", eyeL, anywhere}}, 1, false, []region{{"right eye", eyeR, anywhere}, {"mouth", head, mouth}}},
		{"eyeLookInRight", []region{{"right eye", eyeR, anywhere}}, 1, false, []region{{"left eye", eyeL, anywhere}}},
		{"mouthSmileLeft", []region{{"mouth", head, mouth}}, 1, false, []region{{"right lids", head, rightEye}, {"upper teeth", teeth, upper}}},
	} {
		for _, r := range tc.moves {
			most, down := moves(r.m, tc.shape, r.in)
			got := most
			if tc.down {
				got = down
			}
			if got < tc.minMM {
				t.Errorf("%s: %s moves the %s by %.1f mm (down %.1f), want %.0f or more", file, tc.shape, r.what, most, down, tc.minMM)
			}
		}
		for _, r := range tc.still {
			if most, _ := moves(r.m, tc.shape, r.in); most > 0.5 {
				t.Errorf("%s: %s moves the %s by %.1f mm, want none", file, tc.shape, r.what, most)
			}
		}
	}
	// Every shape but the rest face moves something.
	for _, n := range names {
		if most, _ := moves(head, n, anywhere); n != "viseme_sil" && most < 0.5 {
			em, _ := moves(eyeL, n, anywhere)
			if em < 0.5 {
				t.Errorf("%s: %s moves nothing (%.2f mm)", file, n, most)
			}
		}
	}
}

// TestImportedFaceInBrowser loads an imported leader avatar with the
// shapes Kiln carried onto it in three.js in chromium
// (tools/browser-test/face.mjs): closing both eyes changes the pixels
// around the eyes and not the mouth, and viseme_aa the mouth and not the
// eyes. The pictures stay for a person to look at:
// kiln-import-{casual,office}-{rest,blink,viseme}.png in the temp folder.
func TestImportedFaceInBrowser(t *testing.T) {
	files := map[string][]byte{}
	for _, name := range []string{"casual", "office"} {
		files[name] = leaderAvatar(t, "rpm-avatar-"+name+".glb")
	}
	node, viewer := browserTool(t)
	script := filepath.Join(filepath.Dir(viewer), "face.mjs")
	r := start(t)
	key := newKey(t, r, "acme", kiln.ScopeAvatarWrite)
	for name, glb := range files {
		id := importAvatar(t, r, key, glb)
		shots := filepath.Join(os.TempDir(), "kiln-import-"+name)
		out := runBrowser(t, node, script, r.AvatarURL+"/model/"+id+".glb?morphTargets=ARKit,Oculus%20Visemes", "--screenshot", shots)
		var f faceFigures
		if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &f); err != nil {
			t.Fatalf("%s: %v: %s", name, err, out)
		}
		t.Logf("%s: %s with %d targets; blink changes %.1f%% of the eyes, %.2f%% elsewhere, %.2f%% of the mouth; viseme_aa changes %.1f%% of the mouth and chin, %.2f%% elsewhere, %.2f%% of the eyes",
			name, f.Mesh, f.Targets, 100*f.Blink.Inside, 100*f.Blink.Outside, 100*f.BlinkInMouth, 100*f.Viseme.Inside, 100*f.Viseme.Outside, 100*f.VisemeInEyes)
		if f.Targets != len(face.ARKit)+len(face.Visemes) {
			t.Errorf("%s: %s has %d targets, want %d", name, f.Mesh, f.Targets, len(face.ARKit)+len(face.Visemes))
		}
		if f.Blink.Inside < 0.1 || f.Blink.Outside > 0.005 || f.BlinkInMouth > 0.005 {
			t.Errorf("%s: the blink should change the eyes (%.3f) and little else (%.4f, mouth %.4f)", name, f.Blink.Inside, f.Blink.Outside, f.BlinkInMouth)
		}
		// The leader's chin drops past the mouth's box (8 cm tall), so
		// the jaw line below it changes too: up to 1.5% of the rest.
		if f.Viseme.Inside < 0.1 || f.Viseme.Outside > 0.015 || f.VisemeInEyes > 0.005 {
			t.Errorf("%s: viseme_aa should change the mouth (%.3f) and little else (%.4f, eyes %.4f)", name, f.Viseme.Inside, f.Viseme.Outside, f.VisemeInEyes)
		}
	}
}
