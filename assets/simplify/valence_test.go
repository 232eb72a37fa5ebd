package simplify

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPrevIndexMatchesScan asks prevIndex and the plain scan the same
// questions about random vertex neighbourhoods, small and large.
func TestPrevIndexMatchesScan(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var idx prevIndex
	for _, n := range []int{1, 5, smallValence, smallValence + 1, 100, 1000} {
		around := make([]corner, n)
		for i := range around {
			around[i] = corner{next: r.Uint32N(2 * uint32(n)), prev: r.Uint32N(2 * uint32(n))}
		}
		idx.reset(around)
		for v := uint32(0); v < 2*uint32(n)+1; v++ {
			if got, want := idx.closes(around, v), closes(around, v); got != want {
				t.Fatalf("valence %d, vertex %d: prevIndex says %v, the scan %v", n, v, got, want)
			}
		}
	}
}

// fan is a disk of n triangles around one centre vertex.
func fan(n int) Mesh {
	m := Mesh{Positions: []float32{0, 0, 0}}
	for i := 0; i <= n; i++ {
		a := 2 * math.Pi * float64(i) / float64(n+1)
		m.Positions = append(m.Positions, float32(math.Cos(a)), float32(math.Sin(a)), float32(0.01*math.Sin(7*a)))
	}
	for i := 1; i <= n; i++ {
		m.Indices = append(m.Indices, 0, uint32(i), uint32(i+1))
	}
	return m
}

// TestHighValenceFan simplifies 100,000 triangles around one vertex (the
// hostile case of issue 14) to half: the rim is a border, which moves
// only along itself, so the disk keeps its area.
func TestHighValenceFan(t *testing.T) {
	m := fan(100000)
	res, err := Simplify(m, Options{TargetRatio: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(res.Indices) / 3; n == 0 || n > 50000 {
		t.Fatalf("%d triangles left of 100,000, want at most half", n)
	}
	if before, after := area(m, m.Indices), area(m, res.Indices); after < 0.999*before {
		t.Fatalf("the disk's area went from %g to %g", before, after)
	}
	// With its border locked (lod's first attempt) the rim stays whole.
	res, err = Simplify(m, Options{TargetRatio: 0.5, LockBorder: true, MaxError: 0.02})
	if err != nil {
		t.Fatal(err)
	}
	if before, after := area(m, m.Indices), area(m, res.Indices); len(res.Indices) == 0 || after < 0.999*before {
		t.Fatalf("locked border: %d triangles, area %g of %g", len(res.Indices)/3, after, before)
	}
}

// area sums the triangles' areas seen from above.
func area(m Mesh, idx []uint32) float64 {
	var sum float64
	for i := 0; i+2 < len(idx); i += 3 {
		a, b, c := idx[i], idx[i+1], idx[i+2]
		ax, ay := float64(m.Positions[3*a]), float64(m.Positions[3*a+1])
		bx, by := float64(m.Positions[3*b]), float64(m.Positions[3*b+1])
		cx, cy := float64(m.Positions[3*c]), float64(m.Positions[3*c+1])
		sum += math.Abs((bx-ax)*(cy-ay)-(cx-ax)*(by-ay)) / 2
	}
	return sum
}

func BenchmarkHighValenceFan(b *testing.B) {
	m := fan(200000)
	for b.Loop() {
		if _, err := Simplify(m, Options{TargetRatio: 0.5}); err != nil {
			b.Fatal(err)
		}
	}
}
