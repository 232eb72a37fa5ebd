package kiln_test

import (
	"net/url"
	"testing"

	"github.com/kilnhq/kiln"
)

// parseVariant parses query as a download's and checks that the error
// code it gives is code ("" for none) and that a refusal is invalid
// input. It reports whether the query parsed, with what it gave.
func parseVariant(t *testing.T, query, code string) (v kiln.Variant, named, ok bool) {
	t.Helper()
	q, _ := url.ParseQuery(query)
	v, named, err := kiln.ParseVariant(q)
	got := ""
	if err != nil {
		got, _ = kiln.CodeOf(err)
	}
	if got != code {
		t.Fatalf("code %q (%v), want %q", got, err, code)
	}
	if code != "" {
		if kiln.KindOf(err) != kiln.KindInvalid {
			t.Errorf("kind %v, want invalid", kiln.KindOf(err))
		}
		return v, named, false
	}
	return v, named, true
}

func TestParseVariant(t *testing.T) {
	tests := []struct {
		query string
		want  kiln.Variant
		named bool
		code  string
	}{
		{"", kiln.Variant{TextureFormat: "webp"}, false, ""},
		{"lod=2", kiln.Variant{LOD: 2, TextureFormat: "webp"}, false, ""},
		{"lod=1&textureFormat=png", kiln.Variant{LOD: 1, TextureFormat: "png"}, true, ""},
		{"textureAtlasSize=512&mergeMesh=1", kiln.Variant{TextureFormat: "webp", AtlasSize: 512, Merge: true}, true, ""},
		{"mergeMesh=0", kiln.Variant{TextureFormat: "webp"}, true, ""},
		{"unknown=1", kiln.Variant{TextureFormat: "webp"}, false, ""},
		{"lod=", kiln.Variant{}, false, "invalid_lod"},
		{"lod=3", kiln.Variant{}, false, "invalid_lod"},
		{"lod=-1", kiln.Variant{}, false, "invalid_lod"},
		{"lod=-0", kiln.Variant{}, false, "invalid_lod"},
		{"lod=+1", kiln.Variant{}, false, "invalid_lod"},
		{"textureFormat=gif", kiln.Variant{}, true, "invalid_texture_format"},
		{"textureFormat=", kiln.Variant{}, true, "invalid_texture_format"},
		{"textureAtlasSize=100", kiln.Variant{}, true, "invalid_texture_atlas_size"},
		{"textureAtlasSize=4096", kiln.Variant{}, true, "invalid_texture_atlas_size"},
		{"textureAtlasSize=x", kiln.Variant{}, true, "invalid_texture_atlas_size"},
		{"textureAtlasSize=-0", kiln.Variant{}, true, "invalid_texture_atlas_size"},
		{"textureAtlasSize=+512", kiln.Variant{}, true, "invalid_texture_atlas_size"},
		{"mergeMesh=2", kiln.Variant{}, true, "invalid_merge_mesh"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			v, named, ok := parseVariant(t, tt.query, tt.code)
			if !ok {
				return
			}
			if named != tt.named || v.Key() != tt.want.Key() {
				t.Errorf("got %+v named %v, want %+v named %v", v, named, tt.want, tt.named)
			}
		})
	}
}

func TestVariantKey(t *testing.T) {
	tests := []struct {
		v    kiln.Variant
		want string
	}{
		{kiln.Variant{}, "lod0-keep-atlas0-merge0"},
		{kiln.Variant{LOD: 1, TextureFormat: "webp", AtlasSize: 1024, Merge: true}, "lod1-webp-atlas1024-merge1"},
		{kiln.Variant{TextureFormat: "png", Animations: []string{"b", "a"}}, "lod0-png-atlas0-merge0-" + kiln.AnimationsKey([]string{"a", "b"})},
		{kiln.Variant{TextureSizeSource: true, Meshopt: true}, "lod0-keep-atlas0-merge0-texsource-meshopt"},
	}
	for _, tt := range tests {
		if got := tt.v.Key(); got != tt.want {
			t.Errorf("%+v: key %q, want %q", tt.v, got, tt.want)
		}
	}
	// The clips are a set: their order does not make another variant.
	a := kiln.Variant{Animations: []string{"idle", "walk"}}
	b := kiln.Variant{Animations: []string{"walk", "idle"}}
	if a.Key() != b.Key() {
		t.Errorf("keys differ by clip order: %q, %q", a.Key(), b.Key())
	}
}
