package scene

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/ext/texturetransform"

	"github.com/kilnhq/kiln/assets/scene/scenetest"
)

// webp1x1 is a 1×1 lossless WebP.
var webp1x1 = []byte("RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00\x2f\x00\x00\x00\x10\x07\x10\x11\x11\x88\x88\xfe\x07\x00")

func TestExtensionsPassThroughAndAreRemapped(t *testing.T) {
	s := mustRead(t, scenetest.Skinned())
	// Textures: 0 unused, 1 base colour (transformed), 2 clearcoat.
	s.Images = append(s.Images, &Image{MimeType: "image/png", Data: scenetestPNG()})
	s.Textures = []*gltf.Texture{{Source: gltf.Index(1)}, {Source: gltf.Index(0)}, {Source: gltf.Index(1)}}
	m := s.Materials[0]
	m.PBRMetallicRoughness.BaseColorTexture = &gltf.TextureInfo{Index: 1, Extensions: gltf.Extensions{
		"KHR_texture_transform": &texturetransform.TextureTransform{Offset: [2]float64{0.5, 0}, Scale: [2]float64{0.5, 1}},
	}}
	m.Extensions = gltf.Extensions{
		"KHR_materials_clearcoat":         json.RawMessage(`{"clearcoatFactor":1,"clearcoatTexture":{"index":2,"texCoord":0}}`),
		"KHR_materials_emissive_strength": json.RawMessage(`{"emissiveStrength":2}`),
	}
	s.ExtensionsRequired = []string{"KHR_texture_transform", "KHR_materials_volume"} // the second is no longer used
	s.Prune()
	if len(s.Textures) != 2 || len(s.Images) != 2 {
		t.Fatalf("after Prune: %d textures, %d images", len(s.Textures), len(s.Images))
	}
	out := mustWriteValid(t, s)
	doc := new(gltf.Document)
	if err := jsonOf(out, doc); err != nil {
		t.Fatal(err)
	}
	wantUsed := []string{"KHR_materials_clearcoat", "KHR_materials_emissive_strength", "KHR_texture_transform"}
	if !slices.Equal(doc.ExtensionsUsed, wantUsed) || !slices.Equal(doc.ExtensionsRequired, []string{"KHR_texture_transform"}) {
		t.Errorf("used %v required %v", doc.ExtensionsUsed, doc.ExtensionsRequired)
	}
	back := mustRead(t, out)
	bm := back.Materials[0]
	var cc struct {
		ClearcoatTexture struct{ Index int } `json:"clearcoatTexture"`
	}
	if err := json.Unmarshal(bm.Extensions["KHR_materials_clearcoat"].(json.RawMessage), &cc); err != nil || cc.ClearcoatTexture.Index != 1 {
		t.Errorf("clearcoat texture index %d (%v), want 1 after pruning texture 0", cc.ClearcoatTexture.Index, err)
	}
	tt, ok := bm.PBRMetallicRoughness.BaseColorTexture.Extensions["KHR_texture_transform"].(*texturetransform.TextureTransform)
	if !ok || tt.Offset != [2]float64{0.5, 0} || bm.PBRMetallicRoughness.BaseColorTexture.Index != 0 {
		t.Errorf("texture transform lost: %#v", bm.PBRMetallicRoughness.BaseColorTexture)
	}
}

// A texture whose only source is a WebP image requires EXT_texture_webp;
// with a PNG fallback it only uses it (NOTES.md: the validator does not
// check this, so this test does).
func TestWebPTexturesRequireTheExtensionWithoutFallback(t *testing.T) {
	for _, fallback := range []bool{false, true} {
		s := mustRead(t, scenetest.Skinned())
		s.Images = append(s.Images, &Image{MimeType: "image/webp", Data: webp1x1})
		tex := s.Textures[0]
		tex.Extensions = gltf.Extensions{"EXT_texture_webp": map[string]any{"source": 1}}
		if !fallback {
			tex.Source = nil
		}
		out := mustWriteValid(t, s)
		doc := new(gltf.Document)
		if err := jsonOf(out, doc); err != nil {
			t.Fatal(err)
		}
		var want []string
		if !fallback {
			want = []string{"EXT_texture_webp"}
		}
		if !slices.Equal(doc.ExtensionsUsed, []string{"EXT_texture_webp"}) || !slices.Equal(doc.ExtensionsRequired, want) {
			t.Errorf("fallback %v: used %v required %v", fallback, doc.ExtensionsUsed, doc.ExtensionsRequired)
		}
		if doc.Images[1].MimeType != "image/webp" {
			t.Errorf("mime type %q", doc.Images[1].MimeType)
		}
	}
}
