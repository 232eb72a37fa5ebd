package avatar

import (
	"math"

	"github.com/kilnhq/kiln/assets/avatar/human"
)

// Hair at rest on the shoulders. MakeHuman's long cuts hang straight
// down from the head, fitted to the body but not to the clothes over it:
// where the shoulders, the back and a broad chest stand out, the lower
// locks run into the top's cloth (or the bare skin of a tank top) and
// vanish into it, so the hair looks cut off at the shoulders (issue 22's
// panel: "stringy hair clips at the shoulders", default-female and
// random-06; default-female 124 vertices up to 1.0 cm under, random-01
// 955 up to 3.6 cm). restHair lays that hair over them: every hair
// vertex below the neck that lies under the top or the skin, or within
// hairRestClear of it, moves out along the surface's normal. The move is
// spread over the hair round it (hairRestReach), so a lock bends out over
// the shoulder as a whole, not in a kink at the cloth, and the layers of
// a lock move together (a move by each vertex's own depth alone tore the
// hood's lift apart, hood.go).

// Rest clearances (metres): the hair ends hairRestClear off the cloth or
// skin, and a move spreads to the hair within hairRestReach.
const (
	hairRestClear = 0.004
	hairRestReach = 0.04
	// hairRestRounds is how many times the hair still under is found:
	// each round but the last spreads its moves over the hair round it
	// (spreadMoves); the last moves what is left straight out.
	hairRestRounds = 3
)

// restSurfaces is what the hair below the neck must rest on: the top's
// cloth, and the whole skin under it (bare where the top leaves it, a
// tank top's shoulders), each with its own cells for nearest.
type restSurfaces struct {
	parts []*part
	cells []*triCells
}

// newRestSurfaces gathers the top and the body's skin below neckY+reach:
// only there can the hair below the neck meet them.
func newRestSurfaces(top *part, body *human.Body, neckY float64) restSurfaces {
	var s restSurfaces
	add := func(p *part) {
		s.parts = append(s.parts, p)
		s.cells = append(s.cells, newTriCells(p, underRadius))
	}
	if top != nil {
		add(&part{pos: top.pos, nrm: top.nrm, tris: top.tris})
	}
	add(skinBelow(body, neckY+hairRestReach))
	return s
}

// skinBelow is the body's whole skin (none hidden by the garments: the
// hair must clear it where it shows and the cloth over it elsewhere)
// with its triangles that reach below y, normals by area.
func skinBelow(body *human.Body, y float64) *part {
	m := human.BodyMesh()
	p := &part{pos: body.Pos, nrm: make([][3]float32, len(body.Pos))}
	acc := make([]vec3, len(body.Pos))
	for _, t := range m.Tris {
		a, b, c := uint32(m.Base[t[0]]), uint32(m.Base[t[1]]), uint32(m.Base[t[2]])
		pa, pb, pc := v3(body.Pos[a]), v3(body.Pos[b]), v3(body.Pos[c])
		n := pb.sub(pa).cross(pc.sub(pa))
		for _, v := range []uint32{a, b, c} {
			acc[v] = acc[v].add(n)
		}
		if math.Min(pa[1], math.Min(pb[1], pc[1])) < y {
			p.tris = append(p.tris, [3]uint32{a, b, c})
		}
	}
	for v, n := range acc {
		p.nrm[v] = n.norm().f32()
	}
	return p
}

// need is how far the point q must move, and along which unit
// direction, to lie hairRestClear off every surface it is near (0 when
// it does already). Of the surfaces within underRadius, the one asking
// the most wins.
func (s restSurfaces) need(q vec3) (float64, vec3) {
	best, dir := 0.0, vec3{}
	for i, p := range s.parts {
		tri, at, b := s.cells[i].nearest(q.f32(), p)
		if tri < 0 {
			continue
		}
		var n vec3
		for k, u := range p.tris[tri] {
			n = n.add(v3(p.nrm[u]).scale(b[k]))
		}
		if n.len() < 1e-9 {
			continue
		}
		n = n.norm()
		if d := hairRestClear - q.sub(vec3(at)).dot(n); d > best {
			best, dir = d, n
		}
	}
	return best, dir
}

// needs is each vertex of the hair in vs's move (need), zero for one
// that is clear. The vertices are done in bands side by side, each band
// with its own visit marks: this is most of restHair's time, and the
// creator's hair part waits for it.
func (s restSurfaces) needs(hair *part, vs []int) []vec3 {
	out := make([]vec3, len(vs))
	bands(len(vs), func(lo, hi int) {
		own := restSurfaces{parts: s.parts}
		for _, c := range s.cells {
			own.cells = append(own.cells, c.copy())
		}
		for i := lo; i < hi; i++ {
			if d, n := own.need(v3(hair.pos[vs[i]])); d > 0 {
				out[i] = n.scale(d)
			}
		}
	})
	return out
}

// restHair lays the hair below the neck over the top and the skin (see
// above), and has the hair that rests on the top move with it
// (followTop). Hair that reaches no lower than the neck is left as it
// is.
func restHair(hair, top *part, body *human.Body, neck [3]float32) {
	if !hangsBelow(hair, neck) {
		return
	}
	layHair(hair, top, body, float64(neck[1]))
	if top != nil {
		followTop(hair, top, float64(neck[1]))
	}
}

