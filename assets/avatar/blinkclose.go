package avatar

import (
	"math"
	"slices"

	"github.com/kilnhq/kiln/assets/avatar/face"
)

// MakeHuman's blink closes the lids of MakeHuman's base face. The face
// modifiers open and shape the eye differently on every face, and the
// blink's offsets, the same on all, left a slit at blink 1: up to 0.17 of
// the eye's front disc (TestEyesOpenAndClosing), the iris showing on
// wideLids (Random(2001)) and a grey-white strip under the lashes on
// default-male, in every app that blinks by eyeBlinkLeft/Right or the
// VRM's blink presets. closedBlinks brings each blink's upper lid
// further down, column by column across the eye, as far as it takes the
// lids to meet on this face.

// blinkColumns is how many columns across the eye's disc the upper
// lid's further travel is found in; between them it is interpolated.
const blinkColumns = 24

// blinkRays is how many rays a column casts across the band the lids
// meet in (blinkBand), and blinkBand that band, as shares of the eye's
// radius below and above its centre: the lids meet over the lower half
// of the iris on the panel's faces.
const blinkRays = 96

var blinkBand = [2]float64{-1, 0.6}

// maxBlinkShift bounds how much further down (metres) the upper lid is
// brought in a column.
const maxBlinkShift = 0.008

// blinkOverlap is how much further (metres) than just closed a column's
// upper lid comes down: so the lids meet between the rays too and press
// together rather than touch.
const blinkOverlap = 0.0003

// blinkReach is how far from the eye's middle, as a share of its
// radius, the columns the blink is made to close reach; past them the
// travel falls off (blinkFalloff). Closed out to the inner corner,
// which the blink hardly moves, the lid there folded down.
const blinkReach = 0.85

// blinkFalloff is the most the shift drops from one column to the next
// (metres).
const blinkFalloff = 0.0008

// eyeView is an eye as seen from in front: its centre, its radius
// across (half its width) and its triangles.
type eyeView struct {
	c     vec3
	r     float64
	front float64
	ball  [][3]vec3
}

func newEyeView(eye *part) eyeView {
	var v eyeView
	lo, hi := vec3{1, 1, 1}, vec3{-1, -1, -1}
	for _, p := range eye.pos {
		for k := range 3 {
			v.c[k] += float64(p[k]) / float64(len(eye.pos))
			lo[k], hi[k] = math.Min(lo[k], float64(p[k])), math.Max(hi[k], float64(p[k]))
		}
	}
	v.r = (hi[0] - lo[0]) / 2
	v.front = hi[2]
	for _, t := range eye.tris {
		v.ball = append(v.ball, [3]vec3{v3(eye.pos[t[0]]), v3(eye.pos[t[1]]), v3(eye.pos[t[2]])})
	}
	return v
}

// firstHit is how far a ray straight back from o travels to the first
// of tris (infinite when it meets none).
func firstHit(o vec3, tris [][3]vec3) float64 {
	back := vec3{0, 0, -1}
	d := math.Inf(1)
	for _, s := range tris {
		if h, _, _, ok := rayTriangle(o, back, s[0], s[1], s[2]); ok {
			d = math.Min(d, h)
		}
	}
	return d
}

// column is the rays straight back from in front of an eye at x (a share
// of its radius from its centre) and the heights ys (shares of its
// radius), with how far each travels to the eye (ball).
type column struct {
	o    []vec3
	ball []float64
}

func (e eyeView) column(x float64, ys []float64) column {
	var c column
	var ball [][3]vec3
	cx := e.c[0] + x*e.r
	for _, t := range e.ball {
		if lo, hi := min(t[0][0], t[1][0], t[2][0]), max(t[0][0], t[1][0], t[2][0]); lo <= cx && hi >= cx {
			ball = append(ball, t)
		}
	}
	for _, y := range ys {
		o := vec3{cx, e.c[1] + y*e.r, e.front + 0.05}
		if b := firstHit(o, ball); !math.IsInf(b, 1) {
			c.o = append(c.o, o)
			c.ball = append(c.ball, b)
		}
	}
	return c
}

// blockedBy says whether a skin triangle (lidTri) meets the column's
// ray i before the eye (firstHit no farther than the eye, as the tests'
// seen counts it): a ray straight back hits a triangle only where its
// origin's y lies within the triangle's span, so one outside it (by
// more than raySlack) is passed without the ray test, and the first
// triangle in front of the eye ends the search.
func (c column) blockedBy(i int, skin []lidTri) bool {
	o := c.o[i]
	back := vec3{0, 0, -1}
	for _, s := range skin {
		if o[1] < s.lo-raySlack || o[1] > s.hi+raySlack {
			continue
		}
		if h, _, _, ok := rayTriangle(o, back, s.p[0], s.p[1], s.p[2]); ok && h <= c.ball[i] {
			return true
		}
	}
	return false
}

