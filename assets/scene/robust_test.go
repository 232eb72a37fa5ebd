package scene

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/scene/scenetest"
)

// editGLB rewrites the JSON of a GLB (keeping its binary chunk) and lets
// edit change the binary chunk too.
func editGLB(t testing.TB, glbData []byte, edit func(doc map[string]any, bin []byte)) []byte {
	t.Helper()
	text, bin, _, err := splitContainer(glbData)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(text, &doc); err != nil {
		t.Fatal(err)
	}
	bin = append([]byte(nil), bin...)
	edit(doc, bin)
	text, err = json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return glb(text, bin)
}

// at walks doc by keys and indices: at(doc, "accessors", 0).
func at(doc any, path ...any) map[string]any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			doc = doc.(map[string]any)[k]
		case int:
			doc = doc.([]any)[k]
		}
	}
	return doc.(map[string]any)
}

// dataOffset is where accessor i's first element is in the binary chunk.
func dataOffset(doc map[string]any, i int) int {
	acc := at(doc, "accessors", i)
	v := at(doc, "bufferViews", int(acc["bufferView"].(float64)))
	off, _ := v["byteOffset"].(float64)
	aoff, _ := acc["byteOffset"].(float64)
	return int(off + aoff)
}

// accessorOf finds the accessor of a primitive attribute of mesh 0.
func accessorOf(doc map[string]any, attr string) int {
	p := at(doc, "meshes", 0, "primitives", 0)
	if attr == "indices" {
		return int(p["indices"].(float64))
	}
	return int(p["attributes"].(map[string]any)[attr].(float64))
}

func header(magic, version, length uint32) []byte {
	b := binary.LittleEndian.AppendUint32(nil, magic)
	b = binary.LittleEndian.AppendUint32(b, version)
	return binary.LittleEndian.AppendUint32(b, length)
}

