package avatar

import (
	"math"

	"github.com/kilnhq/kiln/assets/avatar/human"
)

// The bob ("bun"), as one smooth shell. MakeHuman's braid01 is a few
// hundred big flat cards: lifted and drawn solid (thickenHair) they
// read in issue 22's panel (p14) as a "faceted, jagged bowl" on every
// bun avatar (random-02, -04, -05, -17): big flat facets, a ragged
// lower outline, streaks where one card ends over the next. The
// leader's hair is a few big clean masses with soft shading and a
// clean silhouette. bobHair keeps braid01's size and cut (how far out
// the hair stands in each direction, how low it falls round the head)
// but draws it as one surface: a grid in directions from the middle of
// the skull, its radius the cards' outer envelope blurred over a few
// centimetres (so no card's corner shows) and kept clear of the skin,
// its lower edge one smooth curve round the head, turned in at the
// ends so the edge shows a thickness instead of a paper rim, and its
// inside over the lower half drawn as a second, shaded sheet, as the
// inside of a cut is in shade. The
// braid's tail below the nape is left off: no portrait shows it, and
// the bob's line at the nape is the cut people see.

// bobbed is whether a hair style is drawn as the generated bob shell.
func bobbed(style string) bool { return style == "bun" }

const (
	// bobCols and bobRows are the shell's grid: columns round the head
	// (5° apart, 9.6 mm at the hair's 11 cm, where a chord lies 0.1 mm
	// inside the round: no facet a 512-px portrait can show) and rows
	// from the crown to the lower edge (about 1 cm apart at the sides).
	// 3,500 triangles, fewer than braid01's 5,500 cards and their rims:
	// the budget leaves the garments what it left them before.
	bobCols = 72
	bobRows = 22
	// bobBins is the envelope's bins per 180° (5° each), in azimuth and
	// elevation.
	bobBins = 36
	// bobBlur is how many [1 2 1] passes smooth the envelope: ten
	// spread a bump over about ±12° (2.5 cm), larger than braid01's cards.
	bobBlur = 6
	// bobEdgeBlur smooths the lower edge round the head (passes over
	// the columns, each [1 2 1]): about ±10°.
	bobEdgeBlur = 8
	// bobLift is how much fuller than braid01's cards the shell is over
	// the crown (metres): the cards hugged it (9.5 mm over the scalp at
	// the median, TestHairStandsOffScalp asks 10).
	bobLift = 0.005
	// bobSkinGap is the least the shell stands over the skin (metres).
	bobSkinGap = 0.006
	// bobTuck is how far the lower edge turns in toward the head at
	// least (metres), the cut's thickness; bobTuckMax at most, where the
	// skin lies farther in.
	bobTuck    = 0.01
	bobTuckMax = 0.025
	// bobNape is how far below the eyes the bob ends at the back
	// (metres), about as low as its sides: braid01's cards below it are
	// the braid's tail.
	bobNape = 0.09
	// bobInner is how many rows of the shell's inside are drawn, from
	// the tuck up (about the lower half: what shows between the bob's
	// ends and the jaw); bobInside is how much of the hair's light they
	// keep (COLOR_0), the shade inside a cut.
	bobInner  = 10
	bobInside = 0.45
	// bobSample is the spacing of the points sampled on the cards
	// (metres).
	bobSample = 0.004
)

// bobFrame is where the shell is drawn from: the middle of the skull at
// the eyes' height.
type bobFrame struct{ c vec3 }

func (f bobFrame) polar(p vec3) (a, e, r float64) {
	d := p.sub(f.c)
	r = d.len()
	return math.Atan2(d[0], d[2]), math.Asin(math.Max(-1, math.Min(1, d[1]/math.Max(r, 1e-9)))), r
}

func dirOf(a, e float64) vec3 {
	return vec3{math.Cos(e) * math.Sin(a), math.Sin(e), math.Cos(e) * math.Cos(a)}
}

// bobGrid is a value per direction, bobBins×2 azimuth bins by bobBins
// elevation bins; NaN where nothing was seen.
type bobGrid [][]float64

func newBobGrid() bobGrid {
	g := make(bobGrid, 2*bobBins)
	for i := range g {
		g[i] = make([]float64, bobBins)
		for j := range g[i] {
			g[i][j] = math.NaN()
		}
	}
	return g
}