// anySeen is seen(skin) > 0, stopping at the first ray that reaches the
// eye: what closeBlink's bisection asks, up to 14 times a column.
func (c column) anySeen(skin []lidTri) bool {
	for i := range c.o {
		if !c.blockedBy(i, skin) {
			return true
		}
	}
	return false
}

// lidTri is a skin triangle as a blink shifted it, with its span in y.
type lidTri struct {
	p      [3]vec3
	lo, hi float64
}

// raySlack is how far (metres) outside a triangle's span a ray is still
// tested: the ray test's barycentric rounding can take in a point some
// 1e-16 m outside the triangle, and a ray it would count must not be
// culled.
const raySlack = 1e-9

// closedBlinks is the blink shapes (eyeBlinkLeft, eyeBlinkRight and their
// sum eyesClosed, as shapes() holds them: dense by base vertex) with the
// upper lids brought further down (shifted) so a full blink closes the
// eyes of this head: the head as the body shapes it, before the rest
// lids. In each of blinkColumns columns across an eye within
// blinkReach, the lid comes down the least distance, within 0 and
// maxBlinkShift, at which no ray from in front reaches the eye, plus
// blinkOverlap; each column takes the most of itself and its
// neighbours, falling off by blinkFalloff a column, interpolated across
// by each vertex's x on the body (xOf, by base vertex).
func closedBlinks(head *part, eyes [2]*part, xOf func(v int32) float64) map[string]map[int32][3]float32 {
	all := face.All()
	out := map[string]map[int32][3]float32{}
	for s, name := range blinks {
		blink := shapes()[slices.Index(all, name)]
		out[name] = closeBlink(head, newEyeView(eyes[s]), blink, xOf)
	}
	sum := make(map[int32][3]float32, len(out[blinks[0]])+len(out[blinks[1]]))
	for _, name := range blinks {
		for v, d := range out[name] {
			o := sum[v]
			for k := range 3 {
				o[k] += d[k]
			}
			sum[v] = o
		}
	}
	out["eyesClosed"] = sum
	return out
}