func TestReadRejectsBadInput(t *testing.T) {
	good := scenetest.Skinned()
	edit := func(f func(doc map[string]any, bin []byte)) []byte { return editGLB(t, good, f) }
	tests := []struct {
		name string
		data []byte
		opts ReadOptions
		want string
	}{
		{"empty", nil, ReadOptions{}, "the file is empty"},
		{"not a model", []byte("PK\x03\x04 a zip file"), ReadOptions{}, "neither a GLB nor glTF JSON"},
		{"header only", good[:10], ReadOptions{}, "header is incomplete"},
		{"truncated", good[:len(good)/2], ReadOptions{}, "truncated GLB"},
		{"version 1", append(header(glbMagic, 1, 20), make([]byte, 8)...), ReadOptions{}, "GLB version 1 is not supported"},
		{"chunk longer than the file", append(header(glbMagic, 2, 24), 0xFF, 0xFF, 0, 0, 'J', 'S', 'O', 'N', '{', '}', ' ', ' '), ReadOptions{}, "GLB chunk 0 declares 65535 bytes"},
		{"first chunk not JSON", append(header(glbMagic, 2, 24), 4, 0, 0, 0, 'B', 'I', 'N', 0, 1, 2, 3, 4), ReadOptions{}, "first GLB chunk is not JSON"},
		{"JSON syntax", []byte(`{"asset": {"version": "2.0"`), ReadOptions{}, "the glTF JSON is invalid"},
		{"no asset", []byte(`{"meshes": []}`), ReadOptions{}, "asset is required"},
		{"glTF 1.0", []byte(`{"asset": {"version": "1.0"}}`), ReadOptions{}, `glTF version "1.0" is not supported`},
		{"accessor past its view", edit(func(doc map[string]any, _ []byte) {
			at(doc, "accessors", accessorOf(doc, "NORMAL"))["byteOffset"] = 4000
		}), ReadOptions{}, "(NORMAL of mesh 0 primitive 0) reads past the end of buffer view"},
		{"view past its buffer", edit(func(doc map[string]any, _ []byte) {
			at(doc, "bufferViews", 2)["byteLength"] = 1e6
		}), ReadOptions{}, "buffer view 2 (bytes"},
		{"missing buffer view", edit(func(doc map[string]any, _ []byte) {
			at(doc, "accessors", accessorOf(doc, "TEXCOORD_0"))["bufferView"] = 99
		}), ReadOptions{}, "(TEXCOORD_0 of mesh 0 primitive 0) refers to buffer view 99, which does not exist"},
		{"index out of range", edit(func(doc map[string]any, bin []byte) {
			binary.LittleEndian.PutUint16(bin[dataOffset(doc, accessorOf(doc, "indices"))+4:], 600)
		}), ReadOptions{}, "has index 600 at position 2, but the primitive has 6 vertices"},
		{"NaN position", edit(func(doc map[string]any, bin []byte) {
			binary.LittleEndian.PutUint32(bin[dataOffset(doc, accessorOf(doc, "POSITION"))+12:], math.Float32bits(float32(math.NaN())))
		}), ReadOptions{}, "(POSITION of mesh 0 primitive 0) holds NaN at element 1"},
		{"infinite normal", edit(func(doc map[string]any, bin []byte) {
			binary.LittleEndian.PutUint32(bin[dataOffset(doc, accessorOf(doc, "NORMAL")):], math.Float32bits(float32(math.Inf(1))))
		}), ReadOptions{}, "(NORMAL of mesh 0 primitive 0) holds +Inf at element 0"},
		{"absurd count", edit(func(doc map[string]any, _ []byte) {
			// No buffer view: the data would be all zeros, costing nothing
			// in the file but hundreds of MB decoded.
			for _, a := range []string{"POSITION", "NORMAL", "TEXCOORD_0", "JOINTS_0", "WEIGHTS_0"} {
				acc := at(doc, "accessors", accessorOf(doc, a))
				delete(acc, "bufferView")
				acc["count"] = 8e6
			}
			delete(at(doc, "meshes", 0, "primitives", 0), "indices")
			delete(at(doc, "meshes", 0, "primitives", 0), "targets")
			delete(at(doc, "meshes", 0), "weights")
			delete(doc, "animations")
		}), ReadOptions{}, "needs more memory than a model of"},
		{"count past the hard limit", edit(func(doc map[string]any, _ []byte) {
			acc := at(doc, "accessors", int(at(doc, "skins", 0)["inverseBindMatrices"].(float64)))
			delete(acc, "bufferView")
			acc["count"] = 4e9
		}), ReadOptions{}, "(inverse bind matrices of skin 0) has 4000000000 elements; at most"},
		{"vertices past the limit", edit(func(doc map[string]any, _ []byte) {
			acc := at(doc, "accessors", accessorOf(doc, "POSITION"))
			delete(acc, "bufferView")
			acc["count"] = 4e9
		}), ReadOptions{}, "(POSITION of mesh 0 primitive 0) has 4000000000 vertices; at most 8388608"},
		{"too many vertices", scenetest.Interleaved(), ReadOptions{MaxVertices: 6}, "the model has more than 6 vertices"},
		{"too many vertices in one accessor", good, ReadOptions{MaxVertices: 5}, "has 6 vertices; at most 5"},
		{"too many indices", good, ReadOptions{MaxVertices: 100, MaxIndices: 11}, "more than 11 indices"},
		{"image bytes", good, ReadOptions{MaxImageBytes: 10}, "images take more than 10 bytes"},
		{"sparse index out of range", editGLB(t, scenetest.Sparse(), func(doc map[string]any, _ []byte) {
			at(doc, "accessors", 0, "sparse")["count"] = 5
		}), ReadOptions{}, "sparse indices of accessor 0 (POSITION of mesh 0 primitive 0) read past the end"},
		{"Draco required", edit(func(doc map[string]any, _ []byte) {
			doc["extensionsUsed"] = []any{"KHR_draco_mesh_compression"}
			doc["extensionsRequired"] = []any{"KHR_draco_mesh_compression"}
		}), ReadOptions{}, "requires KHR_draco_mesh_compression (Draco-compressed geometry)"},
		{"Draco without fallback", edit(func(doc map[string]any, _ []byte) {
			doc["extensionsUsed"] = []any{"KHR_draco_mesh_compression"}
			p := at(doc, "meshes", 0, "primitives", 0)
			p["extensions"] = map[string]any{"KHR_draco_mesh_compression": map[string]any{"bufferView": 0, "attributes": map[string]any{"POSITION": 0}}}
			delete(at(doc, "accessors", accessorOf(doc, "POSITION")), "bufferView")
		}), ReadOptions{}, "mesh 0 primitive 0 is compressed with KHR_draco_mesh_compression"},
		{"meshopt damaged stream", edit(func(doc map[string]any, _ []byte) {
			doc["extensionsUsed"] = []any{"EXT_meshopt_compression"}
			doc["extensionsRequired"] = []any{"EXT_meshopt_compression"}
			doc["buffers"] = append(doc["buffers"].([]any), map[string]any{"byteLength": 1 << 20, "extensions": map[string]any{"EXT_meshopt_compression": map[string]any{"fallback": true}}})
			v := at(doc, "bufferViews", 0)
			n := int(v["byteLength"].(float64))
			v["buffer"] = 1
			v["extensions"] = map[string]any{"EXT_meshopt_compression": map[string]any{
				"buffer": 0, "byteOffset": 0, "byteLength": 40, "byteStride": 4, "count": n / 4, "mode": "ATTRIBUTES"}}
			v["byteLength"] = n / 4 * 4
		}), ReadOptions{}, "buffer view 0: EXT_meshopt_compression: meshopt: malformed stream"},
		{"meshopt fallback read as data", edit(func(doc map[string]any, _ []byte) {
			doc["extensionsUsed"] = []any{"EXT_meshopt_compression"}
			doc["buffers"] = append(doc["buffers"].([]any), map[string]any{"byteLength": 1 << 20, "extensions": map[string]any{"EXT_meshopt_compression": map[string]any{"fallback": true}}})
			at(doc, "bufferViews", 0)["buffer"] = 1
		}), ReadOptions{}, "buffer view 0 refers to buffer 1, a fallback without data, but is not compressed"},
		{"missing external file", []byte(`{"asset":{"version":"2.0"},"buffers":[{"uri":"model.bin","byteLength":12}]}`), ReadOptions{}, `external file "model.bin", which was not uploaded`},
		{"external file not found", []byte(`{"asset":{"version":"2.0"},"buffers":[{"uri":"model%20v2.bin","byteLength":12}]}`),
			ReadOptions{Files: func(string) ([]byte, error) { return nil, errors.New("not found") }}, `external file "model v2.bin", which was not uploaded`},
		{"file outside the upload", []byte(`{"asset":{"version":"2.0"},"buffers":[{"uri":"../../etc/passwd","byteLength":12}]}`),
			ReadOptions{Files: func(string) ([]byte, error) { return make([]byte, 12), nil }}, "outside the uploaded files"},
		{"URL", []byte(`{"asset":{"version":"2.0"},"images":[{"uri":"https://example.com/a.png"}]}`), ReadOptions{}, "a URL"},
		{"short buffer", []byte(`{"asset":{"version":"2.0"},"buffers":[{"uri":"data:application/octet-stream;base64,AAAA","byteLength":12}]}`), ReadOptions{}, "buffer 0 declares 12 bytes but holds 3"},
		{"corrupt data URI", []byte(`{"asset":{"version":"2.0"},"buffers":[{"uri":"data:application/octet-stream;base64,!!!","byteLength":1}]}`), ReadOptions{}, "corrupt data URI"},
		{"node cycle", edit(func(doc map[string]any, _ []byte) {
			at(doc, "nodes", 2)["children"] = []any{1}
		}), ReadOptions{}, "node 1 has more than one parent"},
		{"node loop", edit(func(doc map[string]any, _ []byte) {
			at(doc, "nodes", 2)["children"] = []any{2}
		}), ReadOptions{}, "node 2 has more than one parent"},
		{"missing mesh", edit(func(doc map[string]any, _ []byte) {
			at(doc, "nodes", 3)["mesh"] = 7
		}), ReadOptions{}, "node 3 refers to mesh 7, which does not exist"},
		{"missing texture", edit(func(doc map[string]any, _ []byte) {
			at(doc, "materials", 0, "pbrMetallicRoughness", "baseColorTexture")["index"] = 4
		}), ReadOptions{}, "material 0 refers to texture 4"},
		{"animation output short", edit(func(doc map[string]any, _ []byte) {
			s := at(doc, "animations", 0, "samplers", 0)
			s["output"] = s["input"]
		}), ReadOptions{}, "has 3 output values for 3 keyframes of rotation (want 12)"},
		{"node weights", edit(func(doc map[string]any, _ []byte) {
			at(doc, "nodes", 3)["weights"] = []any{1}
		}), ReadOptions{}, "node 3 has 1 morph weights"},
		{"attribute count mismatch", edit(func(doc map[string]any, _ []byte) {
			at(doc, "accessors", accessorOf(doc, "NORMAL"))["count"] = 5
		}), ReadOptions{}, "(NORMAL of mesh 0 primitive 0) has 5 elements but POSITION has 6"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Read(tt.data, tt.opts)
			if err == nil {
				t.Fatalf("Read accepted it: %+v", s.Stats())
			}
			if kiln.KindOf(err) != kiln.KindUnprocessable {
				t.Errorf("kind %v, want unprocessable: %v", kiln.KindOf(err), err)
			}
			if code, msg := kiln.CodeOf(err); code != "invalid_model" || !strings.Contains(msg, tt.want) {
				t.Errorf("got %s: %q\nwant a message containing %q", code, msg, tt.want)
			}
		})
	}
}

func TestReadToleratesNULPaddedJSON(t *testing.T) {
	text, bin, _, err := splitContainer(scenetest.Sparse())
	if err != nil {
		t.Fatal(err)
	}
	padded := glb(append(append([]byte(nil), text...), 0, 0, 0, 0), bin)
	if _, err := Read(padded, ReadOptions{}); err != nil {
		t.Error(err)
	}
}

// The extensions Kiln cannot decode are accepted when they are only used
// and the file carries uncompressed fallback data: nothing is lost by
// ignoring them, and the output no longer claims them.
func TestReadIgnoresOptionalCompressionWithFallback(t *testing.T) {
	in := editGLB(t, scenetest.Skinned(), func(doc map[string]any, _ []byte) {
		doc["extensionsUsed"] = []any{"KHR_draco_mesh_compression"}
		at(doc, "meshes", 0, "primitives", 0)["extensions"] = map[string]any{"KHR_draco_mesh_compression": map[string]any{"bufferView": 0, "attributes": map[string]any{"POSITION": 0}}}
	})
	s := mustRead(t, in)
	out, err := Write(s)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), "draco") {
		t.Error("the output still mentions Draco")
	}
}
