package avatar

import "math"

// A hoodie's hood, down. MakeHuman's hoodie has none, and a "hoodie"
// without one read as a jacket. It is made here as a layer of the top
// lying over the upper back: columns fan out from behind the neck, each
// walked down the back's cloth (and, to the sides, out over the
// shoulders) and lifted off it, thick at the neck where the hood's
// fabric gathers and thinner toward its rounded lower edge, where a
// skirt turns it back onto the back, after a rolled rim. Every vertex of it takes the
// texture coordinates and the weights of the cloth under it, so its knit
// runs on as the back's (a shell that stood away from the back and took
// the back's texture stretched the knit into streaks) and it moves as
// the back moves: the body under it stays under the back, whose cloth is
// nearer.
const (
	hoodCols = 24
	hoodRows = 8
	// hoodTriangles is what addHood adds to the top: its rows and its
	// skirt, then its two ends turned down (the budget counts them).
	hoodTriangles = 2*(hoodRows+1)*hoodCols + 2*2*hoodRows
	// hoodSpan is how far round the neck the hood reaches either side of
	// straight back.
	hoodSpan = 60 * math.Pi / 180
	// hoodLength is the hood's length down the back at its middle (to its
	// lower point) and at its sides, beside the neck.
	hoodLength, hoodSideLength = 0.2, 0.05
	// hoodThick is its height over the back at the neck, hoodEdge at its
	// lower edge; hoodTuck the height of the skirt's foot.
	hoodThick, hoodEdge, hoodTuck = 0.018, 0.007, 0.002
	// hoodTop is how far below the neck joint the hood starts, away from
	// the neck, so no skin of the neck lies nearer the hood than the
	// collar; hoodUVDrop how far below its place each point takes its
	// texture coordinates.
	hoodTop, hoodUVDrop = 0.02, 0.07
	// hoodRoll is how far the rolled rim near the hood's lower edge
	// stands over the hood's cloth beside it, at hoodRollAt of the way
	// down: lying down, the hood's opening folds over into a roll, and
	// without it the hood read from behind as a flat yoke.
	hoodRoll, hoodRollAt = 0.014, 0.8
)

// hoodHeight is the hood's height over the back at t (0 at its top, 1 at
// its lower edge) in a column side of the way to its end (0 straight
// back, 1 the last column).
func hoodHeight(t, side float64) float64 {
	roll := hoodRoll * math.Exp(-math.Pow((t-hoodRollAt)/0.11, 2)) * (1 - 0.3*side*side)
	return hoodEdge + (hoodThick-hoodEdge)*math.Pow(1-t, 1.5)*(1-0.4*side*side) + roll
}

// hoodShade is the shade of the hood's row at t: the crease above the
// roll a little darker, as the fold hides it from the light.
func hoodShade(t float64) float32 {
	return float32(1 - 0.12*math.Exp(-math.Pow((t-(hoodRollAt-0.2))/0.07, 2)))
}

// hood is the hood added to a top: where it lies, for the hair to go
// over it.
type hood struct {
	// foot is the cloth point under each hood vertex (row by row), and
	// height its height over it.
	foot   []vec3
	height []float64
	// tris is how many triangles the top had before the hood.
	tris int
}