// closeBlink is one eye's blink with its upper lid brought down so it
// closes the eye (closedBlinks).
func closeBlink(head *part, e eyeView, blink map[int32][3]float32, xOf func(v int32) float64) map[int32][3]float32 {
	ys := make([]float64, blinkRays)
	for i := range ys {
		ys[i] = blinkBand[0] + (blinkBand[1]-blinkBand[0])*(float64(i)+0.5)/blinkRays
	}
	xs := make([]float64, blinkColumns)
	for j := range xs {
		xs[j] = 2*(float64(j)+0.5)/blinkColumns - 1
	}
	// The skin's triangles about the eye (their first corner within two
	// of its radii), by their vertices and the blink's offsets of them,
	// found once for all the columns.
	var about []lidOffsets
	for _, t := range head.tris {
		if v3(head.pos[t[0]]).sub(e.c).len() > 2*e.r {
			continue
		}
		var tr lidOffsets
		for k, i := range t {
			tr.p[k] = v3(head.pos[i])
			tr.d[k] = v3(blink[head.base[i]])
		}
		about = append(about, tr)
	}
	// near is those within 2 mm of the column at x: a blink moves the
	// lids down, not across.
	near := func(x float64) []lidOffsets {
		var ts []lidOffsets
		cx := e.c[0] + x*e.r
		for _, tr := range about {
			lo := min(tr.p[0][0], tr.p[1][0], tr.p[2][0])
			hi := max(tr.p[0][0], tr.p[1][0], tr.p[2][0])
			if lo > cx+0.002 || hi < cx-0.002 {
				continue
			}
			ts = append(ts, tr)
		}
		return ts
	}
	// travel is, per column, how far the blink brings the upper lid's
	// edge down there: the most any head vertex in it (within two of the
	// eye's radii) moves down.
	var aboutV []int
	for i, p := range head.pos {
		if v3(p).sub(e.c).len() < 2*e.r {
			aboutV = append(aboutV, i)
		}
	}
	travel := make([]float64, blinkColumns)
	for j, x := range xs {
		cx := e.c[0] + x*e.r
		for _, i := range aboutV {
			if math.Abs(float64(head.pos[i][0])-cx) < 0.002 {
				travel[j] = math.Max(travel[j], -float64(blink[head.base[i]][1]))
			}
		}
	}
	need := make([]float64, blinkColumns)
	for j, x := range xs {
		ts := crossing(near(x), e.c[0]+x*e.r)
		col := e.column(x, ys)
		skin := make([]lidTri, len(ts))
		open := func(t float64) bool {
			for i, tr := range ts {
				s := &skin[i]
				s.lo, s.hi = math.Inf(1), math.Inf(-1)
				for c := range 3 {
					s.p[c] = tr.p[c].add(shifted(tr.d[c], t, travel[j]))
					s.lo, s.hi = math.Min(s.lo, s.p[c][1]), math.Max(s.hi, s.p[c][1])
				}
			}
			return col.anySeen(skin)
		}
		if math.Abs(x) > blinkReach || travel[j] <= 0 || !open(0) {
			continue
		}
		lo, hi := 0.0, maxBlinkShift
		if open(hi) {
			// Not a slit the blink closes (the eye's inner corner,
			// which the blink hardly moves).
			continue
		}
		for range 12 {
			if mid := (lo + hi) / 2; open(mid) {
				lo = mid
			} else {
				hi = mid
			}
		}
		need[j] = math.Min(maxBlinkShift, hi+blinkOverlap)
	}
	// Each column takes the most of itself and its neighbours, so the
	// shift between two columns is at least what either needs, and
	// falls off by at most blinkFalloff a column toward the eye's
	// corners.
	k := make([]float64, blinkColumns)
	for j := range k {
		k[j] = need[j]
		if j > 0 {
			k[j] = math.Max(k[j], need[j-1])
		}
		if j < blinkColumns-1 {
			k[j] = math.Max(k[j], need[j+1])
		}
	}
	// One sweep each way gives every column the most any column's
	// shift leaves it after falling off by blinkFalloff a column.
	for j := 1; j < blinkColumns; j++ {
		k[j] = math.Max(k[j], k[j-1]-blinkFalloff)
	}
	for j := blinkColumns - 2; j >= 0; j-- {
		k[j] = math.Max(k[j], k[j+1]-blinkFalloff)
	}
	at := func(vals []float64, x float64) float64 {
		f := (x+1)*blinkColumns/2 - 0.5 // column j's middle at j
		if f <= 0 {
			return vals[0]
		}
		if f >= blinkColumns-1 {
			return vals[blinkColumns-1]
		}
		j := int(f)
		return vals[j] + (vals[j+1]-vals[j])*(f-float64(j))
	}
	out := make(map[int32][3]float32, len(blink))
	for v, d := range blink {
		x := (xOf(v) - e.c[0]) / e.r
		s := shifted(v3(d), at(k, x), at(travel, x))
		out[v] = [3]float32{float32(s[0]), float32(s[1]), float32(s[2])}
	}
	return out
}

// lidOffsets is a skin triangle by its vertices (p) and a blink's
// offsets of them (d).
type lidOffsets struct{ p, d [3]vec3 }

// crossing is the triangles of ts that the line x = cx crosses, at any
// shift of the blink (shifted moves a vertex in y only: its x is p+d at
// every shift), within raySlack: a ray straight back at x = cx meets no
// other, so they are culled once a column rather than tested at each of
// the bisection's steps.
func crossing(ts []lidOffsets, cx float64) []lidOffsets {
	var out []lidOffsets
	for _, tr := range ts {
		lo, hi := math.Inf(1), math.Inf(-1)
		for c := range 3 {
			x := tr.p[c][0] + tr.d[c][0]
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
		if lo <= cx+raySlack && hi >= cx-raySlack {
			out = append(out, tr)
		}
	}
	return out
}

// shifted is a blink's offset d with the upper lid brought t further
// down, where the blink brings the lid's edge down by travel: the edge
// and all that moves as far by t, the skin above it less, as much less
// as the blink moves it less, and what the blink does not move down
// (the lower lid) not at all. Stretched instead (the offsets grown), the
// lid's grey inner margin grew with them and showed in a band over the
// lashes, and the lashes hooked down at the inner corner.
func shifted(d vec3, t, travel float64) vec3 {
	if travel <= 0 || d[1] >= 0 {
		return d
	}
	return vec3{d[0], d[1] - t*math.Min(1, -d[1]/travel), d[2]}
}
