package simplify_test

import (
	"errors"
	"math"
	"testing"

	"github.com/kilnhq/kiln/assets/simplify"
	"github.com/kilnhq/kiln/assets/simplify/simplifytest"
)

// withSites gives a generated mesh whose attributes are only its normals
// (stride 3) as sites and normals, the way the lod package passes
// flat-shaded primitives: every copy at one position shares a site.
func withSites(g simplifytest.Mesh) simplify.Mesh {
	m := simplify.Mesh{Indices: g.Indices, Positions: g.Positions, Normals: g.Attributes}
	first := map[[3]float32]uint32{}
	m.Sites = make([]uint32, len(g.Positions)/3)
	for v := range m.Sites {
		p := [3]float32{g.Positions[3*v], g.Positions[3*v+1], g.Positions[3*v+2]}
		if r, ok := first[p]; ok {
			m.Sites[v] = r
		} else {
			first[p] = uint32(v)
			m.Sites[v] = uint32(v)
		}
	}
	return m
}

// TestSitesReachTheLevelsOfFlatShadedMeshes: as seams, the six copies of
// each position of a faceted sphere lock it, and the hard cube's corners
// and edges; with sites both reach lod 1 and lod 2's shares, with a small
// error, every corner keeping a normal of its own side (within a facet's
// angle of its triangle's face), and the cube keeping its shape exactly.
func TestSitesReachTheLevelsOfFlatShadedMeshes(t *testing.T) {
	for _, tt := range []struct {
		name     string
		mesh     simplifytest.Mesh
		maxError float32
	}{
		{"faceted sphere", simplifytest.FacetedSphere(3), 0.05},
		{"hard cube", simplifytest.HardCube(8), 1e-4},
	} {
		m := withSites(tt.mesh)
		src := len(m.Indices) / 3
		for _, level := range []struct{ ratio, lo, hi float32 }{{0.5, 0.40, 0.55}, {0.25, 0.20, 0.30}} {
			res, err := simplify.Simplify(m, simplify.Options{TargetRatio: level.ratio})
			if err != nil {
				t.Fatal(err)
			}
			got := float32(len(res.Indices)/3) / float32(src)
			if got < level.lo || got > level.hi {
				t.Errorf("%s at %.2f: kept %.1f%% of %d triangles, want %.0f-%.0f%%", tt.name, level.ratio, 100*got, src, 100*level.lo, 100*level.hi)
			}
			if res.Error > tt.maxError {
				t.Errorf("%s at %.2f: error %.3g, want at most %.3g", tt.name, level.ratio, res.Error, tt.maxError)
			}
			worst := 1.0
			for i := 0; i < len(res.Indices); i += 3 {
				f := face(m, res.Indices[i:i+3])
				for _, v := range res.Indices[i : i+3] {
					n := m.Normals[3*v : 3*v+3]
					worst = min(worst, float64(f[0]*n[0]+f[1]*n[1]+f[2]*n[2]))
				}
			}
			// a facet of the level-3 sphere spans about 12 degrees; after
			// simplification the triangles are coarser, still within 30
			if worst < math.Cos(30*math.Pi/180) {
				t.Errorf("%s at %.2f: a corner's normal is %.0f degrees off its triangle", tt.name, level.ratio, math.Acos(worst)*180/math.Pi)
			}
			t.Logf("%s at %.2f: %d of %d triangles, error %.3g, worst corner %.1f degrees off its face",
				tt.name, level.ratio, len(res.Indices)/3, src, res.Error, math.Acos(min(worst, 1))*180/math.Pi)
		}
	}
}

func face(m simplify.Mesh, tri []uint32) [3]float32 {
	p := func(v uint32) [3]float32 { return [3]float32(m.Positions[3*v : 3*v+3]) }
	a, b, c := p(tri[0]), p(tri[1]), p(tri[2])
	e1 := [3]float32{b[0] - a[0], b[1] - a[1], b[2] - a[2]}
	e2 := [3]float32{c[0] - a[0], c[1] - a[1], c[2] - a[2]}
	n := [3]float32{e1[1]*e2[2] - e1[2]*e2[1], e1[2]*e2[0] - e1[0]*e2[2], e1[0]*e2[1] - e1[1]*e2[0]}
	l := float32(math.Sqrt(float64(n[0]*n[0] + n[1]*n[1] + n[2]*n[2])))
	return [3]float32{n[0] / l, n[1] / l, n[2] / l}
}

func TestSitesAreChecked(t *testing.T) {
	g := simplifytest.HardCube(2)
	good := withSites(g)
	for name, m := range map[string]simplify.Mesh{
		"normals without sites": {Indices: g.Indices, Positions: g.Positions, Normals: g.Attributes},
		"short sites":           {Indices: g.Indices, Positions: g.Positions, Normals: g.Attributes, Sites: good.Sites[1:]},
		"short normals":         {Indices: g.Indices, Positions: g.Positions, Normals: g.Attributes[3:], Sites: good.Sites},
		"site not its own":      {Indices: g.Indices, Positions: g.Positions, Normals: g.Attributes, Sites: append([]uint32{1}, good.Sites[1:]...)},
		"site out of range":     {Indices: g.Indices, Positions: g.Positions, Normals: g.Attributes, Sites: append([]uint32{1 << 30}, good.Sites[1:]...)},
	} {
		if _, err := simplify.Simplify(m, simplify.Options{TargetRatio: 0.5}); !errors.Is(err, simplify.ErrInvalidMesh) {
			t.Errorf("%s: got %v, want ErrInvalidMesh", name, err)
		}
	}
}
