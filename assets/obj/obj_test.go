package obj

import (
	"errors"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/scene/scenetest"
	"github.com/kilnhq/kiln/internal/gltfcheck"
)

func fileSet(m map[string][]byte) func(string) ([]byte, error) {
	return func(name string) ([]byte, error) {
		if d, ok := m[name]; ok {
			return d, nil
		}
		return nil, errors.New("no such file")
	}
}

// writeValid writes the scene, checks it with the validator and reads it
// back.
func writeValid(t *testing.T, s *scene.Scene) *scene.Scene {
	t.Helper()
	out, err := scene.Write(s)
	if err != nil {
		t.Fatal(err)
	}
	gltfcheck.RequireValid(t, out)
	back, err := scene.Read(out, scene.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return back
}

func TestBunny(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "testdata", "bunny.obj"))
	if err != nil {
		t.Skipf("shared test model: %v", err)
	}
	s, err := Read(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	st := s.Stats()
	if st.Triangles != 27864 || st.Meshes != 1 || st.Primitives != 1 {
		t.Fatalf("bunny: %+v, want 27,864 triangles in one primitive", st)
	}
	p := s.Meshes[0].Primitives[0]
	if len(p.Normals) != p.VertexCount() || p.TexCoords != nil {
		t.Errorf("bunny: %d normals for %d vertices, texcoords %v", len(p.Normals), p.VertexCount(), p.TexCoords != nil)
	}
	back := writeValid(t, s)
	if got := back.Stats(); got != st {
		t.Errorf("after writing: %+v, want %+v", got, st)
	}
}

const cubeOBJ = `# a textured quad and a pentagon in two materials, in two objects
mtllib cube.mtl
o Quad
v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
vt 0 0
vt 1 0
vt 1 1
vt 0 1
vn 0 0 1
usemtl Painted
f 1/1/1 2/2/1 3/3/1 4/4/1
o Pentagon
v 0 0 1
v 1 0 1
v 1.5 1 1
v 0.5 1.5 1
v -0.5 1 1
usemtl Glass
f -5 -4 -3 -2 -1
usemtl Painted
f -5/1 -4/2 -3/3
`

const cubeMTL = `newmtl Painted
Kd 0.8 0.7 0.6
Ns 250
map_Kd -s 1 1 1 textures\checker.png
map_Bump -bm 0.5 normal.png
newmtl Glass
Kd 0.2 0.4 0.9
d 0.25
Ns 0
newmtl Unused
Kd 1 0 0
`

func TestOBJWithMaterialsAndTextures(t *testing.T) {
	checker := scenetest.PNG(4, 4, color.NRGBA{255, 0, 0, 255}, color.NRGBA{255, 255, 255, 255})
	normal := scenetest.PNG(2, 2, color.NRGBA{128, 128, 255, 255}, color.NRGBA{128, 128, 255, 255})
	files := fileSet(map[string][]byte{"cube.mtl": []byte(cubeMTL), "checker.png": checker, "normal.png": normal})
	s, err := Read([]byte(cubeOBJ), files)
	if err != nil {
		t.Fatal(err)
	}
	st := s.Stats()
	want := scene.Stats{Triangles: 6, Vertices: 12, Meshes: 2, Primitives: 3, Materials: 2, Textures: 2, Images: 2, DrawCalls: 3}
	if st != want {
		t.Errorf("stats:\n got  %+v\n want %+v", st, want)
	}
	if s.Nodes[0].Name != "Quad" || s.Meshes[1].Name != "Pentagon" {
		t.Errorf("names: %q %q", s.Nodes[0].Name, s.Meshes[1].Name)
	}
	painted, glass := s.Materials[0], s.Materials[1]
	if painted.Name != "Painted" || glass.Name != "Glass" {
		t.Fatalf("materials %q %q", painted.Name, glass.Name)
	}
	pbr := painted.PBRMetallicRoughness
	if *pbr.BaseColorFactor != [4]float64{0.8, 0.7, 0.6, 1} || *pbr.MetallicFactor != 0 || pbr.BaseColorTexture == nil || painted.NormalTexture == nil || *painted.NormalTexture.Scale != 0.5 {
		t.Errorf("Painted: %+v %+v", pbr, painted.NormalTexture)
	}
	if r := *pbr.RoughnessFactor; r < 0.29 || r > 0.31 {
		t.Errorf("Ns 250 gave roughness %v, want about 0.30", r)
	}
	if glass.AlphaMode != gltf.AlphaBlend || glass.PBRMetallicRoughness.BaseColorFactor[3] != 0.25 || *glass.PBRMetallicRoughness.RoughnessFactor < 0.99 {
		t.Errorf("Glass: %+v %+v", glass, glass.PBRMetallicRoughness)
	}
	if img := s.Images[*s.Textures[pbr.BaseColorTexture.Index].Source]; string(img.Data) != string(checker) || img.MimeType != "image/png" {
		t.Errorf("the base colour texture is not the checker")
	}
	quad := s.Meshes[0].Primitives[0]
	if quad.VertexCount() != 4 || quad.Triangles() != 2 || quad.TexCoords[0][0] != [2]float32{0, 1} || quad.Normals[2] != [3]float32{0, 0, 1} {
		t.Errorf("quad: %v %v %v", quad.Positions, quad.TexCoords, quad.Normals)
	}
	// The pentagon has no normals in the file: computed, facing +Z.
	pent := s.Meshes[1].Primitives[0]
	if pent.Triangles() != 3 || pent.VertexCount() != 5 || pent.Normals[0] != [3]float32{0, 0, 1} || *pent.Material != 1 {
		t.Errorf("pentagon: %d triangles, %d vertices, normal %v", pent.Triangles(), pent.VertexCount(), pent.Normals[0])
	}
	back := writeValid(t, s)
	if got := back.Stats(); got != st {
		t.Errorf("after writing: %+v, want %+v", got, st)
	}
	if img := back.Images[*back.Textures[back.Materials[0].PBRMetallicRoughness.BaseColorTexture.Index].Source]; string(img.Data) != string(checker) {
		t.Errorf("the written GLB lost the texture")
	}
}

