package blobcache

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/storage/blobtest"
	"github.com/kilnhq/kiln/storage/disk"
)

// counting is a real store that counts the Gets reaching it, so that a
// test can tell a cache hit from a fetch.
type counting struct {
	kiln.BlobStore
	gets atomic.Int64
}

func (c *counting) Get(ctx context.Context, key string) (kiln.Blob, error) {
	c.gets.Add(1)
	return c.BlobStore.Get(ctx, key)
}

func newDisk(t *testing.T) *counting {
	t.Helper()
	d, err := disk.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return &counting{BlobStore: d}
}

func newCache(t *testing.T, store kiln.BlobStore, limit int64) *Cache {
	t.Helper()
	c, err := New(store, filepath.Join(t.TempDir(), "cache"), limit)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestContract: with a cache in front, a disk store still keeps the
// BlobStore contract (overwrites, deletes, ranges, errors).
func TestContract(t *testing.T) {
	blobtest.Run(t, func(t *testing.T) kiln.BlobStore { return newCache(t, newDisk(t), 64<<20) })
}

func put(t *testing.T, s kiln.BlobStore, key, data string) kiln.BlobInfo {
	t.Helper()
	info, err := s.Put(t.Context(), key, strings.NewReader(data), int64(len(data)), "model/gltf-binary")
	if err != nil {
		t.Fatal(err)
	}
	return info
}

// get reads key through s and reports whether the blob came as a file.
func get(t *testing.T, s kiln.BlobStore, key string) (string, kiln.BlobInfo, bool) {
	t.Helper()
	b, err := s.Get(t.Context(), key)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	data, err := io.ReadAll(b)
	if err != nil {
		t.Fatal(err)
	}
	_, isFile := b.(*File)
	return string(data), b.Info(), isFile
}

// TestHitsAreFilesAndFetchOnce: the first Get fetches from the store,
// later ones are served from the cached file with the store's ETag and
// size, and Stat answers without the store.
func TestHitsAreFilesAndFetchOnce(t *testing.T) {
	store := newDisk(t)
	c := newCache(t, store, 1<<20)
	want := put(t, store, "avatars/a/variants/lod0.glb", "glTF bytes")
	for i := range 3 {
		data, info, isFile := get(t, c, "avatars/a/variants/lod0.glb")
		if data != "glTF bytes" || info.ETag != want.ETag || info.Size != want.Size || info.ContentType != "model/gltf-binary" {
			t.Fatalf("get %d: %q %+v", i, data, info)
		}
		if !isFile {
			t.Errorf("get %d: not served from a file", i)
		}
	}
	if n := store.gets.Load(); n != 1 {
		t.Errorf("the store saw %d Gets, want 1", n)
	}
	info, err := c.Stat(t.Context(), "avatars/a/variants/lod0.glb")
	if err != nil || info.ETag != want.ETag {
		t.Errorf("Stat: %+v, %v", info, err)
	}
	if c.Used() != want.Size {
		t.Errorf("used %d bytes, want %d", c.Used(), want.Size)
	}
}

// TestConcurrentMissesFetchOnce: many downloads of a key not yet cached
// share one fetch.
func TestConcurrentMissesFetchOnce(t *testing.T) {
	store := newDisk(t)
	c := newCache(t, store, 64<<20)
	body := strings.Repeat("x", 4<<20)
	put(t, store, "k", body)
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			b, err := c.Get(context.Background(), "k")
			if err != nil {
				t.Error(err)
				return
			}
			defer b.Close()
			data, _ := io.ReadAll(b)
			if len(data) != len(body) {
				t.Errorf("read %d bytes", len(data))
			}
		})
	}
	wg.Wait()
	if n := store.gets.Load(); n != 1 {
		t.Errorf("16 concurrent misses made %d fetches, want 1", n)
	}
}

