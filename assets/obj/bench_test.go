package obj

import (
	"fmt"
	"strings"
	"testing"
)

// hostileOBJ is an OBJ of n triangles, each after a statement that opens
// a part of its own: a distinct usemtl, a distinct group or object, a
// smoothing group, or a line continued n times. Read must stay linear in
// n on each: issue 25's file of 1,000,000 usemtl names held a worker for
// an hour when each face scanned the parts before it.
func hostileOBJ(shape string, n int) []byte {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "v %d 0 0\nv %d 1 0\nv %d 0 1\n", i, i, i)
	}
	if shape == "continued" {
		// One face whose line goes on over n lines of one vertex each.
		b.WriteString("f 1 2 \\\n")
		for i := 3; i <= 3*n; i++ {
			fmt.Fprintf(&b, "%d \\\n", i)
		}
		b.WriteString("\n")
		return []byte(b.String())
	}
	for i := range n {
		switch shape {
		case "usemtl":
			fmt.Fprintf(&b, "usemtl m%d\n", i)
		case "groups":
			fmt.Fprintf(&b, "g g%d\n", i)
		case "objects":
			fmt.Fprintf(&b, "o o%d\nusemtl m%d\n", i, i%7)
		case "smoothing":
			fmt.Fprintf(&b, "s %d\n", i)
		}
		fmt.Fprintf(&b, "f %d %d %d\n", 3*i+1, 3*i+2, 3*i+3)
	}
	return []byte(b.String())
}

// TestHostileShapesRead reads a small file of each hostile shape: the
// benchmark below measures them, this checks what they become.
func TestHostileShapesRead(t *testing.T) {
	const n = 500
	for _, tc := range []struct {
		shape                string
		meshes, prims, faces int
	}{
		{"usemtl", 1, n, n},
		{"groups", n, n, n},
		{"objects", n, n, n},
		{"smoothing", 1, 1, n},
		{"continued", 1, 1, 3*n - 2},
	} {
		t.Run(tc.shape, func(t *testing.T) {
			s, err := Read(hostileOBJ(tc.shape, n), nil)
			if err != nil {
				t.Fatal(err)
			}
			st := s.Stats()
			if st.Meshes != tc.meshes || st.Primitives != tc.prims || st.Triangles != tc.faces {
				t.Fatalf("%s: %+v, want %d meshes, %d primitives, %d triangles", tc.shape, st, tc.meshes, tc.prims, tc.faces)
			}
		})
	}
}

// BenchmarkReadHostile reads each hostile shape at n and 2n and 4n: the
// time per op doubles with n when the reader is linear (figures in the
// package doc and bench/hostile/README.md).
//
//	go test ./assets/obj -run '^$' -bench ReadHostile -benchtime 3x
func BenchmarkReadHostile(b *testing.B) {
	for _, shape := range []string{"usemtl", "groups", "objects", "smoothing", "continued"} {
		for _, n := range []int{25_000, 50_000, 100_000} {
			data := hostileOBJ(shape, n)
			b.Run(fmt.Sprintf("%s/n=%d", shape, n), func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				for b.Loop() {
					if _, err := Read(data, nil); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
