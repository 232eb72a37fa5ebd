package avatar

import (
	"math"
	"slices"

	"github.com/kilnhq/kiln/assets/avatar/paint"
)

// lidCover is how far the upper lid should come down over the top of the
// iris at rest, metres. The house face's larger, more open eyes left
// white above the iris on many faces, the fixed stare the panel named;
// in life (and on the leader's avatars) the upper lid covers the top of
// the iris. Faces whose lids already cover that much keep them. Grown
// with the eyes (eyeGrowth). At 2 mm on MakeHuman's eyeball the lid
// covered 3 to 23% of the iris's height in room close-ups
// (bench/avatar-look/eyewhite: random-07 3%, default-female 9%) against
// the leader's 21%, and the p13 judges still called the grown eyes
// staring; at 3 mm it covers 15 to 23%.
const lidCover = 0.003 * eyeGrowth

// maxRestLid bounds the rest lids, as a share of a blink, so no face
// looks half asleep. 0.35 held default-female's lid at 9% of the iris
// (lidCover); at 0.5 the most any face tried takes is 0.47 (random-1),
// the lid on 26% of the iris by the mesh (TestUpperLidOverIris).
const maxRestLid = 0.5

// blinks are the face shapes the rest lids are made of, and the shapes
// that shrink by the rest lids' share (eyesClosed is the two blinks'
// sum), so a full blink still closes the lids where it did.
var blinks = []string{"eyeBlinkLeft", "eyeBlinkRight"}

func isBlink(name string) bool {
	return name == "eyesClosed" || slices.Contains(blinks, name)
}

// irisEdge is, for an eye part, the mean of its vertices (the centre
// paint.Eye paints the iris around) and the height of the iris's top
// edge: where the ray from that centre paint.IrisAngle up from the front
// (paint.Eye's limbus) meets the eye's surface. ok is false when it
// meets none of it.
func irisEdge(eye *part) (c vec3, top float64, ok bool) {
	for _, p := range eye.pos {
		for k := range 3 {
			c[k] += float64(p[k]) / float64(len(eye.pos))
		}
	}
	edge := vec3{0, math.Sin(paint.IrisAngle), math.Cos(paint.IrisAngle)}
	r := 0.0
	for _, t := range eye.tris {
		if d, _, _, hit := rayTriangle(c, edge, v3(eye.pos[t[0]]), v3(eye.pos[t[1]]), v3(eye.pos[t[2]])); hit {
			r = math.Max(r, d)
		}
	}
	return c, c[1] + r*edge[1], r > 0
}

// upperLid is the head's vertex at the upper lid's edge over an eye of
// centre c whose iris reaches r above it: the lowest head vertex within
// 2 mm of the eye's middle, above its centre, in front of it and outside
// the eyeball (the lid's inner side lies on it). -1 when none is.
func upperLid(head *part, c vec3, r float64) int {
	best, low := -1, math.Inf(1)
	for i, p := range head.pos {
		q := v3(p).sub(c)
		if math.Abs(q[0]) < 0.002 && q[1] > 0 && q[1] < r && q[2] > 0 && q.len() > r && q[1] < low {
			best, low = i, q[1]
		}
	}
	return best
}

// restLid finds how much of a blink the lids take at rest so that the
// upper lid covers lidCover of the left iris: from the lid's edge and
// how far a blink moves it down, within 0 and maxRestLid.
func restLid(head, eye *part) float32 {
	c, top, ok := irisEdge(eye)
	if !ok {
		return 0
	}
	// The eyeball's radius, for "outside the eyeball": the iris's edge
	// lies on its surface.
	r := (top - c[1]) / math.Sin(paint.IrisAngle)
	i := upperLid(head, c, r)
	if i < 0 {
		return 0
	}
	cover := top - float64(head.pos[i][1])
	idx, d := faceDeltas("eyeBlinkLeft")
	k := slices.Index(idx, head.base[i])
	if k < 0 || d[k][1] >= 0 {
		return 0
	}
	w := (lidCover - cover) / float64(-d[k][1])
	return float32(math.Max(0, math.Min(maxRestLid, w)))
}

// lowerLids moves the part's vertices by w of the blinks: the head by
// its base vertices, a fitted part (the lashes) by its bindings, so the
// lashes stay on the lids. Faded at the neck as the face shapes are.
func (p *part) lowerLids(w float32) {
	if w == 0 {
		return
	}
	fade := neckSeamFade()
	if p.fit != nil {
		// The part's positions are the fitted asset's: moved on a copy,
		// so the asset (which slider offsets are measured from) stays as
		// fitted.
		p.pos = slices.Clone(p.pos)
	}
	for _, name := range blinks {
		idx, d := faceDeltas(name)
		at := make(map[int32][3]float32, len(idx))
		for i, v := range idx {
			at[v] = scale3f(d[i], fade[v]*w)
		}
		if p.fit != nil {
			all := p.fit.Carry(at)
			for i, s := range p.src {
				for k := range 3 {
					p.pos[i][k] += all[s][k]
				}
			}
			continue
		}
		for i, v := range p.base {
			if o, ok := at[v]; ok {
				for k := range 3 {
					p.pos[i][k] += o[k]
				}
			}
		}
	}
}
