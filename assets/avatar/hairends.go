package avatar

import (
	"math"
	"slices"

	"github.com/kilnhq/kiln/assets/disjoint"
)

// Lock tips. MakeHuman's long cuts end in a level line: every card of a
// hanging sheet stops at the same height, and drawn opaque with a rim
// (thickenHair) the sheet ends in a square block (issue 22's panel:
// "blocky", "ends cut square"). Hair hanging loose ends in locks that
// thin to tips at different lengths. taperHairEnds raises the bottom of
// each hanging sheet between locks: along the way round the head the
// lower border becomes a row of points (the tips) with notches between
// them, each lock a little longer or shorter than its neighbours. The
// sheet above the taper is left where it is, and the taper shrinks the
// sheet's last taperLength metres only, so no triangle folds over.

// Lock tips (metres): a lock is about taperLock wide round the head (a
// whole number of them go round, so the locks meet at the back); the notch
// between two locks rises up to taperDepth above the tips, over the
// sheet's last taperLength (at most taperShare of the sheet's height).
// An open edge there longer than taperEdge is split (refineEnds), so no
// level stretch of the old cut is left between two tips.
const (
	taperLock   = 0.035
	taperDepth  = 0.07
	taperLength = 0.11
	taperShare  = 0.4
	taperEdge   = 0.015
)

// tapered is whether a style's hanging ends are tapered: long hair's.
// A bun's pieces at the nape are gathered up, not ends; a ponytail's
// tail already narrows to a point (TestLongHairTips: tip 0.06, level
// cut 1.4 cm untapered), and tapered it cost 2,885 triangles, which the
// body and garments gave.
func tapered(style string) bool { return style == "long" }

// hairEnds is where a hair part's hanging sheets end: each vertex's
// piece, the lowest point of each piece, and which vertices lie in the
// stretch that taperHairEnds shapes.
type hairEnds struct {
	piece  []int32
	in     []bool
	lo, hi map[int32]float64
	eye    float64
	cx, cz float64
}

// newHairEnds finds the hanging sheets of hair (nil for no hair).
func newHairEnds(hair *part, joints map[string][3]float32) *hairEnds {
	if len(hair.tris) == 0 {
		return nil
	}
	e := &hairEnds{lo: map[int32]float64{}, hi: map[int32]float64{}}
	e.eye = float64(joints["LeftEye"][1]+joints["RightEye"][1]) / 2
	h := joints["Head"]
	e.cx, e.cz = float64(h[0]), float64(h[2])-0.01
	// Pieces: welded vertices joined through their triangles.
	id, n := weldIDs(hair.pos)
	sets := disjoint.New[int32](n)
	for _, t := range hair.tris {
		a := sets.Union(id[t[0]], id[t[1]])
		sets.Union(a, id[t[2]])
	}
	e.piece = make([]int32, len(hair.pos))
	for i, p := range hair.pos {
		r := sets.Find(id[i])
		e.piece[i] = r
		y := float64(p[1])
		if l, ok := e.lo[r]; !ok || y < l {
			e.lo[r] = y
		}
		if u, ok := e.hi[r]; !ok || y > u {
			e.hi[r] = y
		}
	}
	e.in = make([]bool, len(hair.pos))
	for i, p := range hair.pos {
		r := e.piece[i]
		e.in[i] = float64(p[1]) < e.lo[r]+e.span(r)
	}
	return e
}

// span is how far up from its lowest point piece r is tapered: 0 for a
// piece that does not hang (see taperHairEnds).
func (e *hairEnds) span(r int32) float64 {
	l := e.lo[r]
	if l > e.eye-0.06 || e.hi[r]-l < 0.12 {
		return 0
	}
	return math.Min(taperLength, taperShare*(e.hi[r]-l))
}

// taperHairEnds tapers the lower ends of the hair's hanging sheets (see
// above). A sheet is a connected piece of the hair (vertices welded by
// position, so UV seams do not split it) whose lowest point hangs more
// than 6 cm below the eyes and that is at least 12 cm tall: the pieces
// on the crown and the short ones at the temples keep their shape.
func taperHairEnds(hair *part, joints map[string][3]float32, style string) {
	if !tapered(style) {
		return
	}
	e := newHairEnds(hair, joints)
	if e == nil {
		return
	}
	piece := refineEnds(hair, e.in, e.piece)
	lo := e.lo
	span := e.span
	cx, cz := e.cx, e.cz
	// Each lock's length: the notch depth scaled by a value fixed by the
	// lock's place round the head, so the same hair always gets the same
	// tips (same config, same bytes) and neighbouring locks differ.
	locks := math.Round(2 * math.Pi * 0.1 / taperLock)
	scale := func(k int) float64 {
		k = ((k % int(locks)) + int(locks)) % int(locks)
		u := uint64(k+1) * 0x9E3779B97F4A7C15
		u ^= u >> 29
		u *= 0xBF58476D1CE4E5B9
		u ^= u >> 32
		return 0.55 + 0.45*float64(u%1000)/999
	}
	for i, p := range hair.pos {
		r := piece[i]
		l, sp := lo[r], span(r)
		y := float64(p[1])
		if sp == 0 || y >= l+sp {
			continue
		}
		t := (y - l) / sp
		// The way round the head, in locks.
		s := locks * math.Atan2(float64(p[0])-cx, float64(p[2])-cz) / (2 * math.Pi)
		k := int(math.Floor(s))
		f := s - float64(k)
		// 0 at a lock's tip (its middle), 1 at the notch on either side:
		// the notch's depth is the smaller of the two locks' so the
		// border stays continuous across it.
		notch := math.Abs(2*f - 1)
		var depth float64
		if f < 0.5 {
			depth = math.Min(scale(k), scale(k-1))
		} else {
			depth = math.Min(scale(k), scale(k+1))
		}
		// A lock's sides curve into its tip (not a straight V).
		rise := taperDepth * math.Min(1, sp/taperLength) * depth * notch * notch * (3 - 2*notch)
		hair.pos[i][1] = float32(y + rise*(1-t))
	}
}

