package face_test

import (
	"slices"
	"testing"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/avatar/face"
)

// An external test package: kiln (variant.go) imports face, so the test
// that checks face against kiln's list cannot live inside face.

// TestExpressions checks that every expression the render API names has
// a recipe of shapes the face has, with weights from 0 to 1.
func TestExpressions(t *testing.T) {
	for _, name := range kiln.Expressions {
		recipe := face.Expression(name)
		if len(recipe) == 0 {
			t.Errorf("%s: no recipe", name)
		}
		for shape, w := range recipe {
			if !slices.Contains(face.All(), shape) || w <= 0 || w > 1 {
				t.Errorf("%s: %s at %g", name, shape, w)
			}
		}
	}
	if face.Expression("angry") != nil {
		t.Error("an unknown expression has a recipe")
	}
}
