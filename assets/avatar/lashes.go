package avatar

// upperLashes keeps the lashes of the upper lids only: the triangles
// whose centre is above the middle of the eyeballs. MakeHuman's lower
// lashes sit a few millimetres below the lid, and painted as solid
// strands they drew a dark crescent under each eye, an eyeliner rim
// with skin between it and the eye (the leader's avatars show no lower
// lashes at a portrait's distance).
func upperLashes(lashes *part, eyes ...*part) {
	var y float64
	n := 0
	for _, e := range eyes {
		for _, p := range e.pos {
			y += float64(p[1])
			n++
		}
	}
	if n == 0 {
		return
	}
	y /= float64(n)
	var keep []uint32
	for _, t := range lashes.tris {
		c := (float64(lashes.pos[t[0]][1]) + float64(lashes.pos[t[1]][1]) + float64(lashes.pos[t[2]][1])) / 3
		if c > y {
			keep = append(keep, t[0], t[1], t[2])
		}
	}
	if len(keep) > 0 {
		lashes.keep(keep)
	}
}
