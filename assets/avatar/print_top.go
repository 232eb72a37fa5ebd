package avatar

import (
	"math"

	"github.com/kilnhq/kiln/assets/avatar/paint"
)

// printOf places a top's print: its ink (as given, or white on a dark
// top and black on a light one) and the chest, the front of the garment
// level with the middle of the chest (between the Spine2 joint and the
// neck), where the chest prints centre, and the arms (shoulder, elbow,
// wrist), round which stripes run on the sleeves.
func printOf(pr Print, cloth string, top *part, b *builder) paint.Print {
	ink := pr.Color
	if ink == "" {
		c := colorOf(clothColors, cloth)
		ink = "white"
		if c.luma() > 0.3 {
			ink = "black"
		}
	}
	chest := b.at("Spine2")
	y := chest[1] + 0.03
	front := math.Inf(-1)
	for _, q := range top.pos {
		if math.Abs(float64(q[1])-y) < 0.02 && math.Abs(float64(q[0])) < 0.05 {
			front = math.Max(front, float64(q[2]))
		}
	}
	if math.IsInf(front, -1) {
		front = chest[2] + 0.1
	}
	out := paint.Print{ID: pr.ID, Ink: paint.RGB(colorOf(clothColors, ink)), Chest: [3]float64{0, y, front}}
	for k, side := range []string{"Left", "Right"} {
		for j, name := range []string{"Arm", "ForeArm", "Hand"} {
			out.Arms[k][j] = b.at(side + name)
		}
	}
	return out
}
