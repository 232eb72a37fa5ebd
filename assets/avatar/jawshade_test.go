package avatar

import (
	"math"
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
)

// throatShade is the skin's base colour on the throat just under the
// chin over the cheeks' (jawRegions), as mean luma of the texels the
// vertices there sample: how much darker the face's lower edge is baked
// than the face, which a room light shows and its own lights do not.
func throatShade(t *testing.T, s *scene.Scene) float64 {
	t.Helper()
	img := baseColorImage(t, s, "Wolf3D_Skin")
	r := jawRegions(t, s)
	mean := func(uvs [][2]float32) float64 {
		var m float64
		for _, uv := range uvs {
			m += texelLuma(img, uv)
		}
		return m / float64(len(uvs))
	}
	return mean(r.throat) / mean(r.cheek)
}

// jawTexels are the texture coordinates of the head's vertices facing
// the viewer (normal z 0.6 and over) in four regions of the face: the
// throat just under the chin (0.5 to 3 cm under its lowest point, within
// 2 cm of the middle), the chin's front (0.8 to 2.5 cm over its lowest
// point, within 1.5 cm of the middle), the lower face beside it (2.5 to
// 4.5 cm off the middle, 0.8 to 3.5 cm over the chin's lowest point)
// and the cheeks (0.3 to 0.8 eye-distances off the middle, 0.35 to 0.6
// under the eyes).
type jawTexels struct{ throat, chin, beside, cheek [][2]float32 }

// jawRegions finds jawTexels on the scene s.
func jawRegions(t *testing.T, s *scene.Scene) jawTexels {
	t.Helper()
	el, er, ipd := sceneEyes(t, s)
	eyeY, eyeZ := (el[1]+er[1])/2, (el[2]+er[2])/2
	head := meshOf(t, s, "Wolf3D_Head")
	menY := math.Inf(1)
	for _, q := range head.Positions {
		if float64(q[2]) > eyeZ {
			menY = math.Min(menY, float64(q[1]))
		}
	}
	var r jawTexels
	for i, q := range head.Positions {
		x, y, nz := math.Abs(float64(q[0])), float64(q[1]), float64(head.Normals[i][2])
		if nz < 0.6 {
			continue
		}
		uv := head.TexCoords[0][i]
		if x < 0.02 && y < menY-0.005 && y > menY-0.03 {
			r.throat = append(r.throat, uv)
		}
		if x < 0.015 && y > menY+0.008 && y < menY+0.025 {
			r.chin = append(r.chin, uv)
		}
		if x > 0.025 && x < 0.045 && y > menY+0.008 && y < menY+0.035 {
			r.beside = append(r.beside, uv)
		}
		if x > 0.3*ipd && x < 0.8*ipd && y < eyeY-0.35*ipd && y > eyeY-0.6*ipd {
			r.cheek = append(r.cheek, uv)
		}
	}
	if len(r.throat) == 0 || len(r.chin) == 0 || len(r.cheek) == 0 {
		t.Fatalf("no throat (%d), chin (%d) or cheek (%d) vertices", len(r.throat), len(r.chin), len(r.cheek))
	}
	return r
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
