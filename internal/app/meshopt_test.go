package app

import (
	"net/http"
	"slices"
	"testing"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/scene/scenetest"
	"github.com/kilnhq/kiln/internal/gltfcheck"
)

// TestMeshoptDownloads: useMeshOptCompression=true on an avatar model and
// on an object download serves a variant that requires
// EXT_meshopt_compression and KHR_mesh_quantization, validates, reads
// back with every triangle and clip, and is smaller than the plain one;
// a bad value is a 400 naming the parameter.
func TestMeshoptDownloads(t *testing.T) {
	r := start(t)
	requires := func(t *testing.T, body []byte) {
		t.Helper()
		doc := glbJSON(t, body)
		for _, e := range []string{"EXT_meshopt_compression", "KHR_mesh_quantization"} {
			if !slices.Contains(doc.ExtensionsRequired, e) {
				t.Errorf("extensionsRequired %v lacks %s", doc.ExtensionsRequired, e)
			}
		}
	}

	plain, ps, _ := getModel(t, r, kiln.AvatarDefaultMale, "?animations=locomotion_walk")
	packed, s, _ := getModel(t, r, kiln.AvatarDefaultMale, "?animations=locomotion_walk&useMeshOptCompression=true")
	requires(t, packed.Body)
	if len(packed.Body) >= len(plain.Body) || packed.Header.Get("ETag") == plain.Header.Get("ETag") {
		t.Errorf("compressed %d bytes (ETag %s), plain %d (ETag %s)", len(packed.Body), packed.Header.Get("ETag"), len(plain.Body), plain.Header.Get("ETag"))
	}
	if !sameButWelded(s.Stats(), ps.Stats()) {
		t.Errorf("compressed stats %+v, plain %+v", s.Stats(), ps.Stats())
	}
	res := do(t, "GET", r.AvatarURL+"/model/default-male.glb?useMeshOptCompression=yes", "", nil, nil)
	if res.Status != http.StatusBadRequest || res.errorCode(t) != "invalid_use_mesh_opt_compression" {
		t.Errorf("useMeshOptCompression=yes: %d %s", res.Status, res.Body)
	}

	key := newKey(t, r, "acme", kiln.ScopeProductRead, kiln.ScopeProductWrite)
	o := uploadObject(t, r, key, map[string]string{"name": "Tube", "type": "mesh", "extension": "glb"}, nil, scenetest.SkinnedTube())
	if o.State != "ready" {
		t.Fatalf("object %s is %s", o.ObjectID, o.State)
	}
	url := r.PlatformURL + "/resources/objects/" + o.ObjectID + "/model.glb"
	flat := do(t, "GET", url+"?textureFormat=webp", key, nil, nil)
	res = do(t, "GET", url+"?useMeshOptCompression=1", key, nil, nil)
	if res.Status != http.StatusOK || flat.Status != http.StatusOK {
		t.Fatalf("object downloads: %d %s, %d", res.Status, res.Body, flat.Status)
	}
	gltfcheck.RequireValid(t, res.Body)
	requires(t, res.Body)
	got, err := scene.Read(res.Body, scene.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := scene.Read(flat.Body, scene.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !sameButWelded(got.Stats(), want.Stats()) || len(res.Body) >= len(flat.Body) {
		t.Errorf("object: compressed %+v in %d bytes, plain %+v in %d", got.Stats(), len(res.Body), want.Stats(), len(flat.Body))
	}
	res = do(t, "GET", url+"?useMeshOptCompression=", key, nil, nil)
	if res.Status != http.StatusBadRequest || res.errorCode(t) != "invalid_use_mesh_opt_compression" {
		t.Errorf("useMeshOptCompression=: %d %s", res.Status, res.Body)
	}
}

// sameButWelded compares the stats of a compressed model with the plain
// one's: everything equal, but that vertices which quantization makes
// identical (on a grid, with tangents no normal map reads dropped) are
// stored once, so there may be fewer, never more.
func sameButWelded(packed, plain scene.Stats) bool {
	if packed.Vertices > plain.Vertices {
		return false
	}
	packed.Vertices = plain.Vertices
	return packed == plain
}
