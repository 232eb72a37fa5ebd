package avatar

import "math"

// The mouth's inside (the teeth, the gums and the tongue) is fitted to
// the body as MakeHuman binds it, to the base mesh's triangles, and the
// head's skin is shaped by the age, build and face dials on its own. On
// a thin, old face the skin in the crease beside the nose's wings lies
// closer to the teeth than on the average face, and the top of the upper
// gums came through it: random-05 of the panel (65, build 0.62, head fat
// -0.34) showed two pink triangles a centimetre above the upper lip,
// beside each nostril; under jawOpen the lower gums of random-15 came
// through the chin beside the lower lip. tuckMouth keeps the mouth's
// inside behind the face's outer skin, looking from the front (along
// +Z), wherever that skin (not the lips, not the mouth's own lining) is
// what covers it.

// mouthTuck is how far behind the outer skin the gums' vertices are
// kept: enough that their triangles, a few millimetres across, stay
// under the curved skin between their vertices (at 1 mm under the face
// shapes some still came through; TestMouthInsideUnderSkin).
const mouthTuck = 0.003

// toothTuck is how far behind the outer skin a tooth that a face shape
// brings to it is moved: a hair, which covers the rounding of its turn.
const toothTuck = 0.0003

// faceCover is the head's triangles round the mouth seen from the front:
// a grid over X and Y, each cell listing the triangles whose box covers
// it, and what each triangle is (a coverKind).
type faceCover struct {
	tris  [][3][3]float64
	kind  []coverKind
	lo    [2]float64
	cell  float64
	dim   [2]int
	cells [][]int32
}

// coverKind is what a head triangle round the mouth is: the mouth's
// lining (or nothing: the kind over a point nothing covers), the face's
// outer skin, or the lips' outside (lip, none of it lining the mouth).
type coverKind uint8

const (
	coverLining coverKind = iota
	coverSkin
	coverLip
)

// lipSkin is the most of the lips (lipMask) outer skin may be: the lip
// volume dials move the skin round the lips a little too.
const lipSkin = 0.05

// faceCoverCell is the grid's cell size: some triangles per cell.
const faceCoverCell = 0.003

// newFaceCover gathers the head's triangles within reach of the box lo,
// hi (the mouth's inside) across and up, at any depth. A triangle is
// outer skin when none of its vertices is lip (lipMask) or lines the
// mouth (mouthMask), the lips' outside when some are lip and none lines
// the mouth.
func newFaceCover(head *part, lo, hi [3]float32) *faceCover {
	const reach = 0.01
	lips, inner := lipMask(), mouthMask()
	c := &faceCover{lo: [2]float64{float64(lo[0]) - reach, float64(lo[1]) - reach}, cell: faceCoverCell}
	for a := range 2 {
		c.dim[a] = int(math.Ceil((float64(hi[a])+reach-c.lo[a])/c.cell)) + 1
	}
	c.cells = make([][]int32, c.dim[0]*c.dim[1])
	for _, t := range head.tris {
		var tri [3][3]float64
		kind := coverSkin
		blo, bhi := [2]float64{math.Inf(1), math.Inf(1)}, [2]float64{math.Inf(-1), math.Inf(-1)}
		for k, v := range t {
			tri[k] = f64(head.pos[v])
			switch b := head.base[v]; {
			case inner[b] > 0:
				kind = coverLining
			case lips[b] > lipSkin && kind == coverSkin:
				kind = coverLip
			}
			for a := range 2 {
				blo[a], bhi[a] = math.Min(blo[a], tri[k][a]), math.Max(bhi[a], tri[k][a])
			}
		}
		i0, j0 := c.at(blo[0], 0), c.at(blo[1], 1)
		i1, j1 := c.at(bhi[0], 0), c.at(bhi[1], 1)
		if i1 < 0 || j1 < 0 || i0 >= c.dim[0] || j0 >= c.dim[1] {
			continue
		}
		id := int32(len(c.tris))
		c.tris, c.kind = append(c.tris, tri), append(c.kind, kind)
		for i := max(i0, 0); i <= min(i1, c.dim[0]-1); i++ {
			for j := max(j0, 0); j <= min(j1, c.dim[1]-1); j++ {
				c.cells[j*c.dim[0]+i] = append(c.cells[j*c.dim[0]+i], id)
			}
		}
	}
	return c
}

// at is the cell index of x along axis a, unclamped.
func (c *faceCover) at(x float64, a int) int {
	return int(math.Floor((x - c.lo[a]) / c.cell))
}

