package scene

import (
	"encoding/json"

	"github.com/kilnhq/kiln/assets/meshopt"
)

// meshoptView is a buffer view's EXT_meshopt_compression object.
type meshoptView struct {
	Buffer     int            `json:"buffer"`
	ByteOffset int            `json:"byteOffset"`
	ByteLength int            `json:"byteLength"`
	ByteStride int            `json:"byteStride"`
	Count      int            `json:"count"`
	Mode       meshopt.Mode   `json:"mode"`
	Filter     meshopt.Filter `json:"filter,omitempty"`
}

// decodeMeshopt decompresses view i, so that Kiln reads meshopt output
// (its own, gltfpack's) like any other model and can process it again.
// The decoded bytes count against the reader's memory budget.
func (r *reader) decodeMeshopt(i int) error {
	bv := r.doc.BufferViews[i]
	var ext meshoptView
	raw, err := json.Marshal(bv.Extensions["EXT_meshopt_compression"])
	if err == nil {
		err = json.Unmarshal(raw, &ext)
	}
	if err != nil {
		return invalid("buffer view %d has a malformed EXT_meshopt_compression object", i)
	}
	if ext.Buffer < 0 || ext.Buffer >= len(r.bufs) || r.bufs[ext.Buffer] == nil {
		return invalid("buffer view %d reads compressed data from buffer %d, which holds none", i, ext.Buffer)
	}
	src := r.bufs[ext.Buffer]
	if ext.ByteOffset < 0 || ext.ByteLength < 0 || ext.ByteOffset > len(src) || ext.ByteLength > len(src)-ext.ByteOffset {
		return invalid("buffer view %d: its compressed bytes reach past the end of buffer %d", i, ext.Buffer)
	}
	if ext.Count < 0 || ext.ByteStride <= 0 || ext.Count > (1<<31)/ext.ByteStride || bv.ByteLength != ext.Count*ext.ByteStride {
		return invalid("buffer view %d: %d bytes do not hold %d compressed elements of %d bytes", i, bv.ByteLength, ext.Count, ext.ByteStride)
	}
	if bv.ByteStride != 0 && bv.ByteStride != ext.ByteStride {
		return invalid("buffer view %d: byteStride %d differs from its EXT_meshopt_compression byteStride %d", i, bv.ByteStride, ext.ByteStride)
	}
	r.inflated += bv.ByteLength
	if r.inflated > 64<<20+32*(r.input+r.external) {
		return invalid("buffer view %d decompresses to more memory than a model of %d bytes can justify", i, r.input+r.external)
	}
	out, err := meshopt.Decode(ext.Mode, ext.Filter, ext.Count, ext.ByteStride, src[ext.ByteOffset:ext.ByteOffset+ext.ByteLength])
	if err != nil {
		return invalid("buffer view %d: EXT_meshopt_compression: %v", i, err)
	}
	if r.decoded == nil {
		r.decoded = make(map[int][]byte)
	}
	r.decoded[i] = out
	delete(bv.Extensions, "EXT_meshopt_compression")
	return nil
}
