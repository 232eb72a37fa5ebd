// Package xform is the one home of Kiln's transform maths: column-major
// 4×4 matrices as glTF stores them, node transforms (matrix, TRS,
// quaternions) and the products every geometry stage needs. float64
// throughout, because models in centimetres or kilometres lose
// precision in float32 long before a picture or a vertex does.
package xform

import (
	"math"

	"github.com/qmuntal/gltf"
)

// Mat4 is a column-major 4×4 matrix, glTF's layout: element (row r,
// column c) is m[c*4+r].
type Mat4 [16]float64

// Identity is the matrix that changes nothing.
var Identity = Mat4{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}

// Mul is a·b: b applied first.
func (a Mat4) Mul(b Mat4) Mat4 {
	var out Mat4
	for c := range 4 {
		for r := range 4 {
			var v float64
			for k := range 4 {
				v += a[k*4+r] * b[c*4+k]
			}
			out[c*4+r] = v
		}
	}
	return out
}

// AddScaled is a + w·b, the blend of linear skinning.
func (a Mat4) AddScaled(b Mat4, w float64) Mat4 {
	for i := range a {
		a[i] += w * b[i]
	}
	return a
}

// Point transforms a position.
func (a Mat4) Point(p [3]float64) [3]float64 {
	return [3]float64{
		a[0]*p[0] + a[4]*p[1] + a[8]*p[2] + a[12],
		a[1]*p[0] + a[5]*p[1] + a[9]*p[2] + a[13],
		a[2]*p[0] + a[6]*p[1] + a[10]*p[2] + a[14],
	}
}

// Vector applies the linear part only (no translation): displacements,
// tangents, and normals through NormalMatrix.
func (a Mat4) Vector(p [3]float64) [3]float64 {
	return [3]float64{
		a[0]*p[0] + a[4]*p[1] + a[8]*p[2],
		a[1]*p[0] + a[5]*p[1] + a[9]*p[2],
		a[2]*p[0] + a[6]*p[1] + a[10]*p[2],
	}
}

// Point32 and Vector32 are Point and Vector for the float32 attributes a
// GLB stores, computed in float64.
func (a Mat4) Point32(p [3]float32) [3]float32 {
	return F32(a.Point(F64(p)))
}

func (a Mat4) Vector32(p [3]float32) [3]float32 {
	return F32(a.Vector(F64(p)))
}

// Translation is the matrix's translation column.
func (a Mat4) Translation() [3]float64 { return [3]float64{a[12], a[13], a[14]} }

// Det3 is the determinant of the linear part: negative for a mirroring
// transform, which turns triangles inside out.
func (a Mat4) Det3() float64 {
	return a[0]*(a[5]*a[10]-a[9]*a[6]) - a[4]*(a[1]*a[10]-a[9]*a[2]) + a[8]*(a[1]*a[6]-a[5]*a[2])
}

// NormalMatrix is the inverse transpose of the linear part, embedded in
// a Mat4, so that normals stay perpendicular to surfaces under
// non-uniform scale. A singular matrix gives its own linear part back.
func (a Mat4) NormalMatrix() Mat4 {
	c00 := a[5]*a[10] - a[9]*a[6]
	c01 := a[9]*a[2] - a[1]*a[10]
	c02 := a[1]*a[6] - a[5]*a[2]
	det := a[0]*c00 + a[4]*c01 + a[8]*c02
	if det == 0 || math.IsNaN(det) {
		return a
	}
	inv := 1 / det
	// Column j of the inverse transpose holds the cofactors of row j.
	return Mat4{
		c00 * inv, (a[8]*a[6] - a[4]*a[10]) * inv, (a[4]*a[9] - a[8]*a[5]) * inv, 0,
		c01 * inv, (a[0]*a[10] - a[8]*a[2]) * inv, (a[8]*a[1] - a[0]*a[9]) * inv, 0,
		c02 * inv, (a[4]*a[2] - a[0]*a[6]) * inv, (a[0]*a[5] - a[4]*a[1]) * inv, 0,
		0, 0, 0, 1,
	}
}

