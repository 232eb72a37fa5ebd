package avatar

import (
	"math"

	"github.com/kilnhq/kiln/assets/avatar/paint"
)

// hairStandoff is how much of the way a hanging hair edge stands off the
// skin (out from the head's centre) counts in its contact shade's
// distance (hairContact.dist): a bob's fringe and sides hang 5-10 mm
// off the forehead and cheeks, and counted whole, the skin the viewer
// sees right under the edge lay half the shade's reach from it and took
// a faint shade that was gone within 5 mm on the picture.
const hairStandoff = 0.4

// Hair farther (plainly) than hairFade from the skin shades it less,
// and hair hairNear from it not at all (hairContact.dist): hair that
// stands well off the skin is no contact, and the search for the
// nearest hair looks no farther than hairNear, which at three times
// that cost the build half its time again.
const (
	hairFade = 0.01
	hairNear = 0.015
)

// hangingHair tells whether hair of a style hangs over the forehead or
// beside the cheeks, its edge off the skin: the bob (bun), long hair
// and curls. The short cut, the ponytail and the buzz cut rise from
// the scalp at their hairline, and a shade along it drew a dark band
// round the forehead, as the buzz cut's hard outline did before
// d9d4486 (48/48).
func hangingHair(style string) bool {
	return style == "bun" || style == "long" || style == "curly"
}

// hairOver is how far out from the skin (at least) hair covers it from
// a viewer (newHairContact): a bob's shell stands up to 3 cm off the
// scalp.
const hairOver = 0.03

// hairContactSpan is how far beyond hairNear from the hair a head
// vertex is marked for the contact shade: the head's triangles span up
// to about 2.5 cm at the temples, and a texel the hair shades must find
// all three corners of its triangle marked, or the painter skips it.
const hairContactSpan = 0.025

// hairContact is what the skin painter needs to draw the contact shade
// hanging hair casts on the skin right under its edge
// (paint.HairContact): the head's vertices near enough the hair to take
// it (the surface's Mask), the hair's triangles and the head's centre
// (which way is out from the skin). Only hair that hangs over the face
// casts it (hangingHair).
type hairContact struct {
	skin paint.Surface
	// The hair's positions and triangles, copied: the painter runs
	// after the build has moved on.
	pos    [][3]float32
	tris   [][3]uint32
	centre vec3
}

// newHairContact is the contact shade of hair on the head (hs its
// painter's surface), or nil where the hair's style casts none or no
// skin is near it.
func newHairContact(hs paint.Surface, head, hair *part, style string, joints map[string][3]float32) *hairContact {
	if hair == nil || len(hair.tris) == 0 || !hangingHair(style) {
		return nil
	}
	c := &hairContact{pos: append([][3]float32(nil), hair.pos...), tris: append([][3]uint32(nil), hair.tris...), centre: newHairFrame(joints).centre}
	h := &part{pos: c.pos, tris: c.tris}
	near := hairWithin(h, head, hairNear+hairContactSpan)
	// Hair up to hairOver (at least) out along the normal covers the
	// skin.
	cells := hairCells(h, hairOver)
	covered := make([]bool, len(head.pos))
	for v, p := range head.pos {
		if near[v] {
			t, _ := cells.cast(p, head.nrm[v], h)
			covered[v] = t >= 0
		}
	}
	// A texel the hair shades lies within hairNear of it, and so do,
	// within the span of a triangle, all three corners of the
	// triangle it lies in; but of them only the ones a viewer may see
	// are marked: skin deep under the hair (its vertex and every one
	// it shares a triangle with covered: a ray out along its normal
	// meets hair) is hidden, and searching the hair over the whole
	// scalp cost the build a third of its time.
	seen := make([]bool, len(head.pos))
	for _, t := range head.tris {
		if !covered[t[0]] || !covered[t[1]] || !covered[t[2]] {
			seen[t[0]], seen[t[1]], seen[t[2]] = true, true, true
		}
	}
	mask := make([]float32, len(head.pos))
	marked := false
	for v := range mask {
		if near[v] && seen[v] {
			mask[v], marked = 1, true
		}
	}
	if !marked {
		return nil
	}
	c.skin = paint.Surface{Pos: hs.Pos, UV: hs.UV, Tris: hs.Tris, Mask: mask}
	return c
}

