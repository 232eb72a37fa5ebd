package draco

import (
	"testing"
)

// holeGrid is a w×h grid of quads with the faces in drop left out.
func holeGrid(w, h int, drop ...int) []uint32 {
	var idx []uint32
	f := 0
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			a := uint32(y*(w+1) + x)
			b, c, d := a+1, a+uint32(w+1), a+uint32(w+2)
			for _, tri := range [][3]uint32{{a, c, b}, {b, c, d}} {
				keep := true
				for _, dr := range drop {
					keep = keep && dr != f
				}
				if keep {
					idx = append(idx, tri[:]...)
				}
				f++
			}
		}
	}
	return idx
}

// The connectivity decodes, by the specification's decoder, to the
// encoder's faces: one vertex renumbering maps every decoded face onto
// the encoder's face in the same place of the decoder's order.
func TestEdgebreakerConnectivityRoundTrip(t *testing.T) {
	for _, c := range []struct {
		name    string
		indices []uint32
	}{
		{"grid", holeGrid(6, 5)},
		{"grid with a hole", holeGrid(6, 5, 24, 25)},
		{"grid with two holes", holeGrid(8, 6, 20, 21, 60, 61)},
		{"hole over two cells", holeGrid(30, 20, 161, 162)},
		{"holes sharing a vertex", holeGrid(30, 20, 100, 101, 102, 161, 162)},
		{"two tetrahedra on one vertex", []uint32{0, 2, 1, 0, 1, 3, 1, 2, 3, 0, 3, 2, 0, 5, 4, 0, 4, 6, 4, 5, 6, 0, 6, 5}},
		{"three faces on one edge", []uint32{0, 1, 2, 1, 0, 3, 0, 1, 4}},
		{"two components", append(holeGrid(3, 3), 100, 101, 102, 101, 103, 102)},
	} {
		eb := encodeEdgebreakerConnectivity(c.indices)
		stream := append([]byte{'D', 'R', 'A', 'C', 'O', 2, 2, 1, 1, 0, 0}, eb.stream(nil)...)
		d, err := decodeEdgebreaker(stream)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		toEnc := map[int32]int32{}
		toDec := map[int32]int32{}
		ok := true
		for f, ec := range eb.faceOrds {
			for k, e := range []int32{ec, next(ec), prev(ec)} {
				dv, ev := d.vert[3*f+k], eb.t.vert[e]
				if x, seen := toEnc[dv]; seen && x != ev {
					ok = false
				}
				if x, seen := toDec[ev]; seen && x != dv {
					ok = false
				}
				toEnc[dv], toDec[ev] = ev, dv
			}
		}
		if !ok {
			t.Errorf("%s: decoded faces do not map onto the encoder's", c.name)
		}
	}
}
