package avatar

import "math"

// cuffAt is where a sleeve ends, along the forearm from the wrist joint
// (negative: before it). MakeHuman's long sleeves reach over the thumb
// in the rest pose, and a thumb or a turning hand under a cuff comes out
// through it.
const cuffAt = -0.035

// endSleeves cuts a top's sleeves at the wrists: the triangles with a
// corner past cuffAt along a forearm go. (Moving such corners back onto
// the cut would level the cuff but leave edges a fraction of a
// millimetre long, which tear at the slightest motion.)
func endSleeves(g *part, joints map[string][3]float32) {
	past := make([]bool, len(g.pos))
	for _, side := range []string{"Left", "Right"} {
		e, w := joints[side+"ForeArm"], joints[side+"Hand"]
		u := sub3(w, e)
		l := math.Sqrt(u[0]*u[0] + u[1]*u[1] + u[2]*u[2])
		for k := range u {
			u[k] /= l
		}
		for i, p := range g.pos {
			pe := sub3(p, e)
			along := pe[0]*u[0] + pe[1]*u[1] + pe[2]*u[2]
			r := [3]float64{pe[0] - along*u[0], pe[1] - along*u[1], pe[2] - along*u[2]}
			// Within a forearm's reach of its axis, past the elbow.
			if along > 0 && r[0]*r[0]+r[1]*r[1]+r[2]*r[2] < 0.1*0.1 {
				if along-l > cuffAt {
					past[i] = true
				}
			}
		}
	}
	var idx []uint32
	for _, t := range g.tris {
		if !past[t[0]] && !past[t[1]] && !past[t[2]] {
			idx = append(idx, t[0], t[1], t[2])
		}
	}
	g.keep(idx)
}
