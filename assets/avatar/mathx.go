package avatar

import (
	"math"

	"github.com/kilnhq/kiln/assets/xform"
)

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

// shadowBary is where (x, y) lies in the shadow of the triangle a, b, c
// on the plane of axes i and j (0 x, 1 y, 2 z), as barycentric
// coordinates u toward b and v toward c; ok is false outside it or for a
// triangle seen edge on. The ray casts of the glasses' fit and the tests'
// front views share it.
func shadowBary(a, b, c vec3, i, j int, x, y float64) (u, v float64, ok bool) {
	d := (b[i]-a[i])*(c[j]-a[j]) - (c[i]-a[i])*(b[j]-a[j])
	if math.Abs(d) < 1e-12 {
		return 0, 0, false
	}
	u = ((x-a[i])*(c[j]-a[j]) - (c[i]-a[i])*(y-a[j])) / d
	v = ((b[i]-a[i])*(y-a[j]) - (x-a[i])*(b[j]-a[j])) / d
	return u, v, u >= 0 && v >= 0 && u+v <= 1
}

// mat3 is a rotation given by its columns: the images of +X, +Y and +Z.
type mat3 [3]vec3

// inverseApply is the transpose (the inverse of a rotation) applied to v.
func (m mat3) inverseApply(v vec3) vec3 { return vec3{m[0].dot(v), m[1].dot(v), m[2].dot(v)} }

// transposeMul is mᵀ·n, the rotation n relative to m.
func (m mat3) transposeMul(n mat3) mat3 {
	return mat3{m.inverseApply(n[0]), m.inverseApply(n[1]), m.inverseApply(n[2])}
}

// quat is the rotation as a unit quaternion (x, y, z, w) with w ≥ 0.
func (m mat3) quat() [4]float64 {
	return xform.Quaternion(xform.Mat4{
		m[0][0], m[0][1], m[0][2], 0,
		m[1][0], m[1][1], m[1][2], 0,
		m[2][0], m[2][1], m[2][2], 0,
		0, 0, 0, 1,
	})
}

// trs is a local transform's matrix.
func trs(t Transform) xform.Mat4 {
	return xform.TRS(
		[3]float64{float64(t.Translation[0]), float64(t.Translation[1]), float64(t.Translation[2])},
		[4]float64{float64(t.Rotation[0]), float64(t.Rotation[1]), float64(t.Rotation[2]), float64(t.Rotation[3])},
		[3]float64{float64(t.Scale[0]), float64(t.Scale[1]), float64(t.Scale[2])},
	)
}
