package avatar

// buckets groups items (triangle or vertex numbers) by a key, such as the
// grid cell they touch, in one flat array: a map of slices allocated one
// slice per key and grew each by doubling, some 20,000 allocations a
// build across the garments' cells and the weight smoothing's seam grid.
// Each key's items keep the order they were added in, so a walk over a
// key's items visits them as the map of slices did.
type buckets[K comparable] struct {
	index map[K]int32 // the key's bucket
	start []int32     // bucket b's items are items[start[b]:start[b+1]]
	items []int32
}

// bucketPairs collects the (key, item) pairs a buckets is made of.
type bucketPairs[K comparable] struct {
	keys  []K
	items []int32
}

func (p *bucketPairs[K]) add(k K, item int) {
	p.keys = append(p.keys, k)
	p.items = append(p.items, int32(item))
}

// build sorts the pairs by key, stably (a counting sort over the keys in
// the order first seen).
func (p *bucketPairs[K]) build() buckets[K] {
	b := buckets[K]{index: make(map[K]int32, len(p.keys)/4+1)}
	id := make([]int32, len(p.keys))
	var count []int32
	for i, k := range p.keys {
		j, ok := b.index[k]
		if !ok {
			j = int32(len(count))
			b.index[k] = j
			count = append(count, 0)
		}
		id[i] = j
		count[j]++
	}
	b.start = make([]int32, len(count)+1)
	for j, c := range count {
		b.start[j+1] = b.start[j] + c
	}
	next := count // reused as each bucket's write position
	copy(next, b.start[:len(count)])
	b.items = make([]int32, len(p.items))
	for i, j := range id {
		b.items[next[j]] = p.items[i]
		next[j]++
	}
	return b
}

// get is k's items in the order added (none for a key never added).
func (b *buckets[K]) get(k K) []int32 {
	j, ok := b.index[k]
	if !ok {
		return nil
	}
	return b.items[b.start[j]:b.start[j+1]]
}
