package avatar

import (
	"math"
	"slices"
)

// Culling for the ray casts of the creator's parts (BuildPart): bounds
// that pass over the triangles a ray cannot meet, so each answer is the
// one the full search gave (the parts' and avatars' bytes stay as they
// were) in a fraction of the time.

// rayCone bounds a triangle seen from a point: every ray from the point
// that meets it has a direction u with u·axis >= cos, and meets it no
// farther than far (its farthest corner). cos is -2 (any direction) for a
// triangle that spans a right angle or more, or touches the point.
type rayCone struct {
	axis     vec3
	cos, far float64
}

// rayConeSlack is the margin the bounds keep, well over the rounding of
// rayEdges' crossing, so a ray that grazes a triangle's edge is tested
// as before.
const rayConeSlack = 1e-9

// newRayCone bounds the triangle abd seen from c. The cone round the mean
// of the corners' directions that holds all three holds every direction
// into the triangle (a convex cone under a right angle holds the
// positive sums of its members).
func newRayCone(c, a, b, d vec3) rayCone {
	rc := rayCone{cos: -2}
	var u [3]vec3
	for k, v := range [3]vec3{a, b, d} {
		l := v.sub(c).len()
		rc.far = math.Max(rc.far, l)
		if l < 1e-9 {
			return rc
		}
		u[k] = v.sub(c).scale(1 / l)
	}
	ax := u[0].add(u[1]).add(u[2])
	if ax.len() < 1e-6 {
		return rc
	}
	ax = ax.norm()
	cos := math.Min(ax.dot(u[0]), math.Min(ax.dot(u[1]), ax.dot(u[2])))
	if cos < 0.05 {
		return rc
	}
	rc.axis, rc.cos = ax, cos
	return rc
}

// misses is whether the ray from c along the unit u surely meets the
// triangle nowhere farther than beyond (pass -1 for anywhere).
func (rc *rayCone) misses(u vec3, beyond float64) bool {
	return rc.far <= beyond-rayConeSlack || u.dot(rc.axis) < rc.cos-rayConeSlack
}

// beyond is whether the ray from rb's centre along the unit direction u
// meets the mesh farther than d. It stops at the first such crossing and
// passes over the triangles that cannot hold one (rayCone): rimEdges
// asks it for each open edge, 3,000 on a bun, and it was most of a hat
// part's time when it sought the farthest crossing through every
// triangle of the ray's bin.
func (rb *rayBins) beyond(u vec3, d float64) bool {
	th, ph := angles(u)
	key := binAt(int(math.Floor(th/rayBin))%60, int(math.Floor(ph/rayBin)))
	for _, t := range rb.bin(key) {
		if rb.cones[t].misses(u, d) {
			continue
		}
		tri := rb.tris[t]
		if e, _, _, hit := rayTriangle(rb.c, u, rb.pos[tri[0]], rb.pos[tri[1]], rb.pos[tri[2]]); hit && e > d {
			return true
		}
	}
	return false
}

// levelBand is the height (metres) of a levelRays band.
const levelBand = 0.005

// levelSlack is the margin levelRays keeps round a triangle's heights:
// the garments' rays cross triangles rebuilt from float32 edges (sub3),
// whose corners lie up to about 1e-7 m from the stored ones.
const levelSlack = 1e-5

// levelRays finds the triangles of a part that a level ray (a direction
// with no height) can meet: those whose heights span the ray's. addHood
// casts 450 level rays, each over every triangle of the hoodie, and that
// search was the most of a hoodie part's time. The triangles are kept in
// bands of levelBand by height, each band in the part's triangle order,
// so a search that visits them keeps the whole search's order and ties.
type levelRays struct {
	base   float64
	bands  [][]int32
	lo, hi []float64
}

func newLevelRays(g *part) *levelRays {
	lr := &levelRays{lo: make([]float64, len(g.tris)), hi: make([]float64, len(g.tris))}
	if len(g.tris) == 0 {
		return lr
	}
	lr.base = math.Inf(1)
	top := math.Inf(-1)
	for t, tri := range g.tris {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, v := range tri {
			y := float64(g.pos[v][1])
			lo, hi = math.Min(lo, y), math.Max(hi, y)
		}
		lr.lo[t], lr.hi[t] = lo-levelSlack, hi+levelSlack
		lr.base, top = math.Min(lr.base, lr.lo[t]), math.Max(top, lr.hi[t])
	}
	lr.bands = make([][]int32, int((top-lr.base)/levelBand)+1)
	for t := range g.tris {
		for b := lr.band(lr.lo[t]); b <= lr.band(lr.hi[t]); b++ {
			lr.bands[b] = append(lr.bands[b], int32(t))
		}
	}
	return lr
}

// band is the band of height y, clamped to the bands there are.
func (lr *levelRays) band(y float64) int {
	return max(0, min(len(lr.bands)-1, int((y-lr.base)/levelBand)))
}

// at calls f, in the part's order, with each triangle a level ray at
// height y may meet.
func (lr *levelRays) at(y float64, f func(t int)) {
	if len(lr.bands) == 0 || y < lr.base || y > lr.base+float64(len(lr.bands))*levelBand {
		return
	}
	for _, t := range lr.bands[lr.band(y)] {
		if lr.lo[t] <= y && y <= lr.hi[t] {
			f(int(t))
		}
	}
}

