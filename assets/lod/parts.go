package lod

import (
	"github.com/kilnhq/kiln/assets/disjoint"
	"github.com/kilnhq/kiln/assets/simplify"
)

// minPart is the fewest triangles a connected part of a primitive keeps
// at any level (all of its own when it has fewer). An edge collapse
// simplifier removes the cheapest detail first, and a small part (an eye,
// a button, a painted patch of a voxel character) is cheap precisely
// because it is small: at 50 % of the whole it can go entirely while the
// model meets its ratio, and a face without an eye is the damage a viewer
// sees first. Eight triangles keep a box-like part recognisable.
const minPart = 8

// parts splits a primitive's triangles into connected parts: triangles
// that share a vertex, or copies of one vertex that differ only by their
// normal (m.Sites), are in one part. A texture or colour seam therefore
// bounds a part too, so a painted eye on a flat voxel face is a part of
// its own, as a modelled eye beside the head is.
type parts struct {
	// of is the part of each vertex, -1 where no triangle uses it.
	of []int32
	// size is each part's triangle count.
	size []int
}

func findParts(m simplify.Mesh) parts {
	nv := len(m.Positions) / 3
	site := func(v uint32) uint32 {
		if m.Sites != nil {
			return m.Sites[v]
		}
		return v
	}
	sets := disjoint.New[uint32](nv)
	for t := 0; t+2 < len(m.Indices); t += 3 {
		a := sets.Union(site(m.Indices[t]), site(m.Indices[t+1]))
		sets.Union(a, site(m.Indices[t+2]))
	}
	ps := parts{of: make([]int32, nv)}
	id := make([]int32, nv)
	for i := range id {
		id[i] = -1
	}
	for i := range ps.of {
		ps.of[i] = -1
	}
	for t := 0; t+2 < len(m.Indices); t += 3 {
		r := sets.Find(site(m.Indices[t]))
		if id[r] < 0 {
			id[r] = int32(len(ps.size))
			ps.size = append(ps.size, 0)
		}
		ps.size[id[r]]++
	}
	for v := range ps.of {
		if r := sets.Find(site(uint32(v))); id[r] >= 0 {
			ps.of[v] = id[r]
		}
	}
	return ps
}

// count is how many triangles of indices lie in each part. A collapse
// moves a vertex onto a neighbour, so a result triangle's corners are in
// one part; its first corner names it.
func (ps parts) count(indices []uint32) []int {
	n := make([]int, len(ps.size))
	for t := 0; t+2 < len(indices); t += 3 {
		if k := ps.of[indices[t]]; k >= 0 {
			n[k]++
		}
	}
	return n
}

// lock marks the vertices of the parts in keep as locked (whole parts:
// the simplifier moves none of their vertices, nor the vertices of other
// parts at the same positions, so a painted patch stays in its face) and
// returns how many triangles they hold.
func (ps parts) lock(locked []bool, keep []bool) int {
	var tris int
	for k, on := range keep {
		if on {
			tris += ps.size[k]
		}
	}
	for v, k := range ps.of {
		if k >= 0 && keep[k] {
			locked[v] = true
		}
	}
	return tris
}
