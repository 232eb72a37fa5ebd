package paint

import "math"

// Prints on a top, by id.
const (
	PrintStripes = "stripes" // Breton stripes all round: 1.75 cm of ink every 3.5 cm
	PrintGraphic = "graphic" // a sunset on the chest: a disc cut by bands, in a ring
	PrintLogo    = "logo"    // the built-in logo on the left chest: a kiln's arch and flame in a rounded square
)

// Print is a print on a garment: which, its ink, and where the chest is
// (the front of the garment at the middle of the chest, in the rest
// pose), which places the chest prints.
type Print struct {
	ID    string
	Ink   RGB
	Chest [3]float64
}

// ink is how much ink covers the point p of the garment (0 to 1, with
// half-texel-soft edges from the smoothstep ramps).
func (pr *Print) ink(p [3]float64) float64 {
	switch pr.ID {
	case PrintStripes:
		// Measured down from the chest, so the stripes sit the same on
		// every body.
		f := (pr.Chest[1] - p[1]) / 0.035
		d := math.Abs(f-math.Floor(f)-0.5) - 0.25 // < 0 in the ink
		return smooth(0.03, -0.03, d)
	case PrintGraphic:
		if p[2] < pr.Chest[2]-0.04 {
			return 0 // the back and the sleeves
		}
		const r = 0.07
		x, y := (p[0]-pr.Chest[0])/r, (p[1]-pr.Chest[1]+0.01)/r
		rad := math.Hypot(x, y)
		ring := smooth(0.06, 0, math.Abs(rad-1.12)-0.05)
		disc := smooth(0.03, -0.03, rad-0.85)
		if y < 0 {
			// Bands across the lower half, thinning toward the bottom.
			band := -y / 0.85 * 5
			if w := band - math.Floor(band); w > 0.75-0.4*(-y) {
				disc = 0
			}
		}
		return math.Max(ring, disc)
	case PrintLogo:
		if p[2] < pr.Chest[2]-0.04 {
			return 0
		}
		// On the wearer's left chest, 4.5 cm across.
		const r = 0.0225
		x, y := (p[0]-pr.Chest[0]-0.075)/r, (p[1]-pr.Chest[1]-0.03)/r
		// A rounded square outline.
		qx, qy := math.Max(math.Abs(x)-0.7, 0), math.Max(math.Abs(y)-0.7, 0)
		box := math.Hypot(qx, qy) - 0.3
		frame := smooth(0.08, 0, math.Abs(box)-0.08)
		// The kiln: an arch (a half ring over two legs) ...
		var arch float64
		if y > -0.2 {
			arch = smooth(0.08, 0, math.Abs(math.Hypot(x, y+0.2)-0.5)-0.09)
		} else if y > -0.65 {
			arch = smooth(0.08, 0, math.Abs(math.Abs(x)-0.5)-0.09)
		}
		// ... and a flame in it: a teardrop.
		fy := y + 0.35
		flame := 0.0
		if fy > -0.2 && fy < 0.55 {
			w := 0.22 * math.Sqrt(math.Max(0, (fy+0.2)/0.75)) * (1 - math.Max(0, fy-0.15)/0.4)
			flame = smooth(0.05, -0.05, math.Abs(x)-w)
		}
		return math.Max(frame, math.Max(arch, flame))
	}
	return 0
}