func bobBin(a, e float64) (int, int) {
	i := int(math.Floor((a + math.Pi) / math.Pi * bobBins))
	j := int(math.Floor((e + math.Pi/2) / math.Pi * bobBins))
	return (i%(2*bobBins) + 2*bobBins) % (2 * bobBins), max(0, min(bobBins-1, j))
}

// fill gives the empty bins the mean of their seen neighbours, round
// after round, until every bin has a value.
func (g bobGrid) fill() {
	for {
		empty := false
		next := make([][]float64, len(g))
		for i := range g {
			next[i] = append([]float64(nil), g[i]...)
			for j := range g[i] {
				if !math.IsNaN(g[i][j]) {
					continue
				}
				s, n := 0.0, 0
				for _, d := range [][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
					ii, jj := (i+d[0]+len(g))%len(g), j+d[1]
					if jj < 0 || jj >= bobBins || math.IsNaN(g[ii][jj]) {
						continue
					}
					s += g[ii][jj]
					n++
				}
				if n > 0 {
					next[i][j] = s / float64(n)
				} else {
					empty = true
				}
			}
		}
		copy(g, next)
		if !empty {
			return
		}
	}
}

// blur smooths g by passes of [1 2 1] in azimuth (round the head) and
// elevation.
func (g bobGrid) blur(passes int) {
	n := len(g)
	for range passes {
		next := make([][]float64, n)
		for i := range g {
			next[i] = make([]float64, bobBins)
			for j := range g[i] {
				next[i][j] = (g[(i+n-1)%n][j] + 2*g[i][j] + g[(i+1)%n][j]) / 4
			}
		}
		for i := range next {
			for j := range next[i] {
				lo, hi := next[i][max(0, j-1)], next[i][min(bobBins-1, j+1)]
				g[i][j] = (lo + 2*next[i][j] + hi) / 4
			}
		}
	}
}

// roundCrown blends each row of g toward its mean round the head, fully
// at the crown and not at all below bobCrown: near the crown the bins
// round the head meet in a few centimetres, and their own values there
// drew a ragged peak.
func (g bobGrid) roundCrown() {
	for j := 0; j < bobBins; j++ {
		e := (float64(j)+0.5)/bobBins*math.Pi - math.Pi/2
		w := smoothstep(bobCrown, math.Pi/2, e)
		if w == 0 {
			continue
		}
		m := 0.0
		for i := range g {
			m += g[i][j]
		}
		m /= float64(len(g))
		for i := range g {
			g[i][j] += w * (m - g[i][j])
		}
	}
}

// bobCrown is the elevation (radians) above which roundCrown evens the
// shell round the head.
const bobCrown = 45 * math.Pi / 180

// at is g at (a, e), bilinear between bin centres.
func (g bobGrid) at(a, e float64) float64 {
	x := (a+math.Pi)/math.Pi*bobBins - 0.5
	y := math.Max(0, math.Min(bobBins-1, (e+math.Pi/2)/math.Pi*bobBins-0.5))
	i0, j0 := int(math.Floor(x)), int(math.Floor(y))
	fx, fy := x-float64(i0), y-float64(j0)
	n := len(g)
	i1, j1 := (i0+1+n)%n, min(bobBins-1, j0+1)
	i0 = (i0%n + n) % n
	return (1-fy)*((1-fx)*g[i0][j0]+fx*g[i1][j0]) + fy*((1-fx)*g[i0][j1]+fx*g[i1][j1])
}

// sampleTris calls visit with points over each triangle, no farther
// apart than bobSample.
func sampleTris(pos [][3]float32, tris [][3]uint32, visit func(vec3)) {
	for _, t := range tris {
		a, b, c := v3(pos[t[0]]), v3(pos[t[1]]), v3(pos[t[2]])
		l := math.Max(b.sub(a).len(), math.Max(c.sub(b).len(), a.sub(c).len()))
		k := max(1, int(math.Ceil(l/bobSample)))
		for u := 0; u <= k; u++ {
			for v := 0; u+v <= k; v++ {
				s, t := float64(u)/float64(k), float64(v)/float64(k)
				visit(a.add(b.sub(a).scale(s)).add(c.sub(a).scale(t)))
			}
		}
	}
}