func TestOBJVertexColours(t *testing.T) {
	s, err := Read([]byte("v 0 0 0 1 0 0\nv 1 0 0 0 1 0\nv 0 1 0 0 0 1\nf 1 2 3\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	p := s.Meshes[0].Primitives[0]
	if len(p.Colors) != 1 || p.Colors[0][1] != [4]float32{0, 1, 0, 1} {
		t.Errorf("colours %v", p.Colors)
	}
	writeValid(t, s)
}

func TestOBJRejectsBadInput(t *testing.T) {
	tests := []struct {
		name  string
		obj   string
		files map[string][]byte
		want  string
	}{
		{"empty", "", nil, "empty"},
		{"no faces", "v 0 0 0\nv 1 0 0\n", nil, "no faces"},
		{"index past the vertices", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n", nil, "line 4: vertex index 4 is out of range (there are 3 so far)"},
		{"index zero", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n", nil, "vertex index 0 is out of range"},
		{"negative past the start", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf -1 -2 -4\n", nil, "vertex index -4 is out of range"},
		{"bad texcoord", "v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nf 1/1 2/2 3/1\n", nil, "texture coordinate index 2 is out of range"},
		{"NaN", "v 0 nan 0\n", nil, `"nan" is not a finite number`},
		{"two-vertex face", "v 0 0 0\nv 1 0 0\nf 1 2\n", nil, "at least 3 vertices"},
		{"missing MTL", "mtllib a.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", nil, `material library "a.mtl" was not uploaded`},
		{"missing texture", "mtllib a.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", map[string][]byte{"a.mtl": []byte("newmtl A\nmap_Kd C:\\work\\wood.jpg\n")}, `texture "C:\\work\\wood.jpg" was not uploaded`},
		{"TGA texture", "mtllib a.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", map[string][]byte{"a.mtl": []byte("newmtl A\nmap_Kd wood.tga\n"), "wood.tga": {0, 0, 2, 0}}, `"wood.tga" is neither PNG, JPEG nor WebP`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var files func(string) ([]byte, error)
			if tt.files != nil {
				files = fileSet(tt.files)
			}
			_, err := Read([]byte(tt.obj), files)
			if err == nil {
				t.Fatal("accepted")
			}
			if code, msg := kiln.CodeOf(err); kiln.KindOf(err) != kiln.KindUnprocessable || code != "invalid_model" || !strings.Contains(msg, tt.want) {
				t.Errorf("got %v %s: %q\nwant a message containing %q", kiln.KindOf(err), code, msg, tt.want)
			}
		})
	}
}
