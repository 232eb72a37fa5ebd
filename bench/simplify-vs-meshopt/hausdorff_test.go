package main

import (
	"math"
	"testing"
)

// TestHausdorff checks the distance on shapes whose answer is known: a
// square against itself, against a copy lifted by 0.25, against half of
// itself (the far corner is 1/sqrt2 from the remaining triangle's
// hypotenuse), and a triangle against a far one.
func TestHausdorff(t *testing.T) {
	pos := []float32{
		0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, // square, z = 0
		0, 0, 0.25, 1, 0, 0.25, 1, 1, 0.25, 0, 1, 0.25, // lifted copy
		10, 0, 0, 11, 0, 0, 10, 1, 0, // far triangle
	}
	square := []uint32{0, 1, 2, 0, 2, 3}
	for _, c := range []struct {
		name string
		a, b []uint32
		want float64
	}{
		{"same", square, square, 0},
		{"lifted", square, []uint32{4, 5, 6, 4, 6, 7}, 0.25},
		{"half", square, []uint32{0, 1, 2}, math.Sqrt2 / 2},
		{"far", []uint32{0, 1, 3}, []uint32{8, 9, 10}, 10},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := hausdorff(pos, c.a, c.b, 0.01)
			if math.Abs(got-c.want) > 0.011 {
				t.Errorf("hausdorff = %v, want %v", got, c.want)
			}
		})
	}
}
