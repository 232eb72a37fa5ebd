package scene

import (
	"math"
	"slices"
	"testing"
)

// TestBoundsAsMath checks bounds (the accessors' min and max) against
// math.Min and math.Max, whose results it must keep to the bit: a -0
// where there was a 0 changes the JSON ("-0"), and so the file.
func TestBoundsAsMath(t *testing.T) {
	negZero := float32(math.Copysign(0, -1))
	ref := func(v []float32, comps int) (lo, hi []float64) {
		lo, hi = make([]float64, comps), make([]float64, comps)
		for c := range comps {
			lo[c], hi[c] = math.Inf(1), math.Inf(-1)
		}
		for i, x := range v {
			c := i % comps
			lo[c] = math.Min(lo[c], float64(x))
			hi[c] = math.Max(hi[c], float64(x))
		}
		return lo, hi
	}
	bits := func(v []float64) []uint64 {
		out := make([]uint64, len(v))
		for i, x := range v {
			out[i] = math.Float64bits(x)
			if math.IsNaN(x) {
				out[i] = 1 // NaN is NaN, whatever its payload
			}
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		v     []float32
		comps int
	}{
		{"zeros both signs", []float32{0, negZero, 0, negZero, 0, negZero}, 3},
		{"negative zero first", []float32{negZero, 0, negZero, 0}, 2},
		{"mixed", []float32{1, -2, 3, 0.5, negZero, -7, 0, 4, 2}, 3},
		{"NaN", []float32{1, float32(math.NaN()), 3, 2, 2, 2}, 3},
		{"infinities", []float32{float32(math.Inf(1)), float32(math.Inf(-1)), 1, 2}, 2},
		{"partial last group", []float32{1, 2, 3, 4, 5}, 3},
		{"empty", nil, 3},
	} {
		lo, hi := bounds(tc.v, tc.comps)
		wlo, whi := ref(tc.v, tc.comps)
		if !slices.Equal(bits(lo), bits(wlo)) || !slices.Equal(bits(hi), bits(whi)) {
			t.Errorf("%s: bounds %v %v, math.Min/Max %v %v", tc.name, lo, hi, wlo, whi)
		}
	}
}
