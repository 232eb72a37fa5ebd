package draco_test

import (
	"fmt"
	"math"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/kilnhq/kiln/assets/draco"
	"github.com/kilnhq/kiln/assets/draco/dracotest"
)

// sphere is a closed UV sphere of rings×segments quads (triangles at the
// poles), with normals and 8-bit joints.
func sphere(rings, segs int) draco.Mesh {
	var pos, nrm []float32
	var joints []uint32
	add := func(x, y, z float64) {
		pos = append(pos, float32(x), float32(y), float32(z))
		nrm = append(nrm, float32(x), float32(y), float32(z))
		joints = append(joints, uint32(len(joints)/4%7), 0, 0, 0)
	}
	add(0, 1, 0)
	for r := 1; r < rings; r++ {
		th := math.Pi * float64(r) / float64(rings)
		for s := 0; s < segs; s++ {
			ph := 2 * math.Pi * float64(s) / float64(segs)
			add(math.Sin(th)*math.Cos(ph), math.Cos(th), math.Sin(th)*math.Sin(ph))
		}
	}
	add(0, -1, 0)
	south := uint32(len(pos)/3 - 1)
	at := func(r, s int) uint32 { return uint32(1 + (r-1)*segs + s%segs) }
	var idx []uint32
	for s := 0; s < segs; s++ {
		idx = append(idx, 0, at(1, s+1), at(1, s))
		for r := 1; r < rings-1; r++ {
			idx = append(idx, at(r, s), at(r, s+1), at(r+1, s), at(r+1, s), at(r, s+1), at(r+1, s+1))
		}
		idx = append(idx, south, at(rings-1, s), at(rings-1, s+1))
	}
	n := len(pos) / 3
	return draco.Mesh{Indices: idx, Points: n, Attributes: []draco.Attribute{
		{Kind: draco.Position, Components: 3, Float: pos, Bits: 14},
		{Kind: draco.Normal, Components: 3, Float: nrm, Bits: 10, Octahedral: true},
		{Kind: draco.Generic, Components: 4, Int: joints},
	}}
}

// cube has a point per face corner (24): positions shared by three
// faces, normals and texture coordinates not.
func cube() draco.Mesh {
	var pos, nrm, uv []float32
	var idx []uint32
	for axis := 0; axis < 3; axis++ {
		for _, sgn := range []float32{-1, 1} {
			base := uint32(len(pos) / 3)
			for k := 0; k < 4; k++ {
				u, v := float32(k&1)*2-1, float32(k>>1)*2-1
				p := [3]float32{}
				p[axis], p[(axis+1)%3], p[(axis+2)%3] = sgn, u*sgn, v
				pos = append(pos, p[:]...)
				n := [3]float32{}
				n[axis] = sgn
				nrm = append(nrm, n[:]...)
				// Each face its own part of the texture.
				uv = append(uv, (float32(k&1)+float32(len(pos)/12))/12, float32(k>>1))
			}
			idx = append(idx, base, base+1, base+3, base, base+3, base+2)
		}
	}
	return draco.Mesh{Indices: idx, Points: 24, Attributes: []draco.Attribute{
		{Kind: draco.Position, Components: 3, Float: pos, Bits: 14},
		{Kind: draco.Normal, Components: 3, Float: nrm, Bits: 10, Octahedral: true},
		{Kind: draco.TexCoord, Components: 2, Float: uv, Bits: 12},
	}}
}

// seamed is a UV sphere whose texture wraps: the points of its first
// column are repeated at u = 1 (a texture seam down the side), the poles
// once per column (a seam at every pole triangle).
func seamed(rings, segs int) draco.Mesh {
	var pos, uv []float32
	at := map[[2]int]uint32{}
	point := func(r, s int) uint32 {
		if r == 0 || r == rings {
			s = s % segs * 1000 // a pole: one point per column
		}
		if p, ok := at[[2]int{r, s}]; ok {
			return p
		}
		th := math.Pi * float64(r) / float64(rings)
		ph := 2 * math.Pi * float64(s%segs) / float64(segs)
		pos = append(pos, float32(math.Sin(th)*math.Cos(ph)), float32(math.Cos(th)), float32(math.Sin(th)*math.Sin(ph)))
		uv = append(uv, float32(s)/float32(segs), float32(r)/float32(rings))
		at[[2]int{r, s}] = uint32(len(uv)/2 - 1)
		return at[[2]int{r, s}]
	}
	var idx []uint32
	for s := 0; s < segs; s++ {
		for r := 0; r < rings; r++ {
			a, b, c, d := point(r, s), point(r, s+1), point(r+1, s), point(r+1, s+1)
			if r > 0 {
				idx = append(idx, a, b, c)
			}
			if r < rings-1 {
				idx = append(idx, c, b, d)
			}
		}
	}
	return draco.Mesh{Indices: idx, Points: len(uv) / 2, Attributes: []draco.Attribute{
		{Kind: draco.Position, Components: 3, Float: pos, Bits: 14},
		{Kind: draco.TexCoord, Components: 2, Float: uv, Bits: 12},
	}}
}

