package simplify

// Compact renumbers the vertices that indices use, in order of first use,
// so that the vertex buffers can shrink to what a simplified index buffer
// still needs. It returns the new index buffer and, for each new vertex,
// the old vertex it comes from: one gather loop per vertex stream
// (positions, normals, joints, weights, morph targets) finishes the job,
// and every stream stays consistent because whole vertices are kept.
// Indices must be less than vertexCount.
func Compact(indices []uint32, vertexCount int) (newIndices, oldVertex []uint32) {
	newOf := make([]uint32, vertexCount)
	for i := range newOf {
		newOf[i] = none
	}
	newIndices = make([]uint32, len(indices))
	for i, v := range indices {
		n := newOf[v]
		if n == none {
			n = uint32(len(oldVertex))
			newOf[v] = n
			oldVertex = append(oldVertex, v)
		}
		newIndices[i] = n
	}
	return newIndices, oldVertex
}
