package simplify_test

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/kilnhq/kiln/assets/simplify"
	"github.com/kilnhq/kiln/assets/simplify/simplifytest"
)

// Attribute weights for the generated meshes: normals count half as much as
// texture coordinates, as the scene code will pass them.
var (
	normalUVWeights = []float32{0.5, 0.5, 0.5, 1, 1}
	normalWeights   = []float32{0.5, 0.5, 0.5}
)

func generated(g simplifytest.Mesh, weights []float32) simplify.Mesh {
	return simplify.Mesh{
		Indices: g.Indices, Positions: g.Positions,
		Attributes: g.Attributes, AttrStride: g.AttrStride, AttrWeights: weights,
	}
}

func TestSimplify(t *testing.T) {
	tests := []struct {
		name     string
		mesh     func(testing.TB) simplify.Mesh
		opt      simplify.Options
		minRatio float32 // the result keeps at least this fraction...
		maxRatio float32 // ...and at most this one
		flat     bool    // flat faces: simplifying them costs no error
	}{
		{"sphere with a UV seam 50%", uvSphere, simplify.Options{TargetRatio: 0.5}, 0.45, 0.5, false},
		{"sphere with a UV seam 25%", uvSphere, simplify.Options{TargetRatio: 0.25}, 0.2, 0.25, false},
		{"sphere with a UV seam, bounded", uvSphere, simplify.Options{TargetRatio: 0.25, MaxError: 1e-2}, 0.2, 0.6, false},
		{"cube with hard normals 50%", hardCube, simplify.Options{TargetRatio: 0.5}, 0.45, 0.5, true},
		{"cube with hard normals 10%", hardCube, simplify.Options{TargetRatio: 0.1}, 0.05, 0.1, true},
		{"terrain with a border 25%", terrain, simplify.Options{TargetRatio: 0.25}, 0.2, 0.25, false},
		{"terrain with locked border 25%", terrain, simplify.Options{TargetRatio: 0.25, LockBorder: true}, 0.2, 0.25, false},
		{"large terrain 10%", largeTerrain, simplify.Options{TargetRatio: 0.1, MaxError: 1e-2}, 0.09, 0.1, false},
		{"bunny 50%", bunny, simplify.Options{TargetRatio: 0.5, MaxError: 1e-2}, 0.48, 0.5, false},
		{"bunny 25%", bunny, simplify.Options{TargetRatio: 0.25, MaxError: 1e-2}, 0.23, 0.25, false},
		{"bunny bounded by 1e-3", bunny, simplify.Options{TargetRatio: 0.01, MaxError: 1e-3}, 0.05, 0.5, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := tt.mesh(t)
			res, err := simplify.Simplify(m, tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			src, got := len(m.Indices)/3, len(res.Indices)/3
			ratio := float32(got) / float32(src)
			t.Logf("%d -> %d triangles (%.3f), error %.3g", src, got, ratio, res.Error)
			if ratio < tt.minRatio || ratio > tt.maxRatio {
				t.Errorf("kept %.3f of the triangles, want [%v, %v]", ratio, tt.minRatio, tt.maxRatio)
			}
			if tt.opt.MaxError > 0 && res.Error > tt.opt.MaxError {
				t.Errorf("error %v over the bound %v", res.Error, tt.opt.MaxError)
			}
			if !(res.Error >= 0) || res.Error > 0.2 || !tt.flat && res.Error == 0 {
				t.Errorf("reported error %v: a simplified curved mesh has some error, and not that much", res.Error)
			}
			checkResult(t, m, res.Indices)
			checkOrientation(t, m, res.Indices)
			if m.AttrStride > 0 {
				checkSeams(t, m, res.Indices)
			}
			if tt.opt.LockBorder {
				checkBorderKept(t, m, res.Indices)
			}
		})
	}
}

func uvSphere(testing.TB) simplify.Mesh {
	return generated(simplifytest.UVSphere(64, 32), normalUVWeights)
}

func hardCube(testing.TB) simplify.Mesh {
	return generated(simplifytest.HardCube(16), normalWeights)
}

