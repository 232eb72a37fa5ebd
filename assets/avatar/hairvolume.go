package avatar

import (
	"math"
	"slices"
)

// Hair volume. MakeHuman's cuts are thin layers of cards that hug the
// scalp; drawn with an alpha cut-out they read as a painted shell with a
// jagged fringe, and the crown shows through them (issue 22's blind
// panel: "patchy scalp", "see-through cap", "wire artifacts"). The
// leader's hair is an opaque sculpted mass standing off the head with
// clean, thick edges. thickenHair makes the cards that kind of hair:
// it lifts them off the scalp (more on the crown and the sides of the
// head, little where the hair hangs), and closes every open edge with a
// rim that folds in toward the head, so an edge shows a lock's
// thickness, never a paper-thin card or its inside. The hair is then
// drawn opaque (hairMesh).

// Hair lift off the scalp (metres): hairLiftLow where hair hangs below
// the eyes, rising to hairLiftHigh from 7 cm above them; the rim reaches
// in toward the head that lift plus hairRimExtra, so it meets the old
// layer under it and closes the gap the lift opened. An open edge with
// hair more than hairCover farther out over it gets no rim (rimEdges).
const (
	hairLiftLow  = 0.002
	hairLiftHigh = 0.008
	hairRimExtra = 0.004
	hairCover    = 0.006
)

// solidHair is whether a hair style is lifted, rimmed and drawn as an
// opaque mass. Curly hair stays cards under an alpha cut-out: its cards
// lie every way, and drawn opaque they read as boxes.
func solidHair(style string) bool { return style != "curly" || sculpted(style) }

// hairFrame is where the hair is lifted from: a centre in the head at
// eye height, and below it a vertical axis through the head (hanging
// hair moves out sideways, not down).
type hairFrame struct {
	centre vec3
}

func newHairFrame(joints map[string][3]float32) hairFrame {
	eye := float64(joints["LeftEye"][1]+joints["RightEye"][1]) / 2
	h := joints["Head"]
	return hairFrame{centre: vec3{float64(h[0]), eye, float64(h[2]) - 0.01}}
}

// out is the unit direction in which the hair at p is lifted.
func (f hairFrame) out(p vec3) vec3 {
	d := p.sub(f.centre)
	if d[1] < 0 {
		d[1] = 0
	}
	if d.len() < 1e-9 {
		return vec3{0, 1, 0}
	}
	return d.norm()
}

// lift is how far the hair at p moves off the head.
func (f hairFrame) lift(p vec3) float64 {
	return hairLiftLow + (hairLiftHigh-hairLiftLow)*smoothstep(f.centre[1]-0.04, f.centre[1]+0.07, p[1])
}

// rimEdges are the hair's open edges that show (an edge of one
// triangle, vertices welded by position so UV seams are not edges), each
// as its triangle's two render vertices in that triangle's turn, in the
// order of the triangles (deterministic). An edge with more hair over it
// (farther out from the centre, by more than hairCover) is inside the
// mass, and an edge turned in to the head (a card's top, tucked under
// the hair above it) is seen by no one: a braided bun has 3,000 open
// edges, and rims on all of them would spend the body's triangles.
func rimEdges(hair *part, f hairFrame) [][2]uint32 {
	id, _ := weldIDs(hair.pos)
	type edge [2]int32
	count := map[edge]int{}
	for _, t := range hair.tris {
		for k := 0; k < 3; k++ {
			a, b := id[t[k]], id[t[(k+1)%3]]
			if a > b {
				a, b = b, a
			}
			count[edge{a, b}]++
		}
	}
	over := newRayBins(hair, f.centre)
	var out [][2]uint32
	for _, tri := range hair.tris {
		c := v3(hair.pos[tri[0]]).add(v3(hair.pos[tri[1]])).add(v3(hair.pos[tri[2]])).scale(1.0 / 3)
		for k := 0; k < 3; k++ {
			i, j := tri[k], tri[(k+1)%3]
			a, b := id[i], id[j]
			if a > b {
				a, b = b, a
			}
			if count[edge{a, b}] != 1 {
				continue
			}
			pi, pj := v3(hair.pos[i]), v3(hair.pos[j])
			mid := pi.add(pj).scale(0.5)
			r := mid.sub(f.centre).len()
			if r > 1e-6 && over.beyond(mid.sub(f.centre).scale(1/r), r+hairCover) {
				continue
			}
			if o := rimOut(pi, pj, c); o.dot(f.out(pi).add(f.out(pj)).norm()) < -0.5 && !f.fringeEdge(mid, o) {
				continue
			}
			out = append(out, [2]uint32{i, j})
		}
	}
	return out
}

