package meshopt

// The codecs compress best when consecutive triangles share vertices and
// vertices are numbered in the order the triangles first use them (the
// extension's non-normative section on compressing geometry). These two
// passes produce that order; neither changes what is drawn.

const cacheSize = 16

// OptimizeVertexCache returns the triangles of a triangle list in an
// order that reuses recent vertices (forsythOrder); each triangle keeps
// its corners in order. Against a Tipsify fan walk (Sander et al. 2007)
// it stores the avatars and DamagedHelmet 0.1 to 0.8 % smaller, the
// flat-shaded ShapeCollection 2 % larger.
func OptimizeVertexCache(indices []uint32, vertexCount int) []uint32 {
	return forsythOrder(indices, vertexCount)
}

// OptimizeVertexFetch numbers vertices in the order the indices first
// use them; vertices no index uses follow in their old order. It returns
// the new indices and order, where order[new] is the old number of each
// vertex.
func OptimizeVertexFetch(indices []uint32, vertexCount int) (newIndices, order []uint32) {
	remap := make([]int32, vertexCount)
	for i := range remap {
		remap[i] = -1
	}
	order = make([]uint32, 0, vertexCount)
	newIndices = make([]uint32, len(indices))
	for i, v := range indices {
		if remap[v] < 0 {
			remap[v] = int32(len(order))
			order = append(order, v)
		}
		newIndices[i] = uint32(remap[v])
	}
	for v := 0; v < vertexCount; v++ {
		if remap[v] < 0 {
			order = append(order, uint32(v))
		}
	}
	return newIndices, order
}
