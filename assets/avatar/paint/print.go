package paint

import "math"

// Prints on a top, by id.
const (
	PrintStripes = "stripes" // Breton stripes all round: 1.75 cm of ink every 3.5 cm
	PrintGraphic = "graphic" // a sunset on the chest: a disc cut by bands, in a ring
	PrintLogo    = "logo"    // the built-in logo on the left chest: a kiln's arch and flame in a rounded square
)

// Print is a print on a garment: which, its ink, where the chest is
// (the front of the garment at the middle of the chest, in the rest
// pose), which places the chest prints and where the stripes start, and
// the wearer's arms, round which the stripes on sleeves run.
type Print struct {
	ID    string
	Ink   RGB
	Chest [3]float64
	Arms  [2]Arm
}

// stripePeriod is the stripes' repeat (metres): 1.75 cm of ink, 1.75 of
// cloth.
const stripePeriod = 0.035

// ink is how much ink covers texel i of the garment's n×n surface map m
// (0 to 1). Each edge is as soft as the texel is large, so that the
// texels along it take the share of ink they cover: with edges a tenth
// of a texel soft, the stripes' edges were stair steps a texel high
// (the p21 judges' "jagged stripe edges"), and an edge crossing the
// texels at a slant drew a row of teeth.
func (pr *Print) ink(m []texel, n, i int) float64 {
	t := m[i]
	p := t.pos
	switch pr.ID {
	case PrintStripes:
		// Counted down the courses (see courses) from the chest, so the
		// stripes sit the same on every body.
		f := (pr.Chest[1] - t.flow[0]) / stripePeriod
		w := math.Max(0.06, courseSpan(m, n, i)/stripePeriod)
		return stripeCover(f, w)
	case PrintGraphic:
		if p[2] < pr.Chest[2]-0.04 {
			return 0 // the back and the sleeves
		}
		const r = 0.07
		soft := texelSpan(m, n, i) / r / 2 // half a texel, in radii
		x, y := (p[0]-pr.Chest[0])/r, (p[1]-pr.Chest[1]+0.01)/r
		rad := math.Hypot(x, y)
		ring := edge(math.Abs(rad-1.12)-0.08, math.Max(0.03, soft))
		disc := edge(rad-0.85, math.Max(0.03, soft))
		if y < 0 {
			// Bands across the lower half, thinning toward the bottom:
			// the gap under each band is the share of its repeat past
			// 0.75-0.4·(-y). How deep in a gap (in repeats, < 0
			// outside) counts this repeat's and the one above's, whose
			// gap ends where this repeat starts.
			const repeat = 0.85 / 5 // radii
			band := -y / repeat
			fr := band - math.Floor(band)
			inGap := math.Min(fr-(0.75-0.4*(-y)), 1-fr)
			if band >= 1 {
				inGap = math.Max(inGap, -fr)
			}
			disc *= edge(-inGap*repeat, math.Max(0.01, soft))
		}
		return math.Max(ring, disc)
	case PrintLogo:
		if p[2] < pr.Chest[2]-0.04 {
			return 0
		}
		// On the wearer's left chest, 4.5 cm across.
		const r = 0.0225
		soft := texelSpan(m, n, i) / r / 2 // half a texel, in radii
		x, y := (p[0]-pr.Chest[0]-0.075)/r, (p[1]-pr.Chest[1]-0.03)/r
		// A rounded square outline.
		qx, qy := math.Max(math.Abs(x)-0.7, 0), math.Max(math.Abs(y)-0.7, 0)
		box := math.Hypot(qx, qy) - 0.3
		frame := edge(math.Abs(box)-0.08-0.04, math.Max(0.04, soft))
		// The kiln: an arch (a half ring over two legs) ...
		var arch float64
		if y > -0.2 {
			arch = edge(math.Abs(math.Hypot(x, y+0.2)-0.5)-0.09-0.04, math.Max(0.04, soft))
		} else if y > -0.65 {
			arch = edge(math.Abs(math.Abs(x)-0.5)-0.09-0.04, math.Max(0.04, soft))
		}
		// ... and a flame in it: a teardrop.
		fy := y + 0.35
		flame := 0.0
		if fy > -0.2 && fy < 0.55 {
			w := 0.22 * math.Sqrt(math.Max(0, (fy+0.2)/0.75)) * (1 - math.Max(0, fy-0.15)/0.4)
			flame = edge(math.Abs(x)-w, math.Max(0.05, soft))
		}
		return math.Max(frame, math.Max(arch, flame))
	}
	return 0
}

// edge is the ink at signed distance d from a shape's edge (< 0 inside),
// its ramp soft either side of the edge.
func edge(d, soft float64) float64 {
	return smooth(soft, -soft, d)
}

// stripeCover is how much of the span w (in repeats) round f lies in
// the ink of stripes whose repeat runs from f 0 to 1, inked from 0.25 to
// 0.75: the stripes box-filtered over a texel, sharp as the texel
// allows.
func stripeCover(f, w float64) float64 {
	inked := func(f float64) float64 { // ink from 0 to f
		fl := math.Floor(f)
		return fl/2 + math.Max(0, math.Min(0.5, f-fl-0.25))
	}
	return (inked(f+w/2) - inked(f-w/2)) / w
}

// courseSpan is how far apart in course height (flow's first value) the
// texel i of the n×n map m and its neighbours lie, across and down the
// image added: how many metres of stripe the texel spans. As in
// texelSpan, the nearer neighbour along each axis counts, and none that
// is a copy of this texel or lies across a seam.
func courseSpan(m []texel, n, i int) float64 {
	x, y := i%n, i/n
	t := m[i]
	along := func(j int, in bool) float64 {
		if !in || !m[j].ok {
			return math.Inf(1)
		}
		d := sub64(m[j].pos, t.pos)
		if l := dot64(d, d); l == 0 || l > 0.01*0.01 {
			return math.Inf(1)
		}
		return math.Abs(m[j].flow[0] - t.flow[0])
	}
	u := math.Min(along(i-1, x > 0), along(i+1, x+1 < n))
	v := math.Min(along(i-n, y > 0), along(i+n, y+1 < n))
	if math.IsInf(u, 1) {
		u = 0
	}
	if math.IsInf(v, 1) {
		v = 0
	}
	return u + v
}
