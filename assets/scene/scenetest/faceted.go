package scenetest

import (
	"math"

	"github.com/qmuntal/gltf"
)

// rockLevels subdivides the icosahedron of FacetedRock: 20 * 4^3 faces.
const rockLevels = 3

// FacetedRockTriangles is the triangle count of FacetedRock.
const FacetedRockTriangles = 20 << (2 * rockLevels) // 1,280

// FacetedRock is a low-poly rock as game props are made: an icosahedron
// subdivided three times, pushed in and out by a smooth bump field and
// flat shaded, every triangle with three vertices of its own carrying its
// face normal. Every position has five or six copies that differ only in
// their normal, the case that stalls a simplifier that sees them as
// seams.
func FacetedRock() []byte {
	pos := icosahedron()
	idx := icosahedronFaces()
	for range rockLevels {
		idx, pos = midpoints(idx, pos)
	}
	for i := range pos {
		p := normalize(pos[i])
		r := 1 + 0.18*math.Sin(3*p[0]+1)*math.Cos(2*p[1]) + 0.1*math.Sin(5*p[2]+2*p[0])
		pos[i] = [3]float64{p[0] * r, p[1] * r * 0.7, p[2] * r}
	}
	var flat, nrm []float32
	for t := 0; t < len(idx); t += 3 {
		a, bb, c := pos[idx[t]], pos[idx[t+1]], pos[idx[t+2]]
		e1 := [3]float64{bb[0] - a[0], bb[1] - a[1], bb[2] - a[2]}
		e2 := [3]float64{c[0] - a[0], c[1] - a[1], c[2] - a[2]}
		n := normalize([3]float64{e1[1]*e2[2] - e1[2]*e2[1], e1[2]*e2[0] - e1[0]*e2[2], e1[0]*e2[1] - e1[1]*e2[0]})
		for _, p := range [][3]float64{a, bb, c} {
			flat = append(flat, float32(p[0]), float32(p[1]), float32(p[2]))
			nrm = append(nrm, float32(n[0]), float32(n[1]), float32(n[2]))
		}
	}
	b := newBuilder()
	p := b.floats(flat, gltf.AccessorVec3, gltf.TargetArrayBuffer, true)
	n := b.floats(nrm, gltf.AccessorVec3, gltf.TargetArrayBuffer, false)
	d := b.doc
	d.Materials = []*gltf.Material{{Name: "Stone", PBRMetallicRoughness: &gltf.PBRMetallicRoughness{BaseColorFactor: &[4]float64{0.55, 0.52, 0.5, 1}}}}
	d.Meshes = []*gltf.Mesh{{
		Name:       "Rock",
		Primitives: []*gltf.Primitive{{Attributes: gltf.PrimitiveAttributes{gltf.POSITION: p, gltf.NORMAL: n}, Material: gltf.Index(0)}},
	}}
	d.Nodes = []*gltf.Node{{Name: "Rock", Mesh: gltf.Index(0)}}
	d.Scenes[0].Nodes = []int{0}
	return b.glb()
}

func icosahedron() [][3]float64 {
	t := (1 + math.Sqrt(5)) / 2
	return [][3]float64{
		{-1, t, 0}, {1, t, 0}, {-1, -t, 0}, {1, -t, 0},
		{0, -1, t}, {0, 1, t}, {0, -1, -t}, {0, 1, -t},
		{t, 0, -1}, {t, 0, 1}, {-t, 0, -1}, {-t, 0, 1},
	}
}

// icosahedronFaces winds every face outward (counter-clockwise seen from
// outside).
func icosahedronFaces() []int {
	return []int{
		0, 11, 5, 0, 5, 1, 0, 1, 7, 0, 7, 10, 0, 10, 11,
		1, 5, 9, 5, 11, 4, 11, 10, 2, 10, 7, 6, 7, 1, 8,
		3, 9, 4, 3, 4, 2, 3, 2, 6, 3, 6, 8, 3, 8, 9,
		4, 9, 5, 2, 4, 11, 6, 2, 10, 8, 6, 7, 9, 8, 1,
	}
}

// midpoints splits every triangle into four at its edges' midpoints,
// sharing each midpoint between the two triangles of its edge.
func midpoints(idx []int, pos [][3]float64) ([]int, [][3]float64) {
	mid := map[[2]int]int{}
	at := func(a, b int) int {
		k := [2]int{min(a, b), max(a, b)}
		if m, ok := mid[k]; ok {
			return m
		}
		pa, pb := pos[a], pos[b]
		pos = append(pos, [3]float64{(pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2, (pa[2] + pb[2]) / 2})
		mid[k] = len(pos) - 1
		return len(pos) - 1
	}
	var out []int
	for t := 0; t < len(idx); t += 3 {
		a, b, c := idx[t], idx[t+1], idx[t+2]
		ab, bc, ca := at(a, b), at(b, c), at(c, a)
		out = append(out, a, ab, ca, ab, b, bc, ca, bc, c, ab, bc, ca)
	}
	return out, pos
}
