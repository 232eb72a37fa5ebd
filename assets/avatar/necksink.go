package avatar

import "github.com/kilnhq/kiln/assets/avatar/paint"

// sinkUnderNeckline moves the skin round the neck that lies just outside
// a top's cloth, away from the cloth's opening, back in under it,
// clearance deep, before the skin takes the garments' weights
// (followGarments), which then find it under the cloth and hide it. The
// longer house neck (neck-scale-vert, face.go) flares out at its base
// beside the neckline, where the fitted tee's band does not follow: the
// band ran under the neck's skin there, 7-8 mm out of sight, and in a
// front view the neck's base stood over the band up to 14 mm in front
// of it (TestCollarLiningNotGrey, masculine tee: 397 px of skin over
// the cloth, 150 allowed). Skin is outside the cloth when its nearest
// point on the cloth, off the cloth's rim, lies under it along the
// cloth's normal, and the cloth faces the way the skin does (not a
// hood's lining facing the head). Vertices at one position move
// together, so the seams stay closed.
func sinkUnderNeckline(skin, top *part, neck [3]float32) {
	if top == nil || len(top.tris) == 0 {
		return
	}
	cells := newTriCells(top, underRadius)
	rim := paint.Border(top.pos, top.tris)
	wid, n := weldIDs(skin.pos)
	move := make([]vec3, n)
	done := make([]bool, n)
	for v, p := range skin.pos {
		w := wid[v]
		if done[w] || dist32(p, neck) > neckReach {
			continue
		}
		done[w] = true
		t, q, bary := cells.nearest(p, top)
		if t < 0 {
			continue
		}
		var gn vec3
		onRim := true
		for k, c := range top.tris[t] {
			gn = gn.add(v3(top.nrm[c]).scale(bary[k]))
			if bary[k] > 1e-6 && rim[c] == 0 {
				onRim = false
			}
		}
		gn = gn.norm()
		off := v3(p).sub(vec3(q))
		depth := off.dot(gn)
		// At the rim the skin may lie beyond the cloth's edge (the neck
		// above a band), not over it: only skin straight over the cloth
		// moves.
		if onRim && depth < sinkOver*off.len() || depth <= -clearance || depth > sinkReach || gn.dot(v3(skin.nrm[v]).norm()) < sinkFacing {
			continue
		}
		move[w] = gn.scale(-(depth + clearance))
	}
	// The skin round the moved skin follows it part of the way
	// (sinkSpread, twice over), so the neck tapers into the band
	// instead of stepping in: moved alone, the flare's ring cut a notch
	// into the neck's outline (p38's judges on random-17, "a cut-out
	// notch where the neck meets the sweater").
	for range 2 {
		next := append([]vec3(nil), move...)
		for _, t := range skin.tris {
			for k := range 3 {
				a, b := wid[t[k]], wid[t[(k+1)%3]]
				if m := move[b].scale(sinkSpread); m.len() > next[a].len() {
					next[a] = m
				}
				if m := move[a].scale(sinkSpread); m.len() > next[b].len() {
					next[b] = m
				}
			}
		}
		move = next
	}
	for v := range skin.pos {
		skin.pos[v] = v3(skin.pos[v]).add(move[wid[v]]).f32()
	}
}

// sinkReach is how far outside a top's cloth skin round the neck may lie
// and be moved back under it (the neck's base beside a tee's band: 7-8
// mm), sinkFacing the least cosine between the cloth's normal and the
// skin's (there about 0.5).
// sinkOver the share of the way from the cloth to the skin that must lie
// along the cloth's normal at the rim.
const (
	sinkSpread = 0.6
	sinkOver   = 0.8
	sinkReach  = 0.015
	sinkFacing = 0.2
)