// addHood adds a hood, down, to the hoodie g, round the neck joint, and
// says where it lies (nil when the top has no cloth behind the neck).
func addHood(g *part, neck [3]float32) *hood {
	nc := v3(neck)
	type sample struct {
		tri  int
		bary [3]float64
		at   vec3
	}
	normal := func(s sample) vec3 {
		var n vec3
		for k, v := range g.tris[s.tri] {
			n = n.add(v3(g.nrm[v]).scale(s.bary[k]))
		}
		return n.norm()
	}
	// outermost is where the ray from o along d last leaves the cloth
	// within 0.3 m: the outer layer (a collar's leaf over the back, then
	// the back) under the hood.
	// Its rays are level (d has no height): only the triangles at the
	// ray's height are asked (levelRays).
	level := newLevelRays(g)
	outermost := func(o, d vec3) (sample, bool) {
		var best sample
		far := -1.0
		level.at(o[1], func(t int) {
			if dist, wb, wd, ok := g.rayCross(o, d, g.tris[t]); ok && dist > far && dist < 0.3 {
				far, best = dist, sample{t, [3]float64{1 - wb - wd, wb, wd}, o.add(d.scale(dist))}
			}
		})
		return best, far > 0
	}
	// Each column is a fan of rays out from the neck's vertical axis at
	// its angle, one per row, from hoodTop below the neck joint down.
	cols := make([][]sample, hoodCols+1)
	uvs := make([][][2]float32, hoodCols+1)
	for i := range cols {
		a := -hoodSpan + 2*hoodSpan*float64(i)/hoodCols
		side := math.Abs(a) / hoodSpan
		out := vec3{math.Sin(a), 0, -math.Cos(a)}
		length := hoodSideLength + (hoodLength-hoodSideLength)*math.Pow(math.Max(0, 1-side*side), 0.8)
		for r := 0; r <= hoodRows; r++ {
			y := -hoodTop - length*float64(r)/hoodRows
			s, ok := outermost(nc.add(vec3{0, y, 0}), out)
			if !ok {
				return nil
			}
			cols[i] = append(cols[i], s)
			// The knit: the back's, hoodUVDrop lower, below any collar,
			// so the whole hood takes one piece's threads at the back's
			// scale.
			u, ok := outermost(nc.add(vec3{0, y - hoodUVDrop, 0}), out)
			if !ok {
				return nil
			}
			var uv [2]float32
			for k, v := range g.tris[u.tri] {
				uv[0] += float32(u.bary[k]) * g.uv[v][0]
				uv[1] += float32(u.bary[k]) * g.uv[v][1]
			}
			uvs[i] = append(uvs[i], uv)
		}
	}
	h := &hood{tris: len(g.tris)}
	first := uint32(len(g.pos))
	add := func(s sample, uv [2]float32, height float64, shade float32) {
		p := s.at.add(normal(s).scale(height))
		best, src := -1.0, int32(0)
		for k, v := range g.tris[s.tri] {
			if s.bary[k] > best && g.src != nil {
				best, src = s.bary[k], g.src[v]
			}
		}
		g.pos = append(g.pos, p.f32())
		g.uv = append(g.uv, uv)
		g.inf = append(g.inf, g.weightsAt(s.tri, s.bary))
		g.nrm = append(g.nrm, [3]float32{})
		if g.src != nil {
			g.src = append(g.src, src)
		}
		if g.mask != nil {
			g.mask = append(g.mask, 0)
		}
		if g.color == nil {
			g.color = make([][4]float32, len(g.pos)-1)
			for i := range g.color {
				g.color[i] = [4]float32{1, 1, 1, 1}
			}
		}
		g.color = append(g.color, [4]float32{shade, shade, shade, 1})
		h.foot, h.height = append(h.foot, s.at), append(h.height, height)
	}
	// The hood's rows, then its skirt: the lower edge again, at the foot
	// of the hood, a little darker (the shade under the hood's edge).
	for r := 0; r <= hoodRows; r++ {
		for i := range cols {
			side := math.Abs(-1 + 2*float64(i)/hoodCols)
			add(cols[i][r], uvs[i][r], hoodHeight(float64(r)/hoodRows, side), hoodShade(float64(r)/hoodRows))
		}
	}
	for i := range cols {
		add(cols[i][hoodRows], uvs[i][hoodRows], hoodTuck, 0.72)
	}
	w := uint32(hoodCols + 1)
	at := func(r, i uint32) uint32 { return first + r*w + i }
	firstTri := len(g.tris)
	h.tris = firstTri
	for r := range uint32(hoodRows + 1) {
		for i := range uint32(hoodCols) {
			a, b, c, d := at(r, i), at(r, i+1), at(r+1, i), at(r+1, i+1)
			g.tris = append(g.tris, [3]uint32{a, c, b}, [3]uint32{b, c, d})
		}
	}
	// Its two ends turned down onto the back too: the end columns'
	// points joined to their feet.
	for _, i := range []int{0, hoodCols} {
		base := uint32(len(g.pos))
		for r := 0; r <= hoodRows; r++ {
			add(cols[i][r], uvs[i][r], hoodTuck, 0.72)
		}
		for r := range uint32(hoodRows) {
			a, b := at(r, uint32(i)), at(r+1, uint32(i))
			fa, fb := base+r, base+r+1
			g.tris = append(g.tris, [3]uint32{a, b, fa}, [3]uint32{fa, b, fb})
		}
	}
	// Normals: out from the back (the cloth's under the hood), the
	// triangles wound to match.
	acc := make([]vec3, len(g.pos)-int(first))
	for t := firstTri; t < len(g.tris); t++ {
		tr := g.tris[t]
		n := v3(g.pos[tr[1]]).sub(v3(g.pos[tr[0]])).cross(v3(g.pos[tr[2]]).sub(v3(g.pos[tr[0]])))
		out := vec3{}
		for _, v := range tr {
			out = out.add(v3(g.pos[v]).sub(h.foot[v-first]))
		}
		if n.dot(out) < 0 {
			g.tris[t][1], g.tris[t][2] = tr[2], tr[1]
			n = n.scale(-1)
		}
		for _, v := range tr {
			acc[v-first] = acc[v-first].add(n)
		}
	}
	for i, n := range acc {
		g.nrm[first+uint32(i)] = n.norm().f32()
	}
	return h
}

