package paint

import "math"

// Thinning is where a beard thins out toward the skin: the skin shows
// through its hair by beardShow at its outer edge, less inward, and not
// at all from Reach inside it. Measured in 3D on each texel, not
// interpolated over the beard's triangles: those are simplified, and a
// share per vertex drew their long thin shapes as light and dark
// flames on the cheeks.
type Thinning struct {
	// Skin is the colour that shows through.
	Skin RGB
	// Edge are points on the beard's outer edge (the cheek line, the
	// sideburns), where the hair is thinnest, and Strength how thin it
	// is at each (0..1; nil, all 1): points fading in along the edge
	// let the thinning start softly, not at a line across the beard.
	Edge     [][3]float32
	Strength []float32
	// Reach is how far inside the edge, metres, the beard is dense.
	Reach float64
}

// thinGrid finds a Thinning's nearest edge point through a grid of
// cells Reach wide: only the 27 cells round a point can hold one within
// Reach.
type thinGrid struct {
	reach float64
	cells map[[3]int32][]thinPoint
}

// thinPoint is an edge point and its strength.
type thinPoint struct {
	p [3]float64
	s float64
}

func (th Thinning) grid() thinGrid {
	g := thinGrid{reach: th.Reach, cells: map[[3]int32][]thinPoint{}}
	if th.Reach <= 0 {
		return g
	}
	for i, p := range th.Edge {
		q := thinPoint{p: [3]float64{float64(p[0]), float64(p[1]), float64(p[2])}, s: 1}
		if th.Strength != nil {
			q.s = float64(th.Strength[i])
		}
		c := g.cell(q.p)
		g.cells[c] = append(g.cells[c], q)
	}
	return g
}

func (g thinGrid) cell(p [3]float64) [3]int32 {
	return [3]int32{int32(math.Floor(p[0] / g.reach)), int32(math.Floor(p[1] / g.reach)), int32(math.Floor(p[2] / g.reach))}
}

// sparse is how thin the beard is at p: an edge point's strength on
// it, falling smoothly to 0 at Reach from it; the most of any point.
func (g thinGrid) sparse(p [3]float64) float64 {
	if len(g.cells) == 0 {
		return 0
	}
	c := g.cell(p)
	best := 0.0
	for dx := int32(-1); dx <= 1; dx++ {
		for dy := int32(-1); dy <= 1; dy++ {
			for dz := int32(-1); dz <= 1; dz++ {
				for _, q := range g.cells[[3]int32{c[0] + dx, c[1] + dy, c[2] + dz}] {
					x, y, z := p[0]-q.p[0], p[1]-q.p[1], p[2]-q.p[2]
					if d2 := x*x + y*y + z*z; d2 < g.reach*g.reach {
						best = math.Max(best, q.s*(1-smooth(0, g.reach, math.Sqrt(d2))))
					}
				}
			}
		}
	}
	return best
}