// refineEnds splits at its middle every open edge of hair (one
// triangle's, vertices welded by position) longer than taperEdge whose
// two ends are both in, and each triangle into two, three or four
// accordingly. Only the open edges, where the tips and notches are
// drawn: splitting every edge of the tapered stretch cost long hair
// 1,424 triangles (at the budget's 0.78), which the body and garments
// gave; these cost 536 for the same tips (TestLongHairTips). An open
// edge has one triangle, so no vertex lies on another's edge. A new vertex takes the mean position, normal and UV
// and its first end's skin, source and piece; piece, extended to the new
// vertices, is returned.
func refineEnds(p *part, in []bool, piece []int32) []int32 {
	weld := func(v uint32) [3]int32 {
		q := p.pos[v]
		return weldKey(q)
	}
	edgeKey := func(a, b uint32) [2][3]int32 {
		ka, kb := weld(a), weld(b)
		if ka[0] > kb[0] || (ka[0] == kb[0] && (ka[1] > kb[1] || (ka[1] == kb[1] && ka[2] > kb[2]))) {
			ka, kb = kb, ka
		}
		return [2][3]int32{ka, kb}
	}
	use := map[[2][3]int32]int{}
	for _, t := range p.tris {
		for k := 0; k < 3; k++ {
			use[edgeKey(t[k], t[(k+1)%3])]++
		}
	}
	mid := map[[2]uint32]uint32{}
	at := func(a, b uint32) (uint32, bool) {
		if !in[a] || !in[b] || use[edgeKey(a, b)] != 1 || v3(p.pos[a]).sub(v3(p.pos[b])).len() <= taperEdge {
			return 0, false
		}
		k := [2]uint32{min(a, b), max(a, b)}
		if v, ok := mid[k]; ok {
			return v, true
		}
		a, b = k[0], k[1]
		v := uint32(len(p.pos))
		mid[k] = v
		p.pos = append(p.pos, v3(p.pos[a]).add(v3(p.pos[b])).scale(0.5).f32())
		if n := v3(p.nrm[a]).add(v3(p.nrm[b])); n.len() > 1e-9 {
			p.nrm = append(p.nrm, n.norm().f32())
		} else {
			p.nrm = append(p.nrm, p.nrm[a])
		}
		p.uv = append(p.uv, [2]float32{(p.uv[a][0] + p.uv[b][0]) / 2, (p.uv[a][1] + p.uv[b][1]) / 2})
		p.inf = append(p.inf, p.inf[a])
		if p.src != nil {
			p.src = append(p.src, p.src[a])
		}
		if p.base != nil {
			p.base = append(p.base, p.base[a])
		}
		if p.mask != nil {
			p.mask = append(p.mask, p.mask[a])
		}
		if p.color != nil {
			p.color = append(p.color, p.color[a])
		}
		piece = append(piece, piece[a])
		return v, true
	}
	tris := make([][3]uint32, 0, len(p.tris))
	for _, t := range p.tris {
		var m [3]uint32
		var split [3]bool
		n := 0
		for k := 0; k < 3; k++ {
			m[k], split[k] = at(t[k], t[(k+1)%3])
			if split[k] {
				n++
			}
		}
		// Turned so that the edges split are the first ones (t0t1, then
		// t1t2), keeping the triangle's turn.
		r := 0
		switch n {
		case 1:
			for !split[r] {
				r++
			}
		case 2:
			for split[(r+2)%3] {
				r++
			}
		}
		a, b, c := t[r], t[(r+1)%3], t[(r+2)%3]
		ab, bc, ca := m[r], m[(r+1)%3], m[(r+2)%3]
		switch n {
		case 0:
			tris = append(tris, t)
		case 1:
			tris = append(tris, [3]uint32{a, ab, c}, [3]uint32{ab, b, c})
		case 2:
			tris = append(tris, [3]uint32{ab, b, bc}, [3]uint32{a, ab, bc}, [3]uint32{a, bc, c})
		case 3:
			tris = append(tris, [3]uint32{a, ab, ca}, [3]uint32{ab, b, bc}, [3]uint32{ca, bc, c}, [3]uint32{ab, bc, ca})
		}
	}
	p.tris = tris
	return piece
}

// shapeCopy is a copy of the part whose positions and triangles can be
// changed, and vertices added, without changing the part: what
// thickTriangles tapers to count the triangles thickenHair will add.
func (p *part) shapeCopy() *part {
	q := *p
	q.pos, q.tris = slices.Clone(p.pos), slices.Clone(p.tris)
	q.nrm, q.uv, q.inf = slices.Clip(p.nrm), slices.Clip(p.uv), slices.Clip(p.inf)
	q.src, q.base, q.mask, q.color = slices.Clip(p.src), slices.Clip(p.base), slices.Clip(p.mask), slices.Clip(p.color)
	return &q
}