// withoutFaces drops the faces whose index is in drop: holes in the
// surface (their points stay used by the faces around them).
func withoutFaces(m draco.Mesh, drop ...int) draco.Mesh {
	var idx []uint32
	for f := 0; f < len(m.Indices)/3; f++ {
		if !slices.Contains(drop, f) {
			idx = append(idx, m.Indices[3*f:3*f+3]...)
		}
	}
	m.Indices = idx
	return m
}

// joined puts meshes side by side in one (several components).
func joined(ms ...draco.Mesh) draco.Mesh {
	out := draco.Mesh{Attributes: slices.Clone(ms[0].Attributes)}
	for i := range out.Attributes {
		out.Attributes[i].Float, out.Attributes[i].Int = nil, nil
	}
	for _, m := range ms {
		for _, idx := range m.Indices {
			out.Indices = append(out.Indices, idx+uint32(out.Points))
		}
		out.Points += m.Points
		for i, a := range m.Attributes {
			out.Attributes[i].Float = append(out.Attributes[i].Float, a.Float...)
			out.Attributes[i].Int = append(out.Attributes[i].Int, a.Int...)
		}
	}
	return out
}

// positions is a mesh of positions alone.
func positions(pos []float32, idx ...uint32) draco.Mesh {
	return draco.Mesh{Indices: idx, Points: len(pos) / 3, Attributes: []draco.Attribute{
		{Kind: draco.Position, Components: 3, Float: pos, Bits: 12}}}
}

// Edgebreaker streams decode in Google's decoder to the same triangles
// with the same winding (compared by the values of their corners, since
// the decoder numbers points its own way), every point's attributes as
// the sequential stream would give them, and at least as small as the
// sequential stream on the meshes it is meant for.
func TestEdgebreakerGoogleDecodes(t *testing.T) {
	tetra := []float32{0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1}
	tetraIdx := []uint32{0, 2, 1, 0, 1, 3, 1, 2, 3, 0, 3, 2}
	// Two tetrahedra sharing vertex 0 (a non-manifold vertex), and three
	// triangles on one edge (a non-manifold edge).
	bowtie := append(slices.Clone(tetra), -1, 0, 0, 0, -1, 0, 0, 0, -1)
	bowtieIdx := append(slices.Clone(tetraIdx), 0, 5, 4, 0, 4, 6, 4, 5, 6, 0, 6, 5)
	fin := []float32{0, 0, 0, 1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1}
	g := grid(30, 20)
	cases := []struct {
		name        string
		mesh        draco.Mesh
		edgebreaker bool // the smaller stream must be edgebreaker's
		seams       bool // ... with connectivity per attribute
	}{
		{"closed sphere", sphere(12, 16), true, false},
		{"closed tetrahedron", positions(tetra, tetraIdx...), false, false},
		{"open grid", g, true, false},
		{"grid with holes", withoutFaces(g, 100, 101, 102, 161, 162, 300, 301, 331), true, false},
		{"sphere with a hole", withoutFaces(sphere(10, 12), 30, 31, 32, 33), true, false},
		{"non-manifold vertex", positions(bowtie, bowtieIdx...), false, false},
		{"non-manifold edge", positions(fin, 0, 1, 2, 1, 0, 3, 0, 1, 4), false, false},
		{"degenerate triangles", positions(tetra, 0, 2, 1, 0, 1, 1, 0, 1, 3, 1, 2, 3, 2, 2, 2, 0, 3, 2), false, false},
		{"several components", joined(sphere(8, 10), sphere(6, 7), sphere(9, 5)), true, false},
		{"large grid", grid(150, 120), true, false},
		{"cube of split corners", cube(), true, true},
		{"sphere with texture seams", seamed(30, 40), true, true},
	}
	var streams [][]byte
	var points []int
	for _, c := range cases {
		b, n, err := draco.EncodeReordered(c.mesh)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		seq, err := draco.Encode(c.mesh)
		if err != nil {
			t.Fatal(err)
		}
		isEB := b[8] == 1
		if c.edgebreaker && !isEB {
			t.Errorf("%s: sequential chosen (%d bytes)", c.name, len(b))
		}
		if isEB && c.seams != (attributeData(b) > 0) {
			t.Errorf("%s: %d attribute connectivities", c.name, attributeData(b))
		}
		if len(b) > len(seq) {
			t.Errorf("%s: %d bytes, sequential %d", c.name, len(b), len(seq))
		}
		t.Logf("%s: %d triangles, %d bytes (edgebreaker %v), sequential %d", c.name, len(c.mesh.Indices)/3, len(b), isEB, len(seq))
		streams = append(streams, b)
		points = append(points, n)
	}
	for i, got := range dracotest.Decode(t, streams...) {
		c := cases[i]
		if got.Error != "" {
			t.Errorf("%s: %s", c.name, got.Error)
			continue
		}
		if got.Points != points[i] {
			t.Errorf("%s: %d points decoded, encoder said %d", c.name, got.Points, points[i])
		}
		want := pointKeys(c.mesh)
		have := make([]string, got.Points)
		for p := range have {
			have[p] = decodedKey(got, c.mesh, p)
		}
		if w, h := triangleSet(c.mesh.Indices, want), triangleSet(got.Indices, have); !slices.Equal(w, h) {
			t.Errorf("%s: decoded triangles differ (%d against %d)", c.name, len(h), len(w))
		}
		// Normals: within the octahedral grid's spacing of the input's.
		for j, a := range c.mesh.Attributes {
			if !a.Octahedral {
				continue
			}
			byKey := map[string][]float32{}
			for p := 0; p < c.mesh.Points; p++ {
				byKey[want[p]] = a.Float[3*p : 3*p+3]
			}
			tol := 2.5 / float64(int(1)<<(a.Bits-1)-1)
			for p := 0; p < got.Points; p++ {
				in, dec := byKey[have[p]], got.Attributes[j].Values[3*p:3*p+3]
				for k := range 3 {
					if math.Abs(float64(in[k]-dec[k])) > tol {
						t.Fatalf("%s: normal %v decoded as %v", c.name, in, dec)
					}
				}
			}
		}
	}
}

