package merge

import "math"

func normalize(v [3]float32) [3]float32 {
	l := math.Sqrt(float64(v[0])*float64(v[0]) + float64(v[1])*float64(v[1]) + float64(v[2])*float64(v[2]))
	if l == 0 || math.IsNaN(l) {
		return [3]float32{0, 0, 1}
	}
	return [3]float32{float32(float64(v[0]) / l), float32(float64(v[1]) / l), float32(float64(v[2]) / l)}
}
