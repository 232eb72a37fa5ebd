package avatar

import (
	"math"
	"testing"
)

// TestBeardTone: a beard is painted darker and less saturated than the
// scalp hair of its colour name, as the leader's are: ginger a natural
// auburn, not orange; blonde sandy, not yellow. Saturation and value
// (HSV) of the sRGB colours; painted in the hair's own colour (before)
// the red beard had saturation 0.81 and value 0.64.
func TestBeardTone(t *testing.T) {
	hsv := func(c rgb) (s, v float64) {
		var b [3]float64
		for i, x := range c {
			b[i] = float64(linearByte(x)) / 255
		}
		hi := math.Max(b[0], math.Max(b[1], b[2]))
		lo := math.Min(b[0], math.Min(b[1], b[2]))
		if hi == 0 {
			return 0, 0
		}
		return (hi - lo) / hi, hi
	}
	for _, tc := range []struct {
		hair     string
		maxSat   float64
		maxValue float64
		darkerBy float64
	}{
		{"red", 0.65, 0.5, 0.1},
		{"auburn", 0.6, 0.4, 0.08},
		{"blonde", 0.4, 0.66, 0.1},
		{"black", 0.3, 0.1, 0},
		{"dark-brown", 0.55, 0.2, 0.02},
	} {
		hs, hv := hsv(colorOf(hairColors, tc.hair))
		s, v := hsv(beardTone(colorOf(hairColors, tc.hair)))
		t.Logf("%s: hair S %.2f V %.2f, beard S %.2f V %.2f", tc.hair, hs, hv, s, v)
		if s > tc.maxSat || v > tc.maxValue || hv-v < tc.darkerBy {
			t.Errorf("%s beard: saturation %.2f (max %.2f), value %.2f (max %.2f), %.2f darker than the hair (min %.2f)", tc.hair, s, tc.maxSat, v, tc.maxValue, hv-v, tc.darkerBy)
		}
	}
}

// linearByte encodes a linear channel as an sRGB byte.
func linearByte(x float64) uint8 {
	if x <= 0.0031308 {
		return uint8(math.Round(255 * 12.92 * x))
	}
	return uint8(math.Round(255 * (1.055*math.Pow(x, 1/2.4) - 0.055)))
}