// fringeEdge is whether the open edge whose middle is mid, and out of
// which the hair's surface would go on in direction o (rimOut), is the
// lower edge of a fringe: over the forehead, above the eyes, pointing
// down the face. Above the eyes out (from a centre at their height)
// tilts up, so such an edge, tilted back a little where the cards part,
// measured as turned in to the head and lost its rim, while its
// neighbours kept theirs: the rims hang half a centimetre below the
// cards' edge, and default-female's fringe had a notch 1.4 cm wide and
// 0.7 cm deep at its parting (issue 22's panel: "notched parting").
// Everyone who looks at the face sees that edge.
func (f hairFrame) fringeEdge(mid, o vec3) bool {
	return mid[1] > f.centre[1] && mid[2]-f.centre[2] > hairFringeFront && o[1] < -0.7
}

// hairFringeFront is how far in front of the hair frame's centre
// (metres) an edge over the forehead lies: the forehead is about 10 cm
// in front of it, the temples about 6.
const hairFringeFront = 0.07

// rimOut is the unit direction out of the edge ab of a triangle whose
// centre is c, across the edge and away from the triangle.
func rimOut(a, b, c vec3) vec3 {
	e := b.sub(a)
	m := a.add(e.scale(0.5)).sub(c)
	if el := e.dot(e); el > 1e-12 {
		m = m.sub(e.scale(m.dot(e) / el))
	}
	return m.norm()
}

// thickTriangles is how many triangles thickenHair will add to hair:
// the tapered ends' (taperHairEnds splits the triangles of a hanging
// sheet's last centimetres) and two for each edge that gets a rim,
// counted on a copy of the hair tapered as thickenHair will taper it.
// The budget asks it of the hair it has simplified, whose open edges
// are the rims' (asked of the whole hair, a bun's rims were counted
// 2,326 triangles where 3,024 were built, and the tapered ends with the
// rims about 4,850 where about 2,300 were).
func thickTriangles(hair *part, joints map[string][3]float32, style string) int {
	if !solidHair(style) || sculpted(style) || bobbed(style) || len(hair.tris) == 0 {
		return 0
	}
	h := hair
	if tapered(style) {
		h = hair.shapeCopy()
		taperHairEnds(h, joints, style)
	}
	return len(h.tris) - len(hair.tris) + 2*len(rimEdges(h, newHairFrame(joints)))
}

// thickenHair lifts the hair part off the head and adds a rim under each
// open edge that shows (rimEdges), reaching in toward the head. It runs
// after the budget (simplified, a rim collapses into the edge it
// closes); the budget has counted its triangles beforehand
// (thickTriangles). Long and ponytail hair's ends are tapered first
// (taperHairEnds). A rim
// vertex copies its edge vertex's UV, skin and source, so it is painted,
// skinned and shaped with it, and its normal too, so it shades as its
// card does. (Turned halfway out of its edge, for a rounded lock edge,
// the rim's normal pointed away from a viewer who saw the rim's face,
// and three.js lit those rims as light grey strips: the seam at
// default-female's temple and the light lines between the cards, issue
// 22's panel's "seams".) Long hair's fringe then gets a smooth lower
// edge (smoothFringeEdge). Curly hair is left as it is (solidHair).
func thickenHair(hair *part, joints map[string][3]float32, style string) {
	if !solidHair(style) || sculpted(style) || bobbed(style) || len(hair.tris) == 0 {
		return
	}
	taperHairEnds(hair, joints, style)
	f := newHairFrame(joints)
	edges := rimEdges(hair, f)
	dir := make([]vec3, len(hair.pos))
	depth := make([]float64, len(hair.pos))
	for i, p := range hair.pos {
		v := v3(p)
		dir[i] = f.out(v)
		l := f.lift(v)
		depth[i] = l + hairRimExtra
		hair.pos[i] = v.add(dir[i].scale(l)).f32()
	}
	rim := map[uint32]uint32{}
	hair.rimFrom = slices.Repeat([]int32{-1}, len(hair.pos))
	rimOf := func(i uint32) uint32 {
		if r, ok := rim[i]; ok {
			return r
		}
		r := uint32(len(hair.pos))
		rim[i] = r
		hair.rimFrom = append(hair.rimFrom, int32(i))
		hair.pos = append(hair.pos, v3(hair.pos[i]).sub(dir[i].scale(depth[i])).f32())
		hair.nrm = append(hair.nrm, hair.nrm[i])
		hair.uv = append(hair.uv, hair.uv[i])
		hair.inf = append(hair.inf, hair.inf[i])
		if hair.src != nil {
			hair.src = append(hair.src, hair.src[i])
		}
		if hair.base != nil {
			hair.base = append(hair.base, hair.base[i])
		}
		if hair.mask != nil {
			hair.mask = append(hair.mask, hair.mask[i])
		}
		return r
	}
	for _, e := range edges {
		i, j := e[0], e[1]
		ri, rj := rimOf(i), rimOf(j)
		// The same turn as the triangle, so the rim faces the way the
		// card's front does where it folds.
		hair.tris = append(hair.tris, [3]uint32{j, i, ri}, [3]uint32{j, ri, rj})
	}
	if tapered(style) {
		for range fringePasses {
			smoothFringeEdge(hair, f)
		}
	}
	smoothHairNormals(hair)
}

