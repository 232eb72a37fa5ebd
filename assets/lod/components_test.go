package lod

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/internal/gltfcheck"
)

// component is one connected part of a primitive at lod 0: the positions
// its triangles use, welded by position (flat shading and seams split a
// part's vertices, not the part).
type component struct {
	positions map[vertexKey]bool
	triangles int
}

// components splits every primitive of s into its connected parts, by
// position: two triangles are connected when they share a corner's
// position (with islands, its position, texture coordinates and colour).
// Triangles with two corners at one position (which the simplifier drops
// at once) are left out.
func components(s *scene.Scene, islands bool) [][]component {
	var out [][]component
	for _, m := range s.Meshes {
		for _, p := range m.Primitives {
			out = append(out, primitiveComponents(p, islands))
		}
	}
	return out
}

func primitiveComponents(p *scene.Primitive, islands bool) []component {
	if p.Mode != gltf.PrimitiveTriangles {
		return nil
	}
	id := map[vertexKey]int{}
	var parent []int
	find := func(a int) int {
		for parent[a] != a {
			parent[a] = parent[parent[a]]
			a = parent[a]
		}
		return a
	}
	at := func(v vertexKey) int {
		if i, ok := id[v]; ok {
			return i
		}
		id[v] = len(parent)
		parent = append(parent, len(parent))
		return len(parent) - 1
	}
	var tris [][3]int
	for _, t := range corners(p, islands) {
		a, b, c := at(t[0]), at(t[1]), at(t[2])
		if a == b || b == c || a == c {
			continue
		}
		tris = append(tris, [3]int{a, b, c})
		parent[find(b)] = find(a)
		parent[find(c)] = find(a)
	}
	byRoot := map[int]int{}
	var out []component
	for _, t := range tris {
		r := find(t[0])
		k, ok := byRoot[r]
		if !ok {
			k = len(out)
			byRoot[r] = k
			out = append(out, component{positions: map[vertexKey]bool{}})
		}
		out[k].triangles++
	}
	for v, i := range id {
		if k, ok := byRoot[find(i)]; ok {
			out[k].positions[v] = true
		}
	}
	return out
}

// vertexKey is what welds two vertices into one corner of a part: their
// position, and with islands set their first texture coordinates and
// colours too.
type vertexKey struct {
	pos [3]float32
	uv  [2]float32
	col [4]float32
}

// corners lists the keys of each triangle's corners; islands keys them
// by texture coordinates and colour too, so that a painted eye on a voxel
// face is a part of its own.
func corners(p *scene.Primitive, islands bool) [][3]vertexKey {
	var out [][3]vertexKey
	n := p.Triangles()
	for t := range n {
		var c [3]vertexKey
		for k := range 3 {
			i := 3*t + k
			if p.Indices != nil {
				i = int(p.Indices[i])
			}
			c[k].pos = p.Positions[i]
			if islands && len(p.TexCoords) > 0 {
				c[k].uv = p.TexCoords[0][i]
			}
			if islands && len(p.Colors) > 0 {
				c[k].col = p.Colors[0][i]
			}
		}
		out = append(out, c)
	}
	return out
}

// kept counts, for each lod 0 component, the triangles of the level that
// lie on it (all three corners at its positions: a collapse moves a vertex
// onto a neighbour's position, never elsewhere).
func kept(comps [][]component, s *scene.Scene, islands bool) [][]int {
	var out [][]int
	i := 0
	for _, m := range s.Meshes {
		for _, p := range m.Primitives {
			counts := make([]int, len(comps[i]))
			if p.Mode == gltf.PrimitiveTriangles {
				for _, t := range corners(p, islands) {
					for k, c := range comps[i] {
						if c.positions[t[0]] && c.positions[t[1]] && c.positions[t[2]] {
							counts[k]++
							break
						}
					}
				}
			}
			out = append(out, counts)
			i++
		}
	}
	return out
}

// headWithEyes is a generated model shaped like chr_knight's problem: one
// primitive holding a big smooth sphere (a head, 2,560 triangles) and two
// small spheres on its front (eyes, 48 triangles each, under a hundredth
// of its size), as exporters merge a character's parts into one mesh. The
// eyes are the cheapest parts to remove by far: without keeping parts,
// lod 2 leaves each of them 2 triangles.
func headWithEyes(t *testing.T) []byte {
	p := &scene.Primitive{Mode: gltf.PrimitiveTriangles, Material: gltf.Index(0)}
	sphere(p, [3]float32{0, 0, 0}, 1, 40, 33)
	sphere(p, [3]float32{-0.35, 0.2, 0.97}, 0.008, 6, 5)
	sphere(p, [3]float32{0.35, 0.2, 0.97}, 0.008, 6, 5)
	s := &scene.Scene{
		Asset:        gltf.Asset{Version: "2.0"},
		Meshes:       []*scene.Mesh{{Name: "Head", Primitives: []*scene.Primitive{p}}},
		Materials:    []*gltf.Material{{Name: "Skin", PBRMetallicRoughness: &gltf.PBRMetallicRoughness{BaseColorFactor: &[4]float64{0.8, 0.6, 0.5, 1}}}},
		Nodes:        []*gltf.Node{{Name: "Head", Mesh: gltf.Index(0)}},
		Scenes:       []*gltf.Scene{{Nodes: []int{0}}},
		DefaultScene: gltf.Index(0),
	}
	glb, err := scene.Write(s)
	if err != nil {
		t.Fatal(err)
	}
	gltfcheck.RequireValid(t, glb)
	return glb
}

