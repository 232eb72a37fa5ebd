package avatar

import (
	"math"
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
)

// throatShade is the skin's base colour on the throat just under the
// chin (0.5 to 3 cm under its lowest point, within 2 cm of the middle,
// facing the viewer) over the cheeks' (0.3 to 0.8 eye-distances off the
// middle, 0.35 to 0.6 under the eyes), as mean luma of the texels the
// vertices there sample: how much darker the face's lower edge is baked
// than the face, which a room light shows and its own lights do not.
func throatShade(t *testing.T, s *scene.Scene) float64 {
	t.Helper()
	el, er, ipd := sceneEyes(t, s)
	eyeY, eyeZ := (el[1]+er[1])/2, (el[2]+er[2])/2
	head := meshOf(t, s, "Wolf3D_Head")
	img := baseColorImage(t, s, "Wolf3D_Skin")
	menY := math.Inf(1)
	for _, q := range head.Positions {
		if float64(q[2]) > eyeZ {
			menY = math.Min(menY, float64(q[1]))
		}
	}
	var throat, cheek [2]float64
	for i, q := range head.Positions {
		x, y, nz := math.Abs(float64(q[0])), float64(q[1]), float64(head.Normals[i][2])
		if nz < 0.6 {
			continue
		}
		if x < 0.02 && y < menY-0.005 && y > menY-0.03 {
			throat[0] += texelLuma(img, head.TexCoords[0][i])
			throat[1]++
		}
		if x > 0.3*ipd && x < 0.8*ipd && y < eyeY-0.35*ipd && y > eyeY-0.6*ipd {
			cheek[0] += texelLuma(img, head.TexCoords[0][i])
			cheek[1]++
		}
	}
	if throat[1] == 0 || cheek[1] == 0 {
		t.Fatalf("no throat (%v) or cheek (%v) vertices", throat[1], cheek[1])
	}
	return (throat[0] / throat[1]) / (cheek[0] / cheek[1])
}

// TestJawShade asks the default faces' throats, just under the chin, to
// be baked darker than their cheeks, as the leader's are (throatShade:
// its casual and office avatars 0.74 and 0.78): without the jaw's shade
// ours were 1.01 (masculine and feminine), the neck as light as the face,
// whose lower edge did not show in a room light.
func TestJawShade(t *testing.T) {
	for _, n := range []string{"rpm-avatar-casual.glb", "rpm-avatar-office.glb"} {
		if l, ok := optionalLeaderScene(t, n); ok {
			t.Logf("%s: throat/cheek %.3f", n, throatShade(t, l))
		}
	}
	for _, g := range []string{Masculine, Feminine} {
		s, err := Generate(Default(g))
		if err != nil {
			t.Fatal(err)
		}
		r := throatShade(t, s)
		t.Logf("%s: throat/cheek %.3f", g, r)
		if r > 0.95 {
			t.Errorf("%s: throat %.3f of the cheeks' luma, want 0.95 or less (the leader's 0.74-0.78)", g, r)
		}
	}
}
