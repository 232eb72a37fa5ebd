package scene

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln/assets/draco"
	"github.com/kilnhq/kiln/assets/draco/dracotest"
	"github.com/kilnhq/kiln/assets/scene/scenetest"
	"github.com/kilnhq/kiln/internal/gltfcheck"
)

// WriteOptions.Draco writes every triangle primitive as a Draco stream
// that validates, is required, has accessors without views, and that
// Google's decoder reads back to the primitive's own triangles, with its
// positions within half a quantization step and the bounds the accessor
// states, its normals within the octahedral grid's spacing; morph targets
// stay plain accessors.
func TestWriteDraco(t *testing.T) {
	models := map[string][]byte{}
	for name, glb := range scenetest.Fixtures() {
		models[name] = glb
	}
	for _, name := range []string{"rpm-avatar-casual.glb", "DamagedHelmet.glb"} {
		// ../shared is absent from a fresh clone: the fixtures still run.
		if data, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "testdata", name)); err == nil {
			models[name] = data
		}
	}
	for name, in := range models {
		t.Run(name, func(t *testing.T) {
			s := mustRead(t, in)
			out, err := WriteWith(s, WriteOptions{Draco: true})
			if err != nil {
				t.Fatal(err)
			}
			gltfcheck.RequireValid(t, out)
			plain, err := Write(s)
			if err != nil {
				t.Fatal(err)
			}
			// The fixtures are too small for the stream headers to pay.
			if _, fixture := scenetest.Fixtures()[name]; !fixture && len(out) >= len(plain) {
				t.Errorf("Draco %d bytes, plain %d", len(out), len(plain))
			}
			text, bin, _, err := splitContainer(out)
			if err != nil {
				t.Fatal(err)
			}
			var doc gltf.Document
			if err := json.Unmarshal(text, &doc); err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(doc.ExtensionsRequired, dracoExt) {
				t.Errorf("extensionsRequired %v", doc.ExtensionsRequired)
			}
			type prim struct {
				p  *Primitive
				gp *gltf.Primitive
			}
			var prims []prim
			var streams [][]byte
			for i, m := range s.Meshes {
				for j, p := range m.Primitives {
					gp := doc.Meshes[i].Primitives[j]
					raw, ok := gp.Extensions[dracoExt]
					if !ok {
						t.Errorf("mesh %d primitive %d is not compressed", i, j)
						continue
					}
					var ext struct {
						BufferView int            `json:"bufferView"`
						Attributes map[string]int `json:"attributes"`
					}
					b, _ := json.Marshal(raw)
					if err := json.Unmarshal(b, &ext); err != nil {
						t.Fatal(err)
					}
					for name, id := range ext.Attributes {
						a := doc.Accessors[gp.Attributes[name]]
						if a.BufferView != nil || a.Count != doc.Accessors[gp.Attributes[gltf.POSITION]].Count || id < 0 {
							t.Errorf("mesh %d primitive %d %s: view %v count %d", i, j, name, a.BufferView, a.Count)
						}
					}
					if ext.Attributes[gltf.POSITION] != 0 || doc.Accessors[*gp.Indices].BufferView != nil {
						t.Errorf("mesh %d primitive %d: POSITION id %d, indices view %v", i, j, ext.Attributes[gltf.POSITION], doc.Accessors[*gp.Indices].BufferView)
					}
					for k, target := range gp.Targets {
						if a := doc.Accessors[target[gltf.POSITION]]; a.BufferView == nil && a.Sparse == nil {
							t.Errorf("mesh %d primitive %d target %d has no data", i, j, k)
						}
					}
					v := doc.BufferViews[ext.BufferView]
					streams = append(streams, bin[v.ByteOffset:v.ByteOffset+v.ByteLength])
					prims = append(prims, prim{p, gp})
				}
			}
			for k, got := range dracotest.Decode(t, streams...) {
				p, gp := prims[k].p, prims[k].gp
				if got.Error != "" {
					t.Fatalf("primitive %d: %s", k, got.Error)
				}
				want := p.Indices
				if want == nil {
					want = make([]uint32, p.VertexCount())
					for i := range want {
						want[i] = uint32(i)
					}
				}
				if n := doc.Accessors[gp.Attributes[gltf.POSITION]].Count; got.Points != n {
					t.Fatalf("primitive %d: %d points decoded, accessors say %d", k, got.Points, n)
				}
				if len(p.Targets) == 0 && len(p.Custom) == 0 {
					// Edgebreaker may renumber the vertices: the same
					// triangles, by their corners' positions, and every
					// decoded vertex one of the primitive's.
					checkReordered(t, k, p, got, want)
					continue
				}
				if got.Points != p.VertexCount() || !dracotest.SameTriangles(got.Indices, want) {
					t.Fatalf("primitive %d: %d points of %d, same triangles %v", k, got.Points, p.VertexCount(), dracotest.SameTriangles(got.Indices, want))
				}
				pos := flat3(p.Positions)
				step := 0.0
				lo, hi := bounds(pos, 3)
				for c := range 3 {
					step = max(step, (hi[c]-lo[c])/float64(int(1)<<DracoBits.Position-1))
				}
				dlo, dhi := bounds(got.Attributes[0].Values, 3)
				acc := doc.Accessors[gp.Attributes[gltf.POSITION]]
				if !slices.Equal(dlo, acc.Min) || !slices.Equal(dhi, acc.Max) {
					t.Errorf("primitive %d: accessor bounds %v %v, decoded %v %v", k, acc.Min, acc.Max, dlo, dhi)
				}
				if p.Normals != nil {
					// Draco attribute 1: the normal, on the octahedral grid.
					tol := 2.5 / float64(int(1)<<(DracoBits.Normal-1)-1)
					want := flat3(unitNormals(p.Normals))
					for i, v := range want {
						if d := math.Abs(float64(got.Attributes[1].Values[i] - v)); d > tol {
							t.Fatalf("primitive %d normal %d: %v for %v", k, i/3, got.Attributes[1].Values[i], v)
						}
					}
				}
				for i, v := range pos {
					if d := math.Abs(float64(got.Attributes[0].Values[i] - v)); d > step*0.51+1e-6 {
						t.Fatalf("primitive %d position %d: %v for %v (step %v)", k, i, got.Attributes[0].Values[i], v, step)
					}
				}
			}
		})
	}
}

