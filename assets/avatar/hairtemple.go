package avatar

import (
	"cmp"
	"math"
	"slices"
)

// The ponytail's temples. MakeHuman's ponytail cap ends about 5 cm over
// the ear from the ear's back to the forehead's corner: its cards hung
// down the temple, and once the cards were lifted over the ears
// (tuckOverEars) and dropped (dropCapCards) the cap's own edge was the
// hairline, a level, sharp-cornered step high over the ear with bare
// skin down to the ear's top (issue 22, panel p28 on random-15: "an odd
// bald-looking hairline at the temples"; the bare temples made the
// forehead look very wide). A pulled-back ponytail's hairline comes down
// to the ear's top and rounds forward into the temple.
//
// lowerTemples stretches the cap down each temple. The cap's edge at
// each depth is where its hair, read down from templeHairTop over the
// ear's top, first gives way to skin (hangFrom), taken as one curve
// over the cap's notches and flaps. The target edge lies earClear and
// templeSqueeze over the ear's top (where tuckOverEars lays the sides)
// from templeBehind behind the ear to templeHold in front of it, and
// rises from there as a parabola to templeHairTop at the eyes' depth,
// so the corner is round and meets the cap's own edge at the forehead.
// In each column the hair between the edge and templeHairTop is
// stretched evenly down to the target, and what hangs under the edge
// (flaps, the sides behind the ear) is pressed between earClear and
// the target; the pressed slivers over and in front of the ears are
// dropped. Every moved point keeps its height off the skin (the head's
// side under it, cast across), coming down onto it toward the lowered
// edge (templeFeather), so the hair lies close on the head and its edge
// does not stand out of the head's outline over the ear. It runs after
// dropCapCards, before the budget, on the fitted cap, in the whole
// build and in the creator's parts alike.

// Heights over the ear's top and reaches in front of its front
// (metres).
const (
	// templeHairTop is the height over the ear's top from which the
	// hair stays where it is: the cap's edge lies about 5 cm over it.
	templeHairTop = 0.09
	// templeHold is how far in front of the ear's front the edge stays
	// down; it rises from there to templeHairTop at the eyes' depth.
	templeHold = 0.01
	// templeBehind is how far behind the ear's back the lowering fades
	// out: behind it the sides hang down behind the ear already.
	templeBehind = 0.015
	// templeSqueeze is the height over earClear that the lowered edge
	// lies at and that what hung under it is pressed into, so no
	// triangle of it folds flat.
	templeSqueeze = 0.003
	// templeFeather is how far over the lowered edge the hair comes
	// down from its height off the skin to the skin.
	templeFeather = 0.015
)

// lowerTemples brings a tucked style's hairline down to the ears (see
// above).
func lowerTemples(hair, head *part, joints map[string][3]float32, style string) {
	if !tucksEars(style) || len(hair.tris) == 0 {
		return
	}
	eyeZ := float64(joints["LeftEye"][2]+joints["RightEye"][2]) / 2
	pressed := make([]bool, len(hair.pos))
	for s, e := range earBoxes(head, joints) {
		if math.IsInf(e.top, 0) {
			continue
		}
		sign := 1.0
		if s == 1 {
			sign = -1
		}
		side := func(p [3]float32) bool { return float64(p[0])*sign > 0 }
		floor, top := e.top+earClear, e.top+templeHairTop
		back, reach := e.back-templeBehind, eyeZ
		// target is where the hair's edge comes down to at z: floor
		// (and templeSqueeze) over the ear and just in front of it,
		// rising to top by reach, and fading back up behind the ear's
		// back.
		target := func(z float64) float64 {
			u := math.Max(0, math.Min(1, (z-e.front-templeHold)/(reach-e.front-templeHold)))
			w := smoothstep(back, e.back, z) * (1 - u*u)
			return top - w*(top-floor-templeSqueeze)
		}
		edge := hangFrom(hair, sign, back, reach, top)
		skin := newSideCaster(head, sign, e.top-0.01, top+0.01)
		for i, p := range hair.pos {
			y, z := float64(p[1]), float64(p[2])
			if !side(p) || y >= top || z <= back || z >= reach {
				continue
			}
			from, to := edge(z), target(z)
			if math.IsInf(from, 1) || from <= to || y <= floor {
				continue
			}
			// Under the edge (flaps of the cap, the sides behind the
			// ear, and the skin between them): pressed down between
			// floor and the lowered edge. Over it: stretched down.
			ny := floor + (y-floor)*(to-floor)/(from-floor)
			pressed[i] = y <= from && z > e.back
			if y > from {
				ny = to + (y-from)*(top-to)/(top-from)
			}
			was, ok1 := skin.at(y, z)
			now, ok2 := skin.at(ny, z)
			hair.pos[i][1] = float32(ny)
			if ok1 && ok2 {
				// Toward the lowered edge the hair comes down onto the
				// skin, so its edge does not stand out of the head's
				// outline over the ear.
				off := math.Max(float64(p[0])*sign-was, 0) * smoothstep(to, to+templeFeather, ny)
				hair.pos[i][0] = float32(sign * (now + off))
			}
		}
	}
	// What was pressed under the edge over and in front of the ears
	// lies in a band templeSqueeze tall: slivers that showed as a
	// ragged flick under the hair's edge.
	dropTriangles(hair, func(v uint32) bool { return pressed[v] })
}

