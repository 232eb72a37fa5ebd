package avatar

import "math"

// Fringe over the eyes. MakeHuman's braid01 (Kiln's "bun") carries a
// fringe swept down across the right eye, to 4 mm below the eyeball's
// centre (feminine) and 13 mm (masculine): issue 22's panel (p12) read
// every bun avatar (five of its twenty) as a bob hiding an eye, and the
// leader's hair never covers an eye or a brow. raiseFringe squashes the
// hair in front of the face upward, so its lower edge clears the brows
// and the fringe keeps its sweep, only shorter: the shape and the cards
// stay (no cut edge to hide), the hair above the hairline does not move.

// Fringe heights above the eyes' centres (metres): the lower edge of the
// hair in front of the face is raised to fringeFloor (above the brows);
// hair from fringeTop up stays where it is, and between the two the
// hair is squashed evenly.
const (
	fringeFloor = 0.016
	fringeTop   = 0.07
)

// Across the face (metres from the middle): out to fringeInner the floor
// holds in full (past the outer corners of the eyes), fading out by
// fringeOuter, where hair hangs beside the face and frames it.
const (
	fringeInner = 0.05
	fringeOuter = 0.07
)

// raiseFringe raises the hair in front of the face (in front of 1 cm
// behind the eyeballs' centres, fading out 2 cm farther back) whose
// lowest point over the face lies below fringeFloor, by one squash for
// the whole fringe, so it keeps its shape. It runs before the budget and
// thickenHair, on the fitted cards, in the whole build and in the
// creator's parts alike; a hair whose fringe already clears the brows
// (every style but the bun) is left exactly as it was.
func raiseFringe(hair *part, joints map[string][3]float32) {
	eye := float64(joints["LeftEye"][1]+joints["RightEye"][1]) / 2
	eyeZ := float64(joints["LeftEye"][2]+joints["RightEye"][2]) / 2
	front := func(p [3]float32) float64 {
		return smoothstep(eyeZ-0.03, eyeZ-0.01, float64(p[2])) * (1 - smoothstep(fringeInner, fringeOuter, math.Abs(float64(p[0]))))
	}
	low := math.Inf(1)
	for _, p := range hair.pos {
		if math.Abs(float64(p[0])) <= fringeInner && float64(p[2]) >= eyeZ-0.01 {
			low = math.Min(low, float64(p[1])-eye)
		}
	}
	if low >= fringeFloor {
		return
	}
	k := (fringeTop - fringeFloor) / (fringeTop - low)
	for i, p := range hair.pos {
		y := float64(p[1]) - eye
		w := front(p)
		if y >= fringeTop || w == 0 {
			continue
		}
		// Below the fringe's lowest point (only beside the face, where
		// w fades) the hair moves as that point does, not farther.
		raised := fringeTop - (fringeTop-math.Max(y, low))*k - math.Max(y, low)
		hair.pos[i][1] = float32(eye + y + w*raised)
	}
}
