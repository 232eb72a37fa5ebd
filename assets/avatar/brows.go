package avatar

import (
	"math"
	"slices"

	"github.com/kilnhq/kiln/assets/avatar/paint"
)

// MakeHuman's eyebrow is a strip about 4 mm across: seen from the front,
// on a brow ridge that slopes back, it drew a thin line of hairs (issue
// 22: "ours thin lines of hairs; the leader's are filled, shaped, thick
// brows", about 1 cm across at the head and tapering along the tail).
// thickenBrows widens the strip across its length about its own centre
// line, browWidenHead times at the head of the brow (the inner end) down
// to browWidenTail times at the tail, and lays each vertex back on the
// head's skin at its own height above it, so the wider brow still lies
// on the skin and follows the forehead's curve. The UVs stay as they
// are: the painted brow (paint.Brows) stretches with the strip.
//
// The p14 panel still saw thin, faint lines (the strip at 2.1 times at
// the head and 1.4 at the tail was a long even arch, 0.10 eye-distances
// thick); the leader's brows are thick at the head and taper out. Now
// 2.6 times over the inner half (0.125-0.133 eye-distances thick)
// narrowing to 0.4 of MakeHuman's at the tail's tip
// (TestBrowsFrameTheEyes); more at the head, or a longer thick part,
// grows random-7's brow past TestBrowsFilled's 4 cm² (the leader's
// brows are shorter than MakeHuman's strip).
const (
	browWidenHead = 2.6
	browWidenTail = 0.4
)

// browBelow is the share of the widening the strip's lower half takes:
// the brow grows up onto the brow ridge and, by half as much, down
// toward the eye, closing the band of bare skin between brow and lid
// that left ours floating over the eye (issue 22, p14). The lower half
// is now 1.8 times MakeHuman's (1.44 before): its edge comes down about
// 0.01 eye-distances, still clear of the lid's crease, which a brow
// grown further toward the eye had crowded.
const browBelow = 0.5

// browLift is the least height of a brow's vertex above the skin,
// metres: laid on the skin at less, the head's triangles (simplified by
// the budget afterwards) cut through the brow.
const browLift = 0.0005

// thickenBrows widens the brow strip of brows (both brows, one per side
// of x = 0) over head, whose triangles are the skin it lies on.
func thickenBrows(brows, head *part) {
	if brows == nil || len(brows.pos) == 0 {
		return
	}
	// The fitted asset's positions are shared: moved on a copy.
	brows.pos = slices.Clone(brows.pos)
	brows.nrm = slices.Clone(brows.nrm)
	skin := nearSkin(head, brows.pos)
	for _, side := range []float32{1, -1} {
		var vs []int
		for i, p := range brows.pos {
			if p[0]*side > 0 {
				vs = append(vs, i)
			}
		}
		if len(vs) == 0 {
			continue
		}
		along := browAlong(brows, vs)
		moved := make([][3]float32, len(vs))
		for j, i := range vs {
			c := browCentre(brows, vs, brows.uv[i][0])
			k := browWidenHead + (browWidenTail-browWidenHead)*smoothstep(0.45, 1, along[j])
			d := v3(brows.pos[i]).sub(c)
			if d[1] < 0 {
				// Below the middle the strip widens less: a brow grown
				// as much toward the eye crowded the lid's crease.
				k = 1 + browBelow*(k-1)
			}
			moved[j] = c.add(d.scale(k)).f32()
		}
		for j, i := range vs {
			_, gap, _ := skin.onto(brows.pos[i])
			q, _, n := skin.onto(moved[j])
			brows.pos[i] = q.add(n.scale(math.Max(gap, browLift))).f32()
			brows.nrm[i] = n.f32()
		}
	}
}

// browAlong is, for each of one brow's vertices vs, how far along the
// brow it is: 0 at the head (the end nearest the middle of the face), 1
// at the tail, from its UV along the strip (the strip's u runs along
// it, one way on one side and the other way on the other).
func browAlong(brows *part, vs []int) []float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	inner, innerX := 0.0, math.Inf(1)
	for _, i := range vs {
		u := float64(brows.uv[i][0])
		lo, hi = math.Min(lo, u), math.Max(hi, u)
		if x := math.Abs(float64(brows.pos[i][0])); x < innerX {
			innerX, inner = x, u
		}
	}
	out := make([]float64, len(vs))
	for j, i := range vs {
		s := (float64(brows.uv[i][0]) - lo) / math.Max(hi-lo, 1e-9)
		if inner > (lo+hi)/2 {
			s = 1 - s
		}
		out[j] = s
	}
	return out
}

// browCentre is the middle of one brow's strip across at u along it: the
// mean of its vertices vs weighted by how near their u is, which takes
// the rows on both sides of the strip alike.
func browCentre(brows *part, vs []int, u float32) vec3 {
	const width = 0.04 // of u: the strip's vertices lie about 0.08 apart along it
	var c vec3
	sum := 0.0
	for _, i := range vs {
		d := float64(brows.uv[i][0]-u) / width
		w := math.Exp(-d * d)
		c = c.add(v3(brows.pos[i]).scale(w))
		sum += w
	}
	return c.scale(1 / sum)
}

