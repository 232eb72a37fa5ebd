package pose

import "math"

// vec3 is a point or direction in float64, the precision of xform.
type vec3 [3]float64

func (a vec3) sub(b vec3) vec3 { return vec3{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
func (a vec3) dot(b vec3) float64 {
	return a[0]*b[0] + a[1]*b[1] + a[2]*b[2]
}
func (a vec3) cross(b vec3) vec3 {
	return vec3{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}
func (a vec3) length() float64 { return math.Sqrt(a.dot(a)) }
func (a vec3) scale(f float64) vec3 {
	return vec3{a[0] * f, a[1] * f, a[2] * f}
}

// unit is a scaled to length 1, or false when it has no direction.
func (a vec3) unit() (vec3, bool) {
	l := a.length()
	if l < 1e-12 || math.IsNaN(l) {
		return a, false
	}
	return a.scale(1 / l), true
}

func f32(v vec3) [3]float32 { return [3]float32{float32(v[0]), float32(v[1]), float32(v[2])} }
func f64(v [3]float32) vec3 { return vec3{float64(v[0]), float64(v[1]), float64(v[2])} }

func (a vec3) add(b vec3) vec3 { return vec3{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }
