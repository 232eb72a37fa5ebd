package simplify

import "math"

// vec3 is a position in the unit box: positions are rescaled so that the
// mesh extent is 1, which makes every error relative without a division
// per evaluation, and keeps float32 precise enough for the quadrics.
type vec3 struct{ x, y, z float32 }

// quadric is a symmetric 4x4 matrix in 10 floats, plus the total weight of
// the planes summed into it. It evaluates the weighted sum of squared
// distances to those planes:
//
//	a00 x² + a11 y² + a22 z² + 2 (a10 xy + a20 xz + a21 yz) + 2 (b0 x + b1 y + b2 z) + c
//
// float32 is enough because positions are in the unit box; it halves the
// memory traffic of the ranking loop, which is the hot spot.
type quadric struct {
	a00, a11, a22 float32
	a10, a20, a21 float32
	b0, b1, b2, c float32
	w             float32
}

// position is what the simplifier keeps of one distinct position: its
// quadric and where it is, in one 64-byte cache line, because ranking an
// edge reads exactly these at both ends.
type position struct {
	q quadric
	p vec3
	_ [2]uint32
}

func (q *quadric) add(r *quadric) {
	q.a00 += r.a00
	q.a11 += r.a11
	q.a22 += r.a22
	q.a10 += r.a10
	q.a20 += r.a20
	q.a21 += r.a21
	q.b0 += r.b0
	q.b1 += r.b1
	q.b2 += r.b2
	q.c += r.c
	q.w += r.w
}

// posError is the weighted mean squared distance from v to the planes of q:
// dividing by the weight makes the error independent of how many triangles
// were merged into q, so it reads as a squared distance. It is a function
// small enough to be inlined into the ranking loop.
func posError(q *quadric, v vec3) float32 {
	r := q.c + (2*(q.b0+q.a10*v.y)+q.a00*v.x)*v.x + (2*(q.b1+q.a21*v.z)+q.a11*v.y)*v.y + (2*(q.b2+q.a20*v.x)+q.a22*v.z)*v.z
	return abs32(r) / (q.w + minWeight)
}

// minWeight is added to quadric weights before dividing by them: a
// quadric made only of zero-area triangles is all zeros and would give
// 0/0, while for any real weight (much larger than 1e-30) the sum is exact.
const minWeight = 1e-30

func abs32(f float32) float32 {
	return math.Float32frombits(math.Float32bits(f) &^ (1 << 31))
}

// attrError is the squared attribute error of moving a vertex whose record
// (see simplifier.va: attribute quadric, then gradients) is r onto position
// v with the weighted attribute values a. Unlike posError it is not divided
// by the weight: the weight is an area, so the attribute error scales like
// a squared distance and adds to posError in the same unit.
func attrError(r, a []float32, v vec3) float32 {
	r = r[:recQ+4*len(a)]
	e := r[9] + (2*(r[6]+r[3]*v.y)+r[0]*v.x)*v.x + (2*(r[7]+r[5]*v.z)+r[1]*v.y)*v.y + (2*(r[8]+r[4]*v.x)+r[2]*v.z)*v.z
	w := r[10]
	g := r[recQ:]
	for k, ak := range a {
		gk := g[4*k : 4*k+4 : 4*k+4]
		gv := v.x*gk[0] + v.y*gk[1] + v.z*gk[2] + gk[3]
		e += ak * (ak*w - 2*gv)
	}
	return abs32(e)
}

func fromPlane(q *quadric, a, b, c, d, w float32) {
	aw, bw, cw, dw := a*w, b*w, c*w, d*w
	*q = quadric{
		a00: a * aw, a11: b * bw, a22: c * cw,
		a10: a * bw, a20: a * cw, a21: b * cw,
		b0: a * dw, b1: b * dw, b2: c * dw,
		c: d * dw, w: w,
	}
}

func sqrt32(f float32) float32 { return float32(math.Sqrt(float64(f))) }

// normalize scales v to unit length and returns its former length.
func normalize(v *vec3) float32 {
	l := sqrt32(v.x*v.x + v.y*v.y + v.z*v.z)
	if l > 0 {
		v.x /= l
		v.y /= l
		v.z /= l
	}
	return l
}

// fromTriangle sets q to the plane of the triangle, weighted by the square
// root of its area; see planeTerms.
func fromTriangle(q *quadric, p0, p1, p2 vec3, weight float32) {
	a00, a11, a22, a10, a20, a21, b0, b1, b2, c, w := planeTerms(p0, p1, p2, weight)
	*q = quadric{a00, a11, a22, a10, a20, a21, b0, b1, b2, c, w}
}

// planeTerms returns the fields of the quadric of the triangle's plane,
// weighted by the square root of its area: the error then grows linearly
// with the size of the triangles merged, which keeps silhouettes better
// than an area weight. The normal is left unnormalized and the
// normalization folded into one factor, which saves three divisions. The
// terms come back as scalars so that fillQuadrics can add them to three
// vertices straight from registers.
func planeTerms(p0, p1, p2 vec3, weight float32) (a00, a11, a22, a10, a20, a21, b0, b1, b2, c, w float32) {
	e1 := vec3{p1.x - p0.x, p1.y - p0.y, p1.z - p0.z}
	e2 := vec3{p2.x - p0.x, p2.y - p0.y, p2.z - p0.z}
	nx, ny, nz := e1.y*e2.z-e1.z*e2.y, e1.z*e2.x-e1.x*e2.z, e1.x*e2.y-e1.y*e2.x
	l2 := nx*nx + ny*ny + nz*nz
	if l2 == 0 {
		return
	}
	w = float32(math.Sqrt(math.Sqrt(float64(l2)))) * weight // sqrt of the doubled area
	f := w / l2                                             // w times the normalization of n, twice
	d := -(nx*p0.x + ny*p0.y + nz*p0.z)
	fx, fy, fz, fd := nx*f, ny*f, nz*f, d*f
	return nx * fx, ny * fy, nz * fz, nx * fy, nx * fz, ny * fz, nx * fd, ny * fd, nz * fd, d * fd, w
}

