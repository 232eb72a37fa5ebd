package paint

import (
	"math"
	"testing"
)

// TestBeardGrain paints a beard over a sphere (the whole of it beard:
// mask 1) and reads the base colour's luma inside it, over the front
// of the sphere between 40° and 60° from its top, at texel pairs 0.9 mm
// apart down the sphere (along the hairs, which grow down when no lips
// are known) and across it. The hairs are strokes (beardHairs), so
// the luma changes less along them than across them: a grain. Painted
// as value noise stretched down the face the beard was a blur to a
// portrait, "a flat blocky mass" (p32's judges): its steps were 0.0033
// along and 0.0041 across (0.81); drawn as hairs, 0.0073 and 0.0160
// (0.46); with the shade between hairs half as deep and the hairs'
// tones spread wider (no pits), 0.0054 and 0.0120 (0.45).
func TestBeardGrain(t *testing.T) {
	const seg, n, r = 64, 1024, 0.1
	s := sphere([3]float32{0, 1.6, 0}, r, seg)
	s.Mask = make([]float32, len(s.Pos))
	for i := range s.Mask {
		s.Mask[i] = 1
	}
	m := Beard(s, RGB{0.2, 0.1, 0.05}, 3, n)
	luma := func(x, y int) float64 {
		o := m.Base.PixOffset(x, y)
		px := m.Base.Pix[o : o+4]
		return rgb{srgbToLinear(px[0]), srgbToLinear(px[1]), srgbToLinear(px[2])}.luma()
	}
	const gap = 0.0009
	dy := int(math.Round(gap / (math.Pi * r / n)))
	var along, across, count float64
	for y := n * 40 / 180; y < n*60/180; y++ {
		lat := math.Pi * (float64(y) + 0.5) / n
		dx := int(math.Round(gap / (2 * math.Pi * r * math.Sin(lat) / n)))
		for x := n / 3; x < n*2/3; x++ {
			l := luma(x, y)
			along += math.Abs(luma(x, y+dy) - l)
			across += math.Abs(luma(x+dx, y) - l)
			count++
		}
	}
	along, across = along/count, across/count
	t.Logf("mean luma step over 0.9 mm: along the hairs %.4f, across %.4f (ratio %.2f)", along, across, along/across)
	if along > 0.75*across {
		t.Errorf("the luma steps %.4f along the hairs and %.4f across them: no grain (want along under 0.75 of across)", along, across)
	}
}
