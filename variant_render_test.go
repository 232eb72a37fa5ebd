package kiln_test

import (
	"net/url"
	"testing"

	"github.com/kilnhq/kiln"
)

// TestParseRender reads both dialects of the picture parameters into
// their keys: the spec's /preview rules and the leader's render API,
// which share keys when they ask for the same picture.
func TestParseRender(t *testing.T) {
	tests := []struct {
		leader bool // the render API's rules, else /preview's
		format string
		query  string
		key    string
		code   string
	}{
		{false, "png", "", "portrait-512-transparent", ""},
		{false, "png", "size=48&camera=full&background=010,2,3", "full-64-10,2,3", ""},
		{false, "png", "size=800", "", "invalid_size"},
		{false, "png", "camera=fullbody", "", "invalid_camera"},
		{false, "jpg", "expression=sad&pose=standing", "portrait-512-transparent-sad2-standing", ""},
		{true, "png", "", "portrait-800-transparent", ""},
		{true, "png", "size=1024&camera=fullbody&quality=50", "full-1024-transparent", ""},
		{true, "jpg", "size=300&quality=50&background=255,255,255", "portrait-300-255,255,255-q50", ""},
		{true, "png", "size=1&expression=rage&pose=thumbs-up&engineSdk=1", "portrait-1-transparent-rage2-thumbs-up", ""},
		{true, "png", "size=0", "", "invalid_size"},
		{true, "png", "size=1025", "", "invalid_size"},
		{true, "png", "camera=full", "", "invalid_camera"},
		{true, "jpg", "quality=0", "", "invalid_quality"},
		{true, "png", "quality=high", "", "invalid_quality"},
		{true, "png", "background=0,0", "", "invalid_background"},
		{true, "png", "expression=Happy", "", "invalid_expression"},
		{true, "png", "pose=T", "", "invalid_pose"},
		{true, "png", "blendShapes[jawOpen]=1.01", "", "invalid_blend_shapes"},
		{true, "png", "blendShapes[jawOpen]=NaN", "", "invalid_blend_shapes"},
		{true, "png", "blendShapes[][jawOpen]=1", "", "invalid_blend_shapes"},
		{true, "png", "blendShapes[a]b]=1", "", "invalid_blend_shapes"},
		{true, "png", "blendShapes[a][b][c]=1", "", "invalid_blend_shapes"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			q, err := url.ParseQuery(tt.query)
			if err != nil {
				t.Fatal(err)
			}
			var r kiln.Render
			if tt.leader {
				r, err = kiln.ParseRender(q, tt.format)
			} else {
				r, err = kiln.ParsePreview(q)
			}
			code := ""
			if err != nil {
				code, _ = kiln.CodeOf(err)
			}
			if code != tt.code {
				t.Fatalf("code %q (%v), want %q", code, err, tt.code)
			}
			if err != nil {
				if kiln.KindOf(err) != kiln.KindInvalid {
					t.Errorf("kind %v, want invalid", kiln.KindOf(err))
				}
				return
			}
			if r.Key() != tt.key {
				t.Errorf("key %q, want %q", r.Key(), tt.key)
			}
		})
	}
}

// TestBlendShapesKey checks that the blend shapes key the picture by
// what they ask, not by how: order and spelling of the weight do not
// matter, the mesh and the weight do.
func TestBlendShapesKey(t *testing.T) {
	key := func(query string) string {
		t.Helper()
		q, err := url.ParseQuery(query)
		if err != nil {
			t.Fatal(err)
		}
		r, err := kiln.ParseRender(q, "png")
		if err != nil {
			t.Fatal(err)
		}
		return r.Key()
	}
	a := key("blendShapes[jawOpen]=0.5&blendShapes[Wolf3D_Head][mouthSmile]=1")
	if b := key("blendShapes[Wolf3D_Head][mouthSmile]=1.0&blendShapes[jawOpen]=.5000"); a != b {
		t.Errorf("the same shapes keyed %q and %q", a, b)
	}
	for _, other := range []string{
		"blendShapes[jawOpen]=0.6&blendShapes[Wolf3D_Head][mouthSmile]=1",
		"blendShapes[jawOpen]=0.5&blendShapes[mouthSmile]=1",
		"blendShapes[jawOpen]=0.5",
		"",
	} {
		if key(other) == a {
			t.Errorf("%q keyed as %q", other, a)
		}
	}
	if len(a) > 64 {
		t.Errorf("key %q: longer than 64 bytes", a)
	}
}

// TestRenderValidate refuses payloads a handler could not have made,
// since the worker reads them from Redis.
func TestRenderValidate(t *testing.T) {
	bad := []kiln.Render{
		{Size: 0, Camera: "portrait"},
		{Size: 64, Camera: "fullbody"},
		{Size: 64, Camera: "full", Background: "010,2,3"},
		{Size: 64, Camera: "full", Quality: 101},
		{Size: 64, Camera: "full", Expression: "angry"},
		{Size: 64, Camera: "full", Pose: "A"},
		{Size: 64, Camera: "full", BlendShapes: []kiln.BlendShape{{Name: "b", Weight: 1}, {Name: "a", Weight: 1}}},
		{Size: 64, Camera: "full", BlendShapes: []kiln.BlendShape{{Name: "a", Weight: 2}}},
	}
	for _, r := range bad {
		if err := r.Validate(); kiln.KindOf(err) != kiln.KindInvalid {
			t.Errorf("%+v: %v, want invalid", r, err)
		}
	}
	if err := (kiln.Render{Size: 64, Camera: "full", BlendShapes: []kiln.BlendShape{{Name: "a", Weight: 1}, {Mesh: "m", Name: "a"}}}).Validate(); err != nil {
		t.Error(err)
	}
}
