package assets

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/texture"
)

// Need is what processing an upload will hold in memory at its peak,
// estimated from the file alone (counts and image headers) before any of
// it is decoded: a worker refuses a job over its budget instead of being
// killed half way through it.
type Need struct {
	Triangles int64 // as the file declares them, repeats included
	// Drawn counts a mesh's triangles once per node that draws it: a
	// small file can instance one mesh many times, and the renderer
	// poses every instance.
	Drawn    int64
	Vertices int64
	Pixels   int64 // of every image, decoded
	Bytes    int64
}

// What the pipeline holds per unit, from bench/hostile's peak RSS of the
// whole object job (read, thumbnail, levels 0-2) and rounded up, so that
// the estimate errs high: 1,356 MiB for its 1.5 M-triangle grid (1,075 MB
// measured), 6,924 MiB for 10 M stacked OBJ faces (2,742 MB), 864 MiB for
// 100 textures on one 8192² image (732 MB).
const (
	baseBytes     = 96 << 20 // the process and its buffers
	bytesPerTri   = 700      // read, welded, simplified twice, written
	bytesPerVert  = 250      // streams, quadrics, maps
	bytesPerPixel = 12       // decoded once (4) and resized (4), rendered (reduced floats)
	bytesPerDrawn = 250      // a posed triangle and its vertices in the renderer
)

// Estimate reads what an upload of extension ext (glb, gltf or obj, or a
// ZIP of one with its files) will need. It fails like ReadUpload on a
// file that cannot be read at all.
func Estimate(data []byte, ext string) (Need, error) {
	main, files := data, noFiles
	if bytes.HasPrefix(data, []byte("PK\x03\x04")) {
		var err error
		if main, files, err = unzip(data, ext); err != nil {
			return Need{}, err
		}
	}
	var n Need
	switch ext {
	case "obj":
		n = objNeed(main)
	case "glb", "gltf":
		var err error
		if n, err = gltfNeed(main, files); err != nil {
			return Need{}, err
		}
	default:
		return Need{}, nil
	}
	n.Bytes = baseBytes + 2*int64(len(main)) + n.Triangles*bytesPerTri + n.Vertices*bytesPerVert + n.Pixels*bytesPerPixel
	// The first drawing of each triangle is in bytesPerTri.
	n.Bytes += max(0, n.Drawn-n.Triangles) * bytesPerDrawn
	return n, nil
}

// OverBudget is the failure of a job whose need is over budget bytes.
func (n Need) OverBudget(budget int64) error {
	if n.Bytes <= budget {
		return nil
	}
	return kiln.Errorf(kiln.KindUnprocessable, "over_memory_budget",
		"processing this model needs about %d MiB (%d triangles, %d drawn, %d vertices, %d image pixels), more than the %d MiB a job may use (KILN_JOB_MEMORY); reduce or split the model",
		n.Bytes>>20, n.Triangles, n.Drawn, n.Vertices, n.Pixels, budget>>20)
}

// objNeed counts the positions and the triangles of the faces' fans,
// line by line without parsing numbers; the corners the reader splits
// at seams are in bytesPerTri.
func objNeed(data []byte) Need {
	var n Need
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		line := data
		if i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		line = bytes.TrimLeft(line, " \t")
		switch {
		case bytes.HasPrefix(line, []byte("f ")), bytes.HasPrefix(line, []byte("f\t")):
			if c := int64(len(bytes.Fields(line[2:]))); c >= 3 {
				n.Triangles += c - 2
			}
		case bytes.HasPrefix(line, []byte("v ")), bytes.HasPrefix(line, []byte("v\t")):
			n.Vertices++
		}
	}
	n.Drawn = n.Triangles
	return n
}

// gltfDoc is the part of a glTF document the estimate reads.
type gltfDoc struct {
	Accessors []struct {
		Count int64 `json:"count"`
	} `json:"accessors"`
	Nodes []struct {
		Mesh *int `json:"mesh"`
	} `json:"nodes"`
	Meshes []struct {
		Primitives []struct {
			Indices    *int             `json:"indices"`
			Attributes map[string]int   `json:"attributes"`
			Targets    []map[string]int `json:"targets"`
		} `json:"primitives"`
	} `json:"meshes"`
	Images []struct {
		URI        string `json:"uri"`
		BufferView *int   `json:"bufferView"`
	} `json:"images"`
	BufferViews []struct {
		Buffer     int   `json:"buffer"`
		ByteOffset int64 `json:"byteOffset"`
		ByteLength int64 `json:"byteLength"`
	} `json:"bufferViews"`
	Buffers []struct {
		URI string `json:"uri"`
	} `json:"buffers"`
}

