package kiln

import (
	"net/url"
	"testing"
)

func TestParseVRMVariant(t *testing.T) {
	meta := VRMMeta{Name: "av_1", Author: "Op", LicenseURL: "https://creativecommons.org/publicdomain/zero/1.0/"}
	cases := []struct {
		q                        string
		version, shading, format string
		code                     string
	}{
		{q: "", version: "1.0", format: "compat"},
		{q: "vrm=0", version: "0.0", format: "compat"},
		{q: "vrm=1&shading=toon&textureFormat=webp", version: "1.0", shading: "toon", format: "webp"},
		{q: "shading=standard&lod=2&mergeMesh=1&useMeshOptCompression=true", version: "1.0", format: "compat"},
		{q: "vrm=2", code: "invalid_vrm"},
		{q: "vrm=1.0", code: "invalid_vrm"},
		{q: "shading=cel", code: "invalid_shading"},
		{q: "pose=T", code: "invalid_vrm_parameter"},
		{q: "morphTargets=ARKit", code: "invalid_vrm_parameter"},
		{q: "animations=all", code: "invalid_vrm_parameter"},
		{q: "useHands=false", code: "invalid_vrm_parameter"},
		{q: "useDracoMeshCompression=true", code: "invalid_vrm_parameter"},
		{q: "meshCompression=draco", code: "invalid_vrm_parameter"},
		{q: "lod=3", code: "invalid_lod"},
	}
	for _, tc := range cases {
		t.Run(tc.q, func(t *testing.T) {
			q, _ := url.ParseQuery(tc.q)
			v, err := ParseVRMVariant(q, meta)
			if tc.code != "" {
				if code, _ := CodeOf(err); code != tc.code || KindOf(err) != KindInvalid {
					t.Fatalf("got %v, want %s", err, tc.code)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if v.Format != "vrm" || v.VRMVersion != tc.version || v.Shading != tc.shading || v.TextureFormat != tc.format || v.MorphTargets != nil {
				t.Errorf("got %+v", v)
			}
		})
	}
}

func TestVRMKeys(t *testing.T) {
	meta := VRMMeta{Name: "av_1", Author: "Op", LicenseURL: "https://example.com/l"}
	keys := map[string]string{}
	for _, q := range []string{"", "vrm=0", "shading=toon", "vrm=0&shading=toon"} {
		values, _ := url.ParseQuery(q)
		v, err := ParseVRMVariant(values, meta)
		if err != nil {
			t.Fatal(err)
		}
		if other, dup := keys[v.Key()]; dup {
			t.Errorf("%q and %q share key %s", q, other, v.Key())
		}
		keys[v.Key()] = q
	}
	glb := Variant{TextureFormat: "compat"}
	if _, dup := keys[glb.Key()]; dup {
		t.Errorf("a GLB shares a VRM's key %s", glb.Key())
	}
	// Another licence is another file.
	v1, _ := ParseVRMVariant(url.Values{}, meta)
	meta.LicenseURL = "https://example.com/other"
	v2, _ := ParseVRMVariant(url.Values{}, meta)
	if v1.Key() == v2.Key() {
		t.Errorf("the licence does not key the file: %s", v1.Key())
	}
	// A payload from Redis with VRM fields on a GLB is refused.
	if err := (Variant{TextureFormat: "webp", Shading: "toon"}).Validate(); err == nil {
		t.Error("a GLB with shading passed Validate")
	}
}
