package human_test

import (
	"math"
	"slices"
	"sort"
	"testing"

	"github.com/kilnhq/kiln/assets/avatar/human"
)

// skin is a shaped body's visible surface for distance queries: its
// vertices with their normals, bucketed in a grid.
type skin struct {
	pos, normal [][3]float32
	grid        map[[3]int][]int
}

const cell = 0.04

func key(p [3]float32) [3]int {
	return [3]int{int(math.Floor(float64(p[0]) / cell)), int(math.Floor(float64(p[1]) / cell)), int(math.Floor(float64(p[2]) / cell))}
}

// newSkin keeps the body vertices of triangles not hidden.
func newSkin(b *human.Body, hidden []bool) *skin {
	m := human.BodyMesh()
	normal := map[int32][3]float32{}
	for t, tri := range m.Tris {
		if hidden[t] {
			continue
		}
		a, bb, c := b.Pos[m.Base[tri[0]]], b.Pos[m.Base[tri[1]]], b.Pos[m.Base[tri[2]]]
		u, v := sub(bb, a), sub(c, a)
		n := [3]float32{u[1]*v[2] - u[2]*v[1], u[2]*v[0] - u[0]*v[2], u[0]*v[1] - u[1]*v[0]}
		for _, k := range tri {
			s := normal[m.Base[k]]
			normal[m.Base[k]] = [3]float32{s[0] + n[0], s[1] + n[1], s[2] + n[2]}
		}
	}
	s := &skin{grid: map[[3]int][]int{}}
	vs := make([]int32, 0, len(normal))
	for v := range normal {
		vs = append(vs, v)
	}
	slices.Sort(vs)
	for _, v := range vs {
		n := normal[v]
		l := float32(norm(n))
		if l == 0 {
			continue
		}
		s.grid[key(b.Pos[v])] = append(s.grid[key(b.Pos[v])], len(s.pos))
		s.pos = append(s.pos, b.Pos[v])
		s.normal = append(s.normal, [3]float32{n[0] / l, n[1] / l, n[2] / l})
	}
	return s
}

// nearest returns the distance to the nearest skin vertex within two
// cells and the signed height above it along its normal (negative:
// under the skin); ok is false when no skin is that near.
func (s *skin) nearest(p [3]float32) (d, height float64, ok bool) {
	k := key(p)
	best := math.Inf(1)
	bi := -1
	for dx := -2; dx <= 2; dx++ {
		for dy := -2; dy <= 2; dy++ {
			for dz := -2; dz <= 2; dz++ {
				for _, i := range s.grid[[3]int{k[0] + dx, k[1] + dy, k[2] + dz}] {
					if e := dist(p, s.pos[i]); e < best {
						best, bi = e, i
					}
				}
			}
		}
	}
	if bi < 0 {
		return 0, 0, false
	}
	off := sub(p, s.pos[bi])
	n := s.normal[bi]
	return best, float64(off[0]*n[0] + off[1]*n[1] + off[2]*n[2]), true
}

func percentile(xs []float64, q float64) float64 {
	sort.Float64s(xs)
	return xs[int(q*float64(len(xs)-1))]
}

// Fitted garments land on the skin: close to it, and outside it.
func TestGarmentsSitOnTheSkin(t *testing.T) {
	bodies := map[string]human.Params{
		"female": human.Average(0),
		"male":   human.Average(1),
		"heavy":  {Gender: 1, Age: 1, Muscle: 0.5, Weight: 1, Height: 0.5, Proportions: 0.5},
		"slim":   {Gender: 0, Age: 0, Muscle: 0, Weight: 0, Height: 0.5, Proportions: 0.5},
		"tall":   {Gender: 1, Muscle: 1, Weight: 0.5, Proportions: 1, Stature: 2.0},
		"short":  {Gender: 0, Age: 1, Muscle: 0.5, Weight: 0.7, Proportions: 0, Stature: 1.5},
	}
	ids := slices.Concat(human.Assets("top"), human.Assets("bottom"), human.Assets("footwear"))
	for name, p := range bodies {
		b := human.Shape(p)
		sk := newSkin(b, make([]bool, len(human.BodyMesh().Tris)))
		for _, id := range ids {
			f, err := b.Fit(id)
			if err != nil {
				t.Fatal(err)
			}
			var far, height []float64
			for _, q := range f.Pos {
				d, h, ok := sk.nearest(q)
				if !ok {
					d, h = 2*cell, 0
				}
				far = append(far, d)
				height = append(height, h)
			}
			med, p95 := percentile(far, 0.5), percentile(far, 0.95)
			under := percentile(height, 0.05)
			t.Logf("%-6s %-20s nearest skin: median %.1f mm, 95%% %.1f mm; 5th percentile height %.1f mm", name, id, 1000*med, 1000*p95, 1000*under)
			// A skirt hangs free of the legs: its hem is far from the skin.
			limit95 := 0.07
			if id == "bottom/skirt" {
				limit95 = 0.12
			}
			if med > 0.03 || p95 > limit95 {
				t.Errorf("%s on %s: %.1f mm median, %.1f mm 95th percentile from the skin", id, name, 1000*med, 1000*p95)
			}
			// Tight cloth (leggings, fitted tops) lies on the skin: its
			// vertices may sit a few millimetres under the tangent plane
			// of the nearest skin vertex, never centimetres.
			if under < -0.008 {
				t.Errorf("%s on %s: 5%% of its vertices more than %.1f mm under the skin", id, name, -1000*under)
			}
		}
	}
}