// over reports what covers p seen from the front: the depth of the
// first head surface in front of p (ahead, +Inf when none) and what it
// is, and the depth of the first surface behind p (behind, -Inf when
// none) and what that is.
func (c *faceCover) over(p [3]float64) (ahead float64, aheadKind coverKind, behind float64, behindKind coverKind) {
	ahead, behind = math.Inf(1), math.Inf(-1)
	i, j := c.at(p[0], 0), c.at(p[1], 1)
	if i < 0 || j < 0 || i >= c.dim[0] || j >= c.dim[1] {
		return
	}
	for _, t := range c.cells[j*c.dim[0]+i] {
		z, ok := depthAt(c.tris[t], p[0], p[1])
		if !ok {
			continue
		}
		if z >= p[2] && z < ahead {
			ahead, aheadKind = z, c.kind[t]
		}
		if z < p[2] && z > behind {
			behind, behindKind = z, c.kind[t]
		}
	}
	return
}

// depthAt is the Z of the triangle t at x, y, when its projection along
// Z holds that point.
func depthAt(t [3][3]float64, x, y float64) (float64, bool) {
	ax, ay := t[1][0]-t[0][0], t[1][1]-t[0][1]
	bx, by := t[2][0]-t[0][0], t[2][1]-t[0][1]
	det := ax*by - ay*bx
	if math.Abs(det) < 1e-14 {
		return 0, false
	}
	px, py := x-t[0][0], y-t[0][1]
	u := (px*by - py*bx) / det
	w := (ax*py - ay*px) / det
	if u < 0 || w < 0 || u+w > 1 {
		return 0, false
	}
	return t[0][2] + u*(t[1][2]-t[0][2]) + w*(t[2][2]-t[0][2]), true
}

// tuckMouth moves the mouth's inside (the parts: the teeth with the
// gums, the tongue) straight back where the head's outer skin covers it
// too closely or it has come through that skin. A tooth or the tongue,
// which an open mouth shows, moves back whole and only as far as it came
// through at rest (on no face drawn so far) or under a face shape
// (tuckGums: at most 1.1 mm on the panel), so that it keeps its shape.
// The gums, hidden wherever they are, keep each vertex mouthTuck behind
// the skin at rest and under every face shape (tuckGums).
func tuckMouth(head *part, inside ...*part) {
	var pts [][3]float32
	for _, p := range inside {
		pts = append(pts, p.pos...)
	}
	lo, hi := bounds(pts)
	c := newFaceCover(head, lo, hi)
	for _, p := range inside {
		piece, n := pieces(p.pos, p.tris)
		gum := -1
		if p.solid {
			gum = gumPiece(piece, n)
		}
		back := make([]float64, n)
		for i, v := range p.pos {
			q := f64(v)
			skin := c.skinOver(q)
			if piece[i] == gum {
				if z := skin - mouthTuck; q[2] > z {
					p.pos[i][2] = float32(z)
				}
				continue
			}
			back[piece[i]] = math.Max(back[piece[i]], q[2]-skin)
		}
		for i := range p.pos {
			if k := piece[i]; k != gum && back[k] > 0 {
				p.pos[i][2] -= float32(back[k])
			}
		}
		if gum >= 0 {
			tuckGums(head, p, piece, gum)
		}
	}
}

