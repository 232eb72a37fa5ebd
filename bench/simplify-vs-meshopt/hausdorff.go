package main

import "math"

// hausdorff is the symmetric Hausdorff distance between the surfaces of two
// index buffers over the same positions (x, y, z per vertex): the farthest
// any point of one surface is from the other. Both outputs of a comparison
// go through this one function, so neither library's own error estimate
// decides. Points are sampled on each triangle on a barycentric grid of
// spacing at most step (its corners included), so the figure is a lower
// bound that is exact to within about step.
func hausdorff(pos []float32, a, b []uint32, step float64) float64 {
	if len(a) == 0 || len(b) == 0 {
		if len(a) == len(b) {
			return 0
		}
		return math.Inf(1)
	}
	return max(oneSided(pos, a, newSurface(pos, b), step), oneSided(pos, b, newSurface(pos, a), step))
}

// oneSided is the farthest any sample of the triangles idx is from s.
func oneSided(pos []float32, idx []uint32, s *surface, step float64) float64 {
	worst := 0.0
	for t := 0; t+2 < len(idx); t += 3 {
		p0, p1, p2 := vertex(pos, idx[t]), vertex(pos, idx[t+1]), vertex(pos, idx[t+2])
		longest := math.Sqrt(max(dist2(p0, p1), dist2(p1, p2), dist2(p2, p0)))
		n := min(16, max(1, int(math.Ceil(longest/step))))
		for i := 0; i <= n; i++ {
			for j := 0; i+j <= n; j++ {
				u, v := float64(i)/float64(n), float64(j)/float64(n)
				var q vec
				for k := range q {
					q[k] = p0[k] + (p1[k]-p0[k])*u + (p2[k]-p0[k])*v
				}
				worst = max(worst, s.nearest(q, worst))
			}
		}
	}
	return worst
}

type vec = [3]float64

func vertex(pos []float32, v uint32) vec {
	return vec{float64(pos[3*v]), float64(pos[3*v+1]), float64(pos[3*v+2])}
}

func dist2(a, b vec) float64 {
	dx, dy, dz := a[0]-b[0], a[1]-b[1], a[2]-b[2]
	return dx*dx + dy*dy + dz*dz
}

// surface is a triangle set in a uniform grid, for nearest-point queries:
// each cell lists the triangles whose bounding box overlaps it.
type surface struct {
	pos   []float32
	idx   []uint32
	lo    vec
	cell  float64
	n     [3]int
	start []int32 // per cell, into tris; one more than the cells
	tris  []int32
}

