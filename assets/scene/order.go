package scene

import (
	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln/assets/meshopt"
)

// OptimizeOrder puts every indexed triangle primitive in the order that
// EXT_meshopt_compression stores smallest: triangles in vertex cache
// order, vertices numbered by first use (meshopt.OptimizeVertexCache and
// OptimizeVertexFetch). What is drawn does not change, only the order
// (and with it the draw order of overlapping transparent triangles of
// one primitive, as gltfpack does too).
func (s *Scene) OptimizeOrder() {
	for _, m := range s.Meshes {
		for _, p := range m.Primitives {
			if p.Mode != gltf.PrimitiveTriangles || p.Indices == nil || len(p.Indices)%3 != 0 {
				continue
			}
			idx := meshopt.OptimizeVertexCache(p.Indices, len(p.Positions))
			idx, order := meshopt.OptimizeVertexFetch(idx, len(p.Positions))
			p.gather(order)
			p.Indices = idx
		}
	}
}
