package api

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/kilnhq/kiln/assets"
)

// TestCreatorPart asks for a style's part as the creator page does when a
// style is picked: the answer is a GLB with that category's mesh only,
// skinned to the avatar's 67 joints, whose scene names the meshes it
// replaces; bad requests are 400s with a code.
func TestCreatorPart(t *testing.T) {
	if testing.Short() {
		t.Skip("builds avatar parts")
	}
	h := New(Config{Registry: prometheus.NewRegistry()}).Avatar()
	post := func(body string) *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("POST", "/creator/parts", strings.NewReader(body)))
		return w
	}
	for _, tc := range []struct{ name, body, code string }{
		{"not JSON", `{`, "invalid_json"},
		{"no part", `{"configuration":{}}`, "invalid_part"},
		{"unknown part", `{"configuration":{},"part":"cape"}`, "invalid_part"},
		{"bad configuration", `{"configuration":{"hair":{"style":"mohawk"}},"part":"hair"}`, "invalid_avatar_config"},
		{"unknown shoes to stand on", `{"configuration":{},"part":"footwear","standOn":"stilts"}`, "invalid_avatar_config"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := post(tc.body)
			var e struct {
				Error struct{ Code, Message string }
			}
			_ = json.Unmarshal(w.Body.Bytes(), &e)
			if w.Code != http.StatusBadRequest || e.Error.Code != tc.code || e.Error.Message == "" {
				t.Fatalf("%d %s, want 400 %s with a message", w.Code, w.Body.String(), tc.code)
			}
		})
	}

	for _, tc := range []struct {
		body     string
		meshes   string
		replaces string
	}{
		{`{"configuration":{"body":{"type":"feminine"},"hair":{"style":"bun","color":"#c03020"}},"part":"hair"}`, "Wolf3D_Hair", "Wolf3D_Hair"},
		{`{"configuration":{"headwear":{"style":"beanie"}},"part":"headwear"}`, "Wolf3D_Hair,Wolf3D_Headwear", "Wolf3D_Headwear,Wolf3D_Hair"},
		{`{"configuration":{"glasses":{"style":"none"}},"part":"glasses"}`, "", "Wolf3D_Glasses"},
	} {
		w := post(tc.body)
		if w.Code != http.StatusOK || w.Header().Get("Content-Type") != "model/gltf-binary" {
			t.Fatalf("%s: %d %s", tc.body, w.Code, w.Body.String())
		}
		doc, err := assets.Read(w.Body.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, m := range doc.Meshes {
			names = append(names, m.Name)
		}
		extras, _ := doc.Scenes[0].Extras.(map[string]any)
		var replaces []string
		for _, r := range extras["replaces"].([]any) {
			replaces = append(replaces, r.(string))
		}
		if strings.Join(names, ",") != tc.meshes || strings.Join(replaces, ",") != tc.replaces {
			t.Errorf("%s: meshes %v replacing %v, want %s replacing %s", tc.body, names, replaces, tc.meshes, tc.replaces)
		}
		if len(doc.Skins) != 1 || len(doc.Skins[0].Joints) != 67 {
			t.Errorf("%s: want one skin of 67 joints", tc.body)
		}
		t.Logf("%s: %d bytes", tc.body, w.Body.Len())
	}
}
