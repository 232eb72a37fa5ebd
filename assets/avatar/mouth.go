package avatar

import (
	"math"
	"sync"

	"github.com/kilnhq/kiln/assets/avatar/face"
	"github.com/kilnhq/kiln/assets/avatar/human"
)

// mouthMask is, per base vertex, how deep inside the mouth it is (0 on
// the face and the outer lips, rising over the lips' wet inner side to 1
// in the mouth's bag: palate, the cheeks' inside, floor and back wall).
// MakeHuman's head is closed: behind the lips its surface turns in and
// lines a mouth, which the skin painter painted as lit skin, so an open
// mouth showed a pink void around the teeth. The bag is found once, on
// the average body with the mouth shut: a vertex near the teeth is in it
// when the lips or the face hide it from every one of a few points in
// front of the mouth (straight on, above, below and to each side); how
// deep it lies behind the front of the teeth then grades it. It is a
// property of the mesh (the same base vertices line the mouth on every
// body), so one body serves every avatar.
var mouthMask = sync.OnceValue(func() []float32 {
	body := human.Shape(human.Average(0.5))
	out := make([]float32, len(body.Pos))
	teeth, err := body.Fit("teeth/default")
	if err != nil {
		return out // no teeth asset: a broken build, which the tests catch
	}
	lo, hi := bounds(teeth.Pos)
	front := float64(hi[2])
	c := [3]float64{float64(lo[0]+hi[0]) / 2, float64(lo[1]+hi[1]) / 2, front}
	// The bag reaches a little past the teeth on every side and well
	// behind them (the throat); the lips' front is a centimetre before
	// them.
	lo = [3]float32{lo[0] - 0.015, lo[1] - 0.02, lo[2] - 0.05}
	hi = [3]float32{hi[0] + 0.015, hi[1] + 0.015, hi[2] + 0.012}
	in := func(p [3]float32, m float32) bool {
		for k := range 3 {
			if p[k] < lo[k]-m || p[k] > hi[k]+m {
				return false
			}
		}
		return true
	}
	m := human.BodyMesh()
	var tris [][3][3]float64
	var cand []int32
	seen := map[int32]bool{}
	for t, tri := range m.Tris {
		if !m.Head[t] {
			continue
		}
		p0, p1, p2 := body.Pos[m.Base[tri[0]]], body.Pos[m.Base[tri[1]]], body.Pos[m.Base[tri[2]]]
		if !in(p0, 0.03) && !in(p1, 0.03) && !in(p2, 0.03) {
			continue
		}
		tris = append(tris, [3][3]float64{f64(p0), f64(p1), f64(p2)})
		for _, k := range tri {
			if v := m.Base[k]; !seen[v] && in(body.Pos[v], 0) {
				seen[v] = true
				cand = append(cand, v)
			}
		}
	}
	eyes := [][3]float64{{0, 0, 0.15}, {0, 0.06, 0.12}, {0, -0.06, 0.12}, {0.07, 0, 0.12}, {-0.07, 0, 0.12}}
	// The triangles as seen from each point (fanGrid): a ray toward it
	// is tested against the few it may cross.
	fans := make([]*fanGrid, len(eyes))
	for k, e := range eyes {
		fans[k] = newFanGrid([3]float64{c[0] + e[0], c[1] + e[1], c[2] + e[2]}, tris, 64)
	}
	for _, v := range cand {
		o := f64(body.Pos[v])
		hidden := true
		for k, e := range eyes {
			to := [3]float64{c[0] + e[0] - o[0], c[1] + e[1] - o[1], c[2] + e[2] - o[2]}
			l := math.Sqrt(to[0]*to[0] + to[1]*to[1] + to[2]*to[2])
			d := [3]float64{to[0] / l, to[1] / l, to[2] / l}
			blocked := fans[k].near(o, func(t int) bool { return rayHits(o, d, tris[t], l) })
			if !blocked {
				hidden = false
				break
			}
		}
		if hidden {
			// The lips' inner side (level with the teeth's front) stays
			// lip; two centimetres behind it the mouth is dark.
			out[v] = float32(smoothstep(0.002, 0.02, front-o[2]))
		}
	}
	return out
})

