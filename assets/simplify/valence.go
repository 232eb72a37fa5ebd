package simplify

import "slices"

// smallValence is the most triangles around a vertex that closes scans
// directly; above it prevIndex sorts them once.
const smallValence = 16

// prevIndex answers closes for one vertex in log time: the corners'
// previous vertices, sorted, when the vertex has many triangles. A fan of
// n triangles around one vertex (a hostile upload) made the topology
// pass O(n²) with a scan per corner: 18 s for 200,000 triangles.
type prevIndex struct{ sorted []uint32 }

// reset indexes around, the triangles of the vertex about to be asked.
func (p *prevIndex) reset(around []corner) {
	p.sorted = p.sorted[:0]
	if len(around) <= smallValence {
		return
	}
	for _, c := range around {
		p.sorted = append(p.sorted, c.prev)
	}
	slices.Sort(p.sorted)
}

// closes is closes(around, t) for the around of the last reset.
func (p *prevIndex) closes(around []corner, t uint32) bool {
	if len(around) <= smallValence {
		return closes(around, t)
	}
	_, ok := slices.BinarySearch(p.sorted, t)
	return ok
}
