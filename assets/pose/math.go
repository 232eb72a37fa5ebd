package pose

import (
	"math"

	"github.com/qmuntal/gltf"
)

// mat4 is a column-major 4×4 matrix, glTF's layout: element (row r,
// column c) is m[c*4+r].
type mat4 [16]float64

var identity = mat4{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}

type vec3 [3]float64

func (a mat4) mul(b mat4) mat4 {
	var out mat4
	for c := 0; c < 4; c++ {
		for r := 0; r < 4; r++ {
			var v float64
			for k := 0; k < 4; k++ {
				v += a[k*4+r] * b[c*4+k]
			}
			out[c*4+r] = v
		}
	}
	return out
}

func (a mat4) add(b mat4, w float64) mat4 {
	for i := range a {
		a[i] += w * b[i]
	}
	return a
}

func (a mat4) point(p vec3) vec3 {
	return vec3{
		a[0]*p[0] + a[4]*p[1] + a[8]*p[2] + a[12],
		a[1]*p[0] + a[5]*p[1] + a[9]*p[2] + a[13],
		a[2]*p[0] + a[6]*p[1] + a[10]*p[2] + a[14],
	}
}

// vector applies the linear part only: displacements, normals, tangents.
func (a mat4) vector(p vec3) vec3 {
	return vec3{
		a[0]*p[0] + a[4]*p[1] + a[8]*p[2],
		a[1]*p[0] + a[5]*p[1] + a[9]*p[2],
		a[2]*p[0] + a[6]*p[1] + a[10]*p[2],
	}
}

func (a mat4) translation() vec3 { return vec3{a[12], a[13], a[14]} }

// inverse of a general 4×4 matrix by cofactors; false when singular.
func (a mat4) inverse() (mat4, bool) {
	m := a
	var inv mat4
	inv[0] = m[5]*m[10]*m[15] - m[5]*m[11]*m[14] - m[9]*m[6]*m[15] + m[9]*m[7]*m[14] + m[13]*m[6]*m[11] - m[13]*m[7]*m[10]
	inv[4] = -m[4]*m[10]*m[15] + m[4]*m[11]*m[14] + m[8]*m[6]*m[15] - m[8]*m[7]*m[14] - m[12]*m[6]*m[11] + m[12]*m[7]*m[10]
	inv[8] = m[4]*m[9]*m[15] - m[4]*m[11]*m[13] - m[8]*m[5]*m[15] + m[8]*m[7]*m[13] + m[12]*m[5]*m[11] - m[12]*m[7]*m[9]
	inv[12] = -m[4]*m[9]*m[14] + m[4]*m[10]*m[13] + m[8]*m[5]*m[14] - m[8]*m[6]*m[13] - m[12]*m[5]*m[10] + m[12]*m[6]*m[9]
	inv[1] = -m[1]*m[10]*m[15] + m[1]*m[11]*m[14] + m[9]*m[2]*m[15] - m[9]*m[3]*m[14] - m[13]*m[2]*m[11] + m[13]*m[3]*m[10]
	inv[5] = m[0]*m[10]*m[15] - m[0]*m[11]*m[14] - m[8]*m[2]*m[15] + m[8]*m[3]*m[14] + m[12]*m[2]*m[11] - m[12]*m[3]*m[10]
	inv[9] = -m[0]*m[9]*m[15] + m[0]*m[11]*m[13] + m[8]*m[1]*m[15] - m[8]*m[3]*m[13] - m[12]*m[1]*m[11] + m[12]*m[3]*m[9]
	inv[13] = m[0]*m[9]*m[14] - m[0]*m[10]*m[13] - m[8]*m[1]*m[14] + m[8]*m[2]*m[13] + m[12]*m[1]*m[10] - m[12]*m[2]*m[9]
	inv[2] = m[1]*m[6]*m[15] - m[1]*m[7]*m[14] - m[5]*m[2]*m[15] + m[5]*m[3]*m[14] + m[13]*m[2]*m[7] - m[13]*m[3]*m[6]
	inv[6] = -m[0]*m[6]*m[15] + m[0]*m[7]*m[14] + m[4]*m[2]*m[15] - m[4]*m[3]*m[14] - m[12]*m[2]*m[7] + m[12]*m[3]*m[6]
	inv[10] = m[0]*m[5]*m[15] - m[0]*m[7]*m[13] - m[4]*m[1]*m[15] + m[4]*m[3]*m[13] + m[12]*m[1]*m[7] - m[12]*m[3]*m[5]
	inv[14] = -m[0]*m[5]*m[14] + m[0]*m[6]*m[13] + m[4]*m[1]*m[14] - m[4]*m[2]*m[13] - m[12]*m[1]*m[6] + m[12]*m[2]*m[5]
	inv[3] = -m[1]*m[6]*m[11] + m[1]*m[7]*m[10] + m[5]*m[2]*m[11] - m[5]*m[3]*m[10] - m[9]*m[2]*m[7] + m[9]*m[3]*m[6]
	inv[7] = m[0]*m[6]*m[11] - m[0]*m[7]*m[10] - m[4]*m[2]*m[11] + m[4]*m[3]*m[10] + m[8]*m[2]*m[7] - m[8]*m[3]*m[6]
	inv[11] = -m[0]*m[5]*m[11] + m[0]*m[7]*m[9] + m[4]*m[1]*m[11] - m[4]*m[3]*m[9] - m[8]*m[1]*m[7] + m[8]*m[3]*m[5]
	inv[15] = m[0]*m[5]*m[10] - m[0]*m[6]*m[9] - m[4]*m[1]*m[10] + m[4]*m[2]*m[9] + m[8]*m[1]*m[6] - m[8]*m[2]*m[5]
	det := m[0]*inv[0] + m[1]*inv[4] + m[2]*inv[8] + m[3]*inv[12]
	if det == 0 || math.IsNaN(det) || math.IsInf(det, 0) {
		return identity, false
	}
	for i := range inv {
		inv[i] /= det
	}
	return inv, true
}

