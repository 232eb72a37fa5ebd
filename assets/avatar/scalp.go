package avatar

import "math"

// scalpWeights is, per head vertex, how much of it lies under the scalp
// hair (0..1, running on a little past both by the hair's edge:
// rootRamp). The skin painter gives that area the hair's colour
// (paint.Scalp), so the gaps between cards, the parting and the cut
// hairline show hair, not skin: the blind panel of issue 22 saw skin
// through long hair (worst on dark skin) and jagged steps along the
// hairline.
//
// A point is under the hair when its normal, cast outward, meets a hair
// triangle within 3 cm: hair that covers it as seen from outside, so the
// painted hairline follows the hair's own edge on the forehead. That
// edge is found between the vertices (hairEdge) and each vertex weighs
// by its distance from it (rootRamp), not 1 or 0 by its own ray: the
// painter blends the weights over each triangle, and the head's
// vertices lie about 1 cm apart at the temples, so 1s and 0s painted a
// dark band stepped from vertex to vertex beside the fringe (issue 22,
// default-female). Behind the sideburns, where long hair hangs off the
// back of the head, skin within 2 cm of hair (fading from 1 cm) counts
// too. The face in front of the ears and below 2.5 cm over the eyes is
// never painted, whatever hangs beside it, nor are the ears (earMask):
// hair hanging over or beside them painted their tops dark, "hair
// bleeding onto them" (issue 22, random-13 and random-15).
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
	// covered is whether hair lies over the skin at p (normal n).
	covered := func(p, n vec3) bool {
		c := cell(p)
		around := func(t int32) bool {
			f := first[t]
			return f[0] >= c[0]-2 && f[0] <= c[0]+2 && f[1] >= c[1]-2 && f[1] <= c[1]+2 && f[2] >= c[2]-2 && f[2] <= c[2]+2
		}
		return grid.crossesWhere(p.sub(n.scale(0.001)), n, reach, around)
	}
	eye := float64(joints["LeftEye"][1]+joints["RightEye"][1]) / 2
	ear := float64(joints["Head"][2]) + 0.012
	hit := make([]bool, len(head.pos))
	face := make([]float64, len(head.pos))
	beside := make([]float64, len(head.pos))
	for i, q := range head.pos {
		p, n := v3(q), v3(head.nrm[i]).norm()
		front := smoothstep(ear-0.01, ear+0.01, p[2])
		face[i] = front * smoothstep(eye+0.04, eye+0.025, p[1])
		if face[i] > 0.999 {
			continue
		}
		if hit[i] = covered(p, n); hit[i] || front > 0.999 {
			continue
		}
		best := far * far
		for j := range verts.around(cell(p), 2) {
			d := v3(hair.pos[j]).sub(p)
			// Over the skin, not behind it.
			if d.dot(n) > -0.002 {
				best = math.Min(best, d.dot(d))
			}
		}
		beside[i] = smoothstep(far, near, math.Sqrt(best)) * (1 - front)
	}
	edge := hairEdge(head, hit, covered)
	var ears []float32
	if head.base != nil {
		ears = earMask()
	}
	for i, q := range head.pos {
		if face[i] > 0.999 {
			continue
		}
		w := rootRamp(edge.signed(v3(q), hit[i]))
		if beside[i] > 0 {
			// Not 0 for none: the ramp runs on below it.
			w = math.Max(w, beside[i])
		}
		keep := 1 - face[i]
		if ears != nil {
			keep *= 1 - smoothstep(earBare[0], earBare[1], float64(ears[head.base[i]]))
		}
		if keep < 1 {
			// Faded by the share kept; past 1 only where all is.
			w = math.Min(w, 1) * keep
		}
		out[i] = float32(w)
	}
	return out
}

// earBare is where the ear's skin is kept bare of scalp paint: none
// where earMask (earSkin for sideburns) is under the first, bare from
// the second.
var earBare = [2]float64{0.15, 0.4}

// rootRamp is how much scalp paint lies at sd metres inside the hair's
// edge (negative outside): none 4 mm outside it, all 6 mm inside, in a
// straight line between, which runs on past 0 and 1 (the painter's
// smoothsteps clamp it per texel). Unclamped, the painter's blend over a
// triangle reproduces the ramp wherever the edge crosses it, so the
// painted edge is as smooth as the hair's own; clamped at the corners,
// 1 cm apart at the temples, the blend bent it back toward the mesh. At
// the edge it is 0.4: the painter's thin strands, full roots from 2 mm
// in; the dark of the roots stays inside the hair (a bare cut, no paint
// past the hairline, lost 4 of 14: "a hard cut-out edge, a wig").
func rootRamp(sd float64) float64 {
	const outside, inside = 0.004, 0.006
	return (sd + outside) / (outside + inside)
}

