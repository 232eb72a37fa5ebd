package main

import "math"

// mat3 is a rotation, row-major.
type mat3 [3][3]float64

func ident() mat3 { return mat3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}} }

func (a mat3) mul(b mat3) mat3 {
	var c mat3
	for i := range 3 {
		for j := range 3 {
			for k := range 3 {
				c[i][j] += a[i][k] * b[k][j]
			}
		}
	}
	return c
}

func (a mat3) apply(v vec3) vec3 {
	return vec3{vec3(a[0]).dot(v), vec3(a[1]).dot(v), vec3(a[2]).dot(v)}
}

func (a mat3) transpose() mat3 {
	var t mat3
	for i := range 3 {
		for j := range 3 {
			t[i][j] = a[j][i]
		}
	}
	return t
}

func axisRot(axis byte, deg float64) mat3 {
	s, c := math.Sincos(deg * math.Pi / 180)
	switch axis {
	case 'X':
		return mat3{{1, 0, 0}, {0, c, -s}, {0, s, c}}
	case 'Y':
		return mat3{{c, 0, s}, {0, 1, 0}, {-s, 0, c}}
	default:
		return mat3{{c, -s, 0}, {s, c, 0}, {0, 0, 1}}
	}
}

// rotvec is a rotation as axis times angle (radians): weighted sums of
// them blend several pose units into one rotation per bone.
type rotvec = vec3

func (a mat3) log() rotvec {
	cos := (a[0][0] + a[1][1] + a[2][2] - 1) / 2
	cos = math.Max(-1, math.Min(1, cos))
	angle := math.Acos(cos)
	v := vec3{a[2][1] - a[1][2], a[0][2] - a[2][0], a[1][0] - a[0][1]}
	if angle < 1e-9 {
		return v.scale(0.5)
	}
	return v.scale(angle / (2 * math.Sin(angle)))
}

func exp(r rotvec) mat3 {
	angle := r.length()
	if angle < 1e-12 {
		return ident()
	}
	k := r.scale(1 / angle)
	s, c := math.Sincos(angle)
	t := 1 - c
	x, y, z := k[0], k[1], k[2]
	return mat3{
		{t*x*x + c, t*x*y - z*s, t*x*z + y*s},
		{t*x*y + z*s, t*y*y + c, t*y*z - x*s},
		{t*x*z - y*s, t*y*z + x*s, t*z*z + c},
	}
}
