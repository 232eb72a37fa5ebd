// Package simplifytest makes meshes for the tests and benchmarks of package
// simplify and for the comparison with meshoptimizer in
// bench/simplify-vs-meshopt: generated shapes with seams and borders, the
// Stanford bunny read from the shared test data, and midpoint subdivision
// to make large meshes from it. Both the benchmarks and the comparison use
// these functions, so that they measure the same meshes.
package simplifytest

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// BunnyPath returns where the Stanford bunny of the shared test data is:
// shared/testdata/bunny.obj beside the repository root (the directory that
// holds go.mod, found from the working directory upwards). The file may be
// absent, as in a user's fresh clone; callers skip then.
func BunnyPath() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "..", "shared", "testdata", "bunny.obj"), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("simplifytest: no go.mod above the working directory")
		}
		dir = parent
	}
}

// LoadOBJ reads the positions and faces of a Wavefront OBJ file; faces with
// more than three corners become fans. Texture coordinates, normals and
// everything else are ignored.
func LoadOBJ(path string) (indices []uint32, positions []float32, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	return ReadOBJ(f)
}

// ReadOBJ is LoadOBJ on a reader.
func ReadOBJ(r io.Reader) (indices []uint32, positions []float32, err error) {
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		switch fields[0] {
		case "v":
			if len(fields) < 4 {
				return nil, nil, fmt.Errorf("line %d: a vertex needs 3 coordinates", line)
			}
			for _, s := range fields[1:4] {
				v, err := strconv.ParseFloat(s, 32)
				if err != nil {
					return nil, nil, fmt.Errorf("line %d: %v", line, err)
				}
				positions = append(positions, float32(v))
			}
		case "f":
			if len(fields) < 4 {
				return nil, nil, fmt.Errorf("line %d: a face needs 3 corners", line)
			}
			corners := make([]uint32, 0, len(fields)-1)
			for _, s := range fields[1:] {
				s, _, _ = strings.Cut(s, "/")
				i, err := strconv.Atoi(s)
				if err != nil {
					return nil, nil, fmt.Errorf("line %d: %v", line, err)
				}
				nv := len(positions) / 3
				if i < 0 {
					i += nv + 1
				}
				if i < 1 || i > nv {
					return nil, nil, fmt.Errorf("line %d: vertex %s does not exist", line, s)
				}
				corners = append(corners, uint32(i-1))
			}
			for k := 1; k+1 < len(corners); k++ {
				indices = append(indices, corners[0], corners[k], corners[k+1])
			}
		}
	}
	return indices, positions, sc.Err()
}

// Subdivide splits every triangle into four at the midpoints of its edges;
// the midpoint of an edge is shared by the two triangles on either side, so
// a closed mesh stays closed. New vertices come after the old ones.
// Midpoints are found through per-vertex edge lists rather than a map, so
// that four subdivisions of the bunny (7 M triangles) take seconds.
func Subdivide(indices []uint32, positions []float32) ([]uint32, []float32) {
	nv := len(positions) / 3
	// edges grouped by their lower vertex
	start := make([]uint32, nv+1)
	for i := 0; i < len(indices); i += 3 {
		for e := 0; e < 3; e++ {
			a, b := indices[i+e], indices[i+(e+1)%3]
			start[min(a, b)+1]++
		}
	}
	for v := 0; v < nv; v++ {
		start[v+1] += start[v]
	}
	fill := make([]uint32, nv)
	other := make([]uint32, len(indices))
	mid := make([]uint32, len(indices))
	for i := 0; i < len(indices); i += 3 {
		for e := 0; e < 3; e++ {
			a, b := indices[i+e], indices[i+(e+1)%3]
			lo, hi := min(a, b), max(a, b)
			other[start[lo]+fill[lo]] = hi
			fill[lo]++
		}
	}
	out := append([]float32(nil), positions...)
	next := uint32(nv)
	for lo := 0; lo < nv; lo++ {
		list := other[start[lo]:start[lo+1]]
		mids := mid[start[lo]:start[lo+1]]
	edges:
		for k, hi := range list {
			for j := 0; j < k; j++ {
				if list[j] == hi {
					mids[k] = mids[j]
					continue edges
				}
			}
			mids[k] = next
			next++
			for c := 0; c < 3; c++ {
				out = append(out, (positions[3*lo+c]+positions[3*int(hi)+c])*0.5)
			}
		}
	}
	midOf := func(a, b uint32) uint32 {
		lo, hi := min(a, b), max(a, b)
		for k := start[lo]; k < start[lo+1]; k++ {
			if other[k] == hi {
				return mid[k]
			}
		}
		panic("simplifytest: edge not found")
	}
	res := make([]uint32, 0, 4*len(indices))
	for i := 0; i < len(indices); i += 3 {
		a, b, c := indices[i], indices[i+1], indices[i+2]
		ab, bc, ca := midOf(a, b), midOf(b, c), midOf(c, a)
		res = append(res, a, ab, ca, ab, b, bc, ca, bc, c, ab, bc, ca)
	}
	return res, out
}