func terrain(testing.TB) simplify.Mesh {
	return generated(simplifytest.Terrain(48), nil)
}

// largeTerrain has enough triangles (80,000) for the parallel phases.
func largeTerrain(testing.TB) simplify.Mesh {
	return generated(simplifytest.Terrain(200), nil)
}

// checkResult checks what every result must satisfy: whole triangles,
// indices in range, only vertices the source used (no new vertex), no
// triangle with two corners at one position.
func checkResult(t *testing.T, m simplify.Mesh, out []uint32) {
	t.Helper()
	if len(out)%3 != 0 {
		t.Fatalf("%d indices", len(out))
	}
	used := map[uint32]bool{}
	for _, v := range m.Indices {
		used[v] = true
	}
	nv := uint32(len(m.Positions) / 3)
	for i, v := range out {
		if v >= nv {
			t.Fatalf("index %d out of range", v)
		}
		if !used[v] {
			t.Fatalf("index %d: vertex %d is not used by the source", i, v)
		}
	}
	for i := 0; i < len(out); i += 3 {
		a, b, c := pos(m, out[i]), pos(m, out[i+1]), pos(m, out[i+2])
		if a == b || b == c || c == a {
			t.Fatalf("triangle %d has two corners at one position", i/3)
		}
	}
}

type vec [3]float64

func pos(m simplify.Mesh, v uint32) vec {
	return vec{float64(m.Positions[3*v]), float64(m.Positions[3*v+1]), float64(m.Positions[3*v+2])}
}

