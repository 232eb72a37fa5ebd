package avatar

import "math"

// scalpWeights is, per head vertex, how much of it lies under the scalp
// hair (0..1). The skin painter gives that area the hair's colour
// (paint.Scalp), so the gaps between cards, the parting and the cut
// hairline show hair, not skin: the blind panel of issue 22 saw skin
// through long hair (worst on dark skin) and jagged steps along the
// hairline.
//
// A vertex is under the hair when its normal, cast outward, meets a hair
// triangle within 3 cm: hair that covers it as seen from outside, so the
// painted hairline follows the hair's own edge on the forehead. Behind
// the sideburns, where long hair hangs off the back of the head, skin
// within 2 cm of hair (fading from 1 cm) counts too. The face in front of
// the ears and below 2.5 cm over the eyes is never painted, whatever
// hangs beside it.
func scalpWeights(head, hair *part, joints map[string][3]float32) []float32 {
	out := make([]float32, len(head.pos))
	if hair == nil || len(hair.tris) == 0 {
		return out
	}
	const (
		cellSize  = 0.02
		reach     = 0.03 // along the normal
		near, far = 0.01, 0.02
	)
	cell := func(p vec3) [3]int {
		return [3]int{int(math.Floor(p[0] / cellSize)), int(math.Floor(p[1] / cellSize)), int(math.Floor(p[2] / cellSize))}
	}
	// Hair triangles whose first corner lies within 2 cells of the
	// vertex's, hair vertices in those cells, are searched. The
	// triangles are asked through a grid of their boxes (triGrid), which
	// tests only the ones near the ray: the same answers as testing
	// every one of the 125 cells' triangles, in a fraction of the time.
	first := make([][3]int, len(hair.tris))
	var vertPairs bucketPairs
	used := make([]bool, len(hair.pos))
	for t, tri := range hair.tris {
		first[t] = cell(v3(hair.pos[tri[0]]))
		used[tri[0]], used[tri[1]], used[tri[2]] = true, true, true
	}
	grid := newTriGrid(hair, 0.01)
	for i, q := range hair.pos {
		if used[i] {
			vertPairs.add(cell(v3(q)), i)
		}
	}
	verts := vertPairs.build()
	eye := float64(joints["LeftEye"][1]+joints["RightEye"][1]) / 2
	ear := float64(joints["Head"][2]) + 0.012
	for i, q := range head.pos {
		p, n := v3(q), v3(head.nrm[i]).norm()
		front := smoothstep(ear-0.01, ear+0.01, p[2])
		face := front * smoothstep(eye+0.04, eye+0.025, p[1])
		if face > 0.999 {
			continue
		}
		c := cell(p)
		w := 0.0
		best := far * far
		from := p.sub(n.scale(0.001))
		around := func(t int32) bool {
			f := first[t]
			return f[0] >= c[0]-2 && f[0] <= c[0]+2 && f[1] >= c[1]-2 && f[1] <= c[1]+2 && f[2] >= c[2]-2 && f[2] <= c[2]+2
		}
		if grid.crossesWhere(from, n, reach, around) {
			w = 1
		}
		for dx := -2; dx <= 2 && w < 1 && front <= 0.999; dx++ {
			for dy := -2; dy <= 2; dy++ {
				for dz := -2; dz <= 2; dz++ {
					k := [3]int{c[0] + dx, c[1] + dy, c[2] + dz}
					for _, j := range verts.get(k) {
						d := v3(hair.pos[j]).sub(p)
						// Over the skin, not behind it.
						if d.dot(n) > -0.002 {
							best = math.Min(best, d.dot(d))
						}
					}
				}
			}
		}
		if w < 1 {
			w = smoothstep(far, near, math.Sqrt(best)) * (1 - front)
		}
		out[i] = float32(w * (1 - face))
	}
	return out
}

// coverFromFront paints the scalp (mask, scalpWeights) on the forehead
// skin just below a short cut's front edge as seen from the front, in a
// band of even width. Along the skin's normal (scalpWeights) the short
// cut's front, which overhangs the forehead, covered a head vertex at
// one point of the edge and missed it at the next: the vertices (about
// 6 mm apart) fall above or below the edge as the edge arches over
// them, so the painted band under the edge (the feathered hairline the
// judges kept, c3e521a) showed only where a painted vertex fell below
// the edge, as a few isolated patches: the dark dots on the forehead at
// the hairline that the A/B of short22 named ("dark pits", "dark specks
// along the fringe"; random-12, -06 and -07 made short). Here the
// weight of a head vertex over the forehead is how far below the edge
// it lies: full where the hair hides it from the front (a ray straight
// forward, +z as a portrait's camera looks, meets the hair within
// scalpFrontReach), none hairlineBand lower. It replaces scalpWeights's
// on skin facing forward and leaves it on skin facing the sides.
func coverFromFront(mask []float32, head, hair *part, joints map[string][3]float32) {
	if len(hair.tris) == 0 {
		return
	}
	eye := float64(joints["LeftEye"][1]+joints["RightEye"][1]) / 2
	ear := float64(joints["Head"][2]) + 0.012
	grid := newTriGrid(hair, 0.01)
	forward := vec3{0, 0, 1}
	for i, q := range head.pos {
		p, n := v3(q), v3(head.nrm[i]).norm()
		if p[2] < ear || p[1] < eye+scalpFrontLow {
			continue
		}
		// Skin facing forward takes the band; skin facing the sides
		// (the temples, behind them) keeps scalpWeights's, which
		// follows the side's edge along the normal.
		facing := smoothstep(0.3, 0.7, n[2])
		if facing == 0 {
			continue
		}
		band := 0.0
		from := p.sub(n.scale(0.001))
		for k := 0; k <= hairlineSteps; k++ {
			below := hairlineBand * float64(k) / hairlineSteps
			if grid.crosses(from.add(vec3{0, below, 0}), forward, scalpFrontReach) {
				band = smoothstep(hairlineBand, 0, below)
				break
			}
		}
		// The face's own fade (scalpWeights) still holds low down.
		face := smoothstep(eye+0.04, eye+0.025, p[1]) * smoothstep(ear-0.01, ear+0.01, p[2])
		band *= 1 - face
		mask[i] = float32(float64(mask[i]) + (band-float64(mask[i]))*facing)
	}
}

// scalpFrontLow is how high over the eyes (metres) coverFromFront starts
// looking: above the brows, where scalpWeights paints no face.
const scalpFrontLow = 0.025

// scalpFrontReach is how far forward (metres) hair hides the forehead
// for coverFromFront: the short cut's front overhangs the skin under its
// edge by 1-3 cm.
const scalpFrontReach = 0.03

// hairlineBand is how far below a short cut's front edge (metres) the
// scalp's paint fades out (coverFromFront), searched in hairlineSteps.
const (
	hairlineBand  = 0.005
	hairlineSteps = 5
)
