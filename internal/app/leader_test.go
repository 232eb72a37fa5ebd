package app

import (
	"bytes"
	"image"
	_ "image/jpeg" // decodes the compat format's images
	_ "image/png"
	"maps"
	"math"
	"net/http"
	"slices"
	"testing"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/xform"
	"github.com/kilnhq/kiln/internal/fixture"
)

// largestImage is the longest side of any image of s (PNG or JPEG).
func largestImage(t *testing.T, s *scene.Scene) int {
	t.Helper()
	n := 0
	for _, img := range s.Images {
		c, _, err := image.DecodeConfig(bytes.NewReader(img.Data))
		if err != nil {
			t.Fatalf("image %q (%s): %v", img.Name, img.MimeType, err)
		}
		n = max(n, c.Width, c.Height)
	}
	return n
}

// armElevation is the left upper arm's angle below the horizontal, in
// degrees, in the model's rest pose.
func armElevation(t *testing.T, s *scene.Scene) float64 {
	t.Helper()
	parent := make([]int, len(s.Nodes))
	for i := range parent {
		parent[i] = -1
	}
	for i, n := range s.Nodes {
		for _, c := range n.Children {
			parent[c] = i
		}
	}
	world := func(i int) xform.Mat4 {
		m := xform.Identity
		for ; i >= 0; i = parent[i] {
			m = xform.Local(s.Nodes[i]).Mul(m)
		}
		return m
	}
	find := func(name string) int {
		i := slices.IndexFunc(s.Nodes, func(n *gltf.Node) bool { return n.Name == name })
		if i < 0 {
			t.Fatalf("no joint %s", name)
		}
		return i
	}
	a, b := world(find("LeftArm")).Translation(), world(find("LeftForeArm")).Translation()
	d := [3]float64{b[0] - a[0], b[1] - a[1], b[2] - a[2]}
	return -math.Asin(d[1]/math.Sqrt(d[0]*d[0]+d[1]*d[1]+d[2]*d[2])) * 180 / math.Pi
}

// textureUses counts the materials that use each texture channel.
func textureUses(s *scene.Scene) map[string]int {
	out := map[string]int{}
	for _, m := range s.Materials {
		if p := m.PBRMetallicRoughness; p != nil && p.BaseColorTexture != nil {
			out["baseColor"]++
		}
		if p := m.PBRMetallicRoughness; p != nil && p.MetallicRoughnessTexture != nil {
			out["metallicRoughness"]++
		}
		if m.NormalTexture != nil {
			out["normal"]++
		}
		if m.EmissiveTexture != nil {
			out["emissive"]++
		}
		if m.OcclusionTexture != nil {
			out["occlusion"]++
		}
	}
	return out
}

func meshNames(s *scene.Scene) []string {
	var names []string
	for _, m := range s.Meshes {
		names = append(names, m.Name)
	}
	slices.Sort(names)
	return names
}