// edgeRefine is how many halvings find where the hair's edge crosses
// a head edge: 1 cm / 64, under a texel.
const edgeRefine = 6

// hairLine is the hair's edge on the head: segments across each
// triangle whose corners are partly covered.
type hairLine struct{ a, b []vec3 }

// hairEdge traces the edge of the covered skin (hit, per head vertex)
// across the head's triangles. Where an edge of a triangle runs from a
// covered corner to a bare one, the crossing is found by halving it
// (covered, asked at the normal blended between the corners), not
// taken at the middle, so the line follows the hair and not the mesh.
func hairEdge(head *part, hit []bool, covered func(p, n vec3) bool) hairLine {
	cross := map[[2]uint32]vec3{}
	at := func(i, j uint32) vec3 {
		if hit[i] {
			i, j = j, i
		}
		// i bare, j covered.
		k := [2]uint32{min(i, j), max(i, j)}
		if p, ok := cross[k]; ok {
			return p
		}
		pi, pj := v3(head.pos[i]), v3(head.pos[j])
		ni, nj := v3(head.nrm[i]).norm(), v3(head.nrm[j]).norm()
		lo, hi := 0.0, 1.0
		for range edgeRefine {
			t := (lo + hi) / 2
			if covered(pi.add(pj.sub(pi).scale(t)), ni.add(nj.sub(ni).scale(t)).norm()) {
				hi = t
			} else {
				lo = t
			}
		}
		p := pi.add(pj.sub(pi).scale((lo + hi) / 2))
		cross[k] = p
		return p
	}
	var l hairLine
	for _, t := range head.tris {
		var ends []vec3
		for k := range 3 {
			i, j := t[k], t[(k+1)%3]
			if hit[i] != hit[j] {
				ends = append(ends, at(i, j))
			}
		}
		if len(ends) == 2 {
			l.a, l.b = append(l.a, ends[0]), append(l.b, ends[1])
		}
	}
	return l
}