// Mesh is a generated mesh: AttrStride floats of attributes per vertex.
type Mesh struct {
	Indices    []uint32
	Positions  []float32
	Attributes []float32
	AttrStride int
}

// UVSphere is a latitude-longitude sphere of radius 1 with normals and
// texture coordinates (stride 5: nx ny nz u v). As in any exported UV
// sphere, the first meridian is duplicated (u = 0 and u = 1: a UV seam) and
// each pole has one vertex per segment.
func UVSphere(segments, rings int) Mesh {
	var m Mesh
	m.AttrStride = 5
	for r := 0; r <= rings; r++ {
		theta := math.Pi * float64(r) / float64(rings)
		for s := 0; s <= segments; s++ {
			phi := 2 * math.Pi * float64(s) / float64(segments)
			if s == segments {
				phi = 0 // exactly the same position as s == 0
			}
			x := float32(math.Sin(theta) * math.Cos(phi))
			y := float32(math.Cos(theta))
			z := float32(math.Sin(theta) * math.Sin(phi))
			if r == 0 || r == rings {
				x, z = 0, 0
			}
			m.Positions = append(m.Positions, x, y, z)
			m.Attributes = append(m.Attributes, x, y, z, float32(s)/float32(segments), float32(r)/float32(rings))
		}
	}
	row := uint32(segments + 1)
	for r := 0; r < rings; r++ {
		for s := 0; s < segments; s++ {
			a := uint32(r)*row + uint32(s)
			b, c, d := a+1, a+row, a+row+1
			if r != 0 {
				m.Indices = append(m.Indices, a, b, c)
			}
			if r != rings-1 {
				m.Indices = append(m.Indices, b, d, c)
			}
		}
	}
	return m
}

