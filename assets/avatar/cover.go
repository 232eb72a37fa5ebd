package avatar

import (
	"math"
	"strings"

	"github.com/kilnhq/kiln/assets/avatar/human"
	"github.com/kilnhq/kiln/assets/avatar/paint"
)

// underRadius is how far inside a garment a skin vertex may be and still
// take its weights: garments sit 1 to 3 cm off the skin.
const underRadius = 0.05

// skinFade is how far from a garment's opening (a hem, a cuff, a collar)
// the skin blends from the garment's weights back to its own. Skin under
// the garment moves as the cloth over it; at the opening, seen skin and
// the skin just inside it move alike, so neither a step in the skin nor a
// gap under the hem opens when the garment's smoothed weights and the
// body's part ways.
const skinFade = 0.05

// followGarments gives the skin vertices under a garment the weights of
// the cloth right over them, for the skin parts (body, head) and the
// garments in order (the first that covers a vertex wins), and blends the
// skin near a garment's opening towards them. A vertex is under a garment
// when its nearest point on the garment, within underRadius, is inside
// the cloth's surface and not on its opening, or when the garment crosses
// its outward normal within underRadius (an ankle in a shoe's collar).
// Hands keep their own weights. It reports, per skin part and vertex, whether a garment
// covers it.
func followGarments(skin []*part, garments []*part) [][]bool {
	rims := make([][]float32, len(garments))
	cells := make([]*triCells, len(garments))
	for i, g := range garments {
		rims[i], cells[i] = paint.Border(g.pos, g.tris), newTriCells(g, underRadius)
	}
	covered := make([][]bool, len(skin))
	for si, s := range skin {
		covered[si] = make([]bool, len(s.pos))
		// Each vertex reads the garments and writes only itself: the
		// vertices are done in bands side by side (this was a tenth of a
		// build on one core), each band with its own visit marks.
		bands(len(s.pos), func(lo, hi int) {
			own := make([]*triCells, len(cells))
			for i, c := range cells {
				own[i] = c.copy()
			}
			for v := lo; v < hi; v++ {
				p := s.pos[v]
				if handJoint[s.inf[v].Joint[0]] {
					continue
				}
				// Under several garments (a waist under a top and a skirt),
				// the skin moves with the nearest, the one it could come out
				// through; but cloth over it beats an opening it is just
				// inside of. Skin at a skirt's waistband under a blouse
				// followed the waistband, whose weights carry the thigh's,
				// and came out through the blouse by 2.3 mm under
				// locomotion_run: the waistband's cloth is not over it, the
				// blouse's is.
				best := cover{dist: math.Inf(1)}
				for i, g := range garments {
					c := own[i].over(p, s.nrm[v], g, rims[i])
					if c.share > best.share || c.share == 1 && c.nearer(best) {
						best = c
					}
				}
				switch {
				case best.share == 1:
					s.inf[v], covered[si][v] = best.inf, best.under
					for k := range best.push {
						s.pos[v][k] += float32(best.push[k])
					}
				case best.share > 0:
					s.inf[v] = blend(s.inf[v], best.inf, best.share)
				}
			}
		})
	}
	return covered
}

// cover is how a skin vertex lies under a garment: the share of the
// garment's weights it takes (1 inside the cloth, less near an opening, 0
// away from it), the weights of the cloth there, the distance to the
// cloth, and how far to move the vertex to keep clearance under it.
type cover struct {
	share float64
	inf   human.Influence
	dist  float64
	push  [3]float64
	under bool // under the cloth, not at an opening: hidden if its triangle is
}

// nearer tells whether skin fully under both c and d (share 1) follows
// c: cloth over the skin beats an opening it is inside of, and then the
// nearer cloth wins.
func (c cover) nearer(d cover) bool {
	if c.under != d.under {
		return c.under
	}
	return c.dist < d.dist
}

// clearance is the least depth of skin under cloth. Skin and cloth a few
// millimetres apart do not keep that gap through a clip even with the
// same weights, as neighbouring corners differ: skin closer than this is
// pushed in along the cloth's normal.
const clearance = 0.008

// pierce is how far skin may come out through a garment at rest and
// still count as under it (and be pushed back in): fitted cloth and
// shaped body cross by a millimetre or two here and there, as at a
// collar hugging the neck.
const pierce = 0.003

