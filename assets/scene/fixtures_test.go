package scene

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"image/color"
	"slices"
	"testing"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln/assets/scene/scenetest"
	"github.com/kilnhq/kiln/internal/gltfcheck"
)

func TestFixturesAreValid(t *testing.T) {
	for name, glb := range scenetest.Fixtures() {
		t.Run(name, func(t *testing.T) { gltfcheck.RequireValid(t, glb) })
	}
}

func TestRoundTripFixtures(t *testing.T) {
	tests := []struct {
		name  string
		glb   []byte
		want  Stats
		check func(t *testing.T, s *Scene)
	}{
		{
			name: "skinned", glb: scenetest.Skinned(),
			want: Stats{Triangles: 4, Vertices: 6, Meshes: 1, Primitives: 1, Materials: 1, Textures: 1, Images: 1, Skins: 1, Joints: 2, Animations: 1, MorphTargets: 2, DrawCalls: 1},
			check: func(t *testing.T, s *Scene) {
				m := s.Meshes[0]
				if got := m.TargetNames(); !slices.Equal(got, []string{"mouthSmile", "mouthOpen"}) {
					t.Errorf("target names %v", got)
				}
				if !slices.Equal(m.Weights, []float64{0, 0.5}) {
					t.Errorf("mesh weights %v", m.Weights)
				}
				p := m.Primitives[0]
				if p.Joints[0][2] != [4]uint16{0, 1, 0, 0} || p.Weights[0][2] != [4]float32{0.5, 0.5, 0, 0} {
					t.Errorf("skin data of vertex 2: %v %v", p.Joints[0][2], p.Weights[0][2])
				}
				if p.Targets[1].Positions[2] != [3]float32{0, -0.3, 0} {
					t.Errorf("morph target delta %v", p.Targets[1].Positions[2])
				}
				sk := s.Skins[0]
				if sk.InverseBindMatrices[1][13] != -1 || s.Nodes[sk.Joints[1]].Name != "Spine" {
					t.Errorf("skin %+v", sk)
				}
				a := s.Animations[0]
				if a.Name != "Wave" || len(a.Channels) != 2 || a.Samplers[1].Interpolation != gltf.InterpolationStep || !slices.Equal(a.Samplers[1].Output, []float32{0, 0, 1, 0, 0, 1}) {
					t.Errorf("animation %+v", a)
				}
				if len(s.Images[0].Data) == 0 || s.Images[0].MimeType != "image/png" {
					t.Errorf("image lost")
				}
			},
		},
		{
			name: "quantized", glb: scenetest.Quantized(),
			want: Stats{Triangles: 4, Vertices: 6, Meshes: 1, Primitives: 1, Materials: 1, DrawCalls: 1},
			check: func(t *testing.T, s *Scene) {
				p := s.Meshes[0].Primitives[0]
				if p.Positions[5] != [3]float32{1000, 2000, 0} {
					t.Errorf("SHORT position read as %v, want its integer value", p.Positions[5])
				}
				if p.Normals[0] != [3]float32{0, 0, 1} {
					t.Errorf("normalized BYTE normal read as %v", p.Normals[0])
				}
				if uv := p.TexCoords[0][2]; uv[0] != 0 || uv[1] < 0.4999 || uv[1] > 0.5001 {
					t.Errorf("normalized USHORT texcoord read as %v", uv)
				}
				if s.Nodes[0].Scale != [3]float64{0.001, 0.001, 0.001} {
					t.Errorf("the dequantizing node scale was lost")
				}
			},
		},
		{
			name: "sparse", glb: scenetest.Sparse(),
			want: Stats{Triangles: 4, Vertices: 6, Meshes: 1, Primitives: 1, MorphTargets: 1, DrawCalls: 1},
			check: func(t *testing.T, s *Scene) {
				p := s.Meshes[0].Primitives[0]
				if p.Positions[5] != [3]float32{1, 2, 0.25} || p.Positions[4] != [3]float32{0, 2, 0} {
					t.Errorf("sparse substitution: %v %v", p.Positions[4], p.Positions[5])
				}
				if p.Targets[0].Positions[4] != [3]float32{0, 0, 0.5} || p.Targets[0].Positions[0] != [3]float32{} {
					t.Errorf("sparse morph target: %v", p.Targets[0].Positions)
				}
			},
		},
		{
			name: "interleaved", glb: scenetest.Interleaved(),
			// Each primitive keeps only the 4 vertices it indexes of the
			// 6 it shares; the two nodes draw the mesh twice.
			want: Stats{Triangles: 4, Vertices: 8, Meshes: 1, Primitives: 2, Materials: 2, DrawCalls: 4},
			check: func(t *testing.T, s *Scene) {
				up := s.Meshes[0].Primitives[1]
				if up.Positions[0] != [3]float32{0, 1, 0} || up.TexCoords[0][3] != [2]float32{1, 0} || !slices.Equal(up.Indices, []uint32{0, 1, 3, 0, 3, 2}) {
					t.Errorf("upper primitive: %v %v %v", up.Positions, up.TexCoords[0], up.Indices)
				}
				if up.Normals[3] != [3]float32{0, 0, 1} {
					t.Errorf("interleaved normal %v", up.Normals[3])
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before, after, out, _ := roundTrip(t, tt.glb)
			if got := before.Stats(); got != tt.want {
				t.Errorf("stats of the fixture:\n got  %+v\n want %+v", got, tt.want)
			}
			if got := after.Stats(); got != tt.want {
				t.Errorf("stats after a round trip:\n got  %+v\n want %+v", got, tt.want)
			}
			sameStructure(t, before, after)
			tt.check(t, before)
			tt.check(t, after)
			// Quantized input stays quantized (Write keeps the values on
			// their integer grid); float input never gains the extension.
			if quantized := tt.name == "quantized"; bytes.Contains(out, []byte("KHR_mesh_quantization")) != quantized {
				t.Errorf("KHR_mesh_quantization in the output: %v, want %v", !quantized, quantized)
			}
		})
	}
}

// splitGLB turns a GLB into a .gltf whose buffer is model.bin and whose
// images are image<N>.png, as a multi-file upload has them; with inline
// set, they become data URIs instead.
func splitGLB(t *testing.T, glb []byte, inline bool) ([]byte, map[string][]byte) {
	t.Helper()
	doc := new(gltf.Document)
	if err := gltf.NewDecoder(bytes.NewReader(glb)).Decode(doc); err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	uri := func(name, mime string, data []byte) string {
		if inline {
			return "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(data)
		}
		files[name] = data
		return name
	}
	bin := doc.Buffers[0].Data
	for i, im := range doc.Images {
		v := doc.BufferViews[*im.BufferView]
		im.URI = uri("image"+string(rune('0'+i))+".png", "image/png", bin[v.ByteOffset:v.ByteOffset+v.ByteLength])
		im.BufferView, im.MimeType = nil, ""
	}
	doc.Buffers[0].URI = uri("model.bin", "application/octet-stream", bin)
	text, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return text, files
}

func TestReadGLTFWithFiles(t *testing.T) {
	glb := scenetest.Skinned()
	want, err := Read(glb, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Run("data URIs", func(t *testing.T) {
		text, _ := splitGLB(t, glb, true)
		s, err := Read(text, ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		sameStructure(t, want, s)
	})
	t.Run("external files", func(t *testing.T) {
		text, files := splitGLB(t, glb, false)
		var asked []string
		s, err := Read(text, ReadOptions{Files: func(name string) ([]byte, error) {
			asked = append(asked, name)
			if d, ok := files[name]; ok {
				return d, nil
			}
			return nil, errors.New("no such file")
		}})
		if err != nil {
			t.Fatal(err)
		}
		sameStructure(t, want, s)
		slices.Sort(asked)
		if !slices.Equal(asked, []string{"image0.png", "model.bin"}) {
			t.Errorf("files asked for: %v", asked)
		}
		out, err := Write(s)
		if err != nil {
			t.Fatal(err)
		}
		gltfcheck.RequireValid(t, out)
	})
}

func scenetestPNG() []byte {
	return scenetest.PNG(2, 2, color.NRGBA{0, 0, 0, 255}, color.NRGBA{255, 255, 255, 255})
}

// jsonOf decodes the JSON chunk of a GLB written by Write.
func jsonOf(glb []byte, doc *gltf.Document) error {
	text, _, _, err := splitContainer(glb)
	if err != nil {
		return err
	}
	return json.Unmarshal(text, doc)
}
