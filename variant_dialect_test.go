package kiln_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/kilnhq/kiln"
)

// TestParseDialect maps each name of the leader's later dialect (and the
// Unity SDK's meshLod and textureAtlas) onto the older parameter it
// stands for: the same key as the older spelling, the older one winning
// when both are given, and a 400 naming the parameter for a bad value.
func TestParseDialect(t *testing.T) {
	for _, tc := range []struct{ query, same, code string }{
		{"meshLOD=1", "lod=1", ""},
		{"meshLod=2", "lod=2", ""},
		{"meshLOD=2&lod=0", "lod=0", ""},
		{"meshLOD=1&meshLod=2", "lod=1", ""},
		{"quality=low&meshLOD=0", "quality=low&lod=0", ""},
		{"textureAtlas=none", "textureFormat=webp", ""},
		{"textureAtlas=256", "textureAtlasSize=256", ""},
		{"textureAtlas=1024&mergeMesh=1", "textureAtlasSize=1024&mergeMesh=1", ""},
		{"textureAtlas=1024&textureAtlasSize=512", "textureAtlasSize=512", ""},
		{"textureFormat=jpeg", "textureFormat=compat", ""},
		{"textureQuality=low", "textureSizeLimit=256", ""},
		{"textureQuality=medium", "textureSizeLimit=512", ""},
		{"textureQuality=high&textureSizeLimit=300", "textureSizeLimit=300", ""},
		{"meshCompression=meshopt", "useMeshOptCompression=true", ""},
		{"meshCompression=true", "useMeshOptCompression=true", ""},
		{"meshCompression=none", "textureFormat=webp", ""},
		{"meshCompression=draco", "useDracoMeshCompression=true", ""},
		{"dracoCompression=true", "useDracoMeshCompression=true", ""},
		{"dracoCompression=1", "useDracoMeshCompression=true", ""},
		{"dracoCompression=false", "textureFormat=webp", ""},
		{"dracoCompression=yes", "", "invalid_draco_compression"},
		{"dracoCompression=true&meshCompression=true", "", "conflicting_mesh_compression"},
		{"useQuantizeMeshOptCompression=true", "useMeshOptCompression=true", ""},
		{"useQuantizeMeshOptCompression=false", "textureFormat=webp", ""},
		{"meshLOD=3", "", "invalid_lod"},
		{"meshLod=high", "", "invalid_lod"},
		{"textureAtlas=2048", "", "invalid_texture_atlas"},
		{"textureQuality=ultra", "", "invalid_texture_quality"},
		{"meshCompression=zstd", "", "invalid_mesh_compression"},
		{"useQuantizeMeshOptCompression=yes", "", "invalid_use_quantize_mesh_opt_compression"},
		{"meshCompression=draco&useMeshOptCompression=true", "", "conflicting_mesh_compression"},
	} {
		t.Run(tc.query, func(t *testing.T) {
			v, named, ok := parseVariant(t, tc.query, tc.code)
			if !ok {
				if !strings.Contains(tc.code, "lod") && !strings.Contains(tc.code, "conflicting") {
					_, _, err := kiln.ParseVariant(mustQuery(t, tc.query))
					if name, _, _ := strings.Cut(tc.query, "="); !strings.Contains(err.Error(), name) {
						t.Errorf("the error does not name %s: %v", name, err)
					}
				}
				return
			}
			want, _, ok := parseVariant(t, tc.same, "")
			if ok && v.Key() != want.Key() {
				t.Errorf("key %q, want %q (as %s)", v.Key(), want.Key(), tc.same)
			}
			if !named && !strings.HasPrefix(tc.query, "meshL") {
				t.Errorf("%s does not name a variant", tc.query)
			}
		})
	}
}

// TestParseAvatarVariant reads the avatar parameters beyond the shared
// ones: the clips against a library, the morph targets with the leader's
// groups (Eyes Extra among them) and the later dialect's
// morphTargetsGroup, and the 400s naming what is unknown.
func TestParseAvatarVariant(t *testing.T) {
	clips := []string{"gesture_nod", "gesture_wave", "locomotion_walk"}
	arkit := 52
	for _, tc := range []struct {
		query         string
		clips, morphs int
		has           []string
		code, names   string
	}{
		{"", 0, 2, []string{"mouthOpen", "mouthSmile"}, "", ""},
		{"morphTargets=none", 0, 0, nil, "", ""},
		{"animations=gesture&morphTargets=Eyes%20Extra", 2, 3, []string{"eyesClosed", "eyesLookUp", "eyesLookDown"}, "", ""},
		{"animations=all,gesture_nod", 3, 2, nil, "", ""},
		{"morphTargets=ARKit,Oculus%20Visemes,mouthOpen,mouthSmile,eyesClosed,eyesLookUp,eyesLookDown", 0, arkit + 15 + 2 + 3, []string{"viseme_PP", "eyesLookDown", "jawOpen"}, "", ""},
		{"morphTargetsGroup=ARKit,Oculus%20Visemes&morphTargets=mouthSmile,mouthOpen,eyesClosed,eyesLookUp,eyesLookDown", 0, arkit + 15 + 2 + 3, []string{"eyesClosed"}, "", ""},
		{"morphTargetsGroup=Oculus%20Visemes", 0, 15, []string{"viseme_sil"}, "", ""},
		{"morphTargetsGroup=none&morphTargets=none", 0, 0, nil, "", ""},
		{"animations=dance,gesture_wave,fly", 0, 0, nil, "invalid_animations", `"dance", "fly"`},
		{"morphTargets=ARKit,eyesShut", 0, 0, nil, "invalid_morph_targets", `"eyesShut"`},
		{"morphTargetsGroup=Basic%20expressions", 0, 0, nil, "invalid_morph_targets", `morphTargetsGroup: unknown morph target "Basic expressions"`},
		{"lod=7&morphTargets=ARKit", 0, 0, nil, "invalid_lod", "lod"},
	} {
		t.Run(tc.query, func(t *testing.T) {
			v, err := kiln.ParseAvatarVariant(mustQuery(t, tc.query), clips)
			code := ""
			if err != nil {
				code, _ = kiln.CodeOf(err)
			}
			if code != tc.code {
				t.Fatalf("code %q (%v), want %q", code, err, tc.code)
			}
			if tc.code != "" {
				if kiln.KindOf(err) != kiln.KindInvalid || !strings.Contains(err.Error(), tc.names) {
					t.Errorf("%v: want an invalid error naming %s", err, tc.names)
				}
				return
			}
			if len(v.Animations) != tc.clips || len(v.MorphTargets) != tc.morphs || !slices.IsSorted(v.MorphTargets) || v.MorphTargets == nil {
				t.Errorf("%d clips %v, %d morph targets %v", len(v.Animations), v.Animations, len(v.MorphTargets), v.MorphTargets)
			}
			for _, n := range tc.has {
				if !slices.Contains(v.MorphTargets, n) {
					t.Errorf("no %s in %v", n, v.MorphTargets)
				}
			}
		})
	}
}
