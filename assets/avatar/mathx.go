package avatar

import "math"

// vec3 is a point or direction in float64, which the generator uses
// throughout and rounds to float32 only when it writes glTF streams.
type vec3 [3]float64

func (a vec3) add(b vec3) vec3      { return vec3{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }
func (a vec3) sub(b vec3) vec3      { return vec3{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
func (a vec3) scale(s float64) vec3 { return vec3{a[0] * s, a[1] * s, a[2] * s} }
func (a vec3) dot(b vec3) float64   { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
func (a vec3) len() float64         { return math.Sqrt(a.dot(a)) }
func (a vec3) cross(b vec3) vec3 {
	return vec3{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}
func (a vec3) norm() vec3 {
	l := a.len()
	if l == 0 {
		return a
	}
	return a.scale(1 / l)
}
func (a vec3) f32() [3]float32 { return [3]float32{float32(a[0]), float32(a[1]), float32(a[2])} }

// mat3 is a rotation given by its columns: the images of +X, +Y and +Z.
type mat3 [3]vec3

// inverseApply is the transpose (the inverse of a rotation) applied to v.
func (m mat3) inverseApply(v vec3) vec3 { return vec3{m[0].dot(v), m[1].dot(v), m[2].dot(v)} }

// transposeMul is mᵀ·n, the rotation n relative to m.
func (m mat3) transposeMul(n mat3) mat3 {
	return mat3{m.inverseApply(n[0]), m.inverseApply(n[1]), m.inverseApply(n[2])}
}

// quat converts a rotation matrix to a unit quaternion (x, y, z, w) with
// w ≥ 0, by Shepperd's method (the branch on the largest diagonal term
// keeps it accurate near 180°).
func (m mat3) quat() [4]float64 {
	// Element (row r, column c) is m[c][r].
	m00, m11, m22 := m[0][0], m[1][1], m[2][2]
	var q [4]float64
	switch tr := m00 + m11 + m22; {
	case tr > 0:
		s := math.Sqrt(tr+1) * 2
		q = [4]float64{(m[1][2] - m[2][1]) / s, (m[2][0] - m[0][2]) / s, (m[0][1] - m[1][0]) / s, s / 4}
	case m00 > m11 && m00 > m22:
		s := math.Sqrt(1+m00-m11-m22) * 2
		q = [4]float64{s / 4, (m[1][0] + m[0][1]) / s, (m[2][0] + m[0][2]) / s, (m[1][2] - m[2][1]) / s}
	case m11 > m22:
		s := math.Sqrt(1+m11-m00-m22) * 2
		q = [4]float64{(m[1][0] + m[0][1]) / s, s / 4, (m[2][1] + m[1][2]) / s, (m[2][0] - m[0][2]) / s}
	default:
		s := math.Sqrt(1+m22-m00-m11) * 2
		q = [4]float64{(m[2][0] + m[0][2]) / s, (m[2][1] + m[1][2]) / s, s / 4, (m[0][1] - m[1][0]) / s}
	}
	if q[3] < 0 {
		q = [4]float64{-q[0], -q[1], -q[2], -q[3]}
	}
	n := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
	return [4]float64{q[0] / n, q[1] / n, q[2] / n, q[3] / n}
}

// mat4 is a column-major 4×4 matrix, glTF's layout.
type mat4 [16]float64

func (a mat4) mul(b mat4) mat4 {
	var c mat4
	for col := range 4 {
		for row := range 4 {
			var s float64
			for k := range 4 {
				s += a[k*4+row] * b[col*4+k]
			}
			c[col*4+row] = s
		}
	}
	return c
}

// rot gives the rotation part of a rigid transform.
func (a mat4) rot() mat3 {
	return mat3{{a[0], a[1], a[2]}, {a[4], a[5], a[6]}, {a[8], a[9], a[10]}}
}

// rigidInverse inverts a rotation plus translation (no scale), which is
// all the rest pose contains.
func (a mat4) rigidInverse() mat4 {
	r := a.rot()
	t := r.inverseApply(vec3{a[12], a[13], a[14]}).scale(-1)
	return mat4{
		r[0][0], r[1][0], r[2][0], 0,
		r[0][1], r[1][1], r[2][1], 0,
		r[0][2], r[1][2], r[2][2], 0,
		t[0], t[1], t[2], 1,
	}
}

// trs is a local transform's matrix.
func trs(t Transform) mat4 {
	x, y, z, w := float64(t.Rotation[0]), float64(t.Rotation[1]), float64(t.Rotation[2]), float64(t.Rotation[3])
	sx, sy, sz := float64(t.Scale[0]), float64(t.Scale[1]), float64(t.Scale[2])
	return mat4{
		(1 - 2*(y*y+z*z)) * sx, 2 * (x*y + z*w) * sx, 2 * (x*z - y*w) * sx, 0,
		2 * (x*y - z*w) * sy, (1 - 2*(x*x+z*z)) * sy, 2 * (y*z + x*w) * sy, 0,
		2 * (x*z + y*w) * sz, 2 * (y*z - x*w) * sz, (1 - 2*(x*x+y*y)) * sz, 0,
		float64(t.Translation[0]), float64(t.Translation[1]), float64(t.Translation[2]), 1,
	}
}