// attributeData reads an edgebreaker stream's number of attribute
// connectivities (after the header, the traversal type, the vertex and
// face counts).
func attributeData(b []byte) int {
	i := 12
	for range 2 {
		for b[i] >= 0x80 {
			i++
		}
		i++
	}
	return int(b[i])
}

// pointKeys names each input point by its attributes as the decoder
// gives them back (floats dequantized, integers as they are), normals
// left out (compared apart, within tolerance).
func pointKeys(m draco.Mesh) []string {
	keys := make([]string, m.Points)
	for _, a := range m.Attributes {
		if a.Octahedral {
			continue
		}
		var v []float32
		if a.Float != nil {
			v = draco.Dequantized(a.Float, a.Components, a.Bits)
		} else {
			for _, x := range a.Int {
				v = append(v, float32(x))
			}
		}
		for p := range keys {
			keys[p] += fmt.Sprint(v[p*a.Components:(p+1)*a.Components], ";")
		}
	}
	return keys
}

func decodedKey(got dracotest.Mesh, m draco.Mesh, p int) string {
	var b strings.Builder
	for j, a := range m.Attributes {
		if a.Octahedral {
			continue
		}
		fmt.Fprint(&b, got.Attributes[j].Values[p*a.Components:(p+1)*a.Components], ";")
	}
	return b.String()
}

// triangleSet lists the non-degenerate triangles by their corners' keys,
// each started at its smallest key (winding kept), sorted.
func triangleSet(idx []uint32, keys []string) []string {
	var out []string
	for i := 0; i+2 < len(idx); i += 3 {
		a, b, c := idx[i], idx[i+1], idx[i+2]
		if a == b || b == c || a == c {
			continue
		}
		k := [3]string{keys[a], keys[b], keys[c]}
		r := 0
		for j := 1; j < 3; j++ {
			if k[j] < k[r] {
				r = j
			}
		}
		out = append(out, k[r]+"|"+k[(r+1)%3]+"|"+k[(r+2)%3])
	}
	slices.Sort(out)
	return out
}