// bobHair builds the bob's shell from the fitted braid01 cards (cards,
// their fringe already raised off the eyes: raiseFringe) over head. The
// part takes each vertex's skin weights from the nearest card vertex,
// is not moved by face shapes, is not simplified by the budget, and is
// drawn opaque.
func bobHair(cards, head *part, joints map[string][3]float32) *part {
	eye := float64(joints["LeftEye"][1]+joints["RightEye"][1]) / 2
	h := joints["Head"]
	f := bobFrame{c: vec3{float64(h[0]), eye, float64(h[2])}}

	// The cards' outer envelope and lower edge, and the skin's.
	outer, skin := newBobGrid(), newBobGrid()
	low := make([]float64, 2*bobBins)
	for i := range low {
		low[i] = math.NaN()
	}
	sampleTris(cards.pos, cards.tris, func(p vec3) {
		if p[1] < eye-bobNape {
			return
		}
		a, e, r := f.polar(p)
		i, j := bobBin(a, e)
		if math.IsNaN(outer[i][j]) || r > outer[i][j] {
			outer[i][j] = r
		}
		if y := p[1] - eye; math.IsNaN(low[i]) || y < low[i] {
			low[i] = y
		}
	})
	sampleTris(head.pos, head.tris, func(p vec3) {
		a, e, r := f.polar(p)
		i, j := bobBin(a, e)
		if math.IsNaN(skin[i][j]) || r > skin[i][j] {
			skin[i][j] = r
		}
	})
	skin.fill()
	// The skin's highest in each bin and its neighbours, so the shell
	// between bin centres stays clear of it too.
	clear := newBobGrid()
	for i := range skin {
		for j := range skin[i] {
			m := 0.0
			for di := -1; di <= 1; di++ {
				for dj := -1; dj <= 1; dj++ {
					m = math.Max(m, skin[(i+di+len(skin))%len(skin)][max(0, min(bobBins-1, j+dj))])
				}
			}
			clear[i][j] = m + bobSkinGap
		}
	}
	outer.fill()
	for i := range outer {
		for j := range outer[i] {
			outer[i][j] = math.Max(outer[i][j], clear[i][j])
		}
	}
	outer.blur(bobBlur)
	outer.roundCrown()
	// The lower edge: the lowest card round the head, smoothed.
	for range bobEdgeBlur {
		next := make([]float64, len(low))
		for i := range low {
			next[i] = (low[(i+len(low)-1)%len(low)] + 2*low[i] + low[(i+1)%len(low)]) / 4
		}
		low = next
	}
	// Over the face the edge is the fringe, kept off the brows.
	for i := range low {
		a := (float64(i)+0.5)/bobBins*math.Pi - math.Pi
		if x := math.Abs(math.Sin(a)) * outer.at(a, 0); x < fringeOuter && math.Abs(a) < math.Pi/2 {
			low[i] = math.Max(low[i], bobFringeFloor*(1-smoothstep(fringeInner, fringeOuter, x)))
		}
	}
	// edge is the elevation of the lower edge at azimuth a: the height
	// low gives there, raised where the locks end short (bobLockRise),
	// on the shell.
	edge := func(a float64) float64 {
		x := (a+math.Pi)/math.Pi*bobBins - 0.5
		i0 := int(math.Floor(x))
		fx := x - float64(i0)
		n := len(low)
		y := (1-fx)*low[(i0%n+n)%n] + fx*low[(i0+1+n)%n] + bobLockRise(a)
		e := 0.0
		for range 4 {
			e = math.Asin(math.Max(-1, math.Min(1, y/outer.at(a, e))))
		}
		return e
	}

	p := &part{minKeep: 1}
	// The grid: column k at azimuth a (the seam's column twice, for the
	// UVs), row i from the crown (i = 0) to the edge (bobRows), then the
	// tuck's two rows turning in under it.
	rows := bobRows + 2 + bobInner
	idx := func(k, i int) uint32 { return uint32(k*(rows+1) + i) }
	for k := 0; k <= bobCols; k++ {
		a := -math.Pi + 2*math.Pi*float64(k)/bobCols
		e0 := edge(a)
		col := make([]vec3, 0, bobRows+1)
		floor := make([]vec3, 0, bobRows+1)
		// The tuck reaches in to the skin behind the edge (a fringe's
		// gap over the forehead shows no inside), within bobTuck and
		// bobTuckMax.
		tuck := math.Max(bobTuck, math.Min(bobTuckMax, outer.at(a, e0)-clear.at(a, e0)+bobSkinGap))
		for i := 0; i <= rows; i++ {
			var q vec3
			if i <= bobRows {
				e := math.Pi/2 - (math.Pi/2-e0)*float64(i)/bobRows
				// Volume over the crown, as the leader's hair stands
				// off the head on top.
				// The gaps between the locks sunk in (bobLockSink).
				sink, _ := bobLockSink(a, float64(i)/bobRows)
				r := math.Max(outer.at(a, e)+bobLift*smoothstep(0.1, 1.2, e)-sink, clear.at(a, e))
				q = f.c.add(dirOf(a, e).scale(r))
				col = append(col, q)
				floor = append(floor, f.c.add(dirOf(a, e).scale(clear.at(a, e))))
			} else {
				// Turned in toward the skull's axis and up a little: a
				// rounded end of the thickness bobTuck; then the inside
				// (bobInner rows), the outside's rows moved in as far.
				in := vec3{-math.Sin(a), 0, -math.Cos(a)}
				s := math.Min(2, float64(i-bobRows))
				from := col[bobRows-max(0, i-bobRows-2)]
				q = from.add(in.scale(tuck * s / 2)).add(vec3{0, bobTuck * 0.6 * s * s / 4, 0})
			}
			// The inside in its shade: lit as the outside, it showed
			// grey between the bob's ends and the jaw (random-02, -05).
			// The cut's rounded end halfway.
			// The outside's gaps between the locks in their shade.
			_, gap := bobLockSink(a, float64(i)/bobRows)
			l := float32(gap)
			if i == bobRows+1 {
				l = (1 + bobInside) / 2
			} else if i > bobRows+1 {
				l = bobInside
			}
			p.color = append(p.color, [4]float32{l, l, l, 1})
			p.pos = append(p.pos, q.f32())
			p.floor = append(p.floor, floor[min(i, bobRows-max(0, i-bobRows-2))].f32())
			p.nrm = append(p.nrm, dirOf(a, math.Pi/2-(math.Pi/2-e0)*math.Min(1, float64(i)/bobRows)).f32())
			p.uv = append(p.uv, [2]float32{float32(k) / bobCols, float32(i) / float32(rows)})
		}
	}
	for k := 0; k < bobCols; k++ {
		for i := 0; i < rows; i++ {
			a, b, c, d := idx(k, i), idx(k+1, i), idx(k+1, i+1), idx(k, i+1)
			if i == 0 {
				// The crown's row meets in one point.
				p.tris = append(p.tris, [3]uint32{a, d, c})
				continue
			}
			p.tris = append(p.tris, [3]uint32{a, d, c}, [3]uint32{a, c, b})
		}
	}
	p.inf = nearestInfluences(p.pos, cards)
	spreadUV(p)
	shellNormals(p)
	return p
}

