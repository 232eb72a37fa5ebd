package merge

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/xform"
	"github.com/kilnhq/kiln/internal/gltfcheck"
)

// pose sets node rotations by name, to deform a model before comparing;
// it turns only nodes without a mesh (RobotExpressive names a mesh node
// like the joint above it, and merging empties the mesh node).
type pose map[string][4]float64

func axisAngle(x, y, z, deg float64) [4]float64 {
	s, c := math.Sincos(deg * math.Pi / 360)
	l := math.Sqrt(x*x + y*y + z*z)
	return [4]float64{x / l * s, y / l * s, z / l * s, c}
}

// evaluate returns the world position of every drawn vertex, with the
// pose applied and morph weights given by target name, ordered by alpha
// group, then material in order of first appearance, then instance in
// scene order: the order Meshes promises for its merged primitives, so
// that a scene and its merge can be compared vertex by vertex.
func evaluate(s *scene.Scene, p pose, weights map[string]float64) [][3]float64 {
	for _, n := range s.Nodes {
		if r, ok := p[n.Name]; ok && n.Mesh == nil {
			n.Rotation = r
		}
	}
	t := newTree(s)
	type inst struct {
		node int
		p    *scene.Primitive
	}
	// The merge's groups: opaque, transparent, BLEND beside MASK.
	var order [nKinds][]int
	mask := slices.ContainsFunc(s.Materials, func(m *gltf.Material) bool { return m.AlphaMode == gltf.AlphaMask })
	groups := map[int][]inst{}
	for _, n := range t.drawn {
		node := s.Nodes[n]
		if node.Mesh == nil {
			continue
		}
		for _, p := range s.Meshes[*node.Mesh].Primitives {
			mat, kind := -1, kindOpaque
			if p.Material != nil {
				mat = *p.Material
				switch m := s.Materials[mat].AlphaMode; {
				case m == gltf.AlphaBlend && mask:
					kind = kindBlend
				case m == gltf.AlphaBlend || m == gltf.AlphaMask:
					kind = kindTransparent
				}
			}
			if _, ok := groups[mat]; !ok {
				order[kind] = append(order[kind], mat)
			}
			groups[mat] = append(groups[mat], inst{n, p})
		}
	}
	var out [][3]float64
	for _, mats := range order {
		for _, mat := range mats {
			for _, in := range groups[mat] {
				node := s.Nodes[in.node]
				mesh := s.Meshes[*node.Mesh]
				names := mesh.TargetNames()
				for v, pos := range in.p.Positions {
					x := [3]float64{float64(pos[0]), float64(pos[1]), float64(pos[2])}
					for ti, tg := range in.p.Targets {
						if ti < len(names) && tg.Positions != nil {
							w := weights[names[ti]]
							for k := range 3 {
								x[k] += w * float64(tg.Positions[v][k])
							}
						}
					}
					var world [3]float64
					if node.Skin != nil {
						sk := s.Skins[*node.Skin]
						for set := range in.p.Joints {
							for k := range 4 {
								w := float64(in.p.Weights[set][v][k])
								if w == 0 {
									continue
								}
								j := in.p.Joints[set][v][k]
								m := t.world(sk.Joints[j])
								if sk.InverseBindMatrices != nil {
									m = m.Mul(xform.FromFloat32(sk.InverseBindMatrices[j]))
								}
								y := apply(m, x)
								for c := range 3 {
									world[c] += w * y[c]
								}
							}
						}
					} else {
						world = apply(t.world(in.node), x)
					}
					out = append(out, world)
				}
			}
		}
	}
	return out
}

func apply(m xform.Mat4, x [3]float64) [3]float64 {
	return [3]float64{
		m[0]*x[0] + m[4]*x[1] + m[8]*x[2] + m[12],
		m[1]*x[0] + m[5]*x[1] + m[9]*x[2] + m[13],
		m[2]*x[0] + m[6]*x[1] + m[10]*x[2] + m[14],
	}
}

// samePositions compares two evaluations within tol times their extent.
func samePositions(t *testing.T, what string, before, after [][3]float64, tol float64) {
	t.Helper()
	if len(before) != len(after) {
		t.Fatalf("%s: %d vertices before, %d after", what, len(before), len(after))
	}
	var extent float64
	for _, v := range before {
		for _, c := range v {
			extent = max(extent, math.Abs(c))
		}
	}
	worst, at := 0.0, -1
	for i := range before {
		for c := range 3 {
			if d := math.Abs(before[i][c] - after[i][c]); d > worst {
				worst, at = d, i
			}
		}
	}
	if worst > tol*max(extent, 1) {
		t.Errorf("%s: vertex %d moved by %.3g (extent %.3g): %v → %v", what, at, worst, extent, before[at], after[at])
	}
}

