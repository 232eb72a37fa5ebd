package meshopt

// The codecs compress best when consecutive triangles share vertices and
// vertices are numbered in the order the triangles first use them (the
// extension's non-normative section on compressing geometry). These two
// passes produce that order; neither changes what is drawn.

const cacheSize = 16

// OptimizeVertexCache returns the triangles of a triangle list in an
// order that reuses recent vertices, by the "Tipsify" fan walk (Sander,
// Nehab and Barczak, 2007): emit every triangle around the current
// vertex, then move to the vertex of that fan that will stay longest in
// a 16-entry cache, or back to the newest vertex that still has
// triangles. Each triangle keeps its corners in order.
func OptimizeVertexCache(indices []uint32, vertexCount int) []uint32 {
	tris := len(indices) / 3
	if tris == 0 {
		return append([]uint32(nil), indices...)
	}
	live := make([]int32, vertexCount)
	for _, v := range indices[:3*tris] {
		live[v]++
	}
	start := make([]int32, vertexCount+1)
	for v := 0; v < vertexCount; v++ {
		start[v+1] = start[v] + live[v]
	}
	fill := append([]int32(nil), start[:vertexCount]...)
	adj := make([]int32, 3*tris)
	for t := 0; t < tris; t++ {
		for k := 0; k < 3; k++ {
			v := indices[3*t+k]
			adj[fill[v]] = int32(t)
			fill[v]++
		}
	}
	stamp := make([]int32, vertexCount)
	emitted := make([]bool, tris)
	out := make([]uint32, 0, 3*tris)
	var stack []uint32
	var fan []uint32
	var pending []int32
	time := int32(cacheSize + 1)
	cursor := 0
	f := int(indices[0])
	for f >= 0 {
		fan = fan[:0]
		pending = pending[:0]
		for _, t := range adj[start[f]:start[f+1]] {
			if !emitted[t] {
				pending = append(pending, t)
			}
		}
		// Walk around f: each next triangle shares an edge with the one
		// before when the fan allows, which the triangle codec stores in
		// one byte.
		for len(pending) > 0 {
			pick := 0
			if len(out) >= 3 {
				prev := out[len(out)-3:]
				for i, t := range pending {
					if sharesEdge(prev, indices[3*int(t):3*int(t)+3]) {
						pick = i
						break
					}
				}
			}
			t := pending[pick]
			pending = append(pending[:pick], pending[pick+1:]...)
			emitted[t] = true
			for k := 0; k < 3; k++ {
				v := indices[3*int(t)+k]
				out = append(out, v)
				stack = append(stack, v)
				fan = append(fan, v)
				live[v]--
				if time-stamp[v] > cacheSize {
					stamp[v] = time
					time++
				}
			}
		}
		f = -1
		best := int32(-1)
		for _, v := range fan {
			if live[v] <= 0 {
				continue
			}
			p := int32(0)
			if age := time - stamp[v]; age+2*live[v] <= cacheSize {
				p = age
			}
			if p > best {
				best, f = p, int(v)
			}
		}
		for f < 0 && len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if live[v] > 0 {
				f = int(v)
			}
		}
		for f < 0 && cursor < vertexCount {
			if live[cursor] > 0 {
				f = cursor
			}
			cursor++
		}
	}
	return out
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

// sharesEdge reports whether two triangles have two corners in common.
func sharesEdge(a, b []uint32) bool {
	n := 0
	for _, x := range a {
		if x == b[0] || x == b[1] || x == b[2] {
			n++
		}
	}
	return n >= 2
}
