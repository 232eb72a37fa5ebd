package obj

import (
	"image/color"
	"testing"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/scene/scenetest"
)

// FuzzRead checks that no OBJ makes Read panic or fail with anything but
// an invalid_model error, and that what it accepts can be written.
func FuzzRead(f *testing.F) {
	f.Add([]byte(cubeOBJ), []byte(cubeMTL))
	f.Add([]byte("v 0 0 0 1 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvn 0 0 1\nf 1/1/1 2//1 -1/1\n"), []byte(""))
	png := scenetest.PNG(2, 2, color.NRGBA{0, 0, 0, 255}, color.NRGBA{255, 255, 255, 255})
	f.Fuzz(func(t *testing.T, obj, mtl []byte) {
		files := fileSet(map[string][]byte{"cube.mtl": mtl, "checker.png": png, "normal.png": png})
		s, err := Read(obj, files)
		if err != nil {
			if kiln.KindOf(err) != kiln.KindUnprocessable {
				t.Fatalf("error of kind %v: %v", kiln.KindOf(err), err)
			}
			return
		}
		if _, err := scene.Write(s); err != nil {
			t.Fatalf("Read accepted what scene.Write refuses: %v", err)
		}
	})
}
