package paint

import "math"

// stroke is one hair drawn in a plane (a brow's face plane, a beard's
// unrolled cylinder): from root along dir (a unit vector) for length,
// width wide at the root narrowing to the set's tip share of that at
// its tip, tone times the hair's colour.
type stroke struct {
	root, dir     [2]float64
	length, width float64
	tone          float64
}

// strokes is a set of hairs in a plane, on a few sides (a brow's two,
// a beard's one), filed under the cells (cell metres square) their
// boxes touch, so a texel looks up only the hairs near it.
type strokes struct {
	list  []stroke
	cells map[[3]int][]int32 // side, cell in X and Y: the hairs over it
	cell  float64
	soft  float64 // the hairs' edge, metres: about a texel
	tip   float64 // a hair's width at its tip, a share of its root's
}

// newStrokes is an empty set of hairs: cell its lookup grid, soft their
// edge and tip their tip's share of their width.
func newStrokes(cell, soft, tip float64) *strokes {
	return &strokes{cells: map[[3]int][]int32{}, cell: cell, soft: soft, tip: tip}
}

// add files hair h on side under every cell its box touches.
func (b *strokes) add(side int, h stroke) {
	id := int32(len(b.list))
	b.list = append(b.list, h)
	tip := [2]float64{h.root[0] + h.dir[0]*h.length, h.root[1] + h.dir[1]*h.length}
	r := h.width + b.soft
	x0, x1 := int(math.Floor((math.Min(h.root[0], tip[0])-r)/b.cell)), int(math.Floor((math.Max(h.root[0], tip[0])+r)/b.cell))
	y0, y1 := int(math.Floor((math.Min(h.root[1], tip[1])-r)/b.cell)), int(math.Floor((math.Max(h.root[1], tip[1])+r)/b.cell))
	for x := x0; x <= x1; x++ {
		for y := y0; y <= y1; y++ {
			key := [3]int{side, x, y}
			b.cells[key] = append(b.cells[key], id)
		}
	}
}

// at is, at q on side, how much of it the hairs cover (0..1, as layers:
// 1 - the product of what each leaves) and their mean tone there (1
// where none).
func (b *strokes) at(side int, q [2]float64) (cover, tone float64) {
	clear, sum, weight := 1.0, 0.0, 0.0
	for _, id := range b.cells[[3]int{side, int(math.Floor(q[0] / b.cell)), int(math.Floor(q[1] / b.cell))}] {
		h := &b.list[id]
		v := [2]float64{q[0] - h.root[0], q[1] - h.root[1]}
		t := clamp01((v[0]*h.dir[0] + v[1]*h.dir[1]) / h.length)
		d := math.Hypot(v[0]-h.dir[0]*t*h.length, v[1]-h.dir[1]*t*h.length)
		w := h.width * (1 - (1-b.tip)*t)
		c := clamp01((w/2-d)/b.soft + 0.5)
		if c <= 0 {
			continue
		}
		clear *= 1 - c
		sum += c * h.tone
		weight += c
	}
	if weight == 0 {
		return 0, 1
	}
	return 1 - clear, sum / weight
}
