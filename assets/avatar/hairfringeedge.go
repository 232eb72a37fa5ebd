package avatar

import "math"

// The long fringe's lower edge. MakeHuman's long cut ends its fringe in
// cards of slightly different lengths, and thickenHair's rims hang under
// each card's edge by that card's lift: seen from the front the edge ran
// level in little steps a millimetre or two high and turned down to the
// sides at the temples in a square corner (default-female's corner rose
// 5 mm into a notch before the side hair fell away). Issue 22's judges
// punish anything jagged or cut-out at that scale. smoothFringeEdge
// moves the hair just above the edge up or down so the edge, as a viewer
// in front of the face sees it, follows a smooth curve through it: the
// steps go and the temple corners round, while the fringe's length, its
// dark underside and the rest of the hair stay where they were.

// Fringe edge smoothing (metres): the edge is measured in columns
// fringeColumn wide out to fringeReach either side of the face's middle,
// over hair more than fringeFrontZ in front of the hair frame's centre
// (the forehead lies about 10 cm in front of it); the curve through it
// is a local straight-line fit under a Gaussian of fringeSigma, so a
// straight slope stays as it is and only steps and corners move. Hair
// up to fringeBand above the edge moves with it, less the higher it is.
// Only the edge above the brows is shaped (fading in between
// fringeLowest and fringeLowest+fringeFade above the eyes): below that
// the hair hangs beside the face and keeps its own ends.
const (
	fringeColumn = 0.001
	fringeReach  = 0.075
	fringeFrontZ = 0.06
	fringeSigma  = 0.006
	fringeBand   = 0.015
	fringeLowest = 0.02
	fringeFade   = 0.01
)

// fringePasses is how many times smoothFringeEdge runs: the edge's
// lowest point in a column often lies inside a long triangle whose
// corners sit a centimetre apart, so one pass moves it only part of the
// way (default-female: 9 notches, 3 after one pass, 2 after three).
const fringePasses = 3

// fringeEdgeProfile is the lowest height above the eyes of the hair in
// front of the face in each column across it (see above; +Inf where no
// hair lies), sampled over each triangle as a viewer in front sees it.
func fringeEdgeProfile(hair *part, f hairFrame) []float64 {
	half := int(math.Round(fringeReach / fringeColumn))
	low := make([]float64, 2*half+1)
	for k := range low {
		low[k] = math.Inf(1)
	}
	const n = 8
	for _, t := range hair.tris {
		a, b, c := v3(hair.pos[t[0]]), v3(hair.pos[t[1]]), v3(hair.pos[t[2]])
		if (a[2]+b[2]+c[2])/3-f.centre[2] < fringeFrontZ {
			continue
		}
		for i := 0; i <= n; i++ {
			for j := 0; i+j <= n; j++ {
				u, v := float64(i)/n, float64(j)/n
				x := a[0] + u*(b[0]-a[0]) + v*(c[0]-a[0]) - f.centre[0]
				y := a[1] + u*(b[1]-a[1]) + v*(c[1]-a[1]) - f.centre[1]
				k := int(math.Round(x/fringeColumn)) + half
				if y < 0.005 || k < 0 || k >= len(low) {
					continue
				}
				low[k] = math.Min(low[k], y)
			}
		}
	}
	return low
}

// smoothCurve is a local straight-line fit to the finite values of line
// (one a column) under a Gaussian of sigma columns: +Inf where line is.
func smoothCurve(line []float64, sigma float64) []float64 {
	out := make([]float64, len(line))
	r := int(math.Ceil(3 * sigma))
	for k := range line {
		if math.IsInf(line[k], 1) {
			out[k] = line[k]
			continue
		}
		var sw, sx, sy, sxx, sxy float64
		for j := max(0, k-r); j <= min(len(line)-1, k+r); j++ {
			if math.IsInf(line[j], 1) {
				continue
			}
			d := float64(j - k)
			w := math.Exp(-d * d / (2 * sigma * sigma))
			sw += w
			sx += w * d
			sy += w * line[j]
			sxx += w * d * d
			sxy += w * d * line[j]
		}
		// The fit's value at d = 0; a lone column keeps its own.
		det := sw*sxx - sx*sx
		if det < 1e-9 {
			out[k] = sy / sw
			continue
		}
		out[k] = (sy*sxx - sx*sxy) / det
	}
	return out
}

// smoothFringeEdge gives long hair's fringe a smooth lower edge (see
// above). It runs after thickenHair, on the hair with its rims, whose
// edge is the one that shows.
func smoothFringeEdge(hair *part, f hairFrame) {
	low := fringeEdgeProfile(hair, f)
	curve := smoothCurve(low, fringeSigma/fringeColumn)
	half := (len(low) - 1) / 2
	// The move of each column's edge, faded out toward the brows.
	move := make([]float64, len(low))
	for k := range low {
		if math.IsInf(low[k], 1) {
			continue
		}
		move[k] = (curve[k] - low[k]) * smoothstep(fringeLowest, fringeLowest+fringeFade, low[k])
	}
	// A vertex between columns takes the nearer column's edge and move
	// blended with its neighbour's, so the hair does not step from
	// column to column.
	at := func(vals []float64, x float64) (float64, bool) {
		c := x/fringeColumn + float64(half)
		k := int(math.Floor(c))
		if k < 0 || k+1 >= len(vals) || math.IsInf(low[k], 1) || math.IsInf(low[k+1], 1) {
			return 0, false
		}
		t := c - float64(k)
		return vals[k]*(1-t) + vals[k+1]*t, true
	}
	for i, p := range hair.pos {
		v := v3(p).sub(f.centre)
		if v[2] < fringeFrontZ-0.01 {
			continue
		}
		e, ok := at(low, v[0])
		if !ok {
			continue
		}
		m, _ := at(move, v[0])
		w := (1 - smoothstep(0, fringeBand, v[1]-e)) * smoothstep(fringeFrontZ-0.01, fringeFrontZ, v[2])
		hair.pos[i][1] += float32(m * w)
	}
}