// tuckGums moves the gums' vertices (piece gum of the teeth) back at
// rest far enough that no face shape brings them out of the skin, and a
// tooth that a shape brings out back whole, toothTuck behind it. The
// gums keep the offsets their bindings carry (settle), which move them
// otherwise than the skin over them: under jawOpen the lower gums came
// 1.4 mm out through the chin beside the lower lip on random-15, and
// with them tucked two teeth showed there as white specks. A
// vertex's offsets do not depend on where it rests (a tooth's turn
// barely does), so moving it back moves it back as far under every
// shape. A side tooth (teethSide) that a shape brings out through the
// lips' outside (outOfLips) goes back whole too: the corners of a wide
// smile reach back past the premolars (white specks at the corners of
// random-09's mouthSmile once wrapMouth had bent the mouth round).
func tuckGums(head, teeth *part, piece []int, gum int) {
	push := make([]float64, len(teeth.pos))
	whole := make([]float64, len(teeth.pos))
	moved := make([][3]float32, len(head.pos))
	shaped := make([][3]float32, len(teeth.pos))
	side := 0.8 * teethSide * lipsHalf(head)
	h := *head
	for _, shape := range shapes() {
		// A shape that moves the teeth is checked against the skin; the
		// lips' corners move under shapes that leave the teeth still
		// (mouthSmile), so every shape that moves the head is checked
		// against the lips.
		d, hd := teeth.deltas(shape), head.deltas(shape)
		if d == nil && hd == nil {
			continue
		}
		copy(moved, head.pos)
		for i, o := range hd {
			moved[i] = addF(moved[i], o)
		}
		copy(shaped, teeth.pos)
		for i, o := range d {
			shaped[i] = addF(shaped[i], o)
		}
		h.pos = moved
		lo, hi := bounds(shaped)
		c := newFaceCover(&h, lo, hi)
		for i, v := range shaped {
			q := f64(v)
			k := piece[i]
			if o := c.outOfLips(q); o > 0 && math.Abs(q[0]) >= side {
				if k == gum {
					push[i] = math.Max(push[i], o+mouthTuck)
				} else {
					whole[k] = math.Max(whole[k], o+toothTuck)
				}
			}
			switch {
			case d == nil:
			case k != gum:
				whole[k] = math.Max(whole[k], q[2]-(c.skinOver(q)-toothTuck))
			default:
				push[i] = math.Max(push[i], q[2]-(c.skinOver(q)-mouthTuck))
			}
		}
		// A triangle of the teeth can cross the lips' curved corner
		// between its vertices: its edges' middles are checked too (a
		// gum's edge moves both its ends back).
		for _, t := range teeth.tris {
			k := piece[t[0]]
			for e := range 3 {
				a, b := t[e], t[(e+1)%3]
				q, r := f64(shaped[a]), f64(shaped[b])
				m := [3]float64{(q[0] + r[0]) / 2, (q[1] + r[1]) / 2, (q[2] + r[2]) / 2}
				o := c.outOfLips(m)
				switch {
				case o <= 0 || math.Abs(m[0]) < side:
				case k == gum:
					push[a], push[b] = math.Max(push[a], o+mouthTuck), math.Max(push[b], o+mouthTuck)
				default:
					whole[k] = math.Max(whole[k], o+toothTuck)
				}
			}
		}
	}
	for i := range teeth.pos {
		b := push[i]
		if k := piece[i]; k != gum {
			b = whole[k]
		}
		if b > 0 {
			teeth.pos[i][2] -= float32(b)
		}
	}
}

// outOfLips is how far p lies in front of the lips' outside: the depth
// from the first head surface behind p to p when that is the lips'
// outside facing forward and nothing is in front of p; else 0. A lower
// lip pulled down (mouthLowerDown) turns its inside to the teeth over
// it, which is not counted: the teeth show there by design.
func (c *faceCover) outOfLips(p [3]float64) float64 {
	i, j := c.at(p[0], 0), c.at(p[1], 1)
	if i < 0 || j < 0 || i >= c.dim[0] || j >= c.dim[1] {
		return 0
	}
	behind, facing := math.Inf(-1), 0.0
	kind := coverLining
	for _, t := range c.cells[j*c.dim[0]+i] {
		tr := c.tris[t]
		z, ok := depthAt(tr, p[0], p[1])
		switch {
		case !ok:
		case z >= p[2]:
			return 0
		case z > behind:
			e1 := [3]float64{tr[1][0] - tr[0][0], tr[1][1] - tr[0][1], tr[1][2] - tr[0][2]}
			e2 := [3]float64{tr[2][0] - tr[0][0], tr[2][1] - tr[0][1], tr[2][2] - tr[0][2]}
			behind, kind, facing = z, c.kind[t], cross3(e1, e2)[2]
		}
	}
	if kind != coverLip || facing <= 0 {
		return 0
	}
	return p[2] - behind
}

// teethSide is how far from the middle, in the lips' half-width
// (lipsHalf), the teeth are kept behind the lips' outside (outOfLips):
// the side teeth behind the corners, which wrapMouth moves back with
// them. Nearer the middle the teeth show between parted lips by design.
const teethSide = 0.75

// lipsHalf is the head's lips' half-width: the farthest lip vertex
// (lipMask at least lipCore) from x = 0.
func lipsHalf(head *part) float64 {
	lips := lipMask()
	half := 0.0
	for i, v := range head.base {
		if lips[v] >= lipCore {
			half = math.Max(half, math.Abs(float64(head.pos[i][0])))
		}
	}
	return half
}

// skinOver is the depth of the outer skin that covers p seen from the
// front: the first surface in front of p when that is outer skin, or
// the first behind it when nothing is in front and that is outer skin
// (p has come through it); +Inf when the lips, the mouth's lining or
// nothing covers p.
func (c *faceCover) skinOver(p [3]float64) float64 {
	ahead, aheadKind, behind, behindKind := c.over(p)
	switch {
	case aheadKind == coverSkin:
		return ahead
	case math.IsInf(ahead, 1) && behindKind == coverSkin:
		return behind
	}
	return math.Inf(1)
}

func addF(a, b [3]float32) [3]float32 { return [3]float32{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }
