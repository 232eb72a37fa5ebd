package avatar

import (
	"slices"
	"testing"
)

// TestBucketsGet checks that each cell gives its items in the order
// added, through the dense array and through the map a box too large for
// it falls back to, and nothing for cells never added.
func TestBucketsGet(t *testing.T) {
	for _, tc := range []struct {
		name  string
		far   [3]int // one more cell, far enough to force the map or not
		dense bool
	}{
		{"dense", [3]int{5, -3, 2}, true},
		{"map", [3]int{1 << 30, 0, 0}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var p bucketPairs
			want := map[[3]int][]int32{}
			cells := [][3]int{{0, 0, 0}, {1, 0, 0}, {0, -1, 2}, tc.far, {1, 0, 0}, {0, 0, 0}, {-2, 3, -1}}
			for i, k := range cells {
				p.add(k, 10+i)
				want[k] = append(want[k], int32(10+i))
			}
			b := p.build()
			if got := b.dense != nil; got != tc.dense {
				t.Fatalf("dense array %v, want %v", got, tc.dense)
			}
			for k, w := range want {
				if got := b.get(k); !slices.Equal(got, w) {
					t.Errorf("cell %v: %v, want %v", k, got, w)
				}
			}
			for _, k := range [][3]int{{0, 0, 1}, {-3, 0, 0}, {2, 0, 0}, {0, 4, 0}, {1 << 29, 0, 0}} {
				if got := b.get(k); len(got) != 0 {
					t.Errorf("cell %v never added: %v", k, got)
				}
			}
		})
	}
}