// gltfNeed sums the primitives' vertices and triangles as their
// accessors declare them, and the images' sizes from their headers.
func gltfNeed(data []byte, files func(string) ([]byte, error)) (Need, error) {
	js, bin := data, []byte(nil)
	if bytes.HasPrefix(data, []byte("glTF")) {
		var err error
		if js, bin, err = glbChunks(data); err != nil {
			return Need{}, err
		}
	}
	var doc gltfDoc
	if err := json.Unmarshal(js, &doc); err != nil {
		return Need{}, unprocessable("not a valid GLB or glTF file: %v", err)
	}
	count := func(i int) int64 {
		if i < 0 || i >= len(doc.Accessors) {
			return 0
		}
		return max(0, doc.Accessors[i].Count)
	}
	var n Need
	meshTris := make([]int64, len(doc.Meshes))
	for i, m := range doc.Meshes {
		for _, p := range m.Primitives {
			pos, ok := p.Attributes["POSITION"]
			if !ok {
				continue
			}
			v := count(pos)
			// A morph target is another set of streams per vertex.
			n.Vertices += v * int64(1+len(p.Targets))
			if p.Indices != nil {
				meshTris[i] += count(*p.Indices) / 3
			} else {
				meshTris[i] += v / 3
			}
		}
		n.Triangles += meshTris[i]
	}
	for _, node := range doc.Nodes {
		if node.Mesh != nil && *node.Mesh >= 0 && *node.Mesh < len(meshTris) {
			n.Drawn += meshTris[*node.Mesh]
		}
	}
	buffer := func(b int) []byte {
		if b < 0 || b >= len(doc.Buffers) {
			return nil
		}
		if uri := doc.Buffers[b].URI; uri != "" {
			d, _ := uriData(uri, files)
			return d
		}
		return bin
	}
	for _, im := range doc.Images {
		var d []byte
		switch {
		case im.BufferView != nil && *im.BufferView >= 0 && *im.BufferView < len(doc.BufferViews):
			bv := doc.BufferViews[*im.BufferView]
			if b := buffer(bv.Buffer); bv.ByteOffset >= 0 && bv.ByteLength >= 0 && bv.ByteOffset+bv.ByteLength <= int64(len(b)) {
				d = b[bv.ByteOffset : bv.ByteOffset+bv.ByteLength]
			}
		case im.URI != "":
			d, _ = uriData(im.URI, files)
		}
		if w, h, err := texture.Size(d); err == nil {
			n.Pixels += int64(w) * int64(h)
		}
	}
	return n, nil
}

// glbChunks splits a GLB into its JSON and BIN chunks.
func glbChunks(data []byte) (js, bin []byte, err error) {
	if len(data) < 20 {
		return nil, nil, unprocessable("not a valid GLB file: %d bytes", len(data))
	}
	l := int64(binary.LittleEndian.Uint32(data[12:16]))
	if binary.LittleEndian.Uint32(data[16:20]) != 0x4E4F534A || 20+l > int64(len(data)) {
		return nil, nil, unprocessable("not a valid GLB file: its JSON chunk is missing or cut short")
	}
	js = data[20 : 20+l]
	rest := data[20+l:]
	if len(rest) >= 8 && binary.LittleEndian.Uint32(rest[4:8]) == 0x004E4942 {
		bl := int64(binary.LittleEndian.Uint32(rest[0:4]))
		bin = rest[8:min(int64(len(rest)), 8+bl)]
	}
	return js, bin, nil
}

// uriData reads a data: URI or a file uploaded with the model.
func uriData(uri string, files func(string) ([]byte, error)) ([]byte, error) {
	if rest, ok := strings.CutPrefix(uri, "data:"); ok {
		_, payload, ok := strings.Cut(rest, ",")
		if !ok {
			return nil, fmt.Errorf("data URI without a comma")
		}
		return base64.StdEncoding.DecodeString(payload)
	}
	return files(uri)
}
