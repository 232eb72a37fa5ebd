package avatar

import (
	"bytes"
	"image"
	"math"
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
)

// throatRelief is the mean tilt of the head's normal map (the length of
// its x and y) on the throat: the head's triangles in front (|x| under
// 4 cm, facing forward) between 1 and 5 cm under the chin's lowest
// point, sampled at 15 points across each. What it tilts a room light
// shades: the rows of creases on default-male's throat in p12.
func throatRelief(t *testing.T, s *scene.Scene) float64 {
	t.Helper()
	head := meshOf(t, s, "Wolf3D_Head")
	var img image.Image
	for _, m := range s.Materials {
		if m.Name == "Wolf3D_Skin" && m.NormalTexture != nil && m.NormalTexture.Index != nil {
			src := s.Images[*s.Textures[*m.NormalTexture.Index].Source]
			var err error
			if img, _, err = image.Decode(bytes.NewReader(src.Data)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if img == nil {
		return 0 // no normal map: no relief
	}
	eyeZ := math.Inf(-1)
	for _, n := range []string{"EyeLeft", "EyeRight"} {
		for _, q := range meshOf(t, s, n).Positions {
			eyeZ = math.Max(eyeZ, float64(q[2]))
		}
	}
	chin := math.Inf(1)
	for _, q := range head.Positions {
		if float64(q[2]) > eyeZ-0.05 {
			chin = math.Min(chin, float64(q[1]))
		}
	}
	b := img.Bounds()
	var tilt, n float64
	for i := 0; i+2 < len(head.Indices); i += 3 {
		tri := [3]uint32{head.Indices[i], head.Indices[i+1], head.Indices[i+2]}
		in := true
		for _, v := range tri {
			q := head.Positions[v]
			y := float64(q[1])
			in = in && math.Abs(float64(q[0])) < 0.04 && y < chin-0.01 && y > chin-0.05 && head.Normals[v][2] > 0.3
		}
		if !in {
			continue
		}
		for a := 1; a < 6; a++ {
			for c := 1; a+c < 6; c++ {
				u, w := float64(a)/6, float64(c)/6
				var uv [2]float64
				for k := range 2 {
					p0, p1, p2 := float64(head.TexCoords[0][tri[0]][k]), float64(head.TexCoords[0][tri[1]][k]), float64(head.TexCoords[0][tri[2]][k])
					uv[k] = p0 + u*(p1-p0) + w*(p2-p0)
				}
				r, g, _, _ := img.At(b.Min.X+int(uv[0]*float64(b.Dx())), b.Min.Y+int(uv[1]*float64(b.Dy()))).RGBA()
				tilt += math.Hypot(float64(r)/32767.5-1, float64(g)/32767.5-1)
				n++
			}
		}
	}
	if n == 0 {
		t.Fatal("no throat triangles")
	}
	return tilt / n
}

// TestThroatSmooth asks the default faces' throats for a normal map as
// good as flat (throatRelief): the pores and fine lines, finer than two
// of the head map's texels, aliased there into rows of horizontal
// creases across the neck (p12's default-male): 0.040 (masculine) and
// 0.039 (feminine) before, 0.0055 and 0.0057 now (a flat normal's 128,
// 128 reads 0.0055). The leader's head has no normal map at all.
func TestThroatSmooth(t *testing.T) {
	for _, g := range []string{Masculine, Feminine} {
		s, err := Generate(Default(g))
		if err != nil {
			t.Fatal(err)
		}
		r := throatRelief(t, s)
		t.Logf("%s: throat's normal map tilt %.4f", g, r)
		if r > 0.015 {
			t.Errorf("%s: the throat's normal map tilts %.4f on average, want 0.015 or less (flat reads 0.0055)", g, r)
		}
	}
}