// over tells how the skin vertex at p with outward normal n lies under
// the garment.
func (c *triCells) over(p, n [3]float32, g *part, rim []float32) cover {
	tri, q, bary := c.nearest(p, g)
	if tri < 0 {
		if hit, hb := c.cast(p, n, g); hit >= 0 {
			return cover{share: 1, inf: g.weightsAt(hit, hb), dist: underRadius, under: true}
		}
		return cover{}
	}
	corners := g.tris[tri]
	var gn [3]float64
	onRim := true
	for k, v := range corners {
		for a := 0; a < 3; a++ {
			gn[a] += bary[k] * float64(g.nrm[v][a])
		}
		if bary[k] > 1e-6 && rim[v] == 0 {
			onRim = false
		}
	}
	d := sub3(p, [3]float32{float32(q[0]), float32(q[1]), float32(q[2])})
	dist := math.Sqrt(d[0]*d[0] + d[1]*d[1] + d[2]*d[2])
	inf := g.weightsAt(tri, bary)
	// Inside: under the cloth, or at an opening but clearly on its inner
	// side (under a waistband, where the nearest cloth is its edge). Skin
	// at an opening may be seen through it (a V-neck): it moves with the
	// cloth but stays where it is and is not hidden.
	if depth := d[0]*gn[0] + d[1]*gn[1] + d[2]*gn[2]; depth < 0 && (!onRim || depth < -0.5*dist) || !onRim && depth < pierce*math.Sqrt(gn[0]*gn[0]+gn[1]*gn[1]+gn[2]*gn[2]) {
		cv := cover{share: 1, inf: inf, dist: dist, under: !onRim}
		if l := math.Sqrt(gn[0]*gn[0] + gn[1]*gn[1] + gn[2]*gn[2]); cv.under && l > 0 && depth/l > -clearance {
			for k := range cv.push {
				cv.push[k] = (-clearance - depth/l) * gn[k] / l
			}
		}
		return cv
	}
	if hit, hb := c.cast(p, n, g); hit >= 0 {
		return cover{share: 1, inf: g.weightsAt(hit, hb), dist: underRadius, under: true}
	}
	if !onRim {
		return cover{}
	}
	return cover{share: math.Max(0, 1-dist/skinFade), inf: inf, dist: dist}
}

// weightsAt is the cloth's weights at a point of a triangle, its corners'
// mixed by the point's barycentric coordinates.
func (g *part) weightsAt(tri int, bary [3]float64) human.Influence {
	m := map[uint8]float32{}
	for k, v := range g.tris[tri] {
		for j := 0; j < 4; j++ {
			m[g.inf[v].Joint[j]] += float32(bary[k]) * g.inf[v].Weight[j]
		}
	}
	return human.TopFour(m)
}

// handJoint marks the joints of the hands and fingers, by index: skin
// there keeps its own weights under a garment, or a finger or thumb that
// took a sleeve's weights would stop bending.
var handJoint = func() [256]bool {
	var h [256]bool
	for i, n := range JointNames() {
		h[i] = strings.HasPrefix(n, "LeftHand") || strings.HasPrefix(n, "RightHand")
	}
	return h
}()

// triCells buckets a garment's triangles by the cells their bounding
// boxes touch (cells of underRadius, so everything within that distance
// of a point is in the point's cell or its neighbours, a large triangle
// whose corners are all farther included).
type triCells struct {
	size  float64 // of the cells
	cells buckets
	// seen[t] == visit marks the triangles a call of around has passed
	// (a triangle lies in several cells), without a set per call: around
	// runs for every skin vertex against every garment.
	seen  []int
	visit int
	// box is each triangle's bounding box, for nearest to pass over
	// the triangles farther than the nearest so far (triBoxFar).
	box [][2][3]float32
}

func newTriCells(g *part, size float64) *triCells {
	c := &triCells{size: size, seen: make([]int, len(g.tris)), box: triBoxes(g)}
	var pairs bucketPairs
	for t, tri := range g.tris {
		lo, hi := cellOf(g.pos[tri[0]], size), cellOf(g.pos[tri[0]], size)
		for _, v := range tri[1:] {
			k := cellOf(g.pos[v], size)
			for a := range k {
				lo[a], hi[a] = min(lo[a], k[a]), max(hi[a], k[a])
			}
		}
		for x := lo[0]; x <= hi[0]; x++ {
			for y := lo[1]; y <= hi[1]; y++ {
				for z := lo[2]; z <= hi[2]; z++ {
					pairs.add([3]int{x, y, z}, t)
				}
			}
		}
	}
	c.cells = pairs.build()
	return c
}

// cast follows the ray from p along n for underRadius and returns the
// triangle where it first crosses the garment and the barycentric
// coordinates of the crossing, or -1.
func (c *triCells) cast(p [3]float32, n [3]float32, g *part) (int, [3]float64) {
	best, bt := -1, underRadius
	var bary [3]float64
	o, d := v3(p), v3(n)
	c.around(p, func(t int) {
		tri := g.tris[t]
		dist, u, w, ok := g.rayCross(o, d, tri)
		if ok && dist < bt {
			best, bt, bary = t, dist, [3]float64{1 - u - w, u, w}
		}
	})
	return best, bary
}