// nearestInfluences is, for each point, the skin weights of the nearest
// vertex of from: searched in the 27 cells of bobCell round the point
// (a brute search over every card vertex was a sixth of a build's CPU),
// over them all where those hold none.
func nearestInfluences(pts [][3]float32, from *part) []human.Influence {
	var pairs bucketPairs
	for j, v := range from.pos {
		pairs.add(cellOf(v, bobCell), j)
	}
	cells := pairs.build()
	out := make([]human.Influence, len(pts))
	for i, q := range pts {
		best, at := math.Inf(1), -1
		near := func(j int) {
			d := v3(from.pos[j]).sub(v3(q))
			if l := d.dot(d); l < best {
				best, at = l, j
			}
		}
		for j := range cells.around(cellOf(q, bobCell), 1) {
			near(int(j))
		}
		if at < 0 {
			for j := range from.pos {
				near(j)
			}
		}
		out[i] = from.inf[at]
	}
	return out
}

// bobCell is the size of nearestInfluences' cells (metres): the shell
// lies within a few centimetres of the cards.
const bobCell = 0.03

// bareForehead clears the scalp's paint (scalpWeights) off the forehead
// under the bob's fringe: the fringe stands out from the forehead and
// covers it whole, so the paint is never needed there, and the rays
// from the skin just under the fringe's edge met the fringe and painted
// a ragged dark strip in the gap a portrait sees under it (random-02).
func bareForehead(mask []float32, head *part, joints map[string][3]float32) {
	eye := float64(joints["LeftEye"][1]+joints["RightEye"][1]) / 2
	ear := float64(joints["Head"][2]) + 0.012
	for i, q := range head.pos {
		front := smoothstep(ear-0.01, ear+0.01, float64(q[2]))
		mask[i] *= float32(1 - front*smoothstep(eye+bobForehead+0.02, eye+bobForehead, float64(q[1])))
	}
}

// bobForehead is how high over the eyes (metres) the forehead is kept
// bare under the fringe; fading out 2 cm above.
const bobForehead = 0.06
