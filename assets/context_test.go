package assets

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/internal/fixture"
)

// TestStoppedJobIsNotTheFilesFault reads every kind of upload, and builds
// a variant, with a context already cancelled: each ends with an error
// wrapping context.Canceled and not of kind Unprocessable, so the job is
// retried instead of the object failing as an invalid model.
func TestStoppedJobIsNotTheFilesFault(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	gj, bin := gltfSet(t)
	for _, tc := range []struct {
		name, ext string
		data      []byte
	}{
		{"glb", "glb", fixture.CubeGLB()},
		{"gltf set as zip", "gltf", zipOf(t, map[string][]byte{"scene/cube.gltf": gj, "scene/bin/cube.bin": bin})},
		{"obj with mtl as zip", "obj", zipOf(t, map[string][]byte{"cube.obj": []byte(objCube), "cube.mtl": []byte(mtlRed)})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The same upload reads with a live context.
			if _, err := ReadUploadContext(context.Background(), tc.data, tc.ext); err != nil {
				t.Fatal(err)
			}
			_, err := ReadUploadContext(ctx, tc.data, tc.ext)
			if !errors.Is(err, context.Canceled) || kiln.KindOf(err) == kiln.KindUnprocessable {
				t.Fatalf("cancelled: %v (kind %v), want context.Canceled, not unprocessable", err, kiln.KindOf(err))
			}
		})
	}
	// OBJ checks every few thousand lines: a cancelled read of a long file
	// stops in its first lines.
	long := "v 0 0 0\nv 1 0 0\nv 0 1 0\n" + strings.Repeat("f 1 2 3\n", 10000)
	if _, err := ReadUploadContext(ctx, []byte(long), "obj"); !errors.Is(err, context.Canceled) {
		t.Fatalf("long obj cancelled: %v", err)
	}

	s, err := Read(fixture.CubeGLB())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := BuildVariant(ctx, s, kiln.Variant{LOD: 1, TextureFormat: "png", Merge: true}); !errors.Is(err, context.Canceled) {
		t.Fatalf("variant cancelled: %v, want context.Canceled", err)
	}
}
