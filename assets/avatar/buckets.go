package avatar

import (
	"iter"
	"math"
)

// buckets groups items (triangle or vertex numbers) by the grid cell they
// touch, in one flat array: a map of slices allocated one slice per key
// and grew each by doubling, some 20,000 allocations a build across the
// garments' cells and the weight smoothing's seam grid. Each cell's items
// keep the order they were added in, so a walk over a cell's items
// visits them as the map of slices did.
//
// The cells are found through a dense array over the box of the cells
// used: a map keyed by three ints hashed 24 bytes on each of the 27
// lookups round every skin vertex and garment point, 8 % of a build's
// CPU. A box too large for an array (never on an avatar, whose cells
// span a couple of metres) keeps the map.
type buckets struct {
	// lo and dim are the box of the cells used; dense is, per cell of
	// the box (x fastest), its bucket or -1. index is used instead when
	// the box is too large (dense nil).
	lo, dim [3]int
	dense   []int32
	index   map[[3]int]int32
	start   []int32 // bucket b's items are items[start[b]:start[b+1]]
	items   []int32
}

// bucketPairs collects the (cell, item) pairs a buckets is made of.
type bucketPairs struct {
	keys  [][3]int
	items []int32
}

func (p *bucketPairs) add(k [3]int, item int) {
	p.keys = append(p.keys, k)
	p.items = append(p.items, int32(item))
}

// denseCells bounds the cells of a dense buckets array: a few MB.
const denseCells = 1 << 21

// build sorts the pairs by cell, stably (a counting sort over the cells
// in the order first seen).
func (p *bucketPairs) build() buckets {
	var b buckets
	lo, hi := [3]int{math.MaxInt, math.MaxInt, math.MaxInt}, [3]int{math.MinInt, math.MinInt, math.MinInt}
	for _, k := range p.keys {
		for a := range 3 {
			lo[a], hi[a] = min(lo[a], k[a]), max(hi[a], k[a])
		}
	}
	vol := 0
	if len(p.keys) > 0 {
		vol = 1
		for a := range 3 {
			d := hi[a] - lo[a] + 1
			if d <= 0 || d > denseCells || vol > denseCells/d {
				vol = denseCells + 1
				break
			}
			vol *= d
			b.dim[a] = d
		}
		b.lo = lo
	}
	if vol <= denseCells {
		b.dense = make([]int32, vol)
		for i := range b.dense {
			b.dense[i] = -1
		}
	} else {
		b.index = make(map[[3]int]int32, len(p.keys)/4+1)
	}
	id := make([]int32, len(p.keys))
	var count []int32
	for i, k := range p.keys {
		j, ok := b.bucket(k)
		if !ok {
			j = int32(len(count))
			if b.dense != nil {
				b.dense[b.cell(k)] = j
			} else {
				b.index[k] = j
			}
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

// cell is k's place in dense; k must lie in the box.
func (b *buckets) cell(k [3]int) int {
	return ((k[2]-b.lo[2])*b.dim[1]+(k[1]-b.lo[1]))*b.dim[0] + (k[0] - b.lo[0])
}

// bucket is k's bucket, and whether it has one.
func (b *buckets) bucket(k [3]int) (int32, bool) {
	if b.dense == nil {
		j, ok := b.index[k]
		return j, ok
	}
	for a := range 3 {
		if uint(k[a]-b.lo[a]) >= uint(b.dim[a]) {
			return 0, false
		}
	}
	j := b.dense[b.cell(k)]
	return j, j >= 0
}

// get is k's items in the order added (none for a cell never added).
func (b *buckets) get(k [3]int) []int32 {
	j, ok := b.bucket(k)
	if !ok {
		return nil
	}
	return b.items[b.start[j]:b.start[j+1]]
}

// cellOf is the cell of a grid of the given size holding p: every
// neighbour search in the build keys its buckets by it.
func cellOf(p [3]float32, size float64) [3]int {
	return [3]int{int(math.Floor(float64(p[0]) / size)), int(math.Floor(float64(p[1]) / size)), int(math.Floor(float64(p[2]) / size))}
}

// around yields the items of the cells within reach cells of k (27 for
// a reach of 1), cell by cell in one fixed order (x outermost, z
// innermost), each cell's in the order added: a search of everything
// within reach cells' size of a point in k, whose sums and ties come out
// the same on every build.
func (b *buckets) around(k [3]int, reach int) iter.Seq[int32] {
	return func(yield func(int32) bool) {
		for dx := -reach; dx <= reach; dx++ {
			for dy := -reach; dy <= reach; dy++ {
				for dz := -reach; dz <= reach; dz++ {
					for _, i := range b.get([3]int{k[0] + dx, k[1] + dy, k[2] + dz}) {
						if !yield(i) {
							return
						}
					}
				}
			}
		}
	}
}