// signed is p's distance from the line, positive on the covered side
// (in, p's own side): out to 2.5 cm, farther counts as 2.5 cm, past the
// longest edges of the head's triangles on the scalp, so the distance
// blended along an edge the line crosses is the distance.
func (l hairLine) signed(p vec3, in bool) float64 {
	const reach = 0.025
	d := reach
	for s := range l.a {
		a, b := l.a[s], l.b[s]
		if math.Abs(a[1]-p[1]) > reach+math.Abs(a[1]-b[1]) {
			continue
		}
		ab := b.sub(a)
		t := 0.0
		if q := ab.dot(ab); q > 0 {
			t = math.Max(0, math.Min(1, p.sub(a).dot(ab)/q))
		}
		d = math.Min(d, p.sub(a.add(ab.scale(t))).len())
	}
	if !in {
		return -d
	}
	return d
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

// sideburns paints sideburns on p's scalp (mask, per vertex of p):
// the skin over each ear and in front of it, from the hair's side down
// to the ear's top, and in front of the ear on down sideburnDrop;
// sideburnWidth in front of the ear's front it fades out. p is the head
// (a short cut's scalp paint) or a buzz cut's shell lying on it; ears
// are the head's (earBoxes). The short cut's side stands off the head
// and ends over the ear, so a quarter view saw bare skin between the
// hair's front corner and the ear: "a bare skin notch at the temple",
// "a cut-out, wig-like edge" (issue 22's A/B of caa4f12, every
// short-cut quarter view), where the leader's short cuts come down in
// front of the ear as a sideburn; the buzz cut's hairline, over the ear
// and faded over its last centimetres, left the same notch. The ear's
// own skin (earSkin) stays bare; the skull's top and the forehead
// (within sideburnSkull of the head's middle) and the face in front of
// the sideburn are left to the cut's own hairline. They end at the
// ear's back, fading out over behind (metres) behind it; 0 cuts them
// there (the short cut's hair covers the skin behind).
func sideburns(mask []float32, p *part, ears [2]earBox, behind float64) {
	if p.base == nil {
		return
	}
	skin := earSkin(p, ears)
	for i, q := range p.pos {
		e := ears[0]
		if q[0] < 0 {
			e = ears[1]
		}
		y, z := float64(q[1]), float64(q[2])
		if math.IsInf(e.top, 0) || math.Abs(float64(q[0])) < sideburnSkull || z < e.back-behind {
			continue
		}
		// The sideburn's foot: the ear's top over the ear, sideburnDrop
		// lower in front of it.
		foot := e.top - sideburnDrop*smoothstep(e.front-sideburnSoft, e.front+sideburnSoft, z)
		down := smoothstep(foot-sideburnSoft, foot+sideburnSoft, y)
		along := 1 - smoothstep(e.front+sideburnWidth-sideburnFront, e.front+sideburnWidth, z)
		w := down * along * (1 - smoothstep(earBare[0], earBare[1], skin[i]))
		if behind > 0 {
			w *= smoothstep(e.back-behind, e.back, z)
		}
		mask[i] = float32(math.Max(float64(mask[i]), w))
	}
}

// rootsUnderBurns lays the scalp's roots (scalp, paint.Scalp's mask)
// under a short cut's painted sideburns (burns, sideburns' mask on the
// head p) from the ear's top up, where they meet the hair's edge. The
// sideburns' paint (paint.Sideburns) thins out in streaks wherever its
// mask fades, and over the ear that is along the ear's own skin
// (earSkin), just under the hair: with nothing under them the streaks
// there showed the skin, "a pink fleck of skin showing through at its
// top" (the A/B of df8efba, default-male's quarter and temple views).
// Below the ear's top the streaked front edge and foot stay as they are.
func rootsUnderBurns(scalp, burns []float32, p *part, ears [2]earBox) {
	for i, q := range p.pos {
		e := ears[0]
		if q[0] < 0 {
			e = ears[1]
		}
		if math.IsInf(e.top, 0) || float64(q[1]) < e.top {
			continue
		}
		scalp[i] = max(scalp[i], burns[i])
	}
}

// The sideburns' shape (metres, sideburns): they reach sideburnWidth in
// front of the ear's front, fading out over the last sideburnFront, and
// sideburnDrop under the ear's top there; their foot fades over
// sideburnSoft either side of it.
const (
	sideburnWidth = 0.026
	sideburnFront = 0.01
	sideburnDrop  = 0.012
	sideburnSoft  = 0.005
	sideburnSkull = 0.05
)

// earSkin is, per vertex of p (the head, or hair lying on it), how much
// of an ear's own skin it is: MakeHuman's ear mask (earMask) where it
// lies no higher than the ear's top and no further forward than its
// front (ears, the head's earBoxes), fading out over earSkinFade past
// them. The mask alone runs 3 cm over the ear and 4 cm in front of it,
// over the temple where the sideburns lie.
func earSkin(p *part, ears [2]earBox) []float64 {
	mask := earMask()
	out := make([]float64, len(p.pos))
	for i, q := range p.pos {
		e := ears[0]
		if q[0] < 0 {
			e = ears[1]
		}
		out[i] = float64(mask[p.base[i]])
		if !math.IsInf(e.top, 0) {
			out[i] *= 1 - smoothstep(e.top, e.top+earSkinFade, float64(q[1]))
			out[i] *= 1 - smoothstep(e.front, e.front+earSkinFade, float64(q[2]))
		}
	}
	return out
}

// earSkinFade is how far (metres) past the ear's top and front earSkin
// fades out: the sideburns paint the skin down to the ear, and further
// off, 6 mm, they left a bare rim over it.
const earSkinFade = 0.003

// buzzBurnsBehind is how far (metres) behind the ear's back a buzz cut's
// sideburns fade out: cut off at the ear's back, the shell's hairline
// behind them kept its thinning to the skin, and a quarter view saw a
// hard straight edge where one ended and the other began.
const buzzBurnsBehind = 0.01

// buzzSideburns is how much of a painted sideburn (sideburns) each
// vertex of a buzz cut's shell hair carries, by the ears of head: the
// shell paints it as full cover (paint.BuzzHair), so its faded hairline
// does not end the sideburn the head's skin carries below it.
func buzzSideburns(hair, head *part, joints map[string][3]float32) []float32 {
	out := make([]float32, len(hair.pos))
	sideburns(out, hair, earBoxes(head, joints), buzzBurnsBehind)
	return out
}

// onHair carries a value per vertex of head (v) to the vertices of hair
// built on it (the sculpted cuts: each hair vertex keeps the MakeHuman
// vertex of the head's it was made from, base); nil for nil, 0 where a
// hair vertex's is not on head.
func onHair(hair, head *part, v []float32) []float32 {
	if v == nil || hair.base == nil || head.base == nil {
		return nil
	}
	at := map[int32]float32{}
	for i, b := range head.base {
		at[b] = v[i]
	}
	out := make([]float32, len(hair.pos))
	for i, b := range hair.base {
		out[i] = at[b]
	}
	return out
}
