package assets

import (
	"archive/zip"
	"bytes"
	"strings"
	"testing"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/internal/fixture"
)

// gltfSet splits the cube fixture into a .gltf and its external .bin.
func gltfSet(t *testing.T) (gltfJSON, bin []byte) {
	t.Helper()
	var doc gltf.Document
	if err := gltf.NewDecoder(bytes.NewReader(fixture.CubeGLB())).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	bin = doc.Buffers[0].Data
	doc.Buffers[0].URI = "bin/cube.bin"
	var b bytes.Buffer
	enc := gltf.NewEncoder(&b)
	enc.AsBinary = false
	if err := enc.Encode(&doc); err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), bin
}

func zipOf(t testing.TB, files map[string][]byte) []byte {
	t.Helper()
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	for name, data := range files {
		f, err := w.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		f.Write(data)
	}
	w.Close()
	return b.Bytes()
}

const objCube = `mtllib cube.mtl
v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
vt 0 0
vt 1 0
vt 1 1
vt 0 1
usemtl red
f 1/1 2/2 3/3 4/4
`

const mtlRed = "newmtl red\nKd 1 0 0\n"

func TestReadUpload(t *testing.T) {
	gj, bin := gltfSet(t)
	for _, tc := range []struct {
		name      string
		ext       string
		data      []byte
		triangles int
		materials int
	}{
		{"glb", "glb", fixture.CubeGLB(), 12, 1},
		{"gltf set as zip", "gltf", zipOf(t, map[string][]byte{"scene/cube.gltf": gj, "scene/bin/cube.bin": bin}), 12, 1},
		{"obj alone", "obj", []byte(strings.TrimPrefix(objCube, "mtllib cube.mtl\n")), 2, 1},
		{"obj with mtl as zip", "obj", zipOf(t, map[string][]byte{"cube.obj": []byte(objCube), "cube.mtl": []byte(mtlRed)}), 2, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := ReadUpload(tc.data, tc.ext)
			if err != nil {
				t.Fatal(err)
			}
			if st := s.Stats(); st.Triangles != tc.triangles || st.Materials != tc.materials {
				t.Fatalf("stats %+v", st)
			}
		})
	}
}

func TestReadUploadRejects(t *testing.T) {
	gj, bin := gltfSet(t)
	for _, tc := range []struct {
		name, ext string
		data      []byte
		want      string
	}{
		{"empty", "glb", nil, "empty"},
		{"gltf without its bin", "gltf", gj, "not uploaded"},
		{"zip without the bin", "gltf", zipOf(t, map[string][]byte{"cube.gltf": gj}), "not uploaded"},
		{"zip with two models", "gltf", zipOf(t, map[string][]byte{"a.gltf": gj, "b.gltf": gj, "bin/cube.bin": bin}), "more than one"},
		{"zip with no model", "obj", zipOf(t, map[string][]byte{"cube.gltf": gj}), "no .obj file"},
		{"zip slip", "gltf", zipOf(t, map[string][]byte{"../cube.gltf": gj}), "leaves the archive"},
		{"broken zip", "glb", []byte("PK\x03\x04 and then nothing"), "cannot be read"},
		{"unsupported", "fbx", []byte("x"), "not processed"},
		{"obj without its mtl", "obj", []byte(objCube), "not uploaded"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadUpload(tc.data, tc.ext)
			if kiln.KindOf(err) != kiln.KindUnprocessable || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want unprocessable with %q", err, tc.want)
			}
		})
	}
}