// checkReordered compares a primitive with its decoded stream whose
// vertices may be renumbered (and split at non-manifold vertices): the
// triangles, as the positions of their corners (dequantized as the
// decoder gives them), with their winding, are the same; each decoded
// vertex has the position and, within the octahedral grid's spacing, the
// normal of a vertex of the primitive at that position.
func checkReordered(t *testing.T, k int, p *Primitive, got dracotest.Mesh, want []uint32) {
	t.Helper()
	deq := draco.Dequantized(flat3(p.Positions), 3, DracoBits.Position)
	key := func(v []float32) [3]float32 { return [3]float32{v[0], v[1], v[2]} }
	tris := func(idx []uint32, pos []float32) [][9]float32 {
		var out [][9]float32
		for i := 0; i+2 < len(idx); i += 3 {
			a, b, c := key(pos[3*idx[i]:]), key(pos[3*idx[i+1]:]), key(pos[3*idx[i+2]:])
			if a == b || b == c || a == c {
				continue
			}
			// Start at the smallest corner, keeping the winding.
			for slices.Compare(b[:], a[:]) < 0 || slices.Compare(c[:], a[:]) < 0 {
				a, b, c = b, c, a
			}
			out = append(out, [9]float32{a[0], a[1], a[2], b[0], b[1], b[2], c[0], c[1], c[2]})
		}
		slices.SortFunc(out, func(x, y [9]float32) int { return slices.Compare(x[:], y[:]) })
		return out
	}
	if w, g := tris(want, deq), tris(got.Indices, got.Attributes[0].Values); !slices.Equal(w, g) {
		t.Fatalf("primitive %d: decoded triangles differ (%d against %d)", k, len(g), len(w))
	}
	normals := map[[3]float32][]float32{}
	var unit []float32
	if p.Normals != nil {
		unit = flat3(unitNormals(p.Normals))
	}
	for i := 0; i < p.VertexCount(); i++ {
		pk := key(deq[3*i:])
		if unit == nil {
			normals[pk] = nil
		} else {
			normals[pk] = append(normals[pk], unit[3*i:3*i+3]...)
		}
	}
	tol := 2.5 / float64(int(1)<<(DracoBits.Normal-1)-1)
	for i := 0; i < got.Points; i++ {
		ns, ok := normals[key(got.Attributes[0].Values[3*i:])]
		if !ok {
			t.Fatalf("primitive %d: decoded vertex %d at %v, no vertex there", k, i, got.Attributes[0].Values[3*i:3*i+3])
		}
		if unit == nil {
			continue
		}
		dn := got.Attributes[1].Values[3*i : 3*i+3]
		found := false
		for j := 0; j+2 < len(ns) && !found; j += 3 {
			found = math.Abs(float64(dn[0]-ns[j])) <= tol && math.Abs(float64(dn[1]-ns[j+1])) <= tol && math.Abs(float64(dn[2]-ns[j+2])) <= tol
		}
		if !found {
			t.Fatalf("primitive %d: decoded vertex %d normal %v, none of the primitive's there", k, i, dn)
		}
	}
}
