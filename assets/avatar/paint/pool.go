package paint

import (
	"image"
	"slices"

	"github.com/kilnhq/kiln/internal/bufpool"
)

// A build paints a dozen textures one after the other, each with a
// surface map (56 bytes a texel) and a layer (48 bytes a texel): some
// 150 MB a build allocated fresh, zeroed by the runtime and then
// collected. They are kept in pools by size instead (bufpool: held until
// the process goes idle, which sync.Pool's were not past a collection or
// two) and cleared on reuse, so a build mostly paints into the buffers of
// the one before.

// pools holds slices of T by length.
type pools[T any] struct{ p bufpool.Sized[T] }

// get returns a zeroed slice of n elements.
func (p *pools[T]) get(n int) []T { return p.p.Get(n) }

// put gives s back for a later get of its length; s must not be used
// after.
func (p *pools[T]) put(s []T) { p.p.Put(s) }

var (
	pixelPool pools[uint8]
	texelPool pools[texel]
	rgbPool   pools[rgb]
	floatPool pools[float64]
	boolPool  pools[bool]
)

// newImage is an n×n image whose pixels come from the pool.
func newImage(n int) *image.NRGBA {
	return &image.NRGBA{Pix: pixelPool.get(4 * n * n), Stride: 4 * n, Rect: image.Rect(0, 0, n, n)}
}

// Release gives the pixels of m's images back for the textures painted
// after; m must not be used after. Callers that encode the maps and drop
// them (the avatar builder) call it: three images of a megabyte each per
// material, allocated fresh otherwise.
func Release(m Maps) {
	imgs := []*image.NRGBA{m.Base, m.Normal, m.ORM}
	for i, img := range imgs {
		// Each once: two gets handed the same pixels would paint over
		// each other.
		if img != nil && !slices.Contains(imgs[:i], img) {
			pixelPool.put(img.Pix)
		}
	}
}

// release gives a surface map back to the pool once its painter is done
// with it.
func release(m []texel) { texelPool.put(m) }

// release gives the layer's buffers back to the pools; the layer must not
// be used after (maps does it once the images are filled).
func (l *layer) release() {
	rgbPool.put(l.base)
	floatPool.put(l.height)
	floatPool.put(l.ao)
	floatPool.put(l.rough)
	floatPool.put(l.alpha)
	*l = layer{n: l.n}
}
