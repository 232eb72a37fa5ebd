package assets

import (
	"bytes"
	"image"
	"image/png"
	"strings"
	"testing"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/internal/fixture"
)

// texturedGLB is a quad whose n textures all use one w×h PNG.
func texturedGLB(t *testing.T, w, h, n int) []byte {
	t.Helper()
	var p bytes.Buffer
	if err := png.Encode(&p, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return imageGLB(t, p.Bytes(), n)
}

// imageGLB is a quad whose n textures all use the PNG file data.
func imageGLB(t *testing.T, data []byte, n int) []byte {
	t.Helper()
	zero := 0
	s := &scene.Scene{Asset: gltf.Asset{Version: "2.0"}, Images: []*scene.Image{{MimeType: "image/png", Data: data}}}
	mesh := &scene.Mesh{}
	for i := range n {
		m := i
		mesh.Primitives = append(mesh.Primitives, &scene.Primitive{Mode: gltf.PrimitiveTriangles, Material: &m,
			Indices:   []uint32{0, 1, 2, 0, 2, 3},
			Positions: [][3]float32{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}},
			TexCoords: [][][2]float32{{{0, 1}, {1, 1}, {1, 0}, {0, 0}}}})
		s.Materials = append(s.Materials, &gltf.Material{PBRMetallicRoughness: &gltf.PBRMetallicRoughness{BaseColorTexture: &gltf.TextureInfo{Index: i}}})
		s.Textures = append(s.Textures, &gltf.Texture{Source: &zero})
	}
	s.Meshes = []*scene.Mesh{mesh}
	s.Nodes = []*gltf.Node{{Mesh: &zero}}
	s.Scenes = []*gltf.Scene{{Nodes: []int{0}}}
	s.DefaultScene = &zero
	glb, err := scene.Write(s)
	if err != nil {
		t.Fatal(err)
	}
	return glb
}

// instancedGLB is a cube drawn by n nodes.
func instancedGLB(t *testing.T, n int) []byte {
	t.Helper()
	s, err := Read(fixture.CubeGLB())
	if err != nil {
		t.Fatal(err)
	}
	zero := 0
	s.Nodes, s.Scenes = nil, []*gltf.Scene{{}}
	for i := range n {
		s.Nodes = append(s.Nodes, &gltf.Node{Mesh: &zero, Translation: [3]float64{float64(i), 0, 0}})
		s.Scenes[0].Nodes = append(s.Scenes[0].Nodes, i)
	}
	glb, err := scene.Write(s)
	if err != nil {
		t.Fatal(err)
	}
	return glb
}

func TestEstimate(t *testing.T) {
	stacked := "v 0 0 0\nv 1 0 0\nv 0 1 0\n" + strings.Repeat("f 1 2 3\n", 100000)
	tests := []struct {
		name       string
		data       []byte
		ext        string
		tris, vert int64
		pixels     int64
		drawn      int64
	}{
		{"stacked OBJ", []byte(stacked), "obj", 100000, 3, 0, 100000},
		{"stacked OBJ zipped", zipOf(t, map[string][]byte{"m.obj": []byte(stacked)}), "obj", 100000, 3, 0, 100000},
		{"quads and a pentagon", []byte("v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 2 0\n  f 1 2 3 4\nf 1 2 3 4 5\n# f 1 2 3\n"), "obj", 5, 5, 0, 5},
		{"cube GLB", fixture.CubeGLB(), "glb", 12, 24, 0, 12},
		{"one image, many textures", texturedGLB(t, 300, 200, 5), "glb", 10, 20, 300 * 200, 10},
		{"a cube drawn by 10,000 nodes", instancedGLB(t, 10000), "glb", 12, 24, 0, 120000},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n, err := Estimate(tc.data, tc.ext)
			if err != nil {
				t.Fatal(err)
			}
			if n.Triangles != tc.tris || n.Vertices != tc.vert || n.Pixels != tc.pixels || n.Drawn != tc.drawn {
				t.Fatalf("need %+v, want %d triangles, %d vertices, %d pixels, %d drawn", n, tc.tris, tc.vert, tc.pixels, tc.drawn)
			}
			if n.Bytes < baseBytes+tc.tris*bytesPerTri+(tc.drawn-tc.tris)*bytesPerDrawn {
				t.Fatalf("need %d bytes, less than its triangles alone", n.Bytes)
			}
			if err := n.OverBudget(n.Bytes); err != nil {
				t.Fatalf("need is over a budget of itself: %v", err)
			}
			err = n.OverBudget(n.Bytes - 1)
			if code, msg := kiln.CodeOf(err); code != "over_memory_budget" || kiln.KindOf(err) != kiln.KindUnprocessable || !strings.Contains(msg, "KILN_JOB_MEMORY") {
				t.Fatalf("over budget: %v", err)
			}
		})
	}
	if _, err := Estimate([]byte("glTF\x02\x00\x00\x00"), "glb"); kiln.KindOf(err) != kiln.KindUnprocessable {
		t.Fatalf("a cut GLB: %v", err)
	}
}
