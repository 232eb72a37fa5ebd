package avatar

import "math"

// trimHairline drops the hair triangles that lie flat on the forehead
// and temples below the hairline: MakeHuman's short cuts carry a thin
// layer there, which an alpha mask can only break into ragged dark
// patches on the skin (issue 22: "a hairline of ragged dark specks").
// A triangle goes when all its corners are within 4 mm of the head's
// skin, on the forehead lower than 6.2 cm above the eyes or on the temples; the
// fringe, which stands off the forehead, stays, and the new border gets
// strand tips like every other border of the hair (paint.Border).
func trimHairline(hair, head *part, joints map[string][3]float32) {
	eye := float64(joints["LeftEye"][1]+joints["RightEye"][1]) / 2
	front := float64(joints["Head"][2])
	cells := map[[3]int][]int{}
	cell := func(p [3]float32) [3]int {
		return [3]int{int(math.Floor(float64(p[0]) / 0.01)), int(math.Floor(float64(p[1]) / 0.01)), int(math.Floor(float64(p[2]) / 0.01))}
	}
	for i, p := range head.pos {
		c := cell(p)
		cells[c] = append(cells[c], i)
	}
	// On the skin: within 4 mm of the tangent plane of a head vertex
	// less than 1.5 cm away (the head's vertices are about 1 cm apart,
	// so the distance to the nearest vertex alone would not do).
	const (
		reach  = 0.015
		height = 0.004
	)
	flat := make([]bool, len(hair.pos))
	for i, p := range hair.pos {
		// The forehead up to the hairline, the temples above the eyes.
		y, z := float64(p[1]), float64(p[2])
		if y > eye+0.062 || z < front-0.02 || (z < front+0.02 && y < eye) {
			continue
		}
		c := cell(p)
		best, bestD := -1, reach*reach
		for dx := -2; dx <= 2; dx++ {
			for dy := -2; dy <= 2; dy++ {
				for dz := -2; dz <= 2; dz++ {
					for _, j := range cells[[3]int{c[0] + dx, c[1] + dy, c[2] + dz}] {
						q := head.pos[j]
						d := float64((p[0]-q[0])*(p[0]-q[0]) + (p[1]-q[1])*(p[1]-q[1]) + (p[2]-q[2])*(p[2]-q[2]))
						if d < bestD {
							best, bestD = j, d
						}
					}
				}
			}
		}
		if best < 0 {
			continue
		}
		q, n := head.pos[best], head.nrm[best]
		h := float64((p[0]-q[0])*n[0] + (p[1]-q[1])*n[1] + (p[2]-q[2])*n[2])
		flat[i] = h < height
	}
	var keep []uint32
	for _, t := range hair.tris {
		if flat[t[0]] && flat[t[1]] && flat[t[2]] {
			continue
		}
		keep = append(keep, t[0], t[1], t[2])
	}
	if len(keep) < 3*len(hair.tris) {
		hair.keep(keep)
	}
}
