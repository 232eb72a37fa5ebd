package avatar

// baseGraph is a part's surface as a graph of its base vertices: a
// vertex split at a UV seam is one node, so whatever is smoothed over the
// graph (normals, a baked shade) stays one value on both sides of the
// seam and shows no line there.
type baseGraph struct {
	node []int   // per vertex of the part, its node
	at   []int   // per node, one of its vertices
	nbr  [][]int // per node, the nodes it shares an edge with (once per edge side)
}

// graphOf is p's baseGraph (p.base must be set: the body's own parts).
func graphOf(p *part) baseGraph {
	idx := map[int32]int{}
	g := baseGraph{node: make([]int, len(p.base))}
	for i, b := range p.base {
		n, ok := idx[b]
		if !ok {
			n = len(g.at)
			idx[b] = n
			g.at = append(g.at, i)
		}
		g.node[i] = n
	}
	g.nbr = make([][]int, len(g.at))
	for _, t := range p.tris {
		for k := range 3 {
			a, b := g.node[t[k]], g.node[t[(k+1)%3]]
			if a != b {
				g.nbr[a] = append(g.nbr[a], b)
				g.nbr[b] = append(g.nbr[b], a)
			}
		}
	}
	return g
}