// hairSmoothRadius is how far (metres) smoothHairNormals reaches.
const hairSmoothRadius = 0.012

// smoothHairNormals shades the hair as one soft mass: each vertex's
// normal becomes the mean of the normals within hairSmoothRadius that
// face its way, weighted by nearness and agreement. MakeHuman's cuts are
// strips of separate cards, each with its own flat normals, and the rims
// fold at right angles: shaded as they were, the lifted hair stepped
// from card to card and creased at every edge (issue 22's panel:
// "faceted", "blocky"). Normals facing away (a card's other side, hair
// behind hair) are left out, so double-sided cards keep their sides.
// The strands and locks are drawn by the normal map over this.
func smoothHairNormals(hair *part) {
	r := hairSmoothRadius
	type cell = [3]int32
	at := func(p [3]float32) cell {
		return cell{int32(math.Floor(float64(p[0]) / r)), int32(math.Floor(float64(p[1]) / r)), int32(math.Floor(float64(p[2]) / r))}
	}
	keys := make([]cell, len(hair.pos))
	for i, p := range hair.pos {
		keys[i] = at(p)
	}
	// The vertices in cell order (pointGrid), each cell's in index
	// order as a map of lists had them, so the sums add up the same.
	cells := newPointGrid(keys)
	r2 := r * r
	gp, gn := make([]vec3, len(cells.order)), make([]vec3, len(cells.order))
	for k, j := range cells.order {
		gp[k], gn[k] = v3(hair.pos[j]), v3(hair.nrm[j])
	}
	out := make([][3]float32, len(hair.nrm))
	for i, p := range hair.pos {
		ni := v3(hair.nrm[i])
		pi := v3(p)
		sum := vec3{}
		c := keys[i]
		below, above := cellGaps(p, c, r)
		gap := func(a int, d int32) float64 {
			switch d {
			case -1:
				return below[a] * below[a]
			case 1:
				return above[a] * above[a]
			}
			return 0
		}
		for dx := int32(-1); dx <= 1; dx++ {
			for dy := int32(-1); dy <= 1; dy++ {
				for dz := int32(-1); dz <= 1; dz++ {
					if gap(0, dx)+gap(1, dy)+gap(2, dz) > r2 {
						continue // no vertex of that cell within r
					}
					lo, hi := cells.span(cell{c[0] + dx, c[1] + dy, c[2] + dz})
					for k := lo; k < hi; k++ {
						// Nearness first: it turns away most, and
						// without a division (dd >= r² gives q <= 0).
						d := gp[k].sub(pi)
						dd := d.dot(d)
						if dd >= r2 {
							continue
						}
						q := 1 - dd/r2
						if q <= 0 {
							continue
						}
						nj := gn[k]
						a := ni.dot(nj)
						if a < 0.2 {
							continue
						}
						sum = sum.add(nj.scale(q * q * a))
					}
				}
			}
		}
		if sum.len() > 1e-9 {
			out[i] = sum.norm().f32()
		} else {
			out[i] = hair.nrm[i]
		}
	}
	hair.nrm = out
}