// TestLeaderParameters downloads an avatar with each value of the market
// leader's parameters, alone and composed with the spec's, and checks
// what each promises in the served GLB; then each 400, on avatar and
// object downloads alike.
func TestLeaderParameters(t *testing.T) {
	r := start(t)
	const id = kiln.AvatarDefaultMale
	// PNG throughout, so that the test decodes every image.
	_, base, _ := getModel(t, r, id, "?textureFormat=png")
	tri0, img0 := base.Stats().Triangles, largestImage(t, base)
	t.Logf("lod 0: %d triangles, largest image %d px, arm %.1f° below horizontal, textures %v", tri0, img0, armElevation(t, base), textureUses(base))

	for _, tc := range []struct {
		query        string
		maxTriangles float64 // fraction of lod 0's
		maxImage     int
		check        func(t *testing.T, s *scene.Scene)
	}{
		{"quality=low", 0.35, 256, nil},
		{"quality=medium", 0.6, 512, nil},
		{"quality=high", 1, 1024, nil},
		{"quality=low&lod=0&textureAtlasSize=1024&textureSizeLimit=512", 1, 512, func(t *testing.T, s *scene.Scene) {
			if s.Stats().Triangles != tri0 {
				t.Errorf("explicit lod=0 over quality=low: %d triangles, want lod 0's %d", s.Stats().Triangles, tri0)
			}
		}},
		{"pose=T", 1, 1024, func(t *testing.T, s *scene.Scene) {
			if e := armElevation(t, s); math.Abs(e) > 0.1 {
				t.Errorf("pose=T: arm %.2f° below horizontal", e)
			}
		}},
		{"pose=A", 1, 1024, func(t *testing.T, s *scene.Scene) {
			if e := armElevation(t, s); math.Abs(e-59.4) > 0.1 {
				t.Errorf("pose=A: arm %.2f° below horizontal, want the leader's 59.4°", e)
			}
		}},
		{"textureSizeLimit=256", 1, 256, nil},
		{"textureSizeLimit=300", 1, 300, nil},
		{"textureSizeLimit=1024", 1, 1024, func(t *testing.T, s *scene.Scene) {
			if n := largestImage(t, s); n != min(img0, 1024) {
				t.Errorf("textureSizeLimit=1024 changed the largest image from %d to %d", img0, n)
			}
		}},
		{"textureChannels=baseColor", 1, 1024, func(t *testing.T, s *scene.Scene) {
			if u := textureUses(s); len(u) != 1 || u["baseColor"] == 0 {
				t.Errorf("textureChannels=baseColor: textures %v", u)
			}
		}},
		{"textureChannels=normal,baseColor,metallicRoughness,emissive,occlusion", 1, 1024, func(t *testing.T, s *scene.Scene) {
			if u := textureUses(s); !maps.Equal(u, textureUses(base)) {
				t.Errorf("every channel listed: textures %v, lod 0 has %v", u, textureUses(base))
			}
		}},
		{"textureChannels=none", 1, 0, func(t *testing.T, s *scene.Scene) {
			if len(s.Textures) != 0 || len(s.Images) != 0 {
				t.Errorf("textureChannels=none: %d textures, %d images", len(s.Textures), len(s.Images))
			}
		}},
		// Kiln's hands are part of Wolf3D_Body: nothing to drop.
		{"useHands=0", 1, 1024, func(t *testing.T, s *scene.Scene) {
			if !slices.Equal(meshNames(s), meshNames(base)) {
				t.Errorf("useHands=0: meshes %v, lod 0 has %v", meshNames(s), meshNames(base))
			}
		}},
		{"useHands=true", 1, 1024, nil},
		{"quality=low&pose=T&textureChannels=baseColor&mergeMesh=1&animations=gesture_wave&useHands=0", 0.35, 256, func(t *testing.T, s *scene.Scene) {
			if e := armElevation(t, s); math.Abs(e) > 0.1 || len(s.Animations) != 1 || !slices.Contains(meshNames(s), "Wolf3D_Avatar") {
				t.Errorf("composed: arm %.2f°, %d clips, meshes %v", e, len(s.Animations), meshNames(s))
			}
			if u := textureUses(s); u["normal"]+u["metallicRoughness"]+u["emissive"]+u["occlusion"] != 0 {
				t.Errorf("composed: textures %v", u)
			}
		}},
	} {
		t.Run(tc.query, func(t *testing.T) {
			_, s, _ := getModel(t, r, id, "?textureFormat=png&"+tc.query)
			if n := s.Stats().Triangles; float64(n) > tc.maxTriangles*float64(tri0) {
				t.Errorf("%d triangles, want at most %.0f%% of lod 0's %d", n, tc.maxTriangles*100, tri0)
			}
			if n := largestImage(t, s); n > tc.maxImage {
				t.Errorf("an image of %d px, want at most %d", n, tc.maxImage)
			}
			if tc.check != nil {
				tc.check(t, s)
			}
		})
	}
	// compat (JPEG and PNG) requires nothing with the leader's parameters.
	res, s, _ := getModel(t, r, id, "?textureFormat=compat&quality=medium&pose=T")
	if doc := glbJSON(t, res.Body); len(doc.ExtensionsRequired) != 0 || largestImage(t, s) > 512 {
		t.Errorf("compat with quality=medium: requires %v, images up to %d px", doc.ExtensionsRequired, largestImage(t, s))
	}

	key := newKey(t, r, "acme", kiln.ScopeProductRead, kiln.ScopeProductWrite)
	o := uploadObject(t, r, key, map[string]string{"name": "Cube", "type": "mesh", "extension": "glb"}, nil, fixture.CubeGLB())
	objects := r.PlatformURL + "/resources/objects/" + o.ObjectID + "/model.glb"
	for _, q := range []string{"quality=low", "textureSizeLimit=256", "textureChannels=baseColor", "useHands=0"} {
		if res := do(t, "GET", objects+"?"+q, key, nil, nil); res.Status != http.StatusOK {
			t.Errorf("object download ?%s: %d %s", q, res.Status, res.Body)
		}
	}
	// A model without the avatar skeleton cannot be posed.
	if res := do(t, "GET", objects+"?pose=T", key, nil, nil); res.Status != http.StatusUnprocessableEntity || res.errorCode(t) != "variant_failed" {
		t.Errorf("object download ?pose=T: %d %s, want 422 variant_failed", res.Status, res.Body)
	}

	for _, tc := range []struct{ query, code string }{
		{"quality=ultra", "invalid_quality"},
		{"quality=", "invalid_quality"},
		{"pose=B", "invalid_pose"},
		{"pose=", "invalid_pose"},
		{"textureSizeLimit=128", "invalid_texture_size_limit"},
		{"textureSizeLimit=2048", "invalid_texture_size_limit"},
		{"textureSizeLimit=big", "invalid_texture_size_limit"},
		{"textureChannels=albedo", "invalid_texture_channels"},
		{"textureChannels=", "invalid_texture_channels"},
		{"useHands=2", "invalid_use_hands"},
		{"useHands=", "invalid_use_hands"},
	} {
		for _, u := range []struct{ url, key string }{{r.AvatarURL + "/model/" + id + ".glb", ""}, {objects, key}} {
			res := do(t, "GET", u.url+"?"+tc.query, u.key, nil, nil)
			if res.Status != http.StatusBadRequest || res.errorCode(t) != tc.code {
				t.Errorf("%s?%s: %d %s, want 400 %s", u.url, tc.query, res.Status, res.Body, tc.code)
			}
		}
	}
}