// templeColumn is the width (metres) of the columns hangFrom reads the
// hair's edge in.
const templeColumn = 0.001

// templeSmooth is how far (metres) either way hangFrom looks for the
// cap's edge at a depth.
const templeSmooth = 0.01

// hangFrom is, at each depth z from back to front on side sign, how far
// down the hair covers the head unbroken from the height top: the
// bottom of the run of hair (triangles' cross-sections at z, on that
// side, merged where they meet) that reaches top. Hair that hangs lower
// with skin between (the sides behind the ear, under a notch) does not
// count. A depth whose hair does not reach top is +Inf. Between the
// columns it is read linearly.
func hangFrom(hair *part, sign, back, front, top float64) func(z float64) float64 {
	n := int(math.Ceil((front-back)/templeColumn)) + 1
	type span struct{ lo, hi float64 }
	cols := make([][]span, n)
	for _, t := range hair.tris {
		var p [3]vec3
		ok := true
		for k := range 3 {
			p[k] = v3(hair.pos[t[k]])
			ok = ok && p[k][0]*sign > 0
		}
		if !ok {
			continue
		}
		zlo := math.Min(p[0][2], math.Min(p[1][2], p[2][2]))
		zhi := math.Max(p[0][2], math.Max(p[1][2], p[2][2]))
		for c := max(0, int(math.Ceil((zlo-back)/templeColumn))); c < n; c++ {
			z := back + float64(c)*templeColumn
			if z > zhi {
				break
			}
			sp := span{math.Inf(1), math.Inf(-1)}
			for k := range 3 {
				a, b := p[k], p[(k+1)%3]
				if (a[2] < z) == (b[2] < z) && a[2] != z {
					continue
				}
				y := a[1]
				if b[2] != a[2] {
					y = a[1] + (z-a[2])/(b[2]-a[2])*(b[1]-a[1])
				}
				sp.lo, sp.hi = math.Min(sp.lo, y), math.Max(sp.hi, y)
			}
			if sp.lo <= sp.hi {
				cols[c] = append(cols[c], sp)
			}
		}
	}
	edge := make([]float64, n)
	for c, spans := range cols {
		edge[c] = math.Inf(1)
		// From the top down: the lowest point the hair reaches
		// without a gap of more than a column's width.
		slices.SortFunc(spans, func(a, b span) int { return cmp.Compare(b.hi, a.hi) })
		reached := math.Inf(1)
		for _, sp := range spans {
			if math.IsInf(reached, 1) {
				if sp.hi < top {
					break
				}
				reached = sp.lo
				continue
			}
			if sp.hi < reached-templeColumn {
				break
			}
			reached = math.Min(reached, sp.lo)
		}
		edge[c] = reached
	}
	// The edge's highest within templeSmooth either way, then
	// averaged over as much: the cap's edge at the temple, as one curve
	// over its notches and flaps.
	w := int(math.Round(templeSmooth / templeColumn))
	high := make([]float64, n)
	for c := range high {
		high[c] = math.Inf(-1)
		for k := max(0, c-w); k <= min(n-1, c+w); k++ {
			if !math.IsInf(edge[k], 1) {
				high[c] = math.Max(high[c], edge[k])
			}
		}
	}
	smooth := make([]float64, n)
	for c := range smooth {
		sum, m := 0.0, 0
		for k := max(0, c-w); k <= min(n-1, c+w); k++ {
			if !math.IsInf(high[k], -1) {
				sum += high[k]
				m++
			}
		}
		smooth[c] = math.Inf(1)
		if m > 0 {
			smooth[c] = sum / float64(m)
		}
	}
	return func(z float64) float64 {
		f := (z - back) / templeColumn
		c := int(math.Floor(f))
		if c < 0 || c+1 >= n {
			return math.Inf(1)
		}
		a, b := smooth[c], smooth[c+1]
		if math.IsInf(a, 1) || math.IsInf(b, 1) {
			return math.Inf(1)
		}
		return a + (f-float64(c))*(b-a)
	}
}

// sideCaster finds how far out the head's skin lies on one side at a
// height and depth: a ray cast across from outside, toward the middle.
type sideCaster struct {
	sign float64
	pos  []vec3
	tris [][3]uint32
}

// newSideCaster keeps the head's triangles on side sign (+1 the left)
// that reach between the heights lo and hi.
func newSideCaster(head *part, sign, lo, hi float64) sideCaster {
	c := sideCaster{sign: sign, pos: make([]vec3, len(head.pos))}
	for i, p := range head.pos {
		c.pos[i] = v3(p)
	}
	for _, t := range head.tris {
		a, b, d := c.pos[t[0]], c.pos[t[1]], c.pos[t[2]]
		if a[0]*sign <= 0 && b[0]*sign <= 0 && d[0]*sign <= 0 {
			continue
		}
		if math.Max(a[1], math.Max(b[1], d[1])) < lo || math.Min(a[1], math.Min(b[1], d[1])) > hi {
			continue
		}
		c.tris = append(c.tris, t)
	}
	return c
}

// at is |x| of the outermost skin at height y and depth z (glasses.go's
// sideWidth over the kept triangles), and whether the line met any.
func (c sideCaster) at(y, z float64) (float64, bool) {
	w := sideWidth(c.pos, c.tris, y, z, c.sign)
	return w, w > 0
}