// Inverse of a general 4×4 matrix by cofactors; false (and Identity)
// when it is singular.
func (a Mat4) Inverse() (Mat4, bool) {
	m := a
	var inv Mat4
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
		return Identity, false
	}
	for i := range inv {
		inv[i] /= det
	}
	return inv, true
}

// Near compares two matrices within eps relative to their largest
// element (at least 1).
func (a Mat4) Near(b Mat4, eps float64) bool {
	scale := 1.0
	for i := range a {
		scale = math.Max(scale, math.Abs(a[i]))
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > eps*scale {
			return false
		}
	}
	return true
}

// FromFloat32 widens a matrix as a GLB stores it (inverse bind matrices).
func FromFloat32(m [16]float32) Mat4 {
	var out Mat4
	for i, v := range m {
		out[i] = float64(v)
	}
	return out
}

// Float32 narrows the matrix to what a GLB stores.
func (a Mat4) Float32() [16]float32 {
	var out [16]float32
	for i, v := range a {
		out[i] = float32(v)
	}
	return out
}

// Rotation is the matrix of a unit quaternion [x, y, z, w].
func Rotation(q [4]float64) Mat4 {
	return TRS([3]float64{}, q, [3]float64{1, 1, 1})
}

// TRS is translation·rotation·scale, a glTF node's transform.
func TRS(t [3]float64, q [4]float64, s [3]float64) Mat4 {
	x, y, z, w := q[0], q[1], q[2], q[3]
	return Mat4{
		(1 - 2*(y*y+z*z)) * s[0], (2 * (x*y + z*w)) * s[0], (2 * (x*z - y*w)) * s[0], 0,
		(2 * (x*y - z*w)) * s[1], (1 - 2*(x*x+z*z)) * s[1], (2 * (y*z + x*w)) * s[1], 0,
		(2 * (x*z + y*w)) * s[2], (2 * (y*z - x*w)) * s[2], (1 - 2*(x*x+y*y)) * s[2], 0,
		t[0], t[1], t[2], 1,
	}
}

// Local is a node's transform relative to its parent: its matrix times
// its TRS. glTF gives a node one or the other, and qmuntal fills the
// absent one with the identity, so the product is right for both forms
// and every stage reads a node the same way.
func Local(n *gltf.Node) Mat4 {
	return Mat4(n.MatrixOrDefault()).Mul(TRS(n.TranslationOrDefault(), n.RotationOrDefault(), n.ScaleOrDefault()))
}

// Quaternion is the rotation part of a matrix whose columns are
// orthonormal (Shepperd's method, stable for every angle), as a unit
// quaternion with w ≥ 0, so equal rotations get equal quaternions.
func Quaternion(m Mat4) [4]float64 {
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
	if q[3] < 0 {
		l = -l
	}
	for i := range q {
		q[i] /= l
	}
	return q
}

// AxisAngle is the rotation by angle (radians) about a unit axis.
func AxisAngle(axis [3]float64, angle float64) Mat4 {
	s, c := math.Sin(angle/2), math.Cos(angle/2)
	return Rotation([4]float64{axis[0] * s, axis[1] * s, axis[2] * s, c})
}

// About is the transform r applied about the point p: T(p)·r·T(-p).
func About(r Mat4, p [3]float64) Mat4 {
	q := r.Vector(p)
	r[12], r[13], r[14] = p[0]-q[0], p[1]-q[1], p[2]-q[2]
	return r
}

// F64 widens a float32 vector.
func F64(v [3]float32) [3]float64 { return [3]float64{float64(v[0]), float64(v[1]), float64(v[2])} }

// F32 narrows a vector to float32.
func F32(v [3]float64) [3]float32 { return [3]float32{float32(v[0]), float32(v[1]), float32(v[2])} }
