package app

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/scene/scenetest"
	"github.com/kilnhq/kiln/internal/config"
	"github.com/kilnhq/kiln/internal/gltfcheck"
)

// TestDracoDownloads: useDracoMeshCompression=true on an avatar model and
// on an object download serves a smaller variant that requires
// KHR_draco_mesh_compression and validates; a bad value, or Draco with
// meshopt, is a 400 naming the parameter.
func TestDracoDownloads(t *testing.T) {
	r := start(t)
	check := func(name string, res, plain response) {
		t.Helper()
		if res.Status != http.StatusOK || plain.Status != http.StatusOK {
			t.Fatalf("%s: %d %s, plain %d", name, res.Status, res.Body, plain.Status)
		}
		gltfcheck.RequireValid(t, res.Body)
		if doc := glbJSON(t, res.Body); !slices.Contains(doc.ExtensionsRequired, "KHR_draco_mesh_compression") {
			t.Errorf("%s: extensionsRequired %v", name, doc.ExtensionsRequired)
		}
		if len(res.Body) >= len(plain.Body) || res.Header.Get("ETag") == plain.Header.Get("ETag") {
			t.Errorf("%s: Draco %d bytes (ETag %s), plain %d (ETag %s)", name, len(res.Body), res.Header.Get("ETag"), len(plain.Body), plain.Header.Get("ETag"))
		}
	}
	avatarPlain := r.AvatarURL + "/model/default-male.glb"
	avatarDraco := avatarPlain + "?useDracoMeshCompression=true"
	check("avatar", do(t, "GET", avatarDraco, "", nil, nil), do(t, "GET", avatarPlain, "", nil, nil))
	for _, q := range []struct{ query, code string }{
		{"useDracoMeshCompression=yes", "invalid_use_draco_mesh_compression"},
		{"useDracoMeshCompression=true&useMeshOptCompression=true", "conflicting_mesh_compression"},
	} {
		res := do(t, "GET", avatarPlain+"?"+q.query, "", nil, nil)
		if res.Status != http.StatusBadRequest || res.errorCode(t) != q.code {
			t.Errorf("%s: %d %s", q.query, res.Status, res.Body)
		}
	}

	key := newKey(t, r, "acme", kiln.ScopeProductRead, kiln.ScopeProductWrite)
	o := uploadObject(t, r, key, map[string]string{"name": "Tube", "type": "mesh", "extension": "glb"}, nil, scenetest.SkinnedTube())
	if o.State != "ready" {
		t.Fatalf("object %s is %s", o.ObjectID, o.State)
	}
	objectURL := r.PlatformURL + "/resources/objects/" + o.ObjectID + "/model.glb"
	check("object", do(t, "GET", objectURL+"?useDracoMeshCompression=1", key, nil, nil), do(t, "GET", objectURL+"?textureFormat=webp", key, nil, nil))
	if res := do(t, "GET", objectURL+"?useDracoMeshCompression=", key, nil, nil); res.Status != http.StatusBadRequest || res.errorCode(t) != "invalid_use_draco_mesh_compression" {
		t.Errorf("object useDracoMeshCompression=: %d %s", res.Status, res.Body)
	}

}

// TestDracoInBrowser is a web app on another origin, in headless
// chromium: three.js's GLTFLoader with DRACOLoader (its decoder served by
// the app, from the pinned three package) loads Draco downloads of two
// avatars and of an object, each beside its plain download, and every
// mesh has the same triangles, each within half a quantization step of
// a plain one.
func TestDracoInBrowser(t *testing.T) {
	node, script := browserTool(t)
	dir := filepath.Dir(script)
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "three", "examples", "jsm", "libs", "draco", "draco_decoder.wasm")); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("three is missing; .ci/run installs it (npm ci in tools/browser-test)")
		}
		t.Skip("three is missing (npm ci in tools/browser-test)")
	}
	// The app's origin: its page, three's modules and the Draco decoder,
	// nothing of Kiln's.
	mux := http.NewServeMux()
	mux.Handle("GET /three/", http.StripPrefix("/three/", http.FileServer(http.Dir(filepath.Join(dir, "node_modules", "three")))))
	mux.HandleFunc("GET /draco.html", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFile(w, r, filepath.Join(dir, "draco.html"))
	})
	app := httptest.NewServer(mux)
	defer app.Close()
	r := startPublic(t, func(c *config.Config) { c.CORSOrigins = []string{app.URL} })
	key := newKey(t, r, "acme", kiln.ScopeProductRead, kiln.ScopeProductWrite)
	o := uploadObject(t, r, key, map[string]string{"name": "Tube", "type": "mesh", "extension": "glb"}, nil, scenetest.SkinnedTube())
	if o.State != "ready" {
		t.Fatalf("object %s is %s", o.ObjectID, o.State)
	}
	objectURL := r.PlatformURL + "/resources/objects/" + o.ObjectID + "/model.glb"
	avatarPlain := r.AvatarURL + "/model/default-male.glb"
	page := app.URL + "/draco.html?" + url.Values{
		"plain": {avatarPlain, r.AvatarURL + "/model/default-female.glb?lod=1", objectURL + "?textureFormat=webp"},
		"draco": {avatarPlain + "?useDracoMeshCompression=true", r.AvatarURL + "/model/default-female.glb?lod=1&useDracoMeshCompression=true", objectURL + "?useDracoMeshCompression=true"},
		"key":   {key},
	}.Encode()
	out, err := exec.Command(node, filepath.Join(dir, "meshopt.mjs"), page).Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("meshopt.mjs: %v: %s", err, ee.Stderr)
		}
		t.Fatal(err)
	}
	var result []struct {
		URL         string
		Required    []string
		DracoMeshes int
		Meshes      []struct {
			Name                  string
			Plain, Draco, Matched int
			Worst, Tol            float64
		}
	}
	if err := json.Unmarshal(out, &result); err != nil {
		t.Fatalf("%s: %v", out, err)
	}
	if len(result) != 3 {
		t.Fatalf("%d results: %s", len(result), out)
	}
	for _, m := range result {
		if !slices.Contains(m.Required, "KHR_draco_mesh_compression") || len(m.Meshes) == 0 || m.DracoMeshes != len(m.Meshes) {
			t.Errorf("%s: required %v, %d meshes (%d with Draco)", m.URL, m.Required, len(m.Meshes), m.DracoMeshes)
		}
		for _, mesh := range m.Meshes {
			if mesh.Plain == 0 || mesh.Draco != mesh.Plain || mesh.Matched != mesh.Plain {
				t.Errorf("%s %s: %d triangles plain, %d Draco, %d matched within %g (worst %g)", m.URL, mesh.Name, mesh.Plain, mesh.Draco, mesh.Matched, mesh.Tol, mesh.Worst)
			}
		}
		t.Logf("%s: %d meshes, every triangle matched", strings.TrimPrefix(m.URL, r.AvatarURL), len(m.Meshes))
	}
}
