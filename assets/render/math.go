package render

import "math"

// vec3 and mat4 are the renderer's own small math: float64 throughout,
// because bounding boxes and camera fits of models in centimetres or
// kilometres lose precision in float32 long before the pixels do.
type vec3 [3]float64

func (a vec3) add(b vec3) vec3      { return vec3{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }
func (a vec3) sub(b vec3) vec3      { return vec3{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
func (a vec3) mul(s float64) vec3   { return vec3{a[0] * s, a[1] * s, a[2] * s} }
func (a vec3) dot(b vec3) float64   { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
func (a vec3) hadamard(b vec3) vec3 { return vec3{a[0] * b[0], a[1] * b[1], a[2] * b[2]} }
func (a vec3) cross(b vec3) vec3 {
	return vec3{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}
func (a vec3) length() float64 { return math.Sqrt(a.dot(a)) }
func (a vec3) norm() vec3 {
	l := a.length()
	if l == 0 || math.IsNaN(l) {
		return vec3{0, 0, 1}
	}
	return a.mul(1 / l)
}
func lerp3(a, b vec3, t float64) vec3 { return a.add(b.sub(a).mul(t)) }

func clamp(v, lo, hi float64) float64 {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}
