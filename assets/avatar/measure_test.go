package avatar

import (
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
