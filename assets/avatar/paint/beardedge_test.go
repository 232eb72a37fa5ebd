package paint

import (
	"math"
	"sort"
	"testing"
)

// TestBeardEdgeTakesRootsColour paints a beard over a sphere whose mask
// falls from 1 at v 0.3 to 0 at v 0.55 (as a beard's region falls at its
// edge) and reads the drawn texels (alpha 0.5 and over, what the inner
// shell shows) as fractions of the hair colour's luminance. Just inside
// the edge (mask 0.26-0.40) they must be the roots' flat colour on the
// skin beside them (rootShade over the shells' 0.9 vertex shade, within
// 0.05, spread p10-p90 under 0.08): lit and dark strand tips there drew
// the shells' outline as a hard line against the skin (edge contrast
// 41-46 luma per 2 px in random-11's portrait, the leader's 26). Deep
// inside (mask 0.8 and over) the strands keep their light and dark
// (spread over 0.1), or the beard is a flat patch.
func TestBeardEdgeTakesRootsColour(t *testing.T) {
	const seg, n, r = 64, 256, 0.1
	s := sphere([3]float32{0, 1.6, 0}, r, seg)
	s.Mask = make([]float32, len(s.Pos))
	for i, uv := range s.UV {
		s.Mask[i] = float32(clamp01((0.55 - float64(uv[1])) / 0.25))
	}
	lum := rgb.luma
	for _, hair := range []RGB{{0.2, 0.06, 0.03}, {0.03, 0.025, 0.02}, {0.45, 0.3, 0.15}} {
		m := Beard(s, hair, 3, n)
		l0 := lum(rgb(hair))
		var edge, inside []float64
		for y := 0; y < n; y++ {
			mask := clamp01((0.55 - (float64(y)+0.5)/n) / 0.25)
			for x := 0; x < n; x++ {
				o := m.Base.PixOffset(x, y)
				px := m.Base.Pix[o : o+4]
				if px[3] < 128 {
					continue
				}
				f := lum(rgb{srgbToLinear(px[0]), srgbToLinear(px[1]), srgbToLinear(px[2])}) / l0
				switch {
				case mask > 0.26 && mask < 0.4:
					edge = append(edge, f)
				case mask >= 0.8:
					inside = append(inside, f)
				}
			}
		}
		if len(edge) < 100 || len(inside) < 100 {
			t.Fatalf("hair %v: %d texels drawn at the edge, %d inside (want 100 each)", hair, len(edge), len(inside))
		}
		spread := func(v []float64) (mean, s float64) {
			sort.Float64s(v)
			for _, f := range v {
				mean += f / float64(len(v))
			}
			return mean, v[len(v)*9/10] - v[len(v)/10]
		}
		em, es := spread(edge)
		_, is := spread(inside)
		want := rootShade / 0.9
		t.Logf("hair %v: edge %.3f of the colour (roots %.3f), spread %.3f; inside spread %.3f", hair, em, want, es, is)
		if math.Abs(em-want) > 0.05 || es > 0.08 {
			t.Errorf("hair %v: the edge's strands are %.3f of the colour, spread %.3f (want %.3f within 0.05, spread under 0.08)", hair, em, es, want)
		}
		if is < 0.1 {
			t.Errorf("hair %v: inside the strands spread %.3f (min 0.1): a flat patch", hair, is)
		}
	}
}
