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

// mat4 is column-major, as glTF stores matrices.
type mat4 [16]float64

var identity = mat4{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}

func (a mat4) mul(b mat4) mat4 {
	var m mat4
	for c := 0; c < 4; c++ {
		for r := 0; r < 4; r++ {
			var s float64
			for k := 0; k < 4; k++ {
				s += a[k*4+r] * b[c*4+k]
			}
			m[c*4+r] = s
		}
	}
	return m
}

func (a mat4) point(p vec3) vec3 {
	return vec3{
		a[0]*p[0] + a[4]*p[1] + a[8]*p[2] + a[12],
		a[1]*p[0] + a[5]*p[1] + a[9]*p[2] + a[13],
		a[2]*p[0] + a[6]*p[1] + a[10]*p[2] + a[14],
	}
}

func (a mat4) dir(d vec3) vec3 {
	return vec3{
		a[0]*d[0] + a[4]*d[1] + a[8]*d[2],
		a[1]*d[0] + a[5]*d[1] + a[9]*d[2],
		a[2]*d[0] + a[6]*d[1] + a[10]*d[2],
	}
}

func (a mat4) add(b mat4, w float64) mat4 {
	for i := range a {
		a[i] += b[i] * w
	}
	return a
}

// normalMatrix is the inverse transpose of the upper 3×3, so that normals
// stay perpendicular to surfaces under non-uniform scale.
func (a mat4) normalMatrix() mat4 {
	m00, m01, m02 := a[0], a[4], a[8]
	m10, m11, m12 := a[1], a[5], a[9]
	m20, m21, m22 := a[2], a[6], a[10]
	c00 := m11*m22 - m12*m21
	c01 := m12*m20 - m10*m22
	c02 := m10*m21 - m11*m20
	det := m00*c00 + m01*c01 + m02*c02
	if det == 0 {
		return a
	}
	inv := 1 / det
	c10, c11, c12 := m02*m21-m01*m22, m00*m22-m02*m20, m01*m20-m00*m21
	c20, c21, c22 := m01*m12-m02*m11, m02*m10-m00*m12, m00*m11-m01*m10
	// The inverse transpose is the cofactor matrix over the determinant;
	// stored column-major, column j holds cofactors c0j, c1j, c2j.
	return mat4{
		c00 * inv, c10 * inv, c20 * inv, 0,
		c01 * inv, c11 * inv, c21 * inv, 0,
		c02 * inv, c12 * inv, c22 * inv, 0,
		0, 0, 0, 1,
	}
}

func trs(t [3]float64, q [4]float64, s [3]float64) mat4 {
	x, y, z, w := q[0], q[1], q[2], q[3]
	return mat4{
		(1 - 2*(y*y+z*z)) * s[0], (2 * (x*y + z*w)) * s[0], (2 * (x*z - y*w)) * s[0], 0,
		(2 * (x*y - z*w)) * s[1], (1 - 2*(x*x+z*z)) * s[1], (2 * (y*z + x*w)) * s[1], 0,
		(2 * (x*z + y*w)) * s[2], (2 * (y*z - x*w)) * s[2], (1 - 2*(x*x+y*y)) * s[2], 0,
		t[0], t[1], t[2], 1,
	}
}

func clamp(v, lo, hi float64) float64 {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}