// checkWeights asserts that every merged skinned vertex's weights sum to
// 1 and name joints of the skin.
func checkWeights(t *testing.T, s *scene.Scene) {
	t.Helper()
	for _, n := range s.Nodes {
		if n.Mesh == nil || n.Skin == nil {
			continue
		}
		joints := len(s.Skins[*n.Skin].Joints)
		for _, p := range s.Meshes[*n.Mesh].Primitives {
			if len(p.Weights) == 0 {
				t.Fatalf("skinned primitive without weights")
			}
			for v := range p.Positions {
				var sum float64
				for set := range p.Weights {
					for k := range 4 {
						sum += float64(p.Weights[set][v][k])
						if p.Weights[set][v][k] > 0 && int(p.Joints[set][v][k]) >= joints {
							t.Fatalf("vertex %d names joint %d of %d", v, p.Joints[set][v][k], joints)
						}
					}
				}
				if math.Abs(sum-1) > 2e-3 {
					t.Fatalf("vertex %d: weights sum to %v", v, sum)
				}
			}
		}
	}
}

// pyramid is a closed square pyramid wound outwards, with smooth normals,
// UVs and a colour, at the origin.
func pyramid(material *int) *scene.Primitive {
	pos := [][3]float32{{-1, 0, -1}, {1, 0, -1}, {1, 0, 1}, {-1, 0, 1}, {0, 1.5, 0}}
	idx := []uint32{0, 1, 2, 0, 2, 3, 0, 4, 1, 1, 4, 2, 2, 4, 3, 3, 4, 0}
	p := &scene.Primitive{Mode: gltf.PrimitiveTriangles, Material: material, Indices: idx, Positions: pos}
	p.Normals = vertexNormals(pos, idx)
	p.TexCoords = [][][2]float32{{{0, 0}, {1, 0}, {1, 1}, {0, 1}, {0.5, 0.5}}}
	p.Colors = [][][4]float32{{{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}, {1, 1, 0, 1}, {0, 1, 1, 1}}}
	return p
}

// outward asserts that every triangle faces where its vertex normals
// point: a mirrored instance not re-wound, or normals transformed wrongly,
// turn pyramids inside out.
func outward(t *testing.T, p *scene.Primitive) {
	t.Helper()
	for i := 0; i+2 < len(p.Indices); i += 3 {
		a, b, c := p.Positions[p.Indices[i]], p.Positions[p.Indices[i+1]], p.Positions[p.Indices[i+2]]
		e1 := [3]float32{b[0] - a[0], b[1] - a[1], b[2] - a[2]}
		e2 := [3]float32{c[0] - a[0], c[1] - a[1], c[2] - a[2]}
		f := [3]float32{e1[1]*e2[2] - e1[2]*e2[1], e1[2]*e2[0] - e1[0]*e2[2], e1[0]*e2[1] - e1[1]*e2[0]}
		var dot float32
		for _, v := range p.Indices[i : i+3] {
			n := p.Normals[v]
			dot += f[0]*n[0] + f[1]*n[1] + f[2]*n[2]
		}
		if dot <= 0 {
			t.Fatalf("triangle %d faces against its normals", i/3)
		}
	}
}

func sharedModels(t *testing.T) []string {
	files, _ := filepath.Glob(filepath.Join("..", "..", "..", "shared", "testdata", "*.glb"))
	if len(files) == 0 {
		t.Skip("no shared test models in ../shared/testdata")
	}
	return files
}

func read(t testing.TB, data []byte) *scene.Scene {
	t.Helper()
	s, err := scene.Read(data, scene.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("%s: %v", path, err)
	}
	return data
}

// writeValid writes s, runs the validator and reads the output back.
func writeValid(t *testing.T, s *scene.Scene) (*scene.Scene, gltfcheck.Report) {
	t.Helper()
	glb, err := scene.Write(s)
	if err != nil {
		t.Fatalf("Write: %v", err)
	}
	r := gltfcheck.RequireValid(t, glb)
	return read(t, glb), r
}

func jointNames(s *scene.Scene) []string {
	var out []string
	for _, sk := range s.Skins {
		for _, j := range sk.Joints {
			if !slices.Contains(out, s.Nodes[j].Name) {
				out = append(out, s.Nodes[j].Name)
			}
		}
	}
	return out
}
