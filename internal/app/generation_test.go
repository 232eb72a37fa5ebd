package app

import (
	"bytes"
	"net/http"
	"net/url"
	"slices"
	"testing"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/internal/fixture"
)

// TestCachedBeforeNotServed: a variant or a picture stored under the key
// it had before the pipeline changed what those parameters give (the
// leader's scene tree; the happy expression's new recipe) is not what a
// download gets: the download is built again, with the leader's tree and
// the new face. Stand-ins for the old files (a cube, a cube's bytes as a
// PNG) are put where the old keys pointed.
func TestCachedBeforeNotServed(t *testing.T) {
	r := start(t)
	ctx := t.Context()
	put := func(key string, body []byte) {
		t.Helper()
		if _, err := r.App.Blobs.Put(ctx, key, bytes.NewReader(body), int64(len(body)), ""); err != nil {
			t.Fatal(err)
		}
	}
	const query = "lod=1&textureAtlasSize=256"
	v, _, err := kiln.ParseVariant(mustValues(t, query))
	if err != nil {
		t.Fatal(err)
	}
	stale := fixture.CubeGLB()
	put("avatars/default-female/variants/"+v.Key()+".glb", stale)
	res := do(t, "GET", r.AvatarURL+"/model/default-female.glb?"+query, "", nil, nil)
	if res.Status != http.StatusOK || bytes.Equal(res.Body, stale) {
		t.Fatalf("GET ?%s: %d, %d bytes (the stale file has %d)", query, res.Status, len(res.Body), len(stale))
	}
	s, err := scene.Read(res.Body, scene.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if tree := treeOf(s); !slices.Equal(tree.roots, []string{"Armature"}) || !slices.Contains(tree.armature, "Wolf3D_Head") {
		t.Errorf("GET ?%s: roots %v, Armature %v: want the leader's tree", query, tree.roots, tree.armature)
	}

	// The picture: the old key had the expression's bare name.
	put("avatars/default-male/previews/portrait-128-transparent-happy.png", stale)
	res = do(t, "GET", r.AvatarURL+"/default-male.png?size=128&expression=happy", "", nil, nil)
	if res.Status != http.StatusOK || bytes.Equal(res.Body, stale) || res.Header.Get("Content-Type") != "image/png" {
		t.Errorf("GET /default-male.png?expression=happy: %d %s, %d bytes", res.Status, res.Header.Get("Content-Type"), len(res.Body))
	}
}

func mustValues(t *testing.T, q string) url.Values {
	t.Helper()
	v, err := url.ParseQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