// hairWithin marks the head's vertices with a vertex of the hair within
// r of them (the hair's vertices lie a centimetre or less apart, and
// r is wider than the shade's reach by more than that).
func hairWithin(h, head *part, r float64) []bool {
	cells := hairVertexCells(h, r)
	out := make([]bool, len(head.pos))
	for v, p := range head.pos {
		for i := range cells.around(cellOf(p, r), 1) {
			if v3(h.pos[i]).sub(v3(p)).len() < r {
				out[v] = true
				break
			}
		}
	}
	return out
}

// hairDistance is, per head vertex, the distance to the nearest vertex
// of the hair, r where none is nearer than r. hairWithin, which needs
// no distance, stops at the first vertex within r: it runs over the
// contact shade's wider reach.
func hairDistance(h, head *part, r float64) []float64 {
	cells := hairVertexCells(h, r)
	out := make([]float64, len(head.pos))
	for v, p := range head.pos {
		out[v] = r
		for i := range cells.around(cellOf(p, r), 1) {
			out[v] = math.Min(out[v], v3(h.pos[i]).sub(v3(p)).len())
		}
	}
	return out
}

// hairVertexCells are the hair's vertices in cells of size r.
func hairVertexCells(h *part, r float64) buckets {
	var pairs bucketPairs
	for i, p := range h.pos {
		pairs.add(cellOf(p, r), i)
	}
	return pairs.build()
}

// hairCells are the hair's triangles in cells of size r: nearest and
// around then find every triangle within r of a point.
func hairCells(h *part, r float64) *triCells {
	return newTriCells(h, r)
}

// dist is the contact shade's distance from skin point p to the hair,
// the least over the hair's triangles within hairNear (the nearest
// point of each by plain distance standing in for its nearest by this
// one): the way to the point, the part of it that runs out from the
// head's centre counted hairStandoff of itself, so that an edge
// standing off the skin shades the skin right under it, and at least
// the shade's reach at hairNear (from hairFade up), so that the shade
// fades out with the hair's standoff rather than stopping. Hair inside
// p (toward the centre) counts whole. paint.HairContactReach when no
// hair is within hairNear; cells are the hair's in cells of hairNear.
func (c *hairContact) dist(cells *triCells, h *part) func(p vec3) float64 {
	const reach = paint.HairContactReach
	return func(p vec3) float64 {
		best := reach
		out := p.sub(c.centre).norm()
		cells.around(p.f32(), func(t int) {
			// The distance is at least hairStandoff of the plain one,
			// and the reach beyond hairNear.
			if triBoxFar(&cells.box[t], p, min(best/hairStandoff, hairNear)) {
				return
			}
			tri := h.tris[t]
			q, _ := closestOnTriangle(p, v3(h.pos[tri[0]]), v3(h.pos[tri[1]]), v3(h.pos[tri[2]]))
			r := vec3(q).sub(p)
			far := reach * smoothstep(hairFade, hairNear, r.len())
			if up := r.dot(out); up > 0 {
				r = r.sub(out.scale(up * (1 - hairStandoff)))
			}
			best = min(best, max(r.len(), far))
		})
		return best
	}
}

// paint draws the contact shade into the head's painted skin m.
func (c *hairContact) paint(m paint.Maps) {
	h := &part{pos: c.pos, tris: c.tris}
	cells := hairCells(h, hairNear)
	paint.HairContact(m, c.skin, func() func(p [3]float64) float64 {
		d := c.dist(cells.copy(), h)
		return func(p [3]float64) float64 { return d(p) }
	})
}
