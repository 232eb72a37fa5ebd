package avatar

import "math"

// Hair over the ears. MakeHuman's ponytail sweeps the hair at the sides
// back over the ears, but fitted to a face the sides' lower edge hangs
// a centimetre and more into the ear's top: the ear pokes through the
// hair, strands streak across its skin, and a dark wedge of hair sticks
// out in front of it at the glasses' temple (issue 22, session 22: "the
// hair swallows the outer rim of the ear and leaves a ragged pink sliver
// poking through"; random-15). tuckOverEars drops the sheet's pointed
// tip beside the ear (dropBeforeEars) and lifts the sides' lower edge
// over each ear, as raiseFringe lifts the fringe over the brows: the
// hair beside the ear, from its back to earFrontReach in front of it, is
// squashed upward so that its lowest point lies earClear over the ear's
// top; hair from earLiftTop over the ear up stays where it is, and the
// hair behind the ear, which hangs down to the neck, is not moved. The
// ear shows whole, the hair passes over and behind it. It runs before
// the budget and thickenHair, on the fitted cards, in the whole build
// and in the creator's parts alike. Long hair, which
// hangs over the ears (none of its triangles meets them), and the
// sculpted and bobbed cuts (their own shells) are left alone.

// Heights over the ear's top and reaches in front of and behind it
// (metres).
const (
	// earClear is how far over the ear's top the lifted edge lies:
	// thickenHair adds a few millimetres of rim under it.
	earClear = 0.006
	// earLiftTop is the height over the ear's top from which the hair
	// stays where it is.
	earLiftTop = 0.05
	// earFrontReach is how far in front of the ear's front the lift
	// holds in full (the wedge hangs up to 1.5 cm in front), fading out
	// over earFade more.
	earFrontReach = 0.02
	earFade       = 0.015
)

// tucksEars is whether a style's sides are swept back over the ears.
func tucksEars(style string) bool { return style == "ponytail" }

// earBox is one ear's extent on the head: its top, front and back.
type earBox struct{ top, front, back float64 }

// Where earBoxes finds the ears (metres): the head's vertices that stand
// more than earStand further out than the skull's side (its half-width
// earSkull over the eyes, above the ears and under the temples' taper),
// from earAbove over the eyes down to earBelow under them, behind the
// eyes. MakeHuman's ear mask (earMask) reaches 4 cm in front of the ear
// and 3 cm over it, too far to place the hair by.
const (
	earStand = 0.002
	earSkull = 0.024
	earAbove = 0.01
	earBelow = 0.08
)

// earBoxes is the extent of the head's two ears, the left (+x) first;
// an ear not found has an infinite top.
func earBoxes(head *part, joints map[string][3]float32) [2]earBox {
	eye := float64(joints["LeftEye"][1]+joints["RightEye"][1]) / 2
	eyeZ := float64(joints["LeftEye"][2]+joints["RightEye"][2]) / 2
	skull := sliceHalfWidth(head, eye+earSkull)
	boxes := [2]earBox{}
	for s := range boxes {
		boxes[s] = earBox{top: math.Inf(-1), front: math.Inf(-1), back: math.Inf(1)}
	}
	for _, p := range head.pos {
		x, y, z := float64(p[0]), float64(p[1]), float64(p[2])
		if math.Abs(x) <= skull+earStand || y > eye+earAbove || y < eye-earBelow || z > eyeZ {
			continue
		}
		s := 0
		if x < 0 {
			s = 1
		}
		b := &boxes[s]
		b.top = math.Max(b.top, y)
		b.front = math.Max(b.front, z)
		b.back = math.Min(b.back, z)
	}
	return boxes
}

// earTipTop is how far over the ear's top the hair beside the ear may
// reach and still be dropped (dropBeforeEars).
const earTipTop = 0.025

// dropBeforeEars drops the hair triangles that hang over or in front of
// an ear: every corner from the ear's back to earFrontReach in front of
// its front, and lower than earTipTop over its top. They are the tip of
// the ponytail's side sheet, a pointed lock that hung down the temple to
// the glasses' temple; lifted with the rest (tuckOverEars) it still
// stood out over the ear as a dark tab.
func dropBeforeEars(hair *part, boxes [2]earBox) {
	before := func(p [3]float32) bool {
		e := boxes[0]
		if p[0] < 0 {
			e = boxes[1]
		}
		z := float64(p[2])
		return !math.IsInf(e.top, 0) && float64(p[1]) < e.top+earTipTop && z > e.back && z < e.front+earFrontReach
	}
	dropTriangles(hair, func(v uint32) bool { return before(hair.pos[v]) })
}

// sliceHalfWidth is the farthest |x| at which the part's edges cross the
// level y.
func sliceHalfWidth(p *part, y float64) float64 {
	w := 0.0
	for _, t := range p.tris {
		for e := range 3 {
			a, b := p.pos[t[e]], p.pos[t[(e+1)%3]]
			ya, yb := float64(a[1]), float64(b[1])
			if (ya < y) == (yb < y) {
				continue
			}
			f := (y - ya) / (yb - ya)
			w = math.Max(w, math.Abs(float64(a[0])+f*float64(b[0]-a[0])))
		}
	}
	return w
}

// tuckOverEars clears the hair off a tucked style's ears (see above).
func tuckOverEars(hair, head *part, joints map[string][3]float32, style string) {
	if !tucksEars(style) {
		return
	}
	boxes := earBoxes(head, joints)
	dropBeforeEars(hair, boxes)
	for s, e := range boxes {
		if math.IsInf(e.top, 0) {
			continue
		}
		side := func(p [3]float32) bool { return (p[0] >= 0) == (s == 0) }
		// beside is how fully the lift holds at p: in full from the ear's
		// back to earFrontReach in front of its front, fading out over
		// earFade in front of that and behind the back.
		beside := func(p [3]float32) float64 {
			z := float64(p[2])
			return smoothstep(e.back-earFade, e.back, z) * (1 - smoothstep(e.front+earFrontReach, e.front+earFrontReach+earFade, z))
		}
		top, floor := e.top+earLiftTop, e.top+earClear
		low := math.Inf(1)
		for _, p := range hair.pos {
			if side(p) && beside(p) == 1 {
				low = math.Min(low, float64(p[1]))
			}
		}
		if low >= floor || low >= top {
			continue
		}
		k := (top - floor) / (top - low)
		for i, p := range hair.pos {
			y := float64(p[1])
			w := beside(p)
			if !side(p) || y >= top || w == 0 {
				continue
			}
			// Below the lowest point (only where w fades) the hair moves
			// as that point does, not farther.
			y0 := math.Max(y, low)
			hair.pos[i][1] = float32(y + w*(top-(top-y0)*k-y0))
		}
	}
}