// pointGrid is a set of points bucketed by integer cells, each cell's
// points in their own order, and all of them in cell order (order), so a
// search that visits cells reads its points from one run of memory.
// smoothHairNormals asks 27 cells for each hair vertex, once through a
// map of lists: the map and the scattered reads were most of its time.
// The cells are counted into one array over their bounding box (hair
// spans under a metre: some hundred thousand cells of 12 mm); a box over
// maxGridCells falls back to a map.
type pointGrid struct {
	lo, n [3]int32
	start []int32 // the points of flat cell f are order[start[f]:start[f+1]]
	spans map[[3]int32][2]int32
	order []int32
}

// maxGridCells bounds the array of a pointGrid.
const maxGridCells = 1 << 22

// newPointGrid buckets point i at cell cells[i].
func newPointGrid(cells [][3]int32) *pointGrid {
	g := &pointGrid{}
	if len(cells) == 0 {
		return g
	}
	lo, hi := cells[0], cells[0]
	for _, c := range cells {
		for a := range 3 {
			lo[a], hi[a] = min(lo[a], c[a]), max(hi[a], c[a])
		}
	}
	total := int64(1)
	for a := range 3 {
		g.n[a] = hi[a] - lo[a] + 1
		total *= int64(g.n[a])
	}
	g.lo = lo
	g.order = make([]int32, len(cells))
	if total > maxGridCells {
		for i := range g.order {
			g.order[i] = int32(i)
		}
		slices.SortStableFunc(g.order, func(x, y int32) int { return slices.Compare(cells[x][:], cells[y][:]) })
		g.spans = map[[3]int32][2]int32{}
		for k, i := range g.order {
			sp, ok := g.spans[cells[i]]
			if !ok {
				sp[0] = int32(k)
			}
			sp[1] = int32(k + 1)
			g.spans[cells[i]] = sp
		}
		return g
	}
	g.start = make([]int32, total+1)
	for _, c := range cells {
		g.start[g.flat(c)+1]++
	}
	for i := 1; i < len(g.start); i++ {
		g.start[i] += g.start[i-1]
	}
	fill := slices.Clone(g.start[:total])
	for i, c := range cells {
		f := g.flat(c)
		g.order[fill[f]] = int32(i)
		fill[f]++
	}
	return g
}

// flat is the array index of cell c, which lies in the box.
func (g *pointGrid) flat(c [3]int32) int {
	return (int(c[0]-g.lo[0])*int(g.n[1])+int(c[1]-g.lo[1]))*int(g.n[2]) + int(c[2]-g.lo[2])
}

// span is where cell c's points lie in order: order[a:b].
func (g *pointGrid) span(c [3]int32) (a, b int32) {
	if g.spans != nil {
		sp := g.spans[c]
		return sp[0], sp[1]
	}
	for a := range 3 {
		if c[a] < g.lo[a] || c[a]-g.lo[a] >= g.n[a] {
			return 0, 0
		}
	}
	f := g.flat(c)
	return g.start[f], g.start[f+1]
}

// cellGaps are, for a point at p in cells of size r, how far it lies
// from its own cell's lower and upper face on each axis, less a margin
// over the rounding of its cell (math.Floor(p/r)): a neighbouring cell
// whose gaps, squared and summed, pass r² holds no point within r of p.
func cellGaps(p [3]float32, c [3]int32, r float64) (below, above [3]float64) {
	const slack = 1e-9
	for a := range 3 {
		x := float64(p[a])
		below[a] = max(0, x-float64(c[a])*r-slack)
		above[a] = max(0, float64(c[a]+1)*r-x-slack)
	}
	return below, above
}

// triBoxes are the bounding boxes of g's triangles.
func triBoxes(g *part) [][2][3]float32 {
	box := make([][2][3]float32, len(g.tris))
	for t, tri := range g.tris {
		lo, hi := g.pos[tri[0]], g.pos[tri[0]]
		for _, v := range tri[1:] {
			for a := range 3 {
				lo[a], hi[a] = min(lo[a], g.pos[v][a]), max(hi[a], g.pos[v][a])
			}
		}
		box[t] = [2][3]float32{lo, hi}
	}
	return box
}

// triBoxFar is whether the box lies farther than d (plus a margin over
// the rounding of closestOnTriangle) from p: then no point of its
// triangle is nearer than d. liftHair and the garments' cover fitting
// ask triCells.nearest for thousands of points, each over the triangles
// of 27 cells of 5 cm, and most of those lie beyond the nearest found.
func triBoxFar(box *[2][3]float32, p [3]float64, d float64) bool {
	var s float64
	for a := range 3 {
		if e := float64(box[0][a]) - p[a]; e > 0 {
			s += e * e
		} else if e := p[a] - float64(box[1][a]); e > 0 {
			s += e * e
		}
	}
	d += 1e-9
	return s > d*d
}

// rayElevations is the number of elevation bins of rayBins: -90..90
// degrees in bins of rayBin, and one more each side (a triangle is
// binned one bin round its corners).
const rayElevations = int(180/rayBin) + 3

// binAt is the index in rayBins.bins of azimuth bin a (0..59) and
// elevation bin e (-16..16).
func binAt(a, e int) int { return a*rayElevations + e + int(90/rayBin) + 1 }