// rayCross is rayEdges on triangle tri of g, its edges taken in float32.
func (g *part) rayCross(o, d vec3, tri [3]uint32) (dist, wb, wd float64, ok bool) {
	a := g.pos[tri[0]]
	return rayEdges(o, d, v3(a), sub3(g.pos[tri[1]], a), sub3(g.pos[tri[2]], a))
}

// nearest is the garment triangle nearest to p within underRadius, the
// nearest point on it and that point's barycentric coordinates, or -1.
func (c *triCells) nearest(p [3]float32, g *part) (int, [3]float64, [3]float64) {
	best, bd := -1, underRadius
	var bq, bb [3]float64
	pp := [3]float64{float64(p[0]), float64(p[1]), float64(p[2])}
	c.around(p, func(t int) {
		if triBoxFar(&c.box[t], pp, bd) {
			return
		}
		tri := g.tris[t]
		var v [3][3]float64
		for k := range v {
			v[k] = [3]float64{float64(g.pos[tri[k]][0]), float64(g.pos[tri[k]][1]), float64(g.pos[tri[k]][2])}
		}
		q, b := closestOnTriangle(pp, v[0], v[1], v[2])
		if d := math.Sqrt((pp[0]-q[0])*(pp[0]-q[0]) + (pp[1]-q[1])*(pp[1]-q[1]) + (pp[2]-q[2])*(pp[2]-q[2])); d < bd {
			best, bd, bq, bb = t, d, q, b
		}
	})
	return best, bq, bb
}

// copy is c with visit marks of its own, for another goroutine: the
// cells are shared, read only.
func (c *triCells) copy() *triCells {
	return &triCells{size: c.size, cells: c.cells, seen: make([]int, len(c.seen)), box: c.box}
}

// around calls f once for every triangle with a corner in p's cell or a
// neighbouring one, in a fixed order.
func (c *triCells) around(p [3]float32, f func(t int)) {
	c.visit++
	for t32 := range c.cells.around(cellOf(p, c.size), 1) {
		if t := int(t32); c.seen[t] != c.visit {
			c.seen[t] = c.visit
			f(t)
		}
	}
}

// closestOnTriangle is the point of triangle abc nearest to p and its
// barycentric coordinates (the Voronoi regions of the corners, the edges
// and the face, in turn).
func closestOnTriangle(p, a, b, c [3]float64) ([3]float64, [3]float64) {
	sub := func(x, y [3]float64) [3]float64 { return [3]float64{x[0] - y[0], x[1] - y[1], x[2] - y[2]} }
	dot := func(x, y [3]float64) float64 { return x[0]*y[0] + x[1]*y[1] + x[2]*y[2] }
	at := func(u, v, w float64) ([3]float64, [3]float64) {
		var q [3]float64
		for i := range q {
			q[i] = u*a[i] + v*b[i] + w*c[i]
		}
		return q, [3]float64{u, v, w}
	}
	ab, ac, ap := sub(b, a), sub(c, a), sub(p, a)
	d1, d2 := dot(ab, ap), dot(ac, ap)
	if d1 <= 0 && d2 <= 0 {
		return at(1, 0, 0)
	}
	bp := sub(p, b)
	d3, d4 := dot(ab, bp), dot(ac, bp)
	if d3 >= 0 && d4 <= d3 {
		return at(0, 1, 0)
	}
	if vc := d1*d4 - d3*d2; vc <= 0 && d1 >= 0 && d3 <= 0 {
		v := d1 / (d1 - d3)
		return at(1-v, v, 0)
	}
	cp := sub(p, c)
	d5, d6 := dot(ab, cp), dot(ac, cp)
	if d6 >= 0 && d5 <= d6 {
		return at(0, 0, 1)
	}
	if vb := d5*d2 - d1*d6; vb <= 0 && d2 >= 0 && d6 <= 0 {
		w := d2 / (d2 - d6)
		return at(1-w, 0, w)
	}
	if va := d3*d6 - d5*d4; va <= 0 && d4-d3 >= 0 && d5-d6 >= 0 {
		w := (d4 - d3) / ((d4 - d3) + (d5 - d6))
		return at(0, 1-w, w)
	}
	va, vb, vc := d3*d6-d5*d4, d5*d2-d1*d6, d1*d4-d3*d2
	den := 1 / (va + vb + vc)
	v, w := vb*den, vc*den
	return at(1-v-w, v, w)
}

// hide drops the triangles whose three corners are covered (skin under
// a garment, which MakeHuman's delete lists leave at armpits, crotches
// and ankles) and the vertices no triangle uses any more. A triangle with
// one corner out stays: dropping it opened holes below hems and collars,
// where the garment ends before the triangle does.
func (p *part) hide(covered []bool) {
	var idx []uint32
	for _, t := range p.tris {
		if !covered[t[0]] || !covered[t[1]] || !covered[t[2]] {
			idx = append(idx, t[0], t[1], t[2])
		}
	}
	p.keep(idx)
}