// local is a node's transform: its matrix, or T·R·S.
func local(n *gltf.Node) mat4 {
	t, q, s := n.TranslationOrDefault(), n.RotationOrDefault(), n.ScaleOrDefault()
	r := rotation(q)
	for c := 0; c < 3; c++ {
		for k := 0; k < 3; k++ {
			r[c*4+k] *= s[c]
		}
	}
	r[12], r[13], r[14] = t[0], t[1], t[2]
	return mat4(n.MatrixOrDefault()).mul(r)
}

// rotation is the matrix of a unit quaternion [x, y, z, w].
func rotation(q [4]float64) mat4 {
	x, y, z, w := q[0], q[1], q[2], q[3]
	return mat4{
		1 - 2*(y*y+z*z), 2 * (x*y + z*w), 2 * (x*z - y*w), 0,
		2 * (x*y - z*w), 1 - 2*(x*x+z*z), 2 * (y*z + x*w), 0,
		2 * (x*z + y*w), 2 * (y*z - x*w), 1 - 2*(x*x+y*y), 0,
		0, 0, 0, 1,
	}
}

// quaternion of the rotation part of a matrix whose columns are
// orthonormal (Shepperd's method, stable for every angle).
func quaternion(m mat4) [4]float64 {
	m00, m11, m22 := m[0], m[5], m[10]
	var q [4]float64
	switch tr := m00 + m11 + m22; {
	case tr > 0:
		s := math.Sqrt(tr+1) * 2
		q = [4]float64{(m[6] - m[9]) / s, (m[8] - m[2]) / s, (m[1] - m[4]) / s, s / 4}
	case m00 > m11 && m00 > m22:
		s := math.Sqrt(1+m00-m11-m22) * 2
		q = [4]float64{s / 4, (m[4] + m[1]) / s, (m[8] + m[2]) / s, (m[6] - m[9]) / s}
	case m11 > m22:
		s := math.Sqrt(1+m11-m00-m22) * 2
		q = [4]float64{(m[4] + m[1]) / s, s / 4, (m[9] + m[6]) / s, (m[8] - m[2]) / s}
	default:
		s := math.Sqrt(1+m22-m00-m11) * 2
		q = [4]float64{(m[8] + m[2]) / s, (m[9] + m[6]) / s, s / 4, (m[1] - m[4]) / s}
	}
	l := math.Sqrt(q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3])
	for i := range q {
		q[i] /= l
	}
	if q[3] < 0 { // one sign for equal rotations
		for i := range q {
			q[i] = -q[i]
		}
	}
	return q
}

// axisAngle is the rotation by angle (radians) about a unit axis.
func axisAngle(axis vec3, angle float64) mat4 {
	s, c := math.Sin(angle/2), math.Cos(angle/2)
	return rotation([4]float64{axis[0] * s, axis[1] * s, axis[2] * s, c})
}

// about is rotation r applied about the point p: T(p)·r·T(-p).
func about(r mat4, p vec3) mat4 {
	q := r.vector(p)
	r[12], r[13], r[14] = p[0]-q[0], p[1]-q[1], p[2]-q[2]
	return r
}

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

func fromFloat32(m [16]float32) mat4 {
	var out mat4
	for i, v := range m {
		out[i] = float64(v)
	}
	return out
}

func (a mat4) float32s() [16]float32 {
	var out [16]float32
	for i, v := range a {
		out[i] = float32(v)
	}
	return out
}
