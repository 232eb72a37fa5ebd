package kiln_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/kilnhq/kiln"
)

// TestParseLeaderParameters covers every value and every 400 of the
// market leader's parameters, and how they compose with the spec's.
func TestParseLeaderParameters(t *testing.T) {
	webp := func(v kiln.Variant) kiln.Variant { v.TextureFormat = "webp"; return v }
	tests := []struct {
		query string
		want  kiln.Variant
		code  string
	}{
		{"quality=low", webp(kiln.Variant{LOD: 2, AtlasSize: 256, TextureSizeLimit: 256}), ""},
		{"quality=medium", webp(kiln.Variant{LOD: 1, AtlasSize: 512, TextureSizeLimit: 512}), ""},
		{"quality=high", webp(kiln.Variant{LOD: 0, AtlasSize: 1024, TextureSizeLimit: 1024}), ""},
		// Explicit parameters win over the preset, whatever their order.
		{"lod=0&quality=low", webp(kiln.Variant{LOD: 0, AtlasSize: 256, TextureSizeLimit: 256}), ""},
		{"quality=low&textureAtlasSize=1024&textureSizeLimit=1024", webp(kiln.Variant{LOD: 2, AtlasSize: 1024, TextureSizeLimit: 1024}), ""},
		{"quality=medium&textureFormat=png&mergeMesh=1", kiln.Variant{LOD: 1, AtlasSize: 512, TextureSizeLimit: 512, TextureFormat: "png", Merge: true}, ""},
		{"pose=A", webp(kiln.Variant{Pose: "A"}), ""},
		{"pose=T", webp(kiln.Variant{Pose: "T"}), ""},
		{"pose=t", webp(kiln.Variant{Pose: "T"}), ""},
		{"textureSizeLimit=256", webp(kiln.Variant{TextureSizeLimit: 256}), ""},
		{"textureSizeLimit=700", webp(kiln.Variant{TextureSizeLimit: 700}), ""},
		{"textureSizeLimit=1024", webp(kiln.Variant{TextureSizeLimit: 1024}), ""},
		{"textureChannels=baseColor,normal,metallicRoughness,emissive,occlusion", webp(kiln.Variant{}), ""},
		{"textureChannels=baseColor", webp(kiln.Variant{DropChannels: []string{"normal", "metallicRoughness", "emissive", "occlusion"}}), ""},
		{"textureChannels=occlusion,baseColor", webp(kiln.Variant{DropChannels: []string{"normal", "metallicRoughness", "emissive"}}), ""},
		{"textureChannels=normal", webp(kiln.Variant{DropChannels: []string{"baseColor", "metallicRoughness", "emissive", "occlusion"}}), ""},
		{"textureChannels=metallicRoughness,emissive", webp(kiln.Variant{DropChannels: []string{"baseColor", "normal", "occlusion"}}), ""},
		{"textureChannels=none", webp(kiln.Variant{DropChannels: kiln.TextureChannels}), ""},
		{"useHands=1", webp(kiln.Variant{}), ""},
		{"useHands=true", webp(kiln.Variant{}), ""},
		{"useHands=0", webp(kiln.Variant{NoHands: true}), ""},
		{"useHands=false", webp(kiln.Variant{NoHands: true}), ""},
		{"quality=low&pose=T&textureChannels=baseColor&useHands=0&mergeMesh=1", webp(kiln.Variant{LOD: 2, AtlasSize: 256, TextureSizeLimit: 256, Pose: "T",
			DropChannels: []string{"normal", "metallicRoughness", "emissive", "occlusion"}, NoHands: true, Merge: true}), ""},
		{"quality=ultra", kiln.Variant{}, "invalid_quality"},
		{"quality=", kiln.Variant{}, "invalid_quality"},
		{"quality=LOW", kiln.Variant{}, "invalid_quality"},
		{"pose=B", kiln.Variant{}, "invalid_pose"},
		{"pose=", kiln.Variant{}, "invalid_pose"},
		{"textureSizeLimit=255", kiln.Variant{}, "invalid_texture_size_limit"},
		{"textureSizeLimit=2048", kiln.Variant{}, "invalid_texture_size_limit"},
		{"textureSizeLimit=big", kiln.Variant{}, "invalid_texture_size_limit"},
		{"textureSizeLimit=", kiln.Variant{}, "invalid_texture_size_limit"},
		{"textureSizeLimit=+512", kiln.Variant{}, "invalid_texture_size_limit"},
		{"textureChannels=albedo", kiln.Variant{}, "invalid_texture_channels"},
		{"textureChannels=", kiln.Variant{}, "invalid_texture_channels"},
		{"textureChannels=baseColor,", kiln.Variant{}, "invalid_texture_channels"},
		{"useHands=2", kiln.Variant{}, "invalid_use_hands"},
		{"useHands=", kiln.Variant{}, "invalid_use_hands"},
		{"quality=low&lod=5", kiln.Variant{}, "invalid_lod"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			v, named, ok := parseVariant(t, tt.query, tt.code)
			if !ok {
				return
			}
			if !named {
				t.Errorf("%s does not name a variant", tt.query)
			}
			if v.Key() != tt.want.Key() {
				t.Errorf("key %q (%+v), want %q (%+v)", v.Key(), v, tt.want.Key(), tt.want)
			}
			if err := v.Validate(); err != nil {
				t.Errorf("parsed variant fails Validate: %v", err)
			}
		})
	}
}

// TestLeaderKeys: each leader parameter changes the key only when set,
// so keys stored before them stay, and every setting has its own key.
func TestLeaderKeys(t *testing.T) {
	base := kiln.Variant{TextureFormat: "webp"}
	if base.Key() != "lod0-webp-atlas0-merge0" {
		t.Fatalf("key without leader parameters changed: %s", base.Key())
	}
	seen := map[string]string{base.Key(): "none"}
	for _, q := range []string{"pose=A", "pose=T", "textureSizeLimit=256", "textureSizeLimit=512",
		"textureChannels=baseColor", "textureChannels=normal", "textureChannels=none", "useHands=0",
		"pose=T&useHands=0", "quality=low", "quality=medium"} {
		v, _, err := kiln.ParseVariant(mustQuery(t, q))
		if err != nil {
			t.Fatal(err)
		}
		if other, dup := seen[v.Key()]; dup {
			t.Errorf("%s and %s share the key %s", q, other, v.Key())
		}
		seen[v.Key()] = q
		if strings.ContainsAny(v.Key(), "/ ,") {
			t.Errorf("key %q is not a storage-safe name", v.Key())
		}
	}
	for _, bad := range []kiln.Variant{
		{Pose: "X"}, {TextureSizeLimit: 100}, {DropChannels: []string{"emissive", "baseColor"}}, {DropChannels: []string{"albedo"}},
	} {
		if bad.Validate() == nil {
			t.Errorf("%+v passes Validate", bad)
		}
	}
}

func mustQuery(t *testing.T, q string) url.Values {
	t.Helper()
	v, err := url.ParseQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
