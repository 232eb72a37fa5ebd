package avatar

import (
	"container/list"
	"reflect"
	"runtime"
	"sync"

	"github.com/kilnhq/kiln/assets/avatar/paint"
)

// texture is a material's maps as a recipe: the key of everything its
// painter reads (paint.KeyOf) and the painter. builder.painted encodes
// the maps once per key and reuses the encoded images while they are
// cached: painting and encoding are most of a build, and the creator
// rebuilds the same configuration with one change at a time, which
// leaves most textures' inputs as they were.
type texture struct {
	key   paint.Key
	paint func() paint.Maps
}

// encodedMaps are a material's images as PNG (normal and orm nil when
// the material does not use them) and the roughness its material states
// when it has no ORM map.
type encodedMaps struct {
	base, normal, orm []byte
	rough             float64
}

// size is the memory an entry holds: the capacity of its slices, so that
// TextureCacheBytes bounds memory, not file sizes (kiln serve held 40 MB
// under the 32 MiB bound counted in lengths, when the encoder's buffer,
// grown by doubling, was kept; paint.Encode now copies each file out at
// its size).
func (e *encodedMaps) size() int64 { return int64(cap(e.base) + cap(e.normal) + cap(e.orm) + 128) }

// TextureCacheBytes bounds the encoded textures kept between builds (the
// entries' PNG bytes). A whole avatar's textures are about 2.2 to 2.7 MB
// of PNG (the hair's 1024-texel maps 1.2 to 1.6 MB of it: hairTexels),
// so 32 MiB keeps the textures of the last 12 or so avatars built: what
// a creator's session of small changes reuses, and a bounded share of a
// long-running worker's memory. Set it before the first build; 0 keeps
// nothing.
var TextureCacheBytes int64 = 32 << 20

// textures is the process's texture cache (used by Generate and
// BuildPart). Its entries' bytes are shared by the scenes that use them:
// a scene's image data is read, never written in place.
var textures = &textureCache{byKey: map[paint.Key]*list.Element{}, lru: list.New()}

// textureCache is a least-recently-used cache of encoded textures,
// bounded in bytes.
type textureCache struct {
	mu    sync.Mutex
	size  int64
	lru   *list.List // of *textureEntry, most recent first
	byKey map[paint.Key]*list.Element
}

type textureEntry struct {
	key paint.Key
	enc *encodedMaps
}

// get returns the cached encoding of key, if any.
func (c *textureCache) get(key paint.Key) (*encodedMaps, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[key]
	if !ok {
		return nil, false
	}
	c.lru.MoveToFront(e)
	return e.Value.(*textureEntry).enc, true
}

// put keeps enc under key, dropping the least recently used entries past
// TextureCacheBytes (an entry larger than the whole budget is not kept).
func (c *textureCache) put(key paint.Key, enc *encodedMaps) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byKey[key]; ok || enc.size() > TextureCacheBytes {
		return
	}
	c.byKey[key] = c.lru.PushFront(&textureEntry{key, enc})
	c.size += enc.size()
	for c.size > TextureCacheBytes {
		e := c.lru.Back()
		t := e.Value.(*textureEntry)
		c.lru.Remove(e)
		delete(c.byKey, t.key)
		c.size -= t.enc.size()
	}
}

// reset empties the cache (tests and benchmarks that measure painting).
func (c *textureCache) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lru.Init()
	clear(c.byKey)
	c.size = 0
}

// stats are the cache's entries and bytes.
func (c *textureCache) stats() (entries int, bytes int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Len(), c.size
}

// paintedBy is the texture of a painter of the common shape (a surface, a
// colour, a seed and a size), keyed by the painter's own name and its
// arguments.
func paintedBy(f func(paint.Surface, paint.RGB, uint64, int) paint.Maps, s paint.Surface, c paint.RGB, seed uint64, n int) texture {
	return texture{
		key:   paint.KeyOf(funcName(f), s, c, seed, n),
		paint: func() paint.Maps { return f(s, c, seed, n) },
	}
}

// funcName is the full name of the function f, which tells painters apart
// in keys without a name to keep in step by hand.
func funcName(f any) string {
	return runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name()
}