func sub(a, b vec) vec     { return vec{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
func dot(a, b vec) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
func cross(a, b vec) vec {
	return vec{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

func normal(m simplify.Mesh, a, b, c uint32) vec {
	pa := pos(m, a)
	return cross(sub(pos(m, b), pa), sub(pos(m, c), pa))
}

// checkOrientation checks that no result triangle faces away from the source
// surface: its normal is compared with the average of the source normals at
// its corners (area-weighted over all triangles at each corner's position).
// A flip turns a triangle by more than 90 degrees, most often close to 180;
// a cosine below -0.25 fails. Slivers standing on edge (cosine near 0, a
// thin triangle whose three corners ended up on one line of the surface,
// such as a UV seam meridian next to a pole) are tolerated up to 1% of the
// triangles, as meshoptimizer's simplifier leaves them too.
func checkOrientation(t *testing.T, m simplify.Mesh, out []uint32) {
	t.Helper()
	vn := map[vec]vec{}
	for i := 0; i < len(m.Indices); i += 3 {
		n := normal(m, m.Indices[i], m.Indices[i+1], m.Indices[i+2])
		for _, v := range m.Indices[i : i+3] {
			p := pos(m, v)
			s := vn[p]
			vn[p] = vec{s[0] + n[0], s[1] + n[1], s[2] + n[2]}
		}
	}
	flipped, slivers := 0, 0
	for i := 0; i < len(out); i += 3 {
		n := normal(m, out[i], out[i+1], out[i+2])
		var avg vec
		for _, v := range out[i : i+3] {
			s := vn[pos(m, v)]
			avg = vec{avg[0] + s[0], avg[1] + s[1], avg[2] + s[2]}
		}
		cos := dot(n, avg) / math.Sqrt(dot(n, n)*dot(avg, avg))
		switch {
		case cos < -0.25:
			flipped++
		case cos < 0.25:
			slivers++
		}
	}
	if flipped > 0 {
		t.Errorf("%d of %d triangles face away from the source surface", flipped, len(out)/3)
	}
	if slivers > len(out)/3/100 {
		t.Errorf("%d of %d triangles stand on edge", slivers, len(out)/3)
	}
}

// checkSeams checks that attribute seams survived: the corners of a result
// triangle must be wedges that belong together. On the generated meshes that
// means one flat normal per triangle on the hard cube, and no triangle
// reaching across the UV seam of the sphere (u jumping by more than half).
func checkSeams(t *testing.T, m simplify.Mesh, out []uint32) {
	t.Helper()
	attr := func(v uint32) []float32 { return m.Attributes[int(v)*m.AttrStride : int(v+1)*m.AttrStride] }
	bad := 0
	for i := 0; i < len(out); i += 3 {
		a, b, c := attr(out[i]), attr(out[i+1]), attr(out[i+2])
		switch m.AttrStride {
		case 3: // hard cube: the three normals must be the same
			for k := 0; k < 3; k++ {
				if a[k] != b[k] || b[k] != c[k] {
					bad++
					break
				}
			}
		case 5: // sphere: u is attribute 3
			if math.Abs(float64(a[3]-b[3])) > 0.5 || math.Abs(float64(b[3]-c[3])) > 0.5 || math.Abs(float64(c[3]-a[3])) > 0.5 {
				bad++
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d triangles cross an attribute seam", bad)
	}
}

// borderVertices returns the vertices on open edges of the source.
func borderVertices(m simplify.Mesh) map[uint32]bool {
	edges := map[[2]uint32]int{}
	for i := 0; i < len(m.Indices); i += 3 {
		for e := 0; e < 3; e++ {
			a, b := m.Indices[i+e], m.Indices[i+(e+1)%3]
			edges[[2]uint32{min(a, b), max(a, b)}]++
		}
	}
	border := map[uint32]bool{}
	for e, n := range edges {
		if n == 1 {
			border[e[0]], border[e[1]] = true, true
		}
	}
	return border
}

func checkBorderKept(t *testing.T, m simplify.Mesh, out []uint32) {
	t.Helper()
	used := map[uint32]bool{}
	for _, v := range out {
		used[v] = true
	}
	missing := 0
	for v := range borderVertices(m) {
		if !used[v] {
			missing++
		}
	}
	if missing > 0 {
		t.Errorf("%d border vertices were removed despite LockBorder", missing)
	}
}

// TestLockBorderBetweenMaterials splits a terrain into two primitives, as
// two materials would, and simplifies each on its own: with LockBorder the
// vertices of their common border stay, in both, so no crack opens; without
// it (the control) the two sides drop different vertices.
func TestLockBorderBetweenMaterials(t *testing.T) {
	g := simplifytest.Terrain(40)
	var left, right []uint32
	for i := 0; i < len(g.Indices); i += 3 {
		x := (g.Positions[3*g.Indices[i]] + g.Positions[3*g.Indices[i+1]] + g.Positions[3*g.Indices[i+2]]) / 3
		if x < 0.5 {
			left = append(left, g.Indices[i:i+3]...)
		} else {
			right = append(right, g.Indices[i:i+3]...)
		}
	}
	var shared []uint32 // the vertices on x = 0.5
	for v := 0; v < len(g.Positions)/3; v++ {
		if g.Positions[3*v] == 0.5 {
			shared = append(shared, uint32(v))
		}
	}
	if len(shared) != 41 {
		t.Fatalf("%d shared vertices, want 41", len(shared))
	}
	keptOn := func(lockBorder bool) (l, r map[uint32]bool) {
		sets := [2]map[uint32]bool{{}, {}}
		for k, idx := range [2][]uint32{left, right} {
			m := simplify.Mesh{Indices: idx, Positions: g.Positions}
			res, err := simplify.Simplify(m, simplify.Options{TargetRatio: 0.2, LockBorder: lockBorder})
			if err != nil {
				t.Fatal(err)
			}
			checkResult(t, m, res.Indices)
			checkOrientation(t, m, res.Indices)
			if lockBorder {
				checkBorderKept(t, m, res.Indices)
			}
			for _, v := range res.Indices {
				sets[k][v] = true
			}
		}
		return sets[0], sets[1]
	}
	l, r := keptOn(true)
	for _, v := range shared {
		if !l[v] || !r[v] {
			t.Errorf("shared vertex %d: kept left %v, right %v", v, l[v], r[v])
		}
	}
	l, r = keptOn(false)
	differ := 0
	for _, v := range shared {
		if l[v] != r[v] {
			differ++
		}
	}
	if differ == 0 {
		t.Errorf("without LockBorder both sides kept the same border vertices: the test would not see a crack")
	}
}

// TestLockedVertices locks every 37th vertex of a UV sphere: each locked
// position must stay in the result. (A single wedge may lose its
// triangles: the poles have one wedge per triangle, and the triangles of a
// pole shrink when their ring collapses onto it.)
func TestLockedVertices(t *testing.T) {
	m := uvSphere(t)
	m.Locked = make([]bool, len(m.Positions)/3)
	for v := 0; v < len(m.Locked); v += 37 {
		m.Locked[v] = true
	}
	res, err := simplify.Simplify(m, simplify.Options{TargetRatio: 0.2})
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, m, res.Indices)
	kept := map[vec]bool{}
	for _, v := range res.Indices {
		kept[pos(m, v)] = true
	}
	for v, l := range m.Locked {
		if l && !kept[pos(m, uint32(v))] {
			t.Errorf("locked vertex %d: its position is gone", v)
		}
	}
}

// TestPermissive uses a flat-shaded sphere: every position has six wedges,
// so no collapse keeps the normals apart and the strict simplifier cannot
// move at all. Permissive must still reach lod 2's 30% (at a 25% target).
func TestPermissive(t *testing.T) {
	m := generated(simplifytest.FacetedSphere(3), normalWeights)
	src := len(m.Indices) / 3

	strict, err := simplify.Simplify(m, simplify.Options{TargetRatio: 0.25, MaxError: 1e-2})
	if err != nil {
		t.Fatal(err)
	}
	if got := len(strict.Indices) / 3; got < src*9/10 {
		t.Errorf("strict mode reached %d of %d triangles: the mesh is not the hard case it should be", got, src)
	}

	res, err := simplify.Simplify(m, simplify.Options{TargetRatio: 0.25, MaxError: 1e-2, Permissive: true})
	if err != nil {
		t.Fatal(err)
	}
	got := len(res.Indices) / 3
	t.Logf("permissive: %d -> %d triangles, error %.3g", src, got, res.Error)
	if float64(got) > 0.3*float64(src) {
		t.Errorf("permissive mode kept %d of %d triangles, want at most 30%%", got, src)
	}
	if got < src/10 {
		t.Errorf("permissive mode kept %d of %d triangles, far below the target", got, src)
	}
	checkResult(t, m, res.Indices)
	if !(res.Error > strict.Error) {
		t.Errorf("permissive error %v is not above the strict one %v", res.Error, strict.Error)
	}
}

// TestPermissiveClusters needs the last resort: a flat-shaded strip two
// quads wide. Every position is on the border and has several wedges, so
// even the relaxed stage keeps them all; only clustering reduces it.
func TestPermissiveClusters(t *testing.T) {
	const n = 300
	var m simplify.Mesh
	m.AttrStride, m.AttrWeights = 3, normalWeights
	at := func(i, j int) vec {
		x := float64(i) / n
		return vec{x, float64(j) * 0.01, 0.05 * math.Sin(20*x)}
	}
	addTriangle := func(a, b, c vec) {
		nrm := cross(sub(b, a), sub(c, a))
		l := math.Sqrt(dot(nrm, nrm))
		for _, p := range [3]vec{a, b, c} {
			m.Indices = append(m.Indices, uint32(len(m.Positions)/3))
			m.Positions = append(m.Positions, float32(p[0]), float32(p[1]), float32(p[2]))
			m.Attributes = append(m.Attributes, float32(nrm[0]/l), float32(nrm[1]/l), float32(nrm[2]/l))
		}
	}
	for i := 0; i < n; i++ {
		for j := 0; j < 2; j++ {
			addTriangle(at(i, j), at(i+1, j), at(i+1, j+1))
			addTriangle(at(i, j), at(i+1, j+1), at(i, j+1))
		}
	}
	src := len(m.Indices) / 3

	strict, err := simplify.Simplify(m, simplify.Options{TargetRatio: 0.25})
	if err != nil {
		t.Fatal(err)
	}
	if got := len(strict.Indices) / 3; got < src*9/10 {
		t.Fatalf("the strict mode simplified the strip to %d of %d triangles: not the hard case", got, src)
	}
	res, err := simplify.Simplify(m, simplify.Options{TargetRatio: 0.25, Permissive: true})
	if err != nil {
		t.Fatal(err)
	}
	got := len(res.Indices) / 3
	t.Logf("strip: %d -> %d triangles, error %.3g", src, got, res.Error)
	if float64(got) > 0.3*float64(src) || got < src/10 {
		t.Errorf("kept %d of %d triangles, want 10%% to 30%%", got, src)
	}
	if !(res.Error > 0) {
		t.Errorf("clustering reported no error")
	}
	checkResult(t, m, res.Indices)
}

func TestPermissiveKeepsLockedBorder(t *testing.T) {
	m := generated(simplifytest.FacetedSphere(3), normalWeights)
	// cut the sphere open: drop the triangles above y = 0.5
	var idx []uint32
	for i := 0; i < len(m.Indices); i += 3 {
		if pos(m, m.Indices[i])[1] < 0.5 || pos(m, m.Indices[i+1])[1] < 0.5 || pos(m, m.Indices[i+2])[1] < 0.5 {
			idx = append(idx, m.Indices[i:i+3]...)
		}
	}
	m.Indices = idx
	res, err := simplify.Simplify(m, simplify.Options{TargetRatio: 0.25, LockBorder: true, Permissive: true})
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, m, res.Indices)
	// the border of a faceted mesh is every edge; compare positions instead
	edges := map[[2]vec]int{}
	for i := 0; i < len(m.Indices); i += 3 {
		for e := 0; e < 3; e++ {
			a, b := pos(m, m.Indices[i+e]), pos(m, m.Indices[i+(e+1)%3])
			if b[0] < a[0] || b[0] == a[0] && (b[1] < a[1] || b[1] == a[1] && b[2] < a[2]) {
				a, b = b, a
			}
			edges[[2]vec{a, b}]++
		}
	}
	border := map[vec]bool{}
	for e, n := range edges {
		if n == 1 {
			border[e[0]], border[e[1]] = true, true
		}
	}
	kept := map[vec]bool{}
	for _, v := range res.Indices {
		kept[pos(m, v)] = true
	}
	for p := range border {
		if !kept[p] {
			t.Errorf("border position %v removed", p)
		}
	}
	t.Logf("%d -> %d triangles, %d border positions", len(m.Indices)/3, len(res.Indices)/3, len(border))
}

func TestMalformed(t *testing.T) {
	tri := []uint32{0, 1, 2}
	pos := []float32{0, 0, 0, 1, 0, 0, 0, 1, 0}
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	tests := []struct {
		name string
		m    simplify.Mesh
		opt  simplify.Options
	}{
		{"index out of range", simplify.Mesh{Indices: []uint32{0, 1, 3}, Positions: pos}, simplify.Options{}},
		{"indices not triangles", simplify.Mesh{Indices: []uint32{0, 1}, Positions: pos}, simplify.Options{}},
		{"positions not xyz", simplify.Mesh{Indices: tri, Positions: pos[:8]}, simplify.Options{}},
		{"NaN position", simplify.Mesh{Indices: tri, Positions: []float32{0, 0, 0, 1, nan, 0, 0, 1, 0}}, simplify.Options{}},
		{"infinite position", simplify.Mesh{Indices: tri, Positions: []float32{0, 0, 0, 1, 0, 0, 0, inf, 0}}, simplify.Options{}},
		{"NaN attribute", simplify.Mesh{Indices: tri, Positions: pos, Attributes: []float32{0, nan, 0}, AttrStride: 1, AttrWeights: []float32{1}}, simplify.Options{}},
		{"attributes too short", simplify.Mesh{Indices: tri, Positions: pos, Attributes: []float32{0, 0}, AttrStride: 1, AttrWeights: []float32{1}}, simplify.Options{}},
		{"attributes without stride", simplify.Mesh{Indices: tri, Positions: pos, Attributes: []float32{0, 0, 0}}, simplify.Options{}},
		{"negative stride", simplify.Mesh{Indices: tri, Positions: pos, AttrStride: -1}, simplify.Options{}},
		{"missing weights", simplify.Mesh{Indices: tri, Positions: pos, Attributes: []float32{0, 0, 0}, AttrStride: 1}, simplify.Options{}},
		{"negative weight", simplify.Mesh{Indices: tri, Positions: pos, Attributes: []float32{0, 0, 0}, AttrStride: 1, AttrWeights: []float32{-1}}, simplify.Options{}},
		{"NaN weight", simplify.Mesh{Indices: tri, Positions: pos, Attributes: []float32{0, 0, 0}, AttrStride: 1, AttrWeights: []float32{nan}}, simplify.Options{}},
		{"lock flags too short", simplify.Mesh{Indices: tri, Positions: pos, Locked: []bool{true}}, simplify.Options{}},
		{"ratio above 1", simplify.Mesh{Indices: tri, Positions: pos}, simplify.Options{TargetRatio: 1.5}},
		{"negative ratio", simplify.Mesh{Indices: tri, Positions: pos}, simplify.Options{TargetRatio: -0.5}},
		{"NaN ratio", simplify.Mesh{Indices: tri, Positions: pos}, simplify.Options{TargetRatio: nan}},
		{"negative max error", simplify.Mesh{Indices: tri, Positions: pos}, simplify.Options{MaxError: -1}},
		{"NaN max error", simplify.Mesh{Indices: tri, Positions: pos}, simplify.Options{MaxError: nan}},
		{"infinite max error", simplify.Mesh{Indices: tri, Positions: pos}, simplify.Options{MaxError: inf}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := simplify.Simplify(tt.m, tt.opt)
			if !errors.Is(err, simplify.ErrInvalidMesh) {
				t.Fatalf("got %v, %v; want an error wrapping ErrInvalidMesh", res, err)
			}
		})
	}
}

// TestDegenerate feeds input that is valid but awkward: it must come back
// simplified where possible, with valid indices, and never panic.
func TestDegenerate(t *testing.T) {
	g := simplifytest.Terrain(20)
	withExtra := func(extra ...uint32) simplify.Mesh {
		return simplify.Mesh{Indices: append(append([]uint32(nil), g.Indices...), extra...), Positions: g.Positions}
	}
	flat := make([]float32, len(g.Positions))
	copy(flat, g.Positions)
	for i := 2; i < len(flat); i += 3 {
		flat[i] = 0
	}
	line := make([]float32, len(g.Positions))
	for i := 0; i < len(line); i += 3 {
		line[i] = g.Positions[i] + g.Positions[i+1] // every vertex on one line
	}
	// a non-manifold edge: a third triangle on the edge 0-1, a fin
	fin := append(append([]float32(nil), g.Positions...), 0.5, 0.5, 1)
	finVertex := uint32(len(g.Positions) / 3)
	tests := []struct {
		name string
		m    simplify.Mesh
	}{
		{"empty", simplify.Mesh{}},
		{"no triangles", simplify.Mesh{Positions: g.Positions}},
		{"repeated indices", withExtra(0, 0, 1, 5, 6, 5)},
		{"duplicate triangles", withExtra(g.Indices[:30]...)},
		{"opposite duplicates", withExtra(g.Indices[2], g.Indices[1], g.Indices[0], g.Indices[5], g.Indices[4], g.Indices[3])},
		{"zero-area triangles", simplify.Mesh{Indices: g.Indices, Positions: line}},
		{"flat", simplify.Mesh{Indices: g.Indices, Positions: flat}},
		{"all at one point", simplify.Mesh{Indices: g.Indices, Positions: make([]float32, len(g.Positions))}},
		{"non-manifold edge", simplify.Mesh{Indices: append(append([]uint32(nil), g.Indices...), 0, 1, finVertex), Positions: fin}},
		{"unused vertices", simplify.Mesh{Indices: g.Indices[:60], Positions: g.Positions}},
	}
	for _, tt := range tests {
		for _, opt := range []simplify.Options{
			{TargetRatio: 0.25},
			{TargetRatio: 0.25, MaxError: 1e-3, LockBorder: true},
			{TargetRatio: 0.1, Permissive: true},
		} {
			res, err := simplify.Simplify(tt.m, opt)
			if err != nil {
				t.Fatalf("%s %+v: %v", tt.name, opt, err)
			}
			if math.IsNaN(float64(res.Error)) || res.Error < 0 {
				t.Errorf("%s %+v: error %v", tt.name, opt, res.Error)
			}
			checkResult(t, tt.m, res.Indices)
		}
	}
	res, _ := simplify.Simplify(simplify.Mesh{Indices: g.Indices, Positions: flat}, simplify.Options{TargetRatio: 0.1})
	if got := len(res.Indices) / 3; got > len(g.Indices)/3/10 {
		t.Errorf("a flat grid kept %d triangles at a 10%% target", got)
	}
}

// TestRepeatable simplifies different meshes in turn, twice: buffers are
// reused between calls, and nothing of one call may leak into the next.
func TestRepeatable(t *testing.T) {
	locked := uvSphere(t)
	locked.Locked = make([]bool, len(locked.Positions)/3)
	for v := 0; v < len(locked.Locked); v += 5 {
		locked.Locked[v] = true
	}
	calls := []struct {
		m   simplify.Mesh
		opt simplify.Options
	}{
		{largeTerrain(t), simplify.Options{TargetRatio: 0.3}},
		{locked, simplify.Options{TargetRatio: 0.25}},
		{terrain(t), simplify.Options{TargetRatio: 0.25, LockBorder: true}},
		{hardCube(t), simplify.Options{TargetRatio: 0.1, MaxError: 1e-3}},
		{generated(simplifytest.FacetedSphere(2), normalWeights), simplify.Options{TargetRatio: 0.2, Permissive: true}},
		{uvSphere(t), simplify.Options{TargetRatio: 0.5}},
	}
	var first []simplify.Result
	for round := 0; round < 2; round++ {
		for i, c := range calls {
			res, err := simplify.Simplify(c.m, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			if round == 0 {
				first = append(first, res)
				continue
			}
			if !slices.Equal(res.Indices, first[i].Indices) || res.Error != first[i].Error {
				t.Errorf("call %d gave a different result the second time", i)
			}
		}
	}
}

func TestRatioOne(t *testing.T) {
	m := terrain(t)
	res, err := simplify.Simplify(m, simplify.Options{TargetRatio: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Indices) != len(m.Indices) || res.Error != 0 {
		t.Errorf("ratio 1 gave %d indices of %d, error %v", len(res.Indices), len(m.Indices), res.Error)
	}
	checkOrientation(t, m, res.Indices)
}

func TestCompact(t *testing.T) {
	m := uvSphere(t)
	res, err := simplify.Simplify(m, simplify.Options{TargetRatio: 0.25})
	if err != nil {
		t.Fatal(err)
	}
	idx, old := simplify.Compact(res.Indices, len(m.Positions)/3)
	distinct := map[uint32]bool{}
	for _, v := range res.Indices {
		distinct[v] = true
	}
	if len(old) != len(distinct) {
		t.Fatalf("%d vertices after compaction, %d used", len(old), len(distinct))
	}
	for i, v := range idx {
		if int(v) >= len(old) || old[v] != res.Indices[i] {
			t.Fatalf("index %d: %d maps to %d, want %d", i, v, old[v], res.Indices[i])
		}
	}
}

func TestOBJ(t *testing.T) {
	m := bunny(t)
	if len(m.Indices)/3 != 27864 || len(m.Positions)/3 != 13934 {
		t.Errorf("bunny: %d triangles, %d vertices", len(m.Indices)/3, len(m.Positions)/3)
	}
}

func TestSubdivide(t *testing.T) {
	g := simplifytest.Terrain(10)
	idx, pos := simplifytest.Subdivide(g.Indices, g.Positions)
	// V' = V + E, T' = 4 T; a 10 x 10 grid has 11² vertices and 320 edges
	if len(idx) != 4*len(g.Indices) || len(pos)/3 != 121+320 {
		t.Errorf("%d triangles, %d vertices", len(idx)/3, len(pos)/3)
	}
	m := simplify.Mesh{Indices: idx, Positions: pos}
	if b := borderVertices(m); len(b) != 80 {
		t.Errorf("%d border vertices after subdivision, want 80 (no crack inside)", len(b))
	}
}
