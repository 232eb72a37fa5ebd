// Package assets is Kiln's asset processing: bytes and scenes in, bytes
// and scenes out. It knows nothing of HTTP, Redis or storage, so every
// function here can be tested and benchmarked on its own.
package assets

import (
	"bytes"
	"fmt"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln"
)

// MaxModelBytes bounds what a worker reads into memory for one model.
const MaxModelBytes = 512 << 20

func invalid(format string, args ...any) error {
	return kiln.Errorf(kiln.KindUnprocessable, "invalid_model", format, args...)
}

// decode parses a GLB, or a .gltf whose buffers are all data URIs, and
// checks that every accessor stays inside its buffer, so that nothing
// later reads past the end of a slice.
func decode(data []byte) (doc *gltf.Document, err error) {
	if len(data) == 0 {
		return nil, invalid("the file is empty")
	}
	if len(data) > MaxModelBytes {
		return nil, invalid("the file is %d bytes; at most %d can be processed", len(data), MaxModelBytes)
	}
	defer func() {
		if r := recover(); r != nil {
			doc, err = nil, invalid("the glTF could not be parsed: %v", r)
		}
	}()
	doc = new(gltf.Document)
	if err := gltf.NewDecoder(bytes.NewReader(data)).Decode(doc); err != nil {
		return nil, invalid("not a valid GLB or glTF file: %v", err)
	}
	if err := checkBounds(doc); err != nil {
		return nil, err
	}
	return doc, nil
}

func checkBounds(doc *gltf.Document) error {
	for i, b := range doc.Buffers {
		if len(b.Data) < b.ByteLength {
			if b.URI != "" && !b.IsEmbeddedResource() {
				return invalid("buffer %d refers to the external file %q, which was not uploaded with the model", i, b.URI)
			}
			return invalid("buffer %d holds %d bytes but declares %d", i, len(b.Data), b.ByteLength)
		}
	}
	for i, v := range doc.BufferViews {
		if v.Buffer < 0 || v.Buffer >= len(doc.Buffers) {
			return invalid("buffer view %d refers to buffer %d, which does not exist", i, v.Buffer)
		}
		if v.ByteOffset < 0 || v.ByteLength < 0 || v.ByteOffset+v.ByteLength > doc.Buffers[v.Buffer].ByteLength {
			return invalid("buffer view %d reaches past the end of buffer %d", i, v.Buffer)
		}
	}
	for i, a := range doc.Accessors {
		if a.Count < 0 || a.Count > MaxModelBytes {
			return invalid("accessor %d has an absurd count %d", i, a.Count)
		}
		if a.BufferView == nil {
			continue
		}
		bv := *a.BufferView
		if bv < 0 || bv >= len(doc.BufferViews) {
			return invalid("accessor %d refers to buffer view %d, which does not exist", i, bv)
		}
		elem := a.ComponentType.ByteSize() * a.Type.Components()
		if elem == 0 {
			return invalid("accessor %d has an unknown component type or type", i)
		}
		stride := doc.BufferViews[bv].ByteStride
		if stride == 0 {
			stride = elem
		}
		if a.Count > 0 && a.ByteOffset+stride*(a.Count-1)+elem > doc.BufferViews[bv].ByteLength {
			return invalid("accessor %d reads past the end of buffer view %d", i, bv)
		}
	}
	for mi, m := range doc.Meshes {
		for pi, p := range m.Primitives {
			for name, ai := range p.Attributes {
				if ai >= len(doc.Accessors) {
					return invalid("attribute %s of mesh %d primitive %d refers to accessor %d, which does not exist", name, mi, pi, ai)
				}
			}
			if p.Indices != nil && *p.Indices >= len(doc.Accessors) {
				return invalid("indices of mesh %d primitive %d refer to accessor %d, which does not exist", mi, pi, *p.Indices)
			}
		}
	}
	return nil
}

// Inspect counts what the model in data holds.
func Inspect(data []byte) (kiln.ModelStats, error) {
	doc, err := decode(data)
	if err != nil {
		return kiln.ModelStats{}, err
	}
	return stats(doc), nil
}

func stats(doc *gltf.Document) kiln.ModelStats {
	s := kiln.ModelStats{
		Meshes:    len(doc.Meshes),
		Materials: len(doc.Materials),
		Textures:  len(doc.Textures),
	}
	for _, m := range doc.Meshes {
		for _, p := range m.Primitives {
			verts := 0
			if ai, ok := p.Attributes[gltf.POSITION]; ok {
				verts = doc.Accessors[ai].Count
			}
			s.Vertices += verts
			n := verts
			if p.Indices != nil {
				n = doc.Accessors[*p.Indices].Count
			}
			switch p.Mode {
			case gltf.PrimitiveTriangles:
				s.Triangles += n / 3
			case gltf.PrimitiveTriangleStrip, gltf.PrimitiveTriangleFan:
				s.Triangles += max(n-2, 0)
			}
		}
	}
	return s
}

// Canonical parses a model and writes it back as one self-contained GLB:
// the form Kiln stores and serves, whatever the upload was.
func Canonical(data []byte) ([]byte, kiln.ModelStats, error) {
	doc, err := decode(data)
	if err != nil {
		return nil, kiln.ModelStats{}, err
	}
	switch {
	case len(doc.Buffers) > 1:
		return nil, kiln.ModelStats{}, invalid("models with %d buffers are not supported yet; export a GLB with one buffer", len(doc.Buffers))
	case len(doc.Buffers) == 1:
		// A data-URI buffer of a .gltf becomes the GLB's binary chunk.
		doc.Buffers[0].URI = ""
	}
	var out bytes.Buffer
	if err := gltf.NewEncoder(&out).Encode(doc); err != nil {
		return nil, kiln.ModelStats{}, fmt.Errorf("assets.Canonical: %w", err)
	}
	return out.Bytes(), stats(doc), nil
}
