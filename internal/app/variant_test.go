package app

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"net/http"
	"slices"
	"sync"
	"testing"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/scene/scenetest"
	"github.com/kilnhq/kiln/internal/gltfcheck"
)

// TestModelVariants asks for variants of an uploaded textured, skinned
// model: each is built once by a job, stored, and served with an ETag;
// identical requests at the same time get the same bytes.
func TestModelVariants(t *testing.T) {
	r := start(t)
	key := newKey(t, r, "acme", kiln.ScopeProductRead, kiln.ScopeProductWrite)
	p := prepare(t, r, key, map[string]string{"name": "tube", "type": "mesh", "extension": "glb"})
	if res := upload(t, p, scenetest.SkinnedTube()); res.Status != http.StatusOK {
		t.Fatalf("PUT: %d %s", res.Status, res.Body)
	}
	finish(t, r, key, p.ObjectID, nil)
	if o := waitState(t, r, key, p.ObjectID); o.State != "ready" {
		t.Fatalf("object %s: %s", o.State, o.Error)
	}
	base := r.PlatformURL + "/resources/objects/" + p.ObjectID + "/model.glb"

	for _, tc := range []struct {
		query        string
		webpRequired bool
		maxDraws     float64
	}{
		{"?lod=1&textureFormat=webp&textureAtlasSize=256&mergeMesh=1", true, 2},
		{"?textureFormat=compat", false, 0},
		{"?lod=2&textureFormat=png&mergeMesh=1", false, 0},
	} {
		t.Run(tc.query, func(t *testing.T) {
			var wg sync.WaitGroup
			got := make([]response, 3)
			for i := range got {
				wg.Add(1)
				go func() {
					defer wg.Done()
					got[i] = do(t, "GET", base+tc.query, key, nil, nil)
				}()
			}
			wg.Wait()
			for i, res := range got {
				if res.Status != http.StatusOK || res.Header.Get("Content-Type") != "model/gltf-binary" {
					t.Fatalf("request %d: %d %s", i, res.Status, res.Body)
				}
				if !bytes.Equal(res.Body, got[0].Body) || res.Header.Get("ETag") != got[0].Header.Get("ETag") {
					t.Fatalf("request %d got other bytes than request 0", i)
				}
			}
			gltfcheck.RequireValid(t, got[0].Body)
			doc := glbJSON(t, got[0].Body)
			required := slices.Contains(doc.ExtensionsRequired, "EXT_texture_webp")
			if required != tc.webpRequired {
				t.Errorf("%s: extensionsRequired %v", tc.query, doc.ExtensionsRequired)
			}
			for _, img := range doc.Images {
				if (img.MimeType == "image/webp") != tc.webpRequired {
					t.Errorf("%s: image of type %s", tc.query, img.MimeType)
				}
			}
			s, err := scene.Read(got[0].Body, scene.ReadOptions{})
			if err != nil {
				t.Fatalf("%s: %v", tc.query, err)
			}
			if draws := s.Stats().DrawCalls; tc.maxDraws > 0 && float64(draws) > tc.maxDraws {
				t.Errorf("%s: %v draw calls", tc.query, draws)
			}
			again := do(t, "GET", base+tc.query, key, nil, map[string]string{"If-None-Match": got[0].Header.Get("ETag")})
			if again.Status != http.StatusNotModified {
				t.Errorf("%s: cached variant with If-None-Match: %d", tc.query, again.Status)
			}
		})
	}

	for _, tc := range []struct{ query, code string }{
		{"?textureFormat=gif", "invalid_texture_format"},
		{"?textureAtlasSize=100", "invalid_texture_atlas_size"},
		{"?textureAtlasSize=4096", "invalid_texture_atlas_size"},
		{"?textureAtlasSize=big", "invalid_texture_atlas_size"},
		{"?mergeMesh=2", "invalid_merge_mesh"},
		{"?lod=7&textureFormat=webp", "invalid_lod"},
	} {
		res := do(t, "GET", base+tc.query, key, nil, nil)
		if res.Status != http.StatusBadRequest || res.errorCode(t) != tc.code {
			t.Errorf("%s: %d %s, want 400 %s", tc.query, res.Status, res.Body, tc.code)
		}
	}
}

type glbDoc struct {
	ExtensionsRequired []string `json:"extensionsRequired"`
	Images             []struct {
		MimeType string `json:"mimeType"`
	} `json:"images"`
}

// glbJSON reads the JSON chunk of a GLB.
func glbJSON(t *testing.T, glb []byte) glbDoc {
	t.Helper()
	if len(glb) < 20 {
		t.Fatal("GLB too short")
	}
	n := binary.LittleEndian.Uint32(glb[12:16])
	var d glbDoc
	if err := json.Unmarshal(glb[20:20+n], &d); err != nil {
		t.Fatal(err)
	}
	return d
}
