package avatar

import (
	"container/list"
	"crypto/sha256"
	"testing"

	"github.com/kilnhq/kiln/assets/avatar/paint"
	"github.com/kilnhq/kiln/assets/scene"
)

// TestTextureCacheSameBytes follows a creator's session: a configuration
// changed one setting at a time (hair colour, skin tone, stubble, the
// top's colour and print), each built with the textures the builds before
// it left in the cache, and each reusing some of them. Every
// GLB must be byte for byte the one a build with no cache gives: a
// texture reused for inputs it was not painted from (a key missing one of
// its painter's inputs) changes the bytes.
func TestTextureCacheSameBytes(t *testing.T) {
	steps := []struct {
		name   string
		change func(*Config)
	}{
		{"default", func(*Config) {}},
		{"hair colour", func(c *Config) { c.Hair.Color = "blonde" }},
		{"skin tone", func(c *Config) { c.Skin.Tone = "tan" }},
		{"stubble", func(c *Config) { c.FacialHair.Style = "stubble" }},
		{"top colour", func(c *Config) { c.Outfit.Top.Color = "red" }},
		{"top print", func(c *Config) { c.Outfit.Top.Print = Print{ID: "stripes"} }},
	}
	// build returns the GLB's hash and how many textured materials it has.
	build := func(cfg Config) ([32]byte, int) {
		t.Helper()
		s, err := Generate(cfg)
		if err != nil {
			t.Fatal(err)
		}
		glb, err := scene.Write(s)
		if err != nil {
			t.Fatal(err)
		}
		textured := 0
		for _, m := range s.Materials {
			if m.PBRMetallicRoughness != nil && m.PBRMetallicRoughness.BaseColorTexture != nil {
				textured++
			}
		}
		return sha256.Sum256(glb), textured
	}
	defer func(n int64) { TextureCacheBytes = n; textures.reset() }(TextureCacheBytes)

	// Without a cache: nothing is kept, every texture is painted.
	TextureCacheBytes = 0
	textures.reset()
	var want [][32]byte
	cfg := Default(Masculine)
	for _, s := range steps {
		s.change(&cfg)
		h, _ := build(cfg)
		want = append(want, h)
	}

	TextureCacheBytes = 64 << 20
	textures.reset()
	cfg = Default(Masculine)
	for i, s := range steps {
		s.change(&cfg)
		before, _ := textures.stats()
		got, textured := build(cfg)
		after, bytes := textures.stats()
		t.Logf("%s: %d textures painted, cache %d entries, %.1f MB", s.name, after-before, after, float64(bytes)/1e6)
		if got != want[i] {
			t.Errorf("%s: GLB differs from the one built without the texture cache", s.name)
		}
		if i > 0 && after-before >= textured {
			t.Errorf("%s: %d of %d textures painted again, want some reused from the build before", s.name, after-before, textured)
		}
	}
}

// TestTextureCacheBounded fills the cache past its budget: it keeps the
// most recently used entries, never more bytes than TextureCacheBytes,
// and no entry larger than the whole budget.
func TestTextureCacheBounded(t *testing.T) {
	defer func(n int64) { TextureCacheBytes = n }(TextureCacheBytes)
	TextureCacheBytes = 10_000
	c := &textureCache{byKey: map[paint.Key]*list.Element{}, lru: list.New()}
	entry := func(n int) *encodedMaps { return &encodedMaps{base: make([]byte, n-128)} }
	key := func(i int) paint.Key { return paint.KeyOf("test", i) }
	for i := range 4 {
		c.put(key(i), entry(3000))
	}
	// 0 was the least recently used when 3 came: dropped. 1 is used, so
	// that 2 goes next.
	if _, ok := c.get(key(1)); !ok {
		t.Fatal("entry 1 dropped, want it kept")
	}
	c.put(key(4), entry(3000))
	c.put(key(5), entry(20_000)) // over the whole budget: not kept
	for i, want := range []bool{false, true, false, true, true, false} {
		if _, ok := c.get(key(i)); ok != want {
			t.Errorf("entry %d cached %v, want %v", i, ok, want)
		}
	}
	if n, bytes := c.stats(); n != 3 || bytes != 9000 {
		t.Errorf("cache holds %d entries, %d bytes; want 3, 9000", n, bytes)
	}
}

// TestPaintPanicReachesBuild: a painter that panics in the background
// panics the build's own goroutine at wait, where a job's handler
// recovers it, instead of ending the process.
func TestPaintPanicReachesBuild(t *testing.T) {
	b := newBuilder(Rig{})
	bad := texture{key: paint.KeyOf("TestPaintPanicReachesBuild"), paint: func() paint.Maps { panic("painter failed") }}
	b.painted("bad", bad, matOpts{})
	defer func() {
		if r := recover(); r != "painter failed" {
			t.Errorf("wait recovered %v, want the painter's panic", r)
		}
	}()
	b.wait()
}