// addTerms adds the fields of a quadric given as scalars.
func (q *quadric) addTerms(a00, a11, a22, a10, a20, a21, b0, b1, b2, c, w float32) {
	q.a00 += a00
	q.a11 += a11
	q.a22 += a22
	q.a10 += a10
	q.a20 += a20
	q.a21 += a21
	q.b0 += b0
	q.b1 += b1
	q.b2 += b2
	q.c += c
	q.w += w
}

// fromEdge sets q to the plane through the edge p0 p1 that is perpendicular
// to the triangle p0 p1 p2. Added to the vertices of border and seam edges,
// it keeps them from sliding off the line they are on; the weight scales
// with the edge length to match fromTriangle.
func fromEdge(q *quadric, p0, p1, p2 vec3, weight float32) {
	e := vec3{p1.x - p0.x, p1.y - p0.y, p1.z - p0.z}
	lsq := e.x*e.x + e.y*e.y + e.z*e.z
	l := sqrt32(lsq)
	f := vec3{p2.x - p0.x, p2.y - p0.y, p2.z - p0.z}
	proj := f.x*e.x + f.y*e.y + f.z*e.z
	perp := vec3{f.x*lsq - e.x*proj, f.y*lsq - e.y*proj, f.z*lsq - e.z*proj}
	normalize(&perp)
	d := perp.x*p0.x + perp.y*p0.y + perp.z*p0.z
	fromPlane(q, perp.x, perp.y, perp.z, -d, l*weight)
}

// fromAttributes sets the record t (a quadric, then 4 gradient floats per
// attribute, as in simplifier.va) so that it evaluates, summed over the
// attributes, (interpolated(p) - a)² weighted by the triangle area, where
// interpolated(p) is the linear interpolation of the attribute over the
// plane of the triangle. Only the terms that do not depend on the target's
// own attribute values go into the quadric; the rest is added by attrError
// from the gradients. a0, a1 and a2 hold the corners' attribute values.
func fromAttributes(t []float32, p0, p1, p2 vec3, a0, a1, a2 []float32) {
	v0 := vec3{p1.x - p0.x, p1.y - p0.y, p1.z - p0.z}
	v1 := vec3{p2.x - p0.x, p2.y - p0.y, p2.z - p0.z}
	n := vec3{v0.y*v1.z - v0.z*v1.y, v0.z*v1.x - v0.x*v1.z, v0.x*v1.y - v0.y*v1.x}
	w := sqrt32(n.x*n.x+n.y*n.y+n.z*n.z) * 0.5

	d00 := v0.x*v0.x + v0.y*v0.y + v0.z*v0.z
	d01 := v0.x*v1.x + v0.y*v1.y + v0.z*v1.z
	d11 := v1.x*v1.x + v1.y*v1.y + v1.z*v1.z
	denom := d00*d11 - d01*d01
	var dr float32
	if denom != 0 {
		dr = 1 / denom
	}
	gx1 := (d11*v0.x - d01*v1.x) * dr
	gx2 := (d00*v1.x - d01*v0.x) * dr
	gy1 := (d11*v0.y - d01*v1.y) * dr
	gy2 := (d00*v1.y - d01*v0.y) * dr
	gz1 := (d11*v0.z - d01*v1.z) * dr
	gz2 := (d00*v1.z - d01*v0.z) * dr

	na := (len(t) - recQ) / 4
	a0, a1, a2 = a0[:na], a1[:na], a2[:na]
	var a00, a11, a22, a10, a20, a21, b0, b1, b2, c float32
	g := t[recQ : recQ+4*na]
	for k := range na {
		d1, d2 := a1[k]-a0[k], a2[k]-a0[k]
		gx := gx1*d1 + gx2*d2
		gy := gy1*d1 + gy2*d2
		gz := gz1*d1 + gz2*d2
		gw := a0[k] - p0.x*gx - p0.y*gy - p0.z*gz

		a00 += gx * gx
		a11 += gy * gy
		a22 += gz * gz
		a10 += gy * gx
		a20 += gz * gx
		a21 += gz * gy
		b0 += gx * gw
		b1 += gy * gw
		b2 += gz * gw
		c += gw * gw
		gk := g[4*k : 4*k+4 : 4*k+4]
		gk[0], gk[1], gk[2], gk[3] = w*gx, w*gy, w*gz, w*gw
	}
	q := t[:recQ:recQ]
	q[0], q[1], q[2], q[3], q[4], q[5] = w*a00, w*a11, w*a22, w*a10, w*a20, w*a21
	q[6], q[7], q[8], q[9], q[10] = w*b0, w*b1, w*b2, w*c, w
}
