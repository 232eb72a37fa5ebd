package avatar

import (
	"bytes"
	"image"
	_ "image/jpeg" // the leader's textures
	_ "image/png"
	"testing"

	"github.com/kilnhq/kiln/assets/avatar/human"
	"github.com/kilnhq/kiln/assets/scene"
)

// generatedWithNeck is cfg's avatar and the neck joint of its standing
// body: the collar and hood tests cast their rays from the neck.
func generatedWithNeck(t *testing.T, cfg Config) (*scene.Scene, vec3) {
	t.Helper()
	s, err := Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	body, err := standingBody(cfg.resolve())
	if err != nil {
		t.Fatal(err)
	}
	return s, v3(body.Joints()["Neck"])
}

// restingHead is the standing body of cfg (as given: callers resolve it
// or not, as their measure needs) and its head with the lips closed, the
// face at rest that the lip, lid and beard measures read.
func restingHead(t *testing.T, cfg Config) (*human.Body, *part) {
	t.Helper()
	body, err := standingBody(cfg)
	if err != nil {
		t.Fatal(err)
	}
	head, _ := bodyParts(body, make([]bool, len(human.BodyMesh().Tris)))
	head.closeLips()
	return body, head
}

// baseColorImage decodes the base colour texture of the scene's material
// named material, failing the test when there is none: what a texture
// check looks at is the picture a viewer samples, not the painter's buffer.
func baseColorImage(t *testing.T, s *scene.Scene, material string) image.Image {
	t.Helper()
	for _, m := range s.Materials {
		if m.Name != material || m.PBRMetallicRoughness == nil || m.PBRMetallicRoughness.BaseColorTexture == nil {
			continue
		}
		src := s.Images[*s.Textures[m.PBRMetallicRoughness.BaseColorTexture.Index].Source]
		img, _, err := image.Decode(bytes.NewReader(src.Data))
		if err != nil {
			t.Fatal(err)
		}
		return img
	}
	t.Fatalf("no %s material with a base colour texture", material)
	return nil
}
