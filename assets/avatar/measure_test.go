package avatar

import (
	"bytes"
	"fmt"
	"image"
	_ "image/jpeg" // the leader's textures
	_ "image/png"
	"math"
	"os"
	"testing"

	"github.com/kilnhq/kiln/assets/avatar/human"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/qmuntal/gltf"
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
	return materialImage(t, s, material, "base colour", func(m *gltf.Material) (int, bool) {
		if m.PBRMetallicRoughness == nil || m.PBRMetallicRoughness.BaseColorTexture == nil {
			return 0, false
		}
		return m.PBRMetallicRoughness.BaseColorTexture.Index, true
	})
}

// normalImage decodes the normal texture of the scene's material named
// material, failing the test when there is none.
func normalImage(t *testing.T, s *scene.Scene, material string) image.Image {
	t.Helper()
	return materialImage(t, s, material, "normal", func(m *gltf.Material) (int, bool) {
		if m.NormalTexture == nil || m.NormalTexture.Index == nil {
			return 0, false
		}
		return *m.NormalTexture.Index, true
	})
}

// materialImage decodes the texture that texture finds on the scene's
// material named material (what names the kind in the failure).
func materialImage(t *testing.T, s *scene.Scene, material, what string, texture func(*gltf.Material) (int, bool)) image.Image {
	t.Helper()
	for _, m := range s.Materials {
		i, ok := texture(m)
		if m.Name != material || !ok {
			continue
		}
		img, _, err := image.Decode(bytes.NewReader(s.Images[*s.Textures[i].Source].Data))
		if err != nil {
			t.Fatal(err)
		}
		return img
	}
	t.Fatalf("no %s material with a %s texture", material, what)
	return nil
}

// sceneEyes is the mean position of each eyeball's vertices (left,
// right) and the distance between them across: the face measures read
// their boxes in eye-distances from these, as faceprops does, so a face
// of any size is measured alike.
func sceneEyes(t *testing.T, s *scene.Scene) (left, right [3]float64, ipd float64) {
	t.Helper()
	mean := func(p *scene.Primitive) (m [3]float64) {
		for _, q := range p.Positions {
			for a := range 3 {
				m[a] += float64(q[a]) / float64(len(p.Positions))
			}
		}
		return m
	}
	left, right = mean(meshOf(t, s, "EyeLeft")), mean(meshOf(t, s, "EyeRight"))
	return left, right, math.Abs(left[0] - right[0])
}

// texelLuma is the relative luminance (0..1, of the sRGB-coded values as
// stored) of the texel uv falls in: the baked-shade measures compare the
// picture a viewer samples, texel by texel, without filtering.
func texelLuma(img image.Image, uv [2]float32) float64 {
	b := img.Bounds()
	r, g, bl, _ := img.At(b.Min.X+int(float64(uv[0])*float64(b.Dx())), b.Min.Y+int(float64(uv[1])*float64(b.Dy()))).RGBA()
	return (0.2126*float64(r) + 0.7152*float64(g) + 0.0722*float64(bl)) / 65535
}

// namedConfig is a configuration a table test builds, by the name its
// subtest and log lines show.
type namedConfig struct {
	name string
	cfg  Config
}

// panelFaces is the blind panel's twenty avatars as configs -n 18 -seed
// 1 draws them (default-male, default-female, random-01..18): the face
// measures that were written against the panel's pictures check every
// face the judges saw.
func panelFaces() []namedConfig {
	faces := []namedConfig{{"default-male", Default(Masculine)}, {"default-female", Default(Feminine)}}
	for i := range 18 {
		faces = append(faces, namedConfig{fmt.Sprintf("random-%02d", i+1), Random(int64(i + 1))})
	}
	return faces
}

// envGLB reads the GLB named by the environment variable env, for the
// tests that log a measure on a build from before; it skips when env is
// unset.
func envGLB(t *testing.T, env string) (*scene.Scene, string) {
	t.Helper()
	path := os.Getenv(env)
	if path == "" {
		t.Skip(env + " not set")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := scene.Read(data, scene.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return s, path
}
