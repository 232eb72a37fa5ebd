package quantize_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln/assets/quantize"
	"github.com/kilnhq/kiln/assets/render"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/scene/scenetest"
	"github.com/kilnhq/kiln/internal/gltfcheck"
)

const shared = "../../../shared/testdata"

// models are the generated meshes (skinned, morphed, quantized, sparse)
// and, when ../shared is there, the third-party avatars and props.
func models(t *testing.T) map[string][]byte {
	out := map[string][]byte{}
	for name, glb := range scenetest.Meshes() {
		out[name] = glb
	}
	for name, glb := range scenetest.Fixtures() {
		out["fixture-"+name] = glb
	}
	for _, name := range []string{"RobotExpressive", "rpm-avatar-casual", "rpm-avatar-office", "DamagedHelmet", "ShapeCollection", "chr_knight"} {
		data, err := os.ReadFile(filepath.Join(shared, name+".glb"))
		if err != nil {
			t.Logf("%s: %v (../shared absent: generated models only)", name, err)
			continue
		}
		out[name] = data
	}
	return out
}

func read(t *testing.T, glb []byte) *scene.Scene {
	t.Helper()
	s, err := scene.Read(glb, scene.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestQuantizeError: every vertex of every drawn mesh, placed in the
// world at rest (node transforms and skins applied, which is where the
// grids were folded), stays within the position grid's half step of its
// source; normals within the 8-bit octahedral error; weights sum to 1.
func TestQuantizeError(t *testing.T) {
	for name, glb := range models(t) {
		t.Run(name, func(t *testing.T) {
			src := read(t, glb)
			q := read(t, glb)
			quantize.Apply(q, quantize.Options{})
			before, after := world(src), world(q)
			if len(before) != len(after) {
				t.Fatalf("%d drawn vertices before, %d after", len(before), len(after))
			}
			extent := extentOf(before)
			worst := 0.0
			for i := range before {
				worst = math.Max(worst, dist(before[i], after[i]))
			}
			// Rounding each coordinate moves a vertex by at most √3/2 of a
			// step of the 14-bit grid; skinned meshes share one grid in
			// bind space, where a joint may scale them, so the bound in
			// the world is two steps of the world extent.
			if limit := extent / 16383 * 2; worst > limit {
				t.Errorf("worst position error %.3g, more than two grid steps %.3g (extent %.3g)", worst, limit, extent)
			}
			for mi, m := range q.Meshes {
				for pi, p := range m.Primitives {
					for vi, n := range p.Normals {
						o := src.Meshes[mi].Primitives[pi].Normals[vi]
						if l := math.Sqrt(sq(o)); l > 0.5 && dist(n, scale(o, 1/l)) > 0.02 {
							t.Fatalf("mesh %d primitive %d normal %d: %v, source %v", mi, pi, vi, n, o)
						}
					}
					for _, w := range p.Weights {
						for vi, e := range w {
							var sum float64
							for _, x := range e {
								sum += float64(x) * 255
							}
							if math.Abs(sum-255) > 1e-3 && sum != 0 {
								t.Fatalf("weights of vertex %d sum to %v/255", vi, sum)
							}
						}
					}
				}
			}
			t.Logf("%d vertices, worst error %.3g of extent %.3g", len(before), worst, extent)
		})
	}
}

// TestWriteQuantizedAndCompressed: the quantized scene written plain and
// with EXT_meshopt_compression validates with zero errors, both read back
// to the same streams (the codecs are lossless, filters within one unit),
// the compressed file is the smaller, and it draws like the source.
func TestWriteQuantizedAndCompressed(t *testing.T) {
	for name, glb := range models(t) {
		t.Run(name, func(t *testing.T) {
			s := read(t, glb)
			quantize.Apply(s, quantize.Options{})
			if err := s.Weld(); err != nil {
				t.Fatal(err)
			}
			s.OptimizeOrder()
			plain, err := scene.Write(s)
			if err != nil {
				t.Fatal(err)
			}
			packed, err := scene.WriteWith(s, scene.WriteOptions{Meshopt: true})
			if err != nil {
				t.Fatal(err)
			}
			gltfcheck.RequireValid(t, plain)
			r := gltfcheck.RequireValid(t, packed)
			// Past tiny fixtures, where each view's fixed cost dominates,
			// compression must pay.
			if len(plain) > 20000 && len(packed) > len(plain) {
				t.Errorf("compressed %d bytes, plain quantized %d", len(packed), len(plain))
			}
			a, b := read(t, plain), read(t, packed)
			same(t, a, b)
			if a.Stats() != b.Stats() {
				t.Errorf("stats differ: %+v vs %+v", a.Stats(), b.Stats())
			}
			t.Logf("source %d, quantized %d, meshopt %d bytes; validator: %d warnings", len(glb), len(plain), len(packed), r.NumWarnings)
			// Kiln reads its own compressed output and writes it again.
			again, err := scene.WriteWith(b, scene.WriteOptions{Meshopt: true})
			if err != nil {
				t.Fatal(err)
			}
			gltfcheck.RequireValid(t, again)
			pictures(t, read(t, glb), b)
		})
	}
}

// same compares the streams of two reads of one scene: exact, except
// normals and tangents (octahedral filter) and rotations (quaternion
// filter), within one unit of their 8- or 16-bit grid.
func same(t *testing.T, a, b *scene.Scene) {
	t.Helper()
	for mi, m := range a.Meshes {
		for pi, p := range m.Primitives {
			o := b.Meshes[mi].Primitives[pi]
			if !slices.Equal(p.Positions, o.Positions) {
				t.Fatalf("mesh %d primitive %d: positions differ", mi, pi)
			}
			if !sameTriangles(p.Indices, o.Indices) {
				t.Fatalf("mesh %d primitive %d: other triangles", mi, pi)
			}
			for i := range p.TexCoords {
				if !slices.Equal(p.TexCoords[i], o.TexCoords[i]) {
					t.Fatalf("mesh %d primitive %d: TEXCOORD_%d differs", mi, pi, i)
				}
			}
			for i := range p.Weights {
				if !slices.Equal(p.Weights[i], o.Weights[i]) || !slices.Equal(p.Joints[i], o.Joints[i]) {
					t.Fatalf("mesh %d primitive %d: skin streams differ", mi, pi)
				}
			}
			for i := range p.Normals {
				if dist(p.Normals[i], o.Normals[i]) > 1.8/127 {
					t.Fatalf("mesh %d primitive %d normal %d: %v vs %v", mi, pi, i, p.Normals[i], o.Normals[i])
				}
			}
			for ti, tg := range p.Targets {
				if !slices.Equal(tg.Positions, o.Targets[ti].Positions) || !slices.Equal(tg.Normals, o.Targets[ti].Normals) {
					t.Fatalf("mesh %d primitive %d target %d differs", mi, pi, ti)
				}
			}
		}
	}
	for ai, an := range a.Animations {
		for si, sm := range an.Samplers {
			o := b.Animations[ai].Samplers[si]
			if !slices.Equal(sm.Input, o.Input) || len(sm.Output) != len(o.Output) {
				t.Fatalf("animation %d sampler %d: keys differ", ai, si)
			}
			// A rotation key may come back as -q, the same rotation.
			width := 1
			for _, c := range an.Channels {
				if c.Sampler == si && c.Path == gltf.TRSRotation {
					width = 4
				}
			}
			for k := 0; k+width <= len(sm.Output); k += width {
				near := func(sign float32) bool {
					for c := k; c < k+width; c++ {
						if math.Abs(float64(sm.Output[c]-sign*o.Output[c])) > 1.01/32767 {
							return false
						}
					}
					return true
				}
				if !near(1) && !(width == 4 && near(-1)) {
					t.Fatalf("animation %d sampler %d key %d: %v vs %v", ai, si, k/width, sm.Output[k:k+width], o.Output[k:k+width])
				}
			}
		}
	}
}

// sameTriangles compares index lists up to the rotation of each
// triangle's corners, which the triangle codec may choose and which keeps
// the winding.
func sameTriangles(a, b []uint32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i+3 <= len(a); i += 3 {
		x, y := a[i:i+3], b[i:i+3]
		if !slices.Equal(x, y) && !(x[0] == y[1] && x[1] == y[2] && x[2] == y[0]) && !(x[0] == y[2] && x[1] == y[0] && x[2] == y[1]) {
			return false
		}
	}
	return len(a)%3 == 0 || slices.Equal(a[len(a)/3*3:], b[len(b)/3*3:])
}

// pictures renders the source and the decoded compressed scene: the
// model covers the same pixels and looks the same.
func pictures(t *testing.T, src, got *scene.Scene) {
	t.Helper()
	a, err := render.Render(context.Background(), src, render.Options{Size: 128})
	if err != nil {
		t.Fatal(err)
	}
	b, err := render.Render(context.Background(), got, render.Options{Size: 128})
	if err != nil {
		t.Fatal(err)
	}
	var covA, covB, diff, n float64
	for i := 0; i < len(a.Pix); i += 4 {
		if a.Pix[i+3] > 0 {
			covA++
		}
		if b.Pix[i+3] > 0 {
			covB++
		}
		if a.Pix[i+3] > 0 && b.Pix[i+3] > 0 {
			for k := 0; k < 3; k++ {
				diff += math.Abs(float64(a.Pix[i+k]) - float64(b.Pix[i+k]))
			}
			n += 3
		}
	}
	if covA == 0 {
		return // nothing drawn (a fixture without triangles)
	}
	if math.Abs(covA-covB)/covA > 0.02 {
		t.Errorf("coverage %v pixels before, %v after", covA, covB)
	}
	if n > 0 && diff/n > 3 {
		t.Errorf("mean colour difference %.2f of 255 where both drew", diff/n)
	}
}

// world returns the rest position of every vertex of every drawn
// primitive: skinned vertices through their joints' global matrices and
// inverse bind matrices, others through their node's global matrix.
func world(s *scene.Scene) [][3]float32 {
	global := make([][16]float64, len(s.Nodes))
	done := make([]bool, len(s.Nodes))
	parent := make([]int, len(s.Nodes))
	for i := range parent {
		parent[i] = -1
	}
	for i, n := range s.Nodes {
		for _, c := range n.Children {
			parent[c] = i
		}
	}
	var get func(i int) [16]float64
	get = func(i int) [16]float64 {
		if !done[i] {
			m := local(s.Nodes[i])
			if parent[i] >= 0 {
				m = mul(get(parent[i]), m)
			}
			global[i], done[i] = m, true
		}
		return global[i]
	}
	var out [][3]float32
	for i, n := range s.Nodes {
		if n.Mesh == nil {
			continue
		}
		var joints [][16]float64
		if n.Skin != nil {
			sk := s.Skins[*n.Skin]
			for j, node := range sk.Joints {
				ibm := identity
				if sk.InverseBindMatrices != nil {
					for k := range ibm {
						ibm[k] = float64(sk.InverseBindMatrices[j][k])
					}
				}
				joints = append(joints, mul(get(node), ibm))
			}
		}
		for _, p := range s.Meshes[*n.Mesh].Primitives {
			for v, pos := range p.Positions {
				if joints == nil {
					out = append(out, apply(get(i), pos))
					continue
				}
				var acc [3]float32
				for set := range p.Joints {
					for k := 0; k < 4; k++ {
						w := p.Weights[set][v][k]
						if w == 0 {
							continue
						}
						q := apply(joints[p.Joints[set][v][k]], pos)
						for c := 0; c < 3; c++ {
							acc[c] += w * q[c]
						}
					}
				}
				out = append(out, acc)
			}
		}
	}
	return out
}

var identity = [16]float64{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}

func local(n *gltf.Node) [16]float64 {
	if n.Matrix != [16]float64{} && n.Matrix != identity {
		return n.Matrix
	}
	t, r, sc := n.TranslationOrDefault(), n.RotationOrDefault(), n.ScaleOrDefault()
	x, y, z, w := r[0], r[1], r[2], r[3]
	rot := [9]float64{
		1 - 2*(y*y+z*z), 2 * (x*y + z*w), 2 * (x*z - y*w),
		2 * (x*y - z*w), 1 - 2*(x*x+z*z), 2 * (y*z + x*w),
		2 * (x*z + y*w), 2 * (y*z - x*w), 1 - 2*(x*x+y*y),
	}
	var m [16]float64
	for c := 0; c < 3; c++ {
		for r := 0; r < 3; r++ {
			m[c*4+r] = rot[c*3+r] * sc[c]
		}
	}
	m[12], m[13], m[14], m[15] = t[0], t[1], t[2], 1
	return m
}

func mul(a, b [16]float64) [16]float64 {
	var out [16]float64
	for c := 0; c < 4; c++ {
		for r := 0; r < 4; r++ {
			for k := 0; k < 4; k++ {
				out[c*4+r] += a[k*4+r] * b[c*4+k]
			}
		}
	}
	return out
}

func apply(m [16]float64, p [3]float32) [3]float32 {
	var out [3]float32
	for r := 0; r < 3; r++ {
		out[r] = float32(m[r]*float64(p[0]) + m[4+r]*float64(p[1]) + m[8+r]*float64(p[2]) + m[12+r])
	}
	return out
}

func extentOf(v [][3]float32) float64 {
	lo := [3]float64{math.Inf(1), math.Inf(1), math.Inf(1)}
	hi := [3]float64{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
	for _, p := range v {
		for k := 0; k < 3; k++ {
			lo[k], hi[k] = math.Min(lo[k], float64(p[k])), math.Max(hi[k], float64(p[k]))
		}
	}
	return math.Max(hi[0]-lo[0], math.Max(hi[1]-lo[1], hi[2]-lo[2]))
}

func dist(a, b [3]float32) float64 {
	var d float64
	for k := 0; k < 3; k++ {
		x := float64(a[k] - b[k])
		d += x * x
	}
	return math.Sqrt(d)
}

func sq(a [3]float32) float64 {
	return float64(a[0])*float64(a[0]) + float64(a[1])*float64(a[1]) + float64(a[2])*float64(a[2])
}

func scale(a [3]float32, f float64) [3]float32 {
	return [3]float32{float32(float64(a[0]) * f), float32(float64(a[1]) * f), float32(float64(a[2]) * f)}
}