// rayHits reports whether the ray o + s·d (0 < s < reach) crosses the
// triangle t, from either side (Möller and Trumbore's test). A triangle
// the ray starts on does not count.
func rayHits(o, d [3]float64, t [3][3]float64, reach float64) bool {
	e1 := [3]float64{t[1][0] - t[0][0], t[1][1] - t[0][1], t[1][2] - t[0][2]}
	e2 := [3]float64{t[2][0] - t[0][0], t[2][1] - t[0][1], t[2][2] - t[0][2]}
	p := cross3(d, e2)
	det := e1[0]*p[0] + e1[1]*p[1] + e1[2]*p[2]
	if math.Abs(det) < 1e-14 {
		return false
	}
	inv := 1 / det
	s := [3]float64{o[0] - t[0][0], o[1] - t[0][1], o[2] - t[0][2]}
	u := (s[0]*p[0] + s[1]*p[1] + s[2]*p[2]) * inv
	if u < 0 || u > 1 {
		return false
	}
	q := cross3(s, e1)
	w := (d[0]*q[0] + d[1]*q[1] + d[2]*q[2]) * inv
	if w < 0 || u+w > 1 {
		return false
	}
	dist := (e2[0]*q[0] + e2[1]*q[1] + e2[2]*q[2]) * inv
	return dist > 1e-5 && dist < reach
}

func f64(p [3]float32) [3]float64 { return [3]float64{float64(p[0]), float64(p[1]), float64(p[2])} }

// bounds is the box around points.
func bounds(pts [][3]float32) (lo, hi [3]float32) {
	lo, hi = [3]float32{1e9, 1e9, 1e9}, [3]float32{-1e9, -1e9, -1e9}
	for _, p := range pts {
		for k := range 3 {
			lo[k], hi[k] = min(lo[k], p[k]), max(hi[k], p[k])
		}
	}
	return lo, hi
}

// smoothstep is 0 below a, 1 above b, and smooth between: the soft edge
// every mask and fall-off in the package uses.
func smoothstep(a, b, x float64) float64 {
	t := math.Max(0, math.Min(1, (x-a)/(b-a)))
	return t * t * (3 - 2*t)
}

// mouthDepth is mouthMask on the part's vertices (a part of the body:
// the head).
func (p *part) mouthDepth() []float32 {
	m := mouthMask()
	out := make([]float32, len(p.base))
	for i, v := range p.base {
		out[i] = m[v]
	}
	return out
}

// restLips are the face shapes, and their weights, that the head's rest
// shape takes in: MakeHuman's lips at rest leave a slit of one to two
// millimetres at the bite, more open toward the corners, through which
// a white line of teeth showed. A little of mouthClose (the lower lip up
// and forward onto the upper) and of mouthPress shuts it; every face
// shape still moves the lips by its own offsets from there. The lips
// also roll in a little (mouthRollLower, mouthRollUpper) and sit
// lipSetBack further back: MakeHuman's lips stand 3 mm ahead of the line
// from the nose's tip to the chin (in profile, real lips sit a few
// millimetres behind it), and 0.4 of mouthClose brought them 4 mm ahead,
// the pursed, pouting mouth the blind panel saw.
var restLips = []struct {
	shape  string
	weight float32
}{{"mouthClose", 0.45}, {"mouthPressLeft", 0.6}, {"mouthPressRight", 0.6}, {"mouthRollLower", 0.5}}

// lipSetBack is how far the lips (by lipMask) move back at rest.
const lipSetBack = 0.0015

// closeLips moves the head's vertices by restLips and the lips back by
// lipSetBack.
func (p *part) closeLips() {
	// In a fixed order: sums of floats in map order differ in their
	// last bits from build to build. Faded at the neck as the face
	// shapes are (neckSeamFade), so the head's border stays on the body's.
	fade := neckSeamFade()
	for _, r := range restLips {
		w := r.weight
		idx, d := face.Deltas(r.shape)
		at := make(map[int32][3]float32, len(idx))
		for i, v := range idx {
			at[v] = scale3f(d[i], fade[v])
		}
		for i, v := range p.base {
			if o, ok := at[v]; ok {
				for k := range 3 {
					p.pos[i][k] += w * o[k]
				}
			}
		}
	}
	lips := lipMask()
	for i, v := range p.base {
		p.pos[i][2] -= lipSetBack * lips[v]
	}
}