// sphere appends a UV sphere of the given segments (around) and rings
// (pole to pole, rings-1 rows of vertices between the poles) with smooth
// normals, wound outward.
func sphere(p *scene.Primitive, c [3]float32, r float32, segments, rings int) {
	base := uint32(len(p.Positions))
	add := func(n [3]float32) {
		p.Positions = append(p.Positions, [3]float32{c[0] + r*n[0], c[1] + r*n[1], c[2] + r*n[2]})
		p.Normals = append(p.Normals, n)
	}
	add([3]float32{0, 1, 0})
	for i := 1; i < rings; i++ {
		phi := math.Pi * float64(i) / float64(rings)
		for j := range segments {
			th := 2 * math.Pi * float64(j) / float64(segments)
			add([3]float32{float32(math.Sin(phi) * math.Cos(th)), float32(math.Cos(phi)), float32(math.Sin(phi) * math.Sin(th))})
		}
	}
	add([3]float32{0, -1, 0})
	south := base + uint32(1+(rings-1)*segments)
	ring := func(i, j int) uint32 { return base + 1 + uint32(i*segments+(j%segments)) }
	for j := range segments {
		p.Indices = append(p.Indices, base, ring(0, j+1), ring(0, j))
		p.Indices = append(p.Indices, south, ring(rings-2, j), ring(rings-2, j+1))
	}
	for i := 0; i+1 < rings-1; i++ {
		for j := range segments {
			a, b, cc, d := ring(i, j), ring(i, j+1), ring(i+1, j), ring(i+1, j+1)
			p.Indices = append(p.Indices, a, b, d, a, d, cc)
		}
	}
}

// TestSmallPartsSurvive: every connected part of lod 0 (an eye, a button, a
// strand of hair) still has triangles at lod 1 and lod 2, at least minPart
// of them (or all of its own when it had fewer), while each level stays
// in its band (40-55 % for lod 1, 20-30 % for lod 2): on a generated head
// with two small eyes, and on chr_knight when ../shared is there.
//
// chr_knight is one part by position (its voxels touch); its eyes are
// painted, islands of the palette texture on the face, and it lost one at
// lod 1 (4 of its 59 islands went). So it is checked by islands too
// (position, texture coordinates and colour): at lod 1 every island keeps
// minPart triangles or all of its own. At lod 2 that would take 362 of
// the level's 365 triangles, so lod 2 keeps the smallest islands that fit
// (planParts); the test logs how many went.
func TestSmallPartsSurvive(t *testing.T) {
	type model struct {
		glb     []byte
		islands bool
		levels  int // the last level whose every part is asserted
	}
	models := map[string]model{"head-with-eyes": {glb: headWithEyes(t), levels: Max}}
	if data, err := os.ReadFile(filepath.Join(testdata, "chr_knight.glb")); err == nil {
		models["chr_knight"] = model{glb: data, levels: Max}
		models["chr_knight-islands"] = model{glb: data, islands: true, levels: 1}
	} else {
		t.Logf("chr_knight absent: %v", err)
	}
	band := [][2]float64{1: {0.40, 0.55}, 2: {0.20, 0.30}}
	for name, mod := range models {
		t.Run(name, func(t *testing.T) {
			s, err := scene.Read(mod.glb, scene.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var comps [][]component
			err = Chain(context.Background(), s, Max, func(l Level, s *scene.Scene) error {
				if l.Level == 0 {
					comps = components(s, mod.islands)
					var n, small, least int
					for _, cs := range comps {
						n += len(cs)
						for _, c := range cs {
							if c.triangles <= minPart {
								small++
							}
							least += min(c.triangles, minPart)
						}
					}
					t.Logf("lod 0: %d triangles in %d parts, %d of at most %d triangles; keeping %d of each takes %d triangles",
						l.Triangles, n, small, minPart, minPart, least)
					return nil
				}
				if l.Ratio < band[l.Level][0] || l.Ratio > band[l.Level][1] {
					t.Errorf("lod %d: %.1f%% of the triangles, want %.0f-%.0f%%", l.Level, 100*l.Ratio, 100*band[l.Level][0], 100*band[l.Level][1])
				}
				var lost, thin int
				for i, counts := range kept(comps, s, mod.islands) {
					for k, n := range counts {
						c := comps[i][k]
						if n < min(c.triangles, minPart) {
							thin++
							if n == 0 {
								lost++
							}
							if l.Level <= mod.levels {
								t.Errorf("lod %d: a part of primitive %d with %d triangles at lod 0 has %d", l.Level, i, c.triangles, n)
							}
						}
					}
				}
				t.Logf("lod %d: %d triangles (%.1f%%), error %.3g; %d parts lost, %d below %d triangles (lost included)",
					l.Level, l.Triangles, 100*l.Ratio, l.Error, lost, thin, minPart)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}
