package avatar

import (
	"cmp"
	"math"
	"slices"

	"github.com/kilnhq/kiln/assets/avatar/paint"
)

// layerUnder is how far under a vertex of a top (against its normal)
// overLayer looks for more of the same top: a collar's leaf lies a few
// millimetres over the shirt's front.
const layerUnder = 0.015

// overLayer marks the vertices of a top round the neck that lie over
// another layer of it (a collar's leaf, a lapel): a ray from each,
// against its normal, meets cloth of the top facing the same way within
// layerUnder.
func overLayer(g *part, neck [3]float32) []bool {
	c := newTriCells(g, underRadius)
	over := make([]bool, len(g.pos))
	for v, p := range g.pos {
		if p[1] < neck[1]-chestTop || math.Abs(float64(p[0]-neck[0])) > chestHalf || p[2] < neck[2] {
			continue
		}
		n := g.nrm[v]
		d := [3]float32{-n[0], -n[1], -n[2]}
		o := [3]float32{p[0] + 0.0003*d[0], p[1] + 0.0003*d[1], p[2] + 0.0003*d[2]}
		over[v] = c.layerOver(o, d, g, uint32(v), layerUnder)
	}
	return over
}

// collarEdges are the top's open edges (welded where the UV map splits
// its vertices) whose two ends lie over another layer: a collar's outer
// edge and points. Each is its two ends and its triangle's third corner,
// which lies on the collar's side.
func collarEdges(g *part, over []bool) [][3]uint32 {
	weld := map[[3]float32]uint32{}
	id := make([]uint32, len(g.pos))
	for v, p := range g.pos {
		w, ok := weld[p]
		if !ok {
			w = uint32(v)
			weld[p] = w
		}
		id[v] = w
	}
	type edge struct{ a, b uint32 }
	uses := map[edge]int{}
	third := map[edge][3]uint32{}
	for _, t := range g.tris {
		for k := range 3 {
			a, b, c := t[k], t[(k+1)%3], t[(k+2)%3]
			if !over[a] || !over[b] {
				continue
			}
			e := edge{id[a], id[b]}
			if e.a > e.b {
				e.a, e.b = e.b, e.a
			}
			uses[e]++
			third[e] = [3]uint32{a, b, c}
		}
	}
	var out [][3]uint32
	for e, n := range uses {
		if n == 1 {
			out = append(out, third[e])
		}
	}
	// In the mesh's order, not the map's: the nearest of two edges at
	// the same distance is then always the same one.
	slices.SortFunc(out, func(x, y [3]uint32) int { return cmp.Or(cmp.Compare(x[0], y[0]), cmp.Compare(x[1], y[1])) })
	return out
}

// collarDrop is how far under the neck joint a piece of a top lies
// wholly, to be a collar's (collarPieces): the collar's points end above
// it, the fronts run far below.
const collarDrop = 0.1

// collarContact gives a shirt or a blouse its collar's edges (g.edges:
// its outer edge and points, where a viewer in front sees them) and
// marks in g.mask the cloth that takes their shade (the shirt's pieces
// round the neck, not the collar's own), so that the cloth painter
// draws a contact shade tight along the edge. The collar lay flat on
// the shirt, the same colour, and read as a printed outline (p27):
// shadeLayers' vertex shade, over the shirt's few-centimetre
// triangles, is a soft band with no line of its own.
func collarContact(g *part, neck [3]float32) {
	over := overLayer(g, neck)
	collar := collarPieces(g, neck)
	var edges []paint.Edge
	for _, e := range collarEdges(g, over) {
		a, b, c := v3(g.pos[e[0]]), v3(g.pos[e[1]]), v3(g.pos[e[2]])
		if !collar[e[0]] || !collar[e[1]] {
			// The front's overlap down the placket, where the V
			// closes: a smudge under the V, not a collar's edge.
			continue
		}
		n := v3(g.nrm[e[0]]).add(v3(g.nrm[e[1]])).norm()
		if !seenFromFront(g, a.add(b).scale(0.5).add(n.scale(0.001)), neck) {
			// A point sunk under the shirt's front: its shade would
			// draw the hidden point's outline on the front.
			continue
		}
		out := b.sub(a).cross(n).norm()
		if out.dot(c.sub(a)) > 0 {
			out = out.scale(-1)
		}
		edges = append(edges, paint.Edge{A: a, B: b, N: n, Out: out})
	}
	if len(edges) == 0 {
		return
	}
	g.mask = make([]float32, len(g.pos))
	for v, p := range g.pos {
		if !collar[v] && p[1] >= neck[1]-chestTop && math.Abs(float64(p[0]-neck[0])) <= chestHalf && p[2] >= neck[2] {
			g.mask[v] = 1
		}
	}
	g.edges = edges
}

// collarPieces marks the vertices of the top's pieces (triangles joined
// by shared vertices, as its UV map cuts them) that lie wholly within
// collarDrop under the neck joint: the collar's leaf and the band it
// folds from. They take no shade of their own edge: the band's end by
// the opening, shaded, drew dark flecks on the collar.
func collarPieces(g *part, neck [3]float32) []bool {
	root := make([]int, len(g.pos))
	for i := range root {
		root[i] = i
	}
	find := func(x int) int {
		for root[x] != x {
			root[x] = root[root[x]]
			x = root[x]
		}
		return x
	}
	for _, t := range g.tris {
		a := find(int(t[0]))
		for _, k := range t[1:] {
			root[find(int(k))] = a
		}
	}
	low := map[int]bool{}
	for v, p := range g.pos {
		if p[1] < neck[1]-collarDrop {
			low[find(v)] = true
		}
	}
	out := make([]bool, len(g.pos))
	for v := range out {
		out[v] = !low[find(v)]
	}
	return out
}

// seenFromFront tells whether a viewer in front (level, or from a
// portrait camera's height: seenSlopes) sees point o past the top's
// cloth round the neck.
func seenFromFront(g *part, o vec3, neck [3]float32) bool {
	for _, s := range seenSlopes {
		d := vec3{0, s, 1}.norm()
		hit := false
		for _, t := range g.tris {
			p := g.pos[t[0]]
			if p[1] < neck[1]-neckSkinBelow-0.05 || math.Abs(float64(p[0]-neck[0])) > chestHalf+0.05 || p[2] < neck[2]-0.02 {
				continue
			}
			if _, _, _, ok := rayTriangle(o, d, v3(g.pos[t[0]]), v3(g.pos[t[1]]), v3(g.pos[t[2]])); ok {
				hit = true
				break
			}
		}
		if !hit {
			return true
		}
	}
	return false
}
