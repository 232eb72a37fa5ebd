package merge

import (
	"math"

	"github.com/qmuntal/gltf"
)

// mat4 is a column-major 4×4 matrix, glTF's layout: element (row r,
// column c) is m[c*4+r].
type mat4 [16]float64

var identity = mat4{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}

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

// local is a node's transform: its matrix, or T·R·S (qmuntal fills the
// absent one with the identity, so the product covers both forms).
func local(n *gltf.Node) mat4 {
	t, q, s := n.TranslationOrDefault(), n.RotationOrDefault(), n.ScaleOrDefault()
	x, y, z, w := q[0], q[1], q[2], q[3]
	trs := mat4{
		(1 - 2*(y*y+z*z)) * s[0], (2 * (x*y + z*w)) * s[0], (2 * (x*z - y*w)) * s[0], 0,
		(2 * (x*y - z*w)) * s[1], (1 - 2*(x*x+z*z)) * s[1], (2 * (y*z + x*w)) * s[1], 0,
		(2 * (x*z + y*w)) * s[2], (2 * (y*z - x*w)) * s[2], (1 - 2*(x*x+y*y)) * s[2], 0,
		t[0], t[1], t[2], 1,
	}
	return mat4(n.MatrixOrDefault()).mul(trs)
}

func (a mat4) point(p [3]float32) [3]float32 {
	x, y, z := float64(p[0]), float64(p[1]), float64(p[2])
	return [3]float32{
		float32(a[0]*x + a[4]*y + a[8]*z + a[12]),
		float32(a[1]*x + a[5]*y + a[9]*z + a[13]),
		float32(a[2]*x + a[6]*y + a[10]*z + a[14]),
	}
}

// vector applies the linear part (no translation): displacements,
// tangents.
func (a mat4) vector(p [3]float32) [3]float32 {
	x, y, z := float64(p[0]), float64(p[1]), float64(p[2])
	return [3]float32{
		float32(a[0]*x + a[4]*y + a[8]*z),
		float32(a[1]*x + a[5]*y + a[9]*z),
		float32(a[2]*x + a[6]*y + a[10]*z),
	}
}

// normalMatrix is the inverse transpose of the linear part, embedded in
// a mat4 (normals stay perpendicular to surfaces under non-uniform
// scale).
func (a mat4) normalMatrix() mat4 {
	inv, ok := a.inverse()
	if !ok {
		return identity
	}
	var out mat4
	for c := 0; c < 3; c++ {
		for r := 0; r < 3; r++ {
			out[c*4+r] = inv[r*4+c]
		}
	}
	out[15] = 1
	return out
}

// det3 is the determinant of the linear part: negative for a mirroring
// transform, which turns triangles inside out.
func (a mat4) det3() float64 {
	return a[0]*(a[5]*a[10]-a[9]*a[6]) - a[4]*(a[1]*a[10]-a[9]*a[2]) + a[8]*(a[1]*a[6]-a[5]*a[2])
}

// near compares two matrices within a tolerance relative to their size.
func (a mat4) near(b mat4, eps float64) bool {
	var scale float64
	for i := range a {
		scale = math.Max(scale, math.Abs(a[i]))
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > eps*math.Max(scale, 1) {
			return false
		}
	}
	return true
}

// inverse of a general 4×4 matrix by cofactors.
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
	if det == 0 || math.IsNaN(det) {
		return identity, false
	}
	for i := range inv {
		inv[i] /= det
	}
	return inv, true
}

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

func normalize(v [3]float32) [3]float32 {
	l := math.Sqrt(float64(v[0])*float64(v[0]) + float64(v[1])*float64(v[1]) + float64(v[2])*float64(v[2]))
	if l == 0 || math.IsNaN(l) {
		return [3]float32{0, 0, 1}
	}
	return [3]float32{float32(float64(v[0]) / l), float32(float64(v[1]) / l), float32(float64(v[2]) / l)}
}
