package avatar

import (
	"math"
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
)

// lidOverBrow is the skin's baked base colour on the upper lid of the
// avatar's left eye over the forehead's, as mean luma of the texels the
// head's vertices there sample. The lid: within 0.12 eye-distances of
// the eye's middle across, 0.1 to 0.2 above it (the skin from the lash
// line to the crease), in front of the eyeball's middle; the forehead:
// within 0.3 across the face's middle, 0.7 to 0.9 above the eyes; both
// facing the viewer.
func lidOverBrow(t *testing.T, s *scene.Scene) float64 {
	t.Helper()
	cl, cr, ipd := sceneEyes(t, s)
	head := meshOf(t, s, "Wolf3D_Head")
	img := baseColorImage(t, s, "Wolf3D_Skin")
	var lid, brow [2]float64
	for i, q := range head.Positions {
		x, y, z := float64(q[0]), float64(q[1]), float64(q[2])
		if head.Normals[i][2] < 0.5 {
			continue
		}
		if up := (y - cl[1]) / ipd; math.Abs(x-cl[0]) < 0.12*ipd && up > 0.1 && up < 0.2 && z > cl[2] {
			lid[0] += texelLuma(img, head.TexCoords[0][i])
			lid[1]++
		}
		if up := (y - (cl[1]+cr[1])/2) / ipd; math.Abs(x-(cl[0]+cr[0])/2) < 0.3*ipd && up > 0.7 && up < 0.9 {
			brow[0] += texelLuma(img, head.TexCoords[0][i])
			brow[1]++
		}
	}
	if lid[1] == 0 || brow[1] == 0 {
		t.Fatalf("no lid (%v) or forehead (%v) vertices", lid[1], brow[1])
	}
	return (lid[0] / lid[1]) / (brow[0] / brow[1])
}

// TestUpperLidShaded asks the upper lids to be baked darker than the
// forehead, as the leader's are (lidOverBrow: its casual and office
// avatars 0.43 and 0.69), so the eye sits under a soft lid shadow:
// without shadeLids ours were 0.94 (default-male), 0.93
// (default-female) and 0.97 (random-7), a bright band between the brow
// and the lashes that read, in a room light, as an eye opened wide;
// with it 0.79 on all three.
func TestUpperLidShaded(t *testing.T) {
	for _, n := range []string{"rpm-avatar-casual.glb", "rpm-avatar-office.glb"} {
		if l, ok := optionalLeaderScene(t, n); ok {
			t.Logf("%s: lid/forehead %.3f", n, lidOverBrow(t, l))
		}
	}
	cases := []struct {
		name string
		cfg  Config
	}{{"default-male", Default(Masculine)}, {"default-female", Default(Feminine)}, {"random-7", Random(7)}}
	for _, c := range cases {
		s, err := Generate(c.cfg)
		if err != nil {
			t.Fatal(err)
		}
		r := lidOverBrow(t, s)
		t.Logf("%s: lid/forehead %.3f", c.name, r)
		if r > 0.9 {
			t.Errorf("%s: upper lid %.3f of the forehead's luma, want 0.9 at most", c.name, r)
		}
	}
}
