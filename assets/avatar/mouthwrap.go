package avatar

import (
	"math"

	"github.com/kilnhq/kiln/assets/avatar/human"
)

// Issue 22: the judges called several of our mouths "pursed" (random-09,
// -16, -18 at p21), and in a quarter view the mouth stood out of the face
// like a small beak. The cause was the mouth's shape, not its paint: read
// along the parting, in eye-distances (the distance between the
// eyeballs' centres), MakeHuman's lips on the house face (scale-depth
// -0.8) ran nearly flat from the middle, 0.05 behind their front at 0.3
// off it and 0.13 at the corners (0.46), and the skin then stepped back
// 0.15 within the next 0.1; the leader's mouth curves back all the way,
// 0.16 and 0.29 behind its front there, its corners tucked into the
// cheeks (facemeasure's MouthCorner: ours 0.09-0.15, the leader's
// 0.27-0.29). wrapMouth bends the mouth and the skin round it back along
// that curve: the middle stays, the corners go back most, and the push
// fades out where the skin already lies back (past the corners, into the
// cheeks), over the upper lip toward the nose and under the lower lip
// toward the chin.

// mouthWrap is how far back the corners go at most, in eye-distances:
// about 9 mm on the house faces.
const mouthWrap = 0.16

// wrapMouth moves the base vertices round the mouth of a shaped body
// straight back (-Z) by mouthWrap times wrapWeight: none in the middle,
// all at the corners; all over the lips, none under the nose or on the
// chin; all at the lips' front, none where the skin already lies
// wrapDeep[1] behind it. The mouth is found on the body itself (the lips
// by lipMask), so every face's mouth is bent round its own corners. The
// teeth and the tongue go back with the corners (mouthHelpers). Face
// shapes (ARKit, visemes) are offsets and carry over; the mouth's inside
// is fitted to the moved body, and tuckMouth keeps it under the skin and
// the lips.
func wrapMouth(b *human.Body) {
	m, ok := findMouth(b)
	if !ok {
		return
	}
	inside := mouthHelpers()
	for v, p := range b.Pos {
		w := m.wrapWeight(p)
		if inside[int32(v)] {
			w = m.teethBack(p)
		}
		if w > 0 {
			b.Pos[v][2] -= float32(mouthWrap * m.ipd * w)
		}
	}
}

// teethLead is how much nearer the middle the teeth's push rises than
// the skin's (teethBack): the canines stand a little inside the corners
// and go back nearly as far.
const teethLead = 1.3

// mouthHelpers are the base vertices the teeth, their gums and the
// tongue are fitted to (MakeHuman's helpers). They go back by the
// across ramp alone (teethBack), at every height and depth: under the
// depth ramp the side teeth stayed where they were while the corners in
// front of them went back, and under mouthSmile and mouthLowerDown they
// came out through the lips' corners (TestTeethBehindLips: up to 5.3 mm
// on the panel), white specks at the corners of random-09's smile. Each
// tooth is small across and keeps its shape; the row bends back round
// the face with the lips. tuckGums takes back what still comes through.
func mouthHelpers() map[int32]bool {
	out := map[int32]bool{}
	for _, g := range []string{"helper-upper-teeth", "helper-lower-teeth", "helper-tongue"} {
		for _, v := range human.Group(g) {
			out[v] = true
		}
	}
	return out
}

// mouthPlace is where a body's lips are: their middle across (x) and up
// (y), their foremost depth (front), the corners' distance from the
// middle (half) and the eye distance the ramps are drawn in.
type mouthPlace struct {
	x, y, front, half, ipd float64
}

// lipCore is the lipMask value from which a vertex counts as lip when
// the mouth is found: the lips' body, not the skin their dials brush.
const lipCore = 0.5

// findMouth finds the lips on a shaped body (false when it has none).
func findMouth(b *human.Body) (mouthPlace, bool) {
	lips := lipMask()
	eyes := eyeCentres(b)
	m := mouthPlace{ipd: eyes[0].centre.sub(eyes[1].centre).len(), front: math.Inf(-1)}
	lo, hi := [2]float64{math.Inf(1), math.Inf(1)}, [2]float64{math.Inf(-1), math.Inf(-1)}
	for v, p := range b.Pos {
		if v >= len(lips) || lips[v] < lipCore {
			continue
		}
		for a := range 2 {
			lo[a], hi[a] = math.Min(lo[a], float64(p[a])), math.Max(hi[a], float64(p[a]))
		}
		m.front = math.Max(m.front, float64(p[2]))
	}
	if math.IsInf(m.front, -1) || m.ipd == 0 {
		return m, false
	}
	m.x, m.y = (lo[0]+hi[0])/2, (lo[1]+hi[1])/2
	m.half = (hi[0] - lo[0]) / 2
	return m, true
}

// The ramps of wrapWeight. Across, in the lips' half-width (lipMask's
// core, about 0.87 of the painted lips'): the push rises from wrapRise[0]
// to wrapRise[1] (the leader's curve begins a little off the middle) and
// falls from wrapFall[0] to wrapFall[1], well out in the cheek. Up and
// down, in eye-distances from the lips' middle: all of it between
// wrapBand[1] and wrapBand[2], none below wrapBand[0] (the chin) or above
// wrapBand[3] (under the nose's wings; ending lower, at 0.32, the skin
// over the upper lip stood out over its edge, a dark crease along it). In
// depth behind the lips' front, in eye-distances: all of it at the
// front, none from wrapDeep[1], where our skin already lies back past
// the corners. The push in depth grows slower than the depth itself
// (mouthWrap·1.5 over the ramp's length is under one), so nothing passes
// what lay behind it: a push that faded across instead, past the corners,
// hollowed the skin there (TestMouthWrapSmooth).
var (
	wrapRise = [2]float64{0.3, 1.1}
	wrapFall = [2]float64{1.6, 2.2}
	wrapBand = [4]float64{-0.32, -0.08, 0.2, 0.45}
	wrapDeep = [2]float64{0.05, 0.33}
)

// across is the across ramp of wrapWeight at p (0..1).
func (m mouthPlace) across(p [3]float32) float64 {
	r := math.Abs(float64(p[0])-m.x) / m.half
	return smoothstep(wrapRise[0], wrapRise[1], r) * (1 - smoothstep(wrapFall[0], wrapFall[1], r))
}

// teethBack is how much of mouthWrap the mouth's inside takes at p
// (0..1): the across ramp's rise drawn teethLead times nearer the
// middle, and no fall (the back teeth go back whole).
func (m mouthPlace) teethBack(p [3]float32) float64 {
	r := teethLead * math.Abs(float64(p[0])-m.x) / m.half
	return smoothstep(wrapRise[0], wrapRise[1], r)
}

// wrapWeight is how much of mouthWrap a point takes (0..1).
func (m mouthPlace) wrapWeight(p [3]float32) float64 {
	across := m.across(p)
	if across == 0 {
		return 0
	}
	v := (float64(p[1]) - m.y) / m.ipd
	band := smoothstep(wrapBand[0], wrapBand[1], v) * (1 - smoothstep(wrapBand[2], wrapBand[3], v))
	t := (m.front - float64(p[2])) / m.ipd
	deep := 1 - smoothstep(wrapDeep[0], wrapDeep[1], t)
	return across * band * deep
}