func newSurface(pos []float32, idx []uint32) *surface {
	s := &surface{pos: pos, idx: idx}
	lo, hi := vec{math.Inf(1), math.Inf(1), math.Inf(1)}, vec{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
	for _, v := range idx {
		p := vertex(pos, v)
		for k := range p {
			lo[k], hi[k] = min(lo[k], p[k]), max(hi[k], p[k])
		}
	}
	extent := max(hi[0]-lo[0], hi[1]-lo[1], hi[2]-lo[2], 1e-12)
	res := min(128, max(1, 2*int(math.Cbrt(float64(len(idx)/3)))))
	s.lo, s.cell = lo, extent/float64(res)
	for k := range s.n {
		s.n[k] = max(1, int(math.Ceil((hi[k]-lo[k])/s.cell)))
	}
	cells := s.n[0] * s.n[1] * s.n[2]
	s.start = make([]int32, cells+1)
	// two passes over the triangles' cell ranges: count, then fill
	for pass := 0; pass < 2; pass++ {
		for t := 0; t+2 < len(idx); t += 3 {
			a, b := s.cellRange(t)
			for x := a[0]; x <= b[0]; x++ {
				for y := a[1]; y <= b[1]; y++ {
					for z := a[2]; z <= b[2]; z++ {
						c := s.index(x, y, z)
						if pass == 0 {
							s.start[c+1]++
						} else {
							s.tris[s.start[c]] = int32(t)
							s.start[c]++
						}
					}
				}
			}
		}
		if pass == 0 {
			for c := 1; c <= cells; c++ {
				s.start[c] += s.start[c-1]
			}
			s.tris = make([]int32, s.start[cells])
		}
	}
	// the fill advanced each start to the next cell's: shift back
	copy(s.start[1:], s.start[:cells])
	s.start[0] = 0
	return s
}

func (s *surface) index(x, y, z int) int { return (x*s.n[1]+y)*s.n[2] + z }

func (s *surface) cellOf(p vec) [3]int {
	var c [3]int
	for k := range c {
		c[k] = min(s.n[k]-1, max(0, int((p[k]-s.lo[k])/s.cell)))
	}
	return c
}

func (s *surface) cellRange(t int) (a, b [3]int) {
	p0, p1, p2 := vertex(s.pos, s.idx[t]), vertex(s.pos, s.idx[t+1]), vertex(s.pos, s.idx[t+2])
	var lo, hi vec
	for k := range lo {
		lo[k], hi[k] = min(p0[k], p1[k], p2[k]), max(p0[k], p1[k], p2[k])
	}
	return s.cellOf(lo), s.cellOf(hi)
}

// nearest is the distance from p to the surface. It searches rings of
// cells outwards from p's cell: cells in ring r+1 are at least r cells
// away, so the search ends once the best distance is within that, or at
// once when the best is known to be at most enough (a distance that cannot
// raise the running maximum needs no more precision).
func (s *surface) nearest(p vec, enough float64) float64 {
	c := s.cellOf(p)
	best := math.Inf(1)
	maxRing := max(s.n[0], s.n[1], s.n[2])
	for r := 0; r <= maxRing; r++ {
		for x := c[0] - r; x <= c[0]+r; x++ {
			if x < 0 || x >= s.n[0] {
				continue
			}
			for y := c[1] - r; y <= c[1]+r; y++ {
				if y < 0 || y >= s.n[1] {
					continue
				}
				for z := c[2] - r; z <= c[2]+r; z++ {
					if z < 0 || z >= s.n[2] {
						continue
					}
					if max(abs(x-c[0]), abs(y-c[1]), abs(z-c[2])) != r {
						z = c[2] + r - 1 // inside the ring: jump to its far face
						continue
					}
					for _, t := range s.tris[s.start[s.index(x, y, z)]:s.start[s.index(x, y, z)+1]] {
						d := pointTriangle2(p, vertex(s.pos, s.idx[t]), vertex(s.pos, s.idx[t+1]), vertex(s.pos, s.idx[t+2]))
						best = min(best, d)
					}
				}
			}
		}
		bound := float64(r) * s.cell
		if best <= bound*bound || best <= enough*enough {
			break
		}
	}
	return math.Sqrt(best)
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}

// pointTriangle2 is the squared distance from p to the triangle abc: the
// closest point is found by the Voronoi region of p (a corner, an edge or
// the face), as in Ericson's Real-Time Collision Detection, 5.1.5.
func pointTriangle2(p, a, b, c vec) float64 {
	sub := func(u, v vec) vec { return vec{u[0] - v[0], u[1] - v[1], u[2] - v[2]} }
	dot := func(u, v vec) float64 { return u[0]*v[0] + u[1]*v[1] + u[2]*v[2] }
	at := func(o, d1, d2 vec, v, w float64) vec {
		return vec{o[0] + d1[0]*v + d2[0]*w, o[1] + d1[1]*v + d2[1]*w, o[2] + d1[2]*v + d2[2]*w}
	}
	ab, ac, ap := sub(b, a), sub(c, a), sub(p, a)
	if n := (vec{ab[1]*ac[2] - ab[2]*ac[1], ab[2]*ac[0] - ab[0]*ac[2], ab[0]*ac[1] - ab[1]*ac[0]}); dot(n, n) == 0 {
		// a degenerate triangle (a segment or a point): its nearest edge
		return min(pointSegment2(p, a, b), pointSegment2(p, b, c), pointSegment2(p, c, a))
	}
	d1, d2 := dot(ab, ap), dot(ac, ap)
	if d1 <= 0 && d2 <= 0 {
		return dist2(p, a)
	}
	bp := sub(p, b)
	d3, d4 := dot(ab, bp), dot(ac, bp)
	if d3 >= 0 && d4 <= d3 {
		return dist2(p, b)
	}
	vc := d1*d4 - d3*d2
	if vc <= 0 && d1 >= 0 && d3 <= 0 {
		return dist2(p, at(a, ab, ab, d1/(d1-d3), 0))
	}
	cp := sub(p, c)
	d5, d6 := dot(ab, cp), dot(ac, cp)
	if d6 >= 0 && d5 <= d6 {
		return dist2(p, c)
	}
	vb := d5*d2 - d1*d6
	if vb <= 0 && d2 >= 0 && d6 <= 0 {
		return dist2(p, at(a, ac, ac, d2/(d2-d6), 0))
	}
	va := d3*d6 - d5*d4
	if va <= 0 && d4-d3 >= 0 && d5-d6 >= 0 {
		w := (d4 - d3) / ((d4 - d3) + (d5 - d6))
		return dist2(p, at(b, sub(c, b), sub(c, b), w, 0))
	}
	denom := 1 / (va + vb + vc)
	return dist2(p, at(a, ab, ac, vb*denom, vc*denom))
}

// pointSegment2 is the squared distance from p to the segment ab.
func pointSegment2(p, a, b vec) float64 {
	var ab, ap vec
	for k := range ab {
		ab[k], ap[k] = b[k]-a[k], p[k]-a[k]
	}
	l := ab[0]*ab[0] + ab[1]*ab[1] + ab[2]*ab[2]
	t := 0.0
	if l > 0 {
		t = min(1, max(0, (ap[0]*ab[0]+ap[1]*ab[1]+ap[2]*ab[2])/l))
	}
	return dist2(p, vec{a[0] + ab[0]*t, a[1] + ab[1]*t, a[2] + ab[2]*t})
}