// Random surfaces: spheres, grids and cubes side by side, with random
// faces removed (holes, loose pieces, vertices where faces meet only at a
// point) and random texture seams (points repeated with another texture
// coordinate), each coded by EncodeReordered and read back by Google's
// decoder to the same triangles.
func TestEdgebreakerRandomSurfaces(t *testing.T) {
	var cases []draco.Mesh
	r := rand.New(rand.NewSource(21))
	for i := 0; i < 24; i++ {
		parts := []draco.Mesh{sphere(4+r.Intn(8), 5+r.Intn(9)), withUV(grid(3+r.Intn(20), 2+r.Intn(15))), cube()}
		r.Shuffle(len(parts), func(a, b int) { parts[a], parts[b] = parts[b], parts[a] })
		m := joined(trimAttributes(parts[:1+r.Intn(3)])...)
		var drop []int
		for f := 0; f < len(m.Indices)/3; f++ {
			if r.Float64() < 0.15*float64(i%4)/3 {
				drop = append(drop, f)
			}
		}
		m = withoutFaces(m, drop...)
		m = compact(m)
		if i%2 == 1 {
			m = compact(splitSeams(m, r))
		}
		if len(m.Indices) > 0 {
			cases = append(cases, m)
		}
	}
	var streams [][]byte
	var points []int
	var kinds [3]int
	for _, m := range cases {
		b, n, err := draco.EncodeReordered(m)
		if err != nil {
			t.Fatal(err)
		}
		streams = append(streams, b)
		points = append(points, n)
		switch {
		case b[8] == 0:
			kinds[0]++
		case attributeData(b) == 0:
			kinds[1]++
		default:
			kinds[2]++
		}
	}
	// Both edgebreaker codings are among them.
	if kinds[1] == 0 || kinds[2] == 0 {
		t.Errorf("sequential, edgebreaker, with seams: %v", kinds)
	}
	for i, got := range dracotest.Decode(t, streams...) {
		m := cases[i]
		if got.Error != "" {
			t.Errorf("mesh %d (method %d, %d faces, %d points, %d bytes): %s", i, streams[i][8], len(m.Indices)/3, m.Points, len(streams[i]), got.Error)
			continue
		}
		want := pointKeys(m)
		have := make([]string, got.Points)
		for p := range have {
			have[p] = decodedKey(got, m, p)
		}
		if got.Points != points[i] {
			t.Errorf("mesh %d: %d points decoded, encoder said %d", i, got.Points, points[i])
		}
		if w, h := triangleSet(m.Indices, want), triangleSet(got.Indices, have); !slices.Equal(w, h) {
			t.Errorf("mesh %d (method %d): decoded triangles differ (%d against %d)", i, streams[i][8], len(h), len(w))
		}
	}
}

// withUV gives a grid's attributes as position and texture coordinates.
func withUV(m draco.Mesh) draco.Mesh {
	m.Attributes = []draco.Attribute{m.Attributes[0], m.Attributes[2]}
	return m
}

// trimAttributes keeps the position and a texture coordinate (made up
// from the position where a mesh has none), so meshes can be joined.
func trimAttributes(ms []draco.Mesh) []draco.Mesh {
	out := make([]draco.Mesh, len(ms))
	for i, m := range ms {
		var uv []float32
		for _, a := range m.Attributes {
			if a.Kind == draco.TexCoord {
				uv = a.Float
			}
		}
		if uv == nil {
			for p := 0; p < m.Points; p++ {
				uv = append(uv, m.Attributes[0].Float[3*p]*0.3, m.Attributes[0].Float[3*p+2]*0.3)
			}
		}
		m.Attributes = []draco.Attribute{m.Attributes[0], {Kind: draco.TexCoord, Components: 2, Float: uv, Bits: 12}}
		out[i] = m
	}
	return out
}

// compact drops the points no triangle uses.
func compact(m draco.Mesh) draco.Mesh {
	remap := make([]int, m.Points)
	for i := range remap {
		remap[i] = -1
	}
	var keep []int
	for i, idx := range m.Indices {
		if remap[idx] < 0 {
			remap[idx] = len(keep)
			keep = append(keep, int(idx))
		}
		m.Indices[i] = uint32(remap[idx])
	}
	out := draco.Mesh{Indices: m.Indices, Points: len(keep)}
	for _, a := range m.Attributes {
		b := a
		b.Float, b.Int = nil, nil
		for _, p := range keep {
			if a.Float != nil {
				b.Float = append(b.Float, a.Float[p*a.Components:(p+1)*a.Components]...)
			} else {
				b.Int = append(b.Int, a.Int[p*a.Components:(p+1)*a.Components]...)
			}
		}
		out.Attributes = append(out.Attributes, b)
	}
	return out
}

// splitSeams gives a random third of the triangles their own copies of
// their points with shifted texture coordinates: texture seams around
// them, positions shared.
func splitSeams(m draco.Mesh, r *rand.Rand) draco.Mesh {
	for f := 0; f < len(m.Indices)/3; f++ {
		if r.Intn(3) != 0 {
			continue
		}
		for k := 0; k < 3; k++ {
			p := int(m.Indices[3*f+k])
			for i, a := range m.Attributes {
				v := append([]float32(nil), a.Float[p*a.Components:(p+1)*a.Components]...)
				if a.Kind == draco.TexCoord {
					v[0] += 0.5
				}
				m.Attributes[i].Float = append(m.Attributes[i].Float, v...)
			}
			m.Indices[3*f+k] = uint32(m.Points)
			m.Points++
		}
	}
	return m
}
