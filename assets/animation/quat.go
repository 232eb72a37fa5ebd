package animation

import "math"

// vec and quat are float64 so that chains of 20 joints composed per key
// stay exact to well under the 1e-4 the loop checks allow; the glTF output
// is float32.
type vec [3]float64

// quat is x, y, z, w like glTF.
type quat [4]float64

var identity = quat{0, 0, 0, 1}

func (a vec) add(b vec) vec       { return vec{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }
func (a vec) sub(b vec) vec       { return vec{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
func (a vec) scale(s float64) vec { return vec{a[0] * s, a[1] * s, a[2] * s} }
func (a vec) dot(b vec) float64   { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
func (a vec) length() float64     { return math.Sqrt(a.dot(a)) }
func (a vec) cross(b vec) vec {
	return vec{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

func (a vec) unit() vec {
	l := a.length()
	if l < 1e-12 {
		return vec{}
	}
	return a.scale(1 / l)
}

// axisAngle is the rotation by deg degrees about axis (right-handed).
func axisAngle(axis vec, deg float64) quat {
	axis = axis.unit()
	h := deg * math.Pi / 360
	s := math.Sin(h)
	return quat{axis[0] * s, axis[1] * s, axis[2] * s, math.Cos(h)}
}

// rx, ry and rz rotate about the body's axes: X is the character's left,
// Y up, Z forward (glTF's forward, the way the avatar faces).
func rx(deg float64) quat { return axisAngle(vec{1, 0, 0}, deg) }
func ry(deg float64) quat { return axisAngle(vec{0, 1, 0}, deg) }
func rz(deg float64) quat { return axisAngle(vec{0, 0, 1}, deg) }

// mul is the Hamilton product: (a.mul(b)).rotate(v) == a.rotate(b.rotate(v)).
func (a quat) mul(b quat) quat {
	return quat{
		a[3]*b[0] + a[0]*b[3] + a[1]*b[2] - a[2]*b[1],
		a[3]*b[1] - a[0]*b[2] + a[1]*b[3] + a[2]*b[0],
		a[3]*b[2] + a[0]*b[1] - a[1]*b[0] + a[2]*b[3],
		a[3]*b[3] - a[0]*b[0] - a[1]*b[1] - a[2]*b[2],
	}
}

func (a quat) conj() quat { return quat{-a[0], -a[1], -a[2], a[3]} }

func (a quat) norm() quat {
	l := math.Sqrt(a[0]*a[0] + a[1]*a[1] + a[2]*a[2] + a[3]*a[3])
	if l < 1e-12 {
		return identity
	}
	return quat{a[0] / l, a[1] / l, a[2] / l, a[3] / l}
}

func (a quat) rotate(v vec) vec {
	u := vec{a[0], a[1], a[2]}
	t := u.cross(v).scale(2)
	return v.add(t.scale(a[3])).add(u.cross(t))
}

// between is the shortest rotation taking direction a to direction b.
func between(a, b vec) quat {
	a, b = a.unit(), b.unit()
	d := a.dot(b)
	if d < -0.999999 {
		axis := vec{1, 0, 0}.cross(a)
		if axis.length() < 1e-6 {
			axis = vec{0, 1, 0}.cross(a)
		}
		return axisAngle(axis, 180)
	}
	c := a.cross(b)
	return quat{c[0], c[1], c[2], 1 + d}.norm()
}

// then composes rotations in the order they are written: a, then b, both
// about the body's fixed axes.
func (a quat) then(b quat) quat { return b.mul(a) }

// slerp interpolates on the shortest arc.
func slerp(a, b quat, t float64) quat {
	d := a[0]*b[0] + a[1]*b[1] + a[2]*b[2] + a[3]*b[3]
	if d < 0 {
		b = quat{-b[0], -b[1], -b[2], -b[3]}
		d = -d
	}
	if d > 0.9995 {
		return quat{a[0] + (b[0]-a[0])*t, a[1] + (b[1]-a[1])*t, a[2] + (b[2]-a[2])*t, a[3] + (b[3]-a[3])*t}.norm()
	}
	th := math.Acos(d)
	s := math.Sin(th)
	wa, wb := math.Sin((1-t)*th)/s, math.Sin(t*th)/s
	return quat{a[0]*wa + b[0]*wb, a[1]*wa + b[1]*wb, a[2]*wa + b[2]*wb, a[3]*wa + b[3]*wb}
}
