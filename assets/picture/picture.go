// Package picture draws an avatar as the render API asks: the face
// shapes of an expression and of the blend shapes asked, the joints of a
// pose, then the CPU renderer's picture, encoded. It is the pipeline of
// GET /{id}.png|jpg and /preview/{id}.*, as assets.BuildVariant is that
// of a model download.
package picture

import (
	"bytes"
	"context"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/avatar/face"
	"github.com/kilnhq/kiln/assets/morph"
	"github.com/kilnhq/kiln/assets/pose"
	"github.com/kilnhq/kiln/assets/render"
	"github.com/kilnhq/kiln/assets/scene"
)

// Draw renders an avatar's scene as r asks and encodes it as format
// (png, jpg or webp). It changes s: the expression's face shapes
// are weighed in, then the blend shapes asked (over the expression's),
// then the joints turned to the pose, and the renderer draws the morphed,
// skinned result as a viewer would show it.
func Draw(ctx context.Context, s *scene.Scene, r kiln.Render, format string) ([]byte, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	if r.Expression != "" {
		for name, w := range face.Expression(r.Expression) {
			morph.SetWeight(s, "", name, w)
		}
	}
	for _, b := range r.BlendShapes {
		morph.SetWeight(s, b.Mesh, b.Name, b.Weight)
	}
	if r.Pose != "" {
		if err := pose.Strike(s, r.Pose); err != nil {
			return nil, err
		}
	}
	m, err := render.Render(ctx, s, render.Options{Size: r.Size, Camera: r.Camera, Background: render.ForFormat(format, r.BackgroundColor())})
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := render.Encode(&buf, m, format, r.Quality); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
