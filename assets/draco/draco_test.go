package draco_test

import (
	"math"
	"math/rand"
	"testing"

	"github.com/kilnhq/kiln/assets/draco"
	"github.com/kilnhq/kiln/assets/draco/dracotest"
)

// grid is a w×h height field, the shape of real meshes: neighbouring
// vertices close together, indices in strips.
func grid(w, h int) draco.Mesh {
	var pos, uv, nrm, wts []float32
	var joints []uint32
	for y := 0; y <= h; y++ {
		for x := 0; x <= w; x++ {
			fx, fy := float32(x)/float32(w), float32(y)/float32(h)
			pos = append(pos, fx*3-1.5, float32(math.Sin(float64(fx*7)))*0.2, fy*2)
			uv = append(uv, fx, 1-fy)
			nrm = append(nrm, 0, 1, 0)
			wts = append(wts, fx, 1-fx, 0, 0)
			joints = append(joints, uint32(x%3), uint32(y%300), 0, 0)
		}
	}
	var idx []uint32
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			a := uint32(y*(w+1) + x)
			b, c, d := a+1, a+uint32(w+1), a+uint32(w+2)
			idx = append(idx, a, c, b, b, c, d)
		}
	}
	return draco.Mesh{Indices: idx, Points: (w + 1) * (h + 1), Attributes: []draco.Attribute{
		{Kind: draco.Position, Components: 3, Float: pos, Bits: 14},
		{Kind: draco.Normal, Components: 3, Float: nrm, Bits: 10, Octahedral: true},
		{Kind: draco.TexCoord, Components: 2, Float: uv, Bits: 12},
		{Kind: draco.Generic, Components: 4, Int: joints, Wide: true},
		{Kind: draco.Generic, Components: 4, Float: wts, Bits: 8},
	}}
}

// scattered has random positions and indices: large deltas, many
// distinct symbols, 8-bit joints.
func scattered(points, faces int) draco.Mesh {
	r := rand.New(rand.NewSource(int64(points)))
	pos := make([]float32, 3*points)
	for i := range pos {
		pos[i] = r.Float32()*200 - 100
	}
	joints := make([]uint32, 4*points)
	for i := range joints {
		joints[i] = uint32(r.Intn(256))
	}
	idx := make([]uint32, 3*faces)
	for i := range idx {
		idx[i] = uint32(r.Intn(points))
	}
	return draco.Mesh{Indices: idx, Points: points, Attributes: []draco.Attribute{
		{Kind: draco.Position, Components: 3, Float: pos, Bits: 16},
		{Kind: draco.Generic, Components: 4, Int: joints},
	}}
}

// normals has random directions, the axes and their opposites (the
// octahedron's corners and edges).
func normals(points, bits int) draco.Mesh {
	r := rand.New(rand.NewSource(int64(points)))
	n := []float32{1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0.5, -0.5, 0, -0.5, 0, 0.5}
	for len(n) < 3*points {
		n = append(n, float32(r.NormFloat64()), float32(r.NormFloat64()), float32(r.NormFloat64()))
	}
	pos := make([]float32, 3*points)
	for i := range pos {
		pos[i] = float32(i)
	}
	idx := make([]uint32, 0, 3*points)
	for i := 0; i+2 < points; i++ {
		idx = append(idx, uint32(i), uint32(i+1), uint32(i+2))
	}
	return draco.Mesh{Indices: idx, Points: points, Attributes: []draco.Attribute{
		{Kind: draco.Position, Components: 3, Float: pos, Bits: 14},
		{Kind: draco.Normal, Components: 3, Float: n, Bits: bits, Octahedral: true},
	}}
}

