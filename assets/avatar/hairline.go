package avatar

// trimHairline drops the hair triangles that lie flat on the forehead
// and temples below the hairline: MakeHuman's short cuts carry a thin
// layer there, which an alpha mask can only break into ragged dark
// patches on the skin (issue 22: "a hairline of ragged dark specks").
// A triangle goes when all its corners are within 4 mm of the head's
// skin, on the forehead lower than 6.2 cm above the eyes or on the temples; the
// fringe, which stands off the forehead, stays, and the new border gets
// strand tips like every other border of the hair (paint.Border). What
// the trim leaves of a card as a scrap standing alone goes too
// (trimScraps).
func trimHairline(hair, head *part, joints map[string][3]float32) {
	eye := float64(joints["LeftEye"][1]+joints["RightEye"][1]) / 2
	front := float64(joints["Head"][2])
	var pairs bucketPairs
	for i, p := range head.pos {
		pairs.add(cellOf(p, 0.01), i)
	}
	cells := pairs.build()
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
		best, bestD := -1, reach*reach
		for j := range cells.around(cellOf(p, 0.01), 2) {
			q := head.pos[j]
			d := float64((p[0]-q[0])*(p[0]-q[0]) + (p[1]-q[1])*(p[1]-q[1]) + (p[2]-q[2])*(p[2]-q[2]))
			if d < bestD {
				best, bestD = int(j), d
			}
		}
		if best < 0 {
			continue
		}
		q, n := head.pos[best], head.nrm[best]
		h := float64((p[0]-q[0])*n[0] + (p[1]-q[1])*n[1] + (p[2]-q[2])*n[2])
		flat[i] = h < height
	}
	dropTriangles(hair, func(v uint32) bool { return flat[v] })
}

// dropTriangles drops the hair's triangles whose three vertices are all
// off, and what that leaves of a card as a scrap standing alone
// (trimScraps): the hairline's trim and the ponytail's tuck behind the
// ears cut the same way.
func dropTriangles(hair *part, off func(v uint32) bool) {
	cut := make([]bool, len(hair.tris))
	dropped := false
	for k, t := range hair.tris {
		cut[k] = off(t[0]) && off(t[1]) && off(t[2])
		dropped = dropped || cut[k]
	}
	if !dropped {
		return
	}
	scraps := trimScraps(hair, cut)
	var keep []uint32
	for k, t := range hair.tris {
		if !cut[k] && !scraps[k] {
			keep = append(keep, t[0], t[1], t[2])
		}
	}
	hair.keep(keep)
}

// scrapTriangles is the most triangles a piece of hair the hairline's
// trim cut down may keep and still be dropped as a scrap.
const scrapTriangles = 12

// trimScraps marks the triangles of the pieces of hair that trimHairline
// cut down to a scrap: a connected piece (welded by position, as a card
// folds over UV seams) that lost triangles to the trim (cut) and keeps
// no more than scrapTriangles. The ponytail's temple cards, trimmed
// where they lay on the skin, left pieces of one to six triangles
// standing alone beside the eyes, which the portrait showed as square
// black tufts at the temples (issue 22's panel, random-15). Pieces the
// trim did not touch (the ponytail's own 32-triangle strands) stay.
func trimScraps(hair *part, cut []bool) []bool {
	var whole [][3]uint32
	for k, t := range hair.tris {
		if !cut[k] {
			whole = append(whole, t)
		}
	}
	piece, n := pieces(hair.pos, whole)
	kept, trimmed := make([]int, n), make([]bool, n)
	for k, t := range hair.tris {
		if !cut[k] {
			kept[piece[t[0]]]++
			continue
		}
		for _, v := range t {
			trimmed[piece[v]] = true
		}
	}
	scraps := make([]bool, len(hair.tris))
	for k, t := range hair.tris {
		r := piece[t[0]]
		scraps[k] = !cut[k] && trimmed[r] && kept[r] <= scrapTriangles
	}
	return scraps
}
