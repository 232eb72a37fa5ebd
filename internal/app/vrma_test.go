package app

import (
	"encoding/json"
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/internal/gltfcheck"
)

// TestAnimationsVRMA downloads a built-in clip as VRM Animation: a valid
// GLB with VRMC_vrm_animation and its humanoid map, the HEAD's headers,
// and the 400s of a bad gender or name.
func TestAnimationsVRMA(t *testing.T) {
	r := start(t)
	url := r.AvatarURL + "/animations/feminine/gesture_wave.vrma"
	res := do(t, "GET", url, "", nil, nil)
	if res.Status != 200 || res.Header.Get("Content-Type") != "model/gltf-binary" || res.Header.Get("ETag") == "" {
		t.Fatalf("GET .vrma: %d %v %.200s", res.Status, res.Header, res.Body)
	}
	if cd := res.Header.Get("Content-Disposition"); cd != `inline; filename="feminine-gesture_wave.vrma"` {
		t.Errorf("Content-Disposition %q", cd)
	}
	gltfcheck.RequireValid(t, res.Body)
	s, err := scene.Read(res.Body, scene.ReadOptions{})
	if err != nil || len(s.Animations) != 1 {
		t.Fatalf("%v, %d animations", err, len(s.Animations))
	}
	var ext struct {
		SpecVersion string `json:"specVersion"`
		Humanoid    struct {
			HumanBones map[string]struct {
				Node *int `json:"node"`
			} `json:"humanBones"`
		} `json:"humanoid"`
	}
	raw, _ := s.Extensions["VRMC_vrm_animation"].(json.RawMessage)
	if err := json.Unmarshal(raw, &ext); err != nil || ext.SpecVersion != "1.0" || ext.Humanoid.HumanBones["hips"].Node == nil {
		t.Errorf("VRMC_vrm_animation %s: %v", raw, err)
	}
	head := do(t, "HEAD", url, "", nil, nil)
	if head.Status != 200 || head.Header.Get("Content-Length") != res.Header.Get("Content-Length") || len(head.Body) != 0 {
		t.Errorf("HEAD: %d %v", head.Status, head.Header)
	}
	for _, tc := range []struct {
		path   string
		status int
		code   string
	}{
		{"/animations/robot/locomotion_walk.vrma", 400, "invalid_gender"},
		{"/animations/masculine/moonwalk.vrma", 400, "invalid_animation"},
	} {
		res := do(t, "GET", r.AvatarURL+tc.path, "", nil, nil)
		if res.Status != tc.status || res.errorCode(t) != tc.code {
			t.Errorf("%s: %d %s, want %d %s", tc.path, res.Status, res.Body, tc.status, tc.code)
		}
	}
}