// TestBoundAndEviction: the cached files never pass the limit, the least
// recently used go first, a blob larger than an eighth of the limit is
// streamed from the store, and a download in progress survives the
// eviction of its file.
func TestBoundAndEviction(t *testing.T) {
	store := newDisk(t)
	const limit = 8000
	c := newCache(t, store, limit)
	for i := range 12 {
		put(t, store, fmt.Sprintf("b%d", i), strings.Repeat(string(rune('a'+i)), 900))
	}
	open, err := c.Get(t.Context(), "b0")
	if err != nil {
		t.Fatal(err)
	}
	defer open.Close()
	for i := 1; i < 12; i++ {
		get(t, c, fmt.Sprintf("b%d", i))
		get(t, c, "b1") // b1 stays recently used
		if c.Used() > limit {
			t.Fatalf("after %d blobs the cache holds %d bytes, limit %d", i+1, c.Used(), limit)
		}
	}
	before := store.gets.Load()
	get(t, c, "b1")
	get(t, c, "b11")
	if store.gets.Load() != before {
		t.Error("recently used blobs were evicted")
	}
	get(t, c, "b2")
	if store.gets.Load() != before+1 {
		t.Error("the least recently used blob was not evicted")
	}
	files, _ := os.ReadDir(c.dir)
	if len(files) > limit/900 {
		t.Errorf("%d files in the cache directory", len(files))
	}
	data, _ := io.ReadAll(open)
	if string(data) != strings.Repeat("a", 900) {
		t.Errorf("a download of an evicted blob read %d bytes", len(data))
	}

	put(t, store, "big", strings.Repeat("z", limit/8+1))
	if data, _, isFile := get(t, c, "big"); isFile || len(data) != limit/8+1 {
		t.Errorf("a blob over an eighth of the limit: file=%v, %d bytes", isFile, len(data))
	}
}

// TestWritesAreSeen: a Put or Delete through the cache is seen at once;
// one straight to the store (another process) once Revalidate has
// passed, and a missing blob is then a not-found again.
func TestWritesAreSeen(t *testing.T) {
	store := newDisk(t)
	c := newCache(t, store, 1<<20)
	now := time.Now()
	c.now = func() time.Time { return now }

	put(t, store, "k", "one")
	get(t, c, "k")
	put(t, c, "k", "two")
	if data, _, _ := get(t, c, "k"); data != "two" {
		t.Errorf("after a Put through the cache: %q", data)
	}

	put(t, store, "k", "three")
	if data, _, _ := get(t, c, "k"); data != "two" {
		t.Errorf("within Revalidate the cached copy is served; got %q", data)
	}
	now = now.Add(Revalidate + time.Second)
	data, info, _ := get(t, c, "k")
	if data != "three" {
		t.Errorf("after Revalidate: %q", data)
	}
	if st, err := c.Stat(t.Context(), "k"); err != nil || st.ETag != info.ETag {
		t.Errorf("Stat after the refetch: %+v, %v", st, err)
	}

	if err := store.Delete(t.Context(), "k"); err != nil {
		t.Fatal(err)
	}
	now = now.Add(Revalidate + time.Second)
	if _, err := c.Get(t.Context(), "k"); kiln.KindOf(err) != kiln.KindNotFound {
		t.Errorf("Get of a deleted blob: %v", err)
	}
	put(t, c, "d", "gone soon")
	get(t, c, "d")
	if err := c.Delete(t.Context(), "d"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Get(t.Context(), "d"); kiln.KindOf(err) != kiln.KindNotFound {
		t.Errorf("Get after a Delete through the cache: %v", err)
	}
}

// TestNewEmptiesTheDirectory: a restart never trusts old files.
func TestNewEmptiesTheDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "stale"), bytes.Repeat([]byte{1}, 10), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := New(newDisk(t), dir, 1<<20); err != nil {
		t.Fatal(err)
	}
	if files, _ := os.ReadDir(dir); len(files) != 0 {
		t.Errorf("%d files left in a new cache's directory", len(files))
	}
	if _, err := New(newDisk(t), dir, 0); kiln.KindOf(err) != kiln.KindInvalid {
		t.Errorf("a cache of 0 bytes: %v", err)
	}
}

// TestRemovedFileIsFetchedAnew: a cached file removed behind the cache's
// back (a cleaner, an operator) is fetched again, not served as an error
// and not retried forever.
func TestRemovedFileIsFetchedAnew(t *testing.T) {
	store := newDisk(t)
	dir := filepath.Join(t.TempDir(), "cache")
	c, err := New(store, dir, 64<<20)
	if err != nil {
		t.Fatal(err)
	}
	put(t, store, "k", "glTF bytes")
	if data, _, _ := get(t, c, "k"); data != "glTF bytes" {
		t.Fatalf("first get: %q", data)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, f := range files {
		os.Remove(f)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	b, err := c.Get(ctx, "k")
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(b)
	b.Close()
	if string(data) != "glTF bytes" {
		t.Errorf("after removal: %q", data)
	}
	if n := store.gets.Load(); n != 2 {
		t.Errorf("the store saw %d Gets, want 2", n)
	}
}