// skinPatch is the head's triangles near the brows, to lay them on, and
// the bounding box of each (lo, hi), with which onto passes over those
// that cannot be nearer than the nearest found so far.
type skinPatch struct {
	head  *part
	tris  [][3]uint32
	boxes [][2]vec3
}

// nearSkin is the patch of head's triangles with a corner within 3 cm
// of any of the points ps.
func nearSkin(head *part, ps [][3]float32) skinPatch {
	const reach = 0.03
	lo, hi := vec3{math.Inf(1), math.Inf(1), math.Inf(1)}, vec3{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
	for _, p := range ps {
		for a := range 3 {
			lo[a], hi[a] = math.Min(lo[a], float64(p[a])-reach), math.Max(hi[a], float64(p[a])+reach)
		}
	}
	s := skinPatch{head: head}
	for _, t := range head.tris {
		for _, v := range t {
			p := head.pos[v]
			if float64(p[0]) > lo[0] && float64(p[0]) < hi[0] && float64(p[1]) > lo[1] && float64(p[1]) < hi[1] && float64(p[2]) > lo[2] && float64(p[2]) < hi[2] {
				s.tris = append(s.tris, t)
				s.boxes = append(s.boxes, triBox(head, t))
				break
			}
		}
	}
	return s
}

// triBox is the bounding box of head's triangle t.
func triBox(head *part, t [3]uint32) [2]vec3 {
	a, b, c := v3(head.pos[t[0]]), v3(head.pos[t[1]]), v3(head.pos[t[2]])
	var box [2]vec3
	for i := range 3 {
		box[0][i] = min(a[i], b[i], c[i])
		box[1][i] = max(a[i], b[i], c[i])
	}
	return box
}

// boxSlack, metres, is how much farther than the nearest point found so
// far a triangle's box must be for onto to pass over the triangle: the
// nearest point closestOnTriangle computes may lie outside the box by a
// rounding error (about 1e-16 m here), so a triangle is passed over only
// when it cannot be the nearest, nor tie with it, whatever the rounding.
const boxSlack = 1e-9

// boxDist2 is the squared distance from p to the box (0 inside).
func boxDist2(box [2]vec3, p [3]float64) float64 {
	var d2 float64
	for i := range 3 {
		d := max(box[0][i]-p[i], p[i]-box[1][i], 0)
		d2 += d * d
	}
	return d2
}

// onto is the point of the skin nearest p, p's height above it along
// the skin's normal there (negative under it), and that normal. Of
// triangles at the same distance the first in order wins. A triangle
// whose box is farther than the nearest point so far is passed over: it
// can neither be nearer nor tie, so the answer is that of trying every
// triangle (TestOntoAsScan), in a tenth of the time: laying the brows
// on the skin tries each of their vertices twice, and trying each
// against every triangle of the patch was a tenth of a build's CPU.
func (s skinPatch) onto(p [3]float32) (q vec3, height float64, n vec3) {
	best := math.Inf(1)
	pp := [3]float64(v3(p))
	for k, t := range s.tris {
		if r := best + boxSlack; boxDist2(s.boxes[k], pp) > r*r {
			continue
		}
		a, b, c := v3(s.head.pos[t[0]]), v3(s.head.pos[t[1]]), v3(s.head.pos[t[2]])
		x, w := closestOnTriangle(pp, a, b, c)
		if d := vec3(x).sub(vec3(pp)).len(); d < best {
			best, q = d, vec3(x)
			n = v3(s.head.nrm[t[0]]).scale(w[0]).add(v3(s.head.nrm[t[1]]).scale(w[1])).add(v3(s.head.nrm[t[2]]).scale(w[2])).norm()
		}
	}
	return q, vec3(pp).sub(q).dot(n), n
}

// browColor is the brows' colour for hair of colour hair: a little
// darker than dark hair, and much darker than light hair (blonde,
// platinum, grey), as brows are and as the leader paints them: brows the
// colour of blonde hair vanished into light skin, a face with no frame.
// Their luminance runs from 0.85 of dark hair's to about 0.4 of
// blonde's. browGrey of the colour is taken to a grey of its own
// luminance: brows in the hair's full colour read orange on brown and
// red hair beside the leader's grey-brown brows (issue 22, p14).
func browColor(hair rgb) rgb {
	l := hair.luma()
	s := 0.85
	if l > 0.05 {
		s = math.Min(s, (0.05+0.3*(l-0.05))/l)
	}
	c := hair.scale(s)
	g := c.luma()
	for k := range 3 {
		c[k] += (g - c[k]) * browGrey
	}
	return c
}

// browGrey is the share of the brows' colour taken to grey.
const browGrey = 0.3

// browTexture is the brows' painted texture (paint.Brows, 256 texels):
// hairs of colour hair over skin of colour skin, which shows between
// them and toward the brow's edge.
func browTexture(s paint.Surface, hair, skin rgb, seed uint64) texture {
	const n = 256
	return texture{
		key:   paint.KeyOf("brows", s, hair, skin, seed, n),
		paint: func() paint.Maps { return paint.Brows(s, paint.RGB(hair), paint.RGB(skin), seed, n) },
	}
}