// Hair near the top follows the cloth (followTop): fully within
// hairFollowNear of it, not at all from hairFollowFar; fully up to
// hairFollowCollar/2 over the neck joint (a collar stands up round the
// neck past it), not at all from hairFollowCollar.
const (
	hairFollowNear   = 0.02
	hairFollowFar    = 0.05
	hairFollowCollar = 0.05
)

// followTop gives the hair near the top the cloth's weights there. The
// hair is skinned to the head and neck, the cloth to the chest and
// shoulders, and as a clip lowers the arms or raises one the cloth at
// the shoulders and the collar rose into the hair lying on it, most at
// the neck's sides, 1 to 3 cm over the neck joint (TestHairOutOfTop:
// default-female's blouse 6.3 mm or more under every clip, 13.5 under
// gesture_wave; a tee 20.4 mm, a man's tee 25.5 mm). A hair vertex
// takes a share of the weights of its nearest point on the cloth, so
// the locks on the shoulders move with them and the hair round the
// head stays with the head, the shares blending between.
func followTop(hair, top *part, neckY float64) {
	cells := newTriCells(top, underRadius)
	bands(len(hair.pos), func(lo, hi int) {
		own := cells.copy()
		for v := lo; v < hi; v++ {
			p := hair.pos[v]
			low := 1 - smoothstep(neckY+hairFollowCollar/2, neckY+hairFollowCollar, float64(p[1]))
			if low == 0 {
				continue
			}
			tri, q, bary := own.nearest(p, top)
			if tri < 0 {
				continue
			}
			near := 1 - smoothstep(hairFollowNear, hairFollowFar, v3(p).sub(vec3(q)).len())
			if share := low * near; share > 0 {
				hair.inf[v] = blend(hair.inf[v], top.weightsAt(tri, bary), share)
			}
		}
	})
}

// layHair moves the hair below neckY out of the top and the skin
// (restHair).
func layHair(hair, top *part, body *human.Body, neckY float64) {
	s := newRestSurfaces(top, body, neckY)
	// Hair moved out mostly moves farther out: each round but the last
	// looks again only at the hair still under after the last (the
	// nearest-point searches over all the hair below the neck, each
	// round, were a fifth of a build). The last looks at all the hair
	// that moved: a move out over the hood can press the hair beside it
	// into the back (long-hoodie: 13 vertices, 5.7 mm); hair that never
	// moved is where the first round found it clear (looking at all of
	// it again cost the creator's hair part 40 ms).
	var all []int
	for v, p := range hair.pos {
		if float64(p[1]) < neckY {
			all = append(all, v)
		}
	}
	touched := make([]bool, len(hair.pos))
	under := all
	for round := 0; round < hairRestRounds; round++ {
		if round == hairRestRounds-1 {
			under = nil
			for _, v := range all {
				if touched[v] {
					under = append(under, v)
				}
			}
		}
		need := s.needs(hair, under)
		var moves []vec3
		movers := under[:0:0]
		for i, v := range under {
			if need[i] != (vec3{}) {
				movers, moves = append(movers, v), append(moves, need[i])
				touched[v] = true
			}
		}
		if len(movers) == 0 {
			return
		}
		if round == hairRestRounds-1 {
			// What the spread left under: straight out.
			for i, v := range movers {
				hair.pos[v] = v3(hair.pos[v]).add(moves[i]).f32()
			}
			return
		}
		spreadMoves(hair, movers, moves, neckY+hairRestReach, touched)
		under = movers
	}
}

// spreadMoves moves the hair below top round the vertices movers, each
// by its move in moves spread with a smooth bump over hairRestReach: a
// vertex takes the moves near it weighted by nearness, their mean where
// they overlap (weights summing past 1), a share of them at the edge of
// the reach. A mover alone moves all its way; one among movers, their
// mean. It marks the vertices it moves in touched.
func spreadMoves(hair *part, movers []int, moves []vec3, top float64, touched []bool) {
	var pairs bucketPairs
	for i, v := range movers {
		pairs.add(cellOf(hair.pos[v], hairRestReach), i)
	}
	grid := pairs.build()
	from := make([]vec3, len(movers))
	for i, v := range movers {
		from[i] = v3(hair.pos[v])
	}
	for v, q := range hair.pos {
		if float64(q[1]) >= top {
			continue
		}
		p := v3(q)
		var sum vec3
		w := 0.0
		for j := range grid.around(cellOf(q, hairRestReach), 1) {
			d := p.sub(from[j]).len()
			if d >= hairRestReach {
				continue
			}
			// A smooth bump: 1 at the mover, 0 at the reach.
			x := 1 - d/hairRestReach
			wj := x * x * (3 - 2*x)
			sum = sum.add(moves[j].scale(wj))
			w += wj
		}
		if w > 0 {
			hair.pos[v] = p.add(sum.scale(1 / math.Max(1, w))).f32()
			touched[v] = true
		}
	}
}

// hangsBelow is whether any of the hair reaches below the neck joint:
// only such hair can meet the shoulders (restHair), and a part that
// builds the hair alone fits the top for it only then.
func hangsBelow(hair *part, neck [3]float32) bool {
	if hair == nil {
		return false
	}
	for _, p := range hair.pos {
		if p[1] < neck[1] {
			return true
		}
	}
	return false
}