// liftHair moves the long hair lying on the back out over the hood.
// Every hair vertex behind the back, level with the hood and within its
// span, is set at least hoodThick and hoodClear off the back's cloth,
// along its normal; the lift fades in below the hood's top (hair on the
// nape, a bun, stays) and out to
// the sides and below its lower point, by height and angle alone, so
// each strand moves as a whole and neighbouring strands alike (a lift
// by distance to the hood tore the hair's cards apart, and the long
// triangles at their tips still dipped under the hood's edge).
func (h *hood) liftHair(hair *part, top *part, neck [3]float32) {
	if h == nil || hair == nil {
		return
	}
	back := &part{pos: top.pos, nrm: top.nrm, tris: top.tris[:h.tris]}
	c := newTriCells(back, underRadius)
	nc := v3(neck)
	for v, p := range hair.pos {
		pv := v3(p)
		need := hoodLiftNeed(pv, nc)
		if need == 0 {
			continue
		}
		tri, q, b := c.nearest(p, back)
		if tri < 0 {
			continue
		}
		var n vec3
		for k, u := range back.tris[tri] {
			n = n.add(v3(back.nrm[u]).scale(b[k]))
		}
		n = n.norm()
		above := pv.sub(vec3(q)).dot(n)
		if above < -0.04 {
			// Deep inside the top: not hair on its back. (Long hair's tips
			// sink a little into a broad back; those come out too.)
			continue
		}
		if above < need {
			hair.pos[v] = pv.add(n.scale(need - above)).f32()
		}
	}
}

// hoodClear is how far liftHair sets hair off the hood, over hoodThick.
const hoodClear = 0.012

// hoodLiftNeed is how far off the back's cloth liftHair sets the hair
// vertex p (0: it stays), for the neck joint nc.
func hoodLiftNeed(p, nc vec3) float64 {
	d := p.sub(nc)
	if d[2] > 0 {
		return 0 // in front of the neck
	}
	ramp := func(x float64) float64 {
		x = math.Max(0, math.Min(1, x))
		return x * x * (3 - 2*x)
	}
	down := -d[1]
	a := math.Atan2(d[0], -d[2])
	return (hoodThick + hoodClear) *
		ramp((down-hoodTop+0.01)/0.025) *
		ramp((hoodTop+hoodLength+0.15-down)/0.1) *
		ramp((hoodSpan+20*math.Pi/180-math.Abs(a))/(20*math.Pi/180))
}
