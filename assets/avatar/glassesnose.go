package avatar

import "math"

// noseGap is how far, metres, a rim's tube stays off the nose's side.
const noseGap = 0.001

// noseSide is, for the part of a frame's tube (radius tube) at a height
// and depth, how far from the face's middle it must be to clear the side
// of the nose by noseGap: the widest of five lines across the nose
// (tris, the head's triangles on the +x side within 2.5 cm of the
// middle), through the tube's middle and a radius up, down, back and
// forth, plus the tube and the gap; 0 where the nose is not at that
// height and depth.
type noseSide func(y, z float64) float64

func newNoseSide(pos []vec3, tris [][3]uint32, tube float64) noseSide {
	var nose [][3]uint32
	for _, t := range tris {
		if pos[t[0]][0] < 0.025 && pos[t[1]][0] < 0.025 && pos[t[2]][0] < 0.025 {
			nose = append(nose, t)
		}
	}
	return func(y, z float64) float64 {
		w := 0.0
		for _, d := range [][2]float64{{0, 0}, {tube, 0}, {-tube, 0}, {0, tube}, {0, -tube}} {
			w = math.Max(w, sideWidth(pos, nose, y+d[0], z+d[1], 1))
		}
		if w == 0 {
			return 0
		}
		return w + tube + noseGap
	}
}

// chamferForNose cuts a rim's nasal side (the points nearer the face's
// middle than its centre cx, signed as the rim's side) so it clears the
// nose, as a real lens's nasal corner is cut: along a line down and out
// from the rim's inner side at its middle height cy, as steep as the
// nose needs and no steeper (the nose widens below the eyes; beside
// the bridge it is narrow; clearOfBridge sets the lens out to clear it
// there). The rim is clipped by that border as a polygon, so it stays convex and
// the front rigid. aebaeca moved each point out to the nose's side
// instead: the rim traced the nose and kinked at its wing, "bent,
// warped into the nose" (issue 22's p13 panel, random-12, random-15).
// Clipped points closer than a millimetre are merged (the tube swept
// along them needs a direction between them).
func chamferForNose(rim []vec3, cx, cy float64, clear noseSide) []vec3 {
	nasal := func(p vec3) bool { return math.Abs(p[0]) < math.Abs(cx) }
	side := rimInner(rim, cy)
	slope := 0.0
	for _, p := range rim {
		if nasal(p) && p[1] < cy {
			slope = math.Max(slope, (clear(p[1], p[2])-side)/(cy-p[1]))
		}
	}
	// in is how far p is on the lens's side of the cut (negative: cut off).
	in := func(p vec3) float64 { return math.Abs(p[0]) - side - slope*math.Max(0, cy-p[1]) }
	var out []vec3
	add := func(p vec3) {
		if len(out) == 0 || p.sub(out[len(out)-1]).len() > 0.001 {
			out = append(out, p)
		}
	}
	for i, p := range rim {
		q := rim[(i+1)%len(rim)]
		if in(p) >= 0 {
			add(p)
		}
		if (in(p) < 0) != (in(q) < 0) {
			t := in(p) / (in(p) - in(q))
			add(p.add(q.sub(p).scale(t)))
		}
	}
	if len(out) > 1 && out[0].sub(out[len(out)-1]).len() <= 0.001 {
		out = out[:len(out)-1]
	}
	return out
}

// clearOfBridge is how far a rim (centre ±cx, middle height cy) must
// move out from the face's middle for its upper nasal quarter to clear
// the nose (0 when it does): the whole lens moves, as a real frame with
// a wider bridge, so the lens keeps its shape; cut straight down to the
// nose's side instead, a round lens became a "D".
func clearOfBridge(rim []vec3, cx, cy float64, clear noseSide) float64 {
	move := 0.0
	for _, p := range rim {
		if math.Abs(p[0]) < math.Abs(cx) && p[1] >= cy {
			move = math.Max(move, clear(p[1], p[2])-math.Abs(p[0]))
		}
	}
	return move
}

// rimInner is how near the face's middle the rim comes at height y:
// the least |x| where its edges cross that height.
func rimInner(rim []vec3, y float64) float64 {
	in := math.Inf(1)
	for i, p := range rim {
		q := rim[(i+1)%len(rim)]
		if (p[1]-y)*(q[1]-y) > 0 || p[1] == q[1] {
			continue
		}
		t := (y - p[1]) / (q[1] - p[1])
		in = math.Min(in, math.Abs(p[0]+t*(q[0]-p[0])))
	}
	return in
}

// rimOuter is how far from the face's middle the rim reaches at height
// y: the greatest |x| where its edges cross that height.
func rimOuter(rim []vec3, y float64) float64 {
	out := 0.0
	for i, p := range rim {
		q := rim[(i+1)%len(rim)]
		if (p[1]-y)*(q[1]-y) > 0 || p[1] == q[1] {
			continue
		}
		t := (y - p[1]) / (q[1] - p[1])
		out = math.Max(out, math.Abs(p[0]+t*(q[0]-p[0])))
	}
	return out
}

// rimAt is the i-th of a rim's 40 points as the cosine and sine of its
// angle: an ellipse's, or, square, a superellipse's (straight sides,
// rounded corners).
func rimAt(i int, square bool) (ca, sa float64) {
	a := 2 * math.Pi * float64(i) / 40
	ca, sa = math.Cos(a), math.Sin(a)
	if square {
		ca = math.Copysign(math.Pow(math.Abs(ca), 0.5), ca)
		sa = math.Copysign(math.Pow(math.Abs(sa), 0.5), sa)
	}
	return ca, sa
}
