package scene

import (
	"encoding/binary"
	"fmt"

	"github.com/qmuntal/gltf"
)

// targetAttr writes a morph target stream: sparse (only the vertices it
// moves, glTF's sparse accessor) when that is less than half the dense
// size, which is the case of face shapes, where each of dozens of
// targets moves a few hundred of thousands of vertices and a dense
// stream is mostly zeros. Quantized and meshopt-compressed scenes keep
// the dense form: their codecs shrink zeros themselves, and loaders of
// those extensions expect streams in buffer views.
func (w *writer) targetAttr(sem semantic, v []float32, comps int, minmax bool) int {
	if !w.quantized && !w.opts.Meshopt {
		if i, ok := w.sparseFloatAttr(v, comps, minmax); ok {
			return i
		}
	}
	return w.vertexAttr(sem, v, comps, minmax)
}

// sparseFloatAttr writes v as a sparse float accessor over zeros, or
// reports false when that would not save half of the dense bytes.
func (w *writer) sparseFloatAttr(v []float32, comps int, minmax bool) (int, bool) {
	count := len(v) / comps
	// The moved vertices, index and value bytes and the key are built in
	// the writer's scratch buffers (view copies the bytes into the binary
	// chunk; the map keeps its own copy of a new key): a face's fifty
	// targets allocated each of them fresh for every part.
	moved := w.moved[:0]
	defer func() { w.moved = moved }()
	for i := range count {
		for _, x := range v[i*comps : (i+1)*comps] {
			if x != 0 {
				moved = append(moved, uint32(i))
				break
			}
		}
	}
	ct, size := gltf.ComponentUshort, 2
	if count > 0xFFFF {
		ct, size = gltf.ComponentUint, 4
	}
	if len(moved) == 0 || len(moved)*(size+4*comps)*2 > len(v)*4 {
		return 0, false
	}
	idx, vals := w.sparseIdx[:0], w.sparseVals[:0]
	defer func() { w.sparseIdx, w.sparseVals = idx, vals }()
	for _, i := range moved {
		if size == 2 {
			idx = binary.LittleEndian.AppendUint16(idx, uint16(i))
		} else {
			idx = binary.LittleEndian.AppendUint32(idx, i)
		}
		vals = appendFloats(vals, v[int(i)*comps:int(i+1)*comps]...)
	}
	key := fmt.Appendf(w.sparseKey[:0], "%d/%d/%v/", count, comps, minmax)
	key = append(append(append(key, idx...), '/'), vals...)
	w.sparseKey = key
	if i, ok := w.sparse[string(key)]; ok {
		return i, true
	}
	// Sparse views have neither a target nor a stride (glTF 3.6.2.3).
	acc := &gltf.Accessor{ComponentType: gltf.ComponentFloat, Type: vecType[comps], Count: count,
		Sparse: &gltf.Sparse{
			Count:   len(moved),
			Indices: gltf.SparseIndices{BufferView: w.view(idx, gltf.TargetNone, 0, viewInfo{}), ComponentType: ct},
			Values:  gltf.SparseValues{BufferView: w.view(vals, gltf.TargetNone, 0, viewInfo{})},
		}}
	if minmax {
		acc.Min, acc.Max = bounds(v, comps)
	}
	w.doc.Accessors = append(w.doc.Accessors, acc)
	if w.sparse == nil {
		w.sparse = map[string]int{}
	}
	w.sparse[string(key)] = len(w.doc.Accessors) - 1
	return len(w.doc.Accessors) - 1, true
}