// HardCube is a cube of side 2 whose faces are n x n grids of quads with
// their own vertices and a flat normal (stride 3), as exported with hard
// edges: the cube's edges are normal seams and its corners have three
// wedges.
func HardCube(n int) Mesh {
	var m Mesh
	m.AttrStride = 3
	faces := [6][3][3]float32{ // normal, u axis, v axis
		{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
		{{-1, 0, 0}, {0, 0, 1}, {0, 1, 0}},
		{{0, 1, 0}, {0, 0, 1}, {1, 0, 0}},
		{{0, -1, 0}, {1, 0, 0}, {0, 0, 1}},
		{{0, 0, 1}, {1, 0, 0}, {0, 1, 0}},
		{{0, 0, -1}, {0, 1, 0}, {1, 0, 0}},
	}
	for _, f := range faces {
		nrm, u, v := f[0], f[1], f[2]
		base := uint32(len(m.Positions) / 3)
		for j := 0; j <= n; j++ {
			for i := 0; i <= n; i++ {
				su := 2*float32(i)/float32(n) - 1
				sv := 2*float32(j)/float32(n) - 1
				for c := 0; c < 3; c++ {
					m.Positions = append(m.Positions, nrm[c]+su*u[c]+sv*v[c])
				}
				m.Attributes = append(m.Attributes, nrm[0], nrm[1], nrm[2])
			}
		}
		row := uint32(n + 1)
		for j := 0; j < n; j++ {
			for i := 0; i < n; i++ {
				a := base + uint32(j)*row + uint32(i)
				m.Indices = append(m.Indices, a, a+1, a+row+1, a, a+row+1, a+row)
			}
		}
	}
	return m
}

// Terrain is an n x n grid of quads over the unit square with a smooth
// height field and no attributes: a surface with an open border.
func Terrain(n int) Mesh {
	var m Mesh
	for j := 0; j <= n; j++ {
		for i := 0; i <= n; i++ {
			x, y := float64(i)/float64(n), float64(j)/float64(n)
			z := 0.1*math.Sin(3*x)*math.Cos(2*y) + 0.05*math.Sin(7*x+5*y)
			m.Positions = append(m.Positions, float32(x), float32(y), float32(z))
		}
	}
	row := uint32(n + 1)
	for j := 0; j < n; j++ {
		for i := 0; i < n; i++ {
			a := uint32(j)*row + uint32(i)
			m.Indices = append(m.Indices, a, a+1, a+row+1, a, a+row+1, a+row)
		}
	}
	return m
}

// FacetedSphere is an icosahedron subdivided levels times, projected on the
// unit sphere and flat shaded: every triangle has three vertices of its own
// with the face normal (stride 3), so every position has about six wedges
// and no edge collapse keeps all of them apart. It is the hard case of the
// permissive mode.
func FacetedSphere(levels int) Mesh {
	t := float32((1 + math.Sqrt(5)) / 2)
	pos := []float32{
		-1, t, 0, 1, t, 0, -1, -t, 0, 1, -t, 0,
		0, -1, t, 0, 1, t, 0, -1, -t, 0, 1, -t,
		t, 0, -1, t, 0, 1, -t, 0, -1, -t, 0, 1,
	}
	idx := []uint32{
		0, 11, 5, 0, 5, 1, 0, 1, 7, 0, 7, 10, 0, 10, 11,
		1, 5, 9, 5, 11, 4, 11, 10, 2, 10, 7, 6, 7, 1, 8,
		3, 9, 4, 3, 4, 2, 3, 2, 6, 3, 6, 8, 3, 8, 9,
		4, 9, 5, 2, 4, 11, 6, 2, 10, 8, 6, 7, 9, 8, 1,
	}
	for l := 0; l < levels; l++ {
		idx, pos = Subdivide(idx, pos)
	}
	for i := 0; i < len(pos); i += 3 {
		l := float32(math.Sqrt(float64(pos[i]*pos[i] + pos[i+1]*pos[i+1] + pos[i+2]*pos[i+2])))
		pos[i], pos[i+1], pos[i+2] = pos[i]/l, pos[i+1]/l, pos[i+2]/l
	}
	var m Mesh
	m.AttrStride = 3
	for i := 0; i < len(idx); i += 3 {
		var p [3][3]float32
		for c := 0; c < 3; c++ {
			copy(p[c][:], pos[3*idx[i+c]:3*idx[i+c]+3])
		}
		e1 := [3]float32{p[1][0] - p[0][0], p[1][1] - p[0][1], p[1][2] - p[0][2]}
		e2 := [3]float32{p[2][0] - p[0][0], p[2][1] - p[0][1], p[2][2] - p[0][2]}
		n := [3]float32{e1[1]*e2[2] - e1[2]*e2[1], e1[2]*e2[0] - e1[0]*e2[2], e1[0]*e2[1] - e1[1]*e2[0]}
		l := float32(math.Sqrt(float64(n[0]*n[0] + n[1]*n[1] + n[2]*n[2])))
		for c := 0; c < 3; c++ {
			m.Indices = append(m.Indices, uint32(len(m.Positions)/3))
			m.Positions = append(m.Positions, p[c][:]...)
			m.Attributes = append(m.Attributes, n[0]/l, n[1]/l, n[2]/l)
		}
	}
	return m
}