// Google's decoder reads every mesh back: the same triangles (corners
// maybe rotated, winding kept), the
// integers exactly, the floats within half a quantization step, and
// exactly the values Dequantized predicts (the accessor bounds). Half a
// step allows for the float32 arithmetic of the grid, as Google's does.
func TestGoogleDecodes(t *testing.T) {
	cases := []struct {
		name string
		mesh draco.Mesh
	}{
		{"one triangle", draco.Mesh{Indices: []uint32{0, 1, 2}, Points: 3, Attributes: []draco.Attribute{
			{Kind: draco.Position, Components: 3, Float: []float32{0, 0, 0, 1, 0, 0, 0, 1, 0}, Bits: 11}}}},
		{"flat", draco.Mesh{Indices: []uint32{0, 1, 2, 2, 1, 3}, Points: 4, Attributes: []draco.Attribute{
			{Kind: draco.Position, Components: 3, Float: []float32{5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5}, Bits: 14}}}},
		{"grid", grid(40, 30)},
		{"grid large", grid(200, 150)},
		{"scattered", scattered(3000, 5000)},
		{"normals 10 bits", normals(2000, 10)},
		{"normals 6 bits", normals(500, 6)},
		{"scattered 8-bit indices", scattered(200, 100)},
	}
	var streams [][]byte
	for _, c := range cases {
		b, err := draco.Encode(c.mesh)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		streams = append(streams, b)
	}
	for i, got := range dracotest.Decode(t, streams...) {
		c := cases[i]
		if got.Error != "" {
			t.Errorf("%s: %s", c.name, got.Error)
			continue
		}
		if got.Points != c.mesh.Points || !dracotest.SameTriangles(got.Indices, c.mesh.Indices) {
			t.Errorf("%s: %d points, same triangles %v", c.name, got.Points, dracotest.SameTriangles(got.Indices, c.mesh.Indices))
		}
		if len(got.Attributes) != len(c.mesh.Attributes) {
			t.Errorf("%s: %d attributes, want %d", c.name, len(got.Attributes), len(c.mesh.Attributes))
			continue
		}
		for j, a := range c.mesh.Attributes {
			g := got.Attributes[j]
			if g.Type != int(a.Kind) || g.Components != a.Components {
				t.Errorf("%s attribute %d: type %d of %d, want %d of %d", c.name, j, g.Type, g.Components, a.Kind, a.Components)
			}
			if a.Float == nil {
				for k, v := range a.Int {
					if g.Values[k] != float32(v) {
						t.Fatalf("%s attribute %d value %d: %v, want %d", c.name, j, k, g.Values[k], v)
					}
				}
				continue
			}
			if a.Octahedral {
				// Within the grid's spacing of the unit vector, and unit.
				tol := 2.5 / float64(int(1)<<(a.Bits-1)-1)
				for k := 0; k < len(a.Float); k += 3 {
					x, y, z := float64(a.Float[k]), float64(a.Float[k+1]), float64(a.Float[k+2])
					l := math.Sqrt(x*x + y*y + z*z)
					g := g.Values[k : k+3]
					d := math.Max(math.Abs(float64(g[0])-x/l), math.Max(math.Abs(float64(g[1])-y/l), math.Abs(float64(g[2])-z/l)))
					gl := math.Sqrt(float64(g[0]*g[0] + g[1]*g[1] + g[2]*g[2]))
					if d > tol || math.Abs(gl-1) > 1e-5 {
						t.Fatalf("%s attribute %d normal %d: %v for %v (off by %v, tolerance %v)", c.name, j, k/3, g, a.Float[k:k+3], d, tol)
					}
				}
				continue
			}
			want := draco.Dequantized(a.Float, a.Components, a.Bits)
			step := quantStep(a.Float, a.Components, a.Bits)
			for k, v := range a.Float {
				if g.Values[k] != want[k] {
					t.Fatalf("%s attribute %d value %d: %v, Dequantized says %v", c.name, j, k, g.Values[k], want[k])
				}
				if d := math.Abs(float64(g.Values[k] - v)); d > step*0.51+1e-6 {
					t.Fatalf("%s attribute %d value %d: %v for %v, beyond half a step %v", c.name, j, k, g.Values[k], v, step)
				}
			}
		}
	}
}

func quantStep(v []float32, comps, bits int) float64 {
	rng := 0.0
	for c := 0; c < comps; c++ {
		lo, hi := math.Inf(1), math.Inf(-1)
		for i := c; i < len(v); i += comps {
			lo, hi = min(lo, float64(v[i])), max(hi, float64(v[i]))
		}
		rng = max(rng, hi-lo)
	}
	return rng / float64(int(1)<<bits-1)
}

// Bad meshes are refused with an error, not encoded.
func TestEncodeRefuses(t *testing.T) {
	pos := []float32{0, 0, 0, 1, 0, 0, 0, 1, 0}
	for _, c := range []struct {
		name string
		mesh draco.Mesh
	}{
		{"not triangles", draco.Mesh{Indices: []uint32{0, 1}, Points: 3, Attributes: []draco.Attribute{{Components: 3, Float: pos, Bits: 8}}}},
		{"index beyond", draco.Mesh{Indices: []uint32{0, 1, 3}, Points: 3, Attributes: []draco.Attribute{{Components: 3, Float: pos, Bits: 8}}}},
		{"no attributes", draco.Mesh{Indices: []uint32{0, 1, 2}, Points: 3}},
		{"short attribute", draco.Mesh{Indices: []uint32{0, 1, 2}, Points: 4, Attributes: []draco.Attribute{{Components: 3, Float: pos, Bits: 8}}}},
		{"more points than corners", draco.Mesh{Indices: []uint32{0, 1, 2}, Points: 4, Attributes: []draco.Attribute{{Components: 3, Float: append(pos, 1, 1, 1), Bits: 8}}}},
		{"no bits", draco.Mesh{Indices: []uint32{0, 1, 2}, Points: 3, Attributes: []draco.Attribute{{Components: 3, Float: pos}}}},
	} {
		if _, err := draco.Encode(c.mesh); err == nil {
			t.Errorf("%s: encoded", c.name)
		}
	}
}
