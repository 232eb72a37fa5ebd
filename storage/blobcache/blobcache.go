// Package blobcache keeps the hot blobs of a kiln.BlobStore as plain
// files on the API node, so that downloads are served from the local
// disk (and the page cache) with sendfile instead of being copied from
// MinIO through Kiln's process: measured with wrk, that copy cost two
// thirds of the throughput MinIO reaches alone.
//
// The cache is a kiln.BlobStore in front of another one. Get answers a
// cached blob as a file (see File), fetching and keeping it on a miss;
// Stat answers from the cache too. Kiln writes every key once (a variant,
// a level, a preview is built once under its own key), so a cached copy
// stays right; Put and Delete through the cache drop it at once, and a
// copy older than Revalidate is checked against the store's ETag before
// it is served again, which bounds what a write by another process (a
// worker) can leave stale.
//
// The cache is bounded: the least recently used files go when the total
// passes the limit, and blobs larger than an eighth of it are not cached
// (streamed from the store as before). Its directory is emptied at start:
// the cache is rebuilt from the store, never trusted across restarts.
package blobcache

import (
	"container/list"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/kilnhq/kiln"
)

// Revalidate is how long a cached copy is served without asking the
// store whether the key still holds the same blob.
const Revalidate = time.Minute

// Cache is a kiln.BlobStore that keeps recently read blobs as files.
type Cache struct {
	store    kiln.BlobStore
	dir      string
	limit    int64 // total bytes of cached files
	maxEntry int64 // largest blob cached
	now      func() time.Time

	mu      sync.Mutex
	entries map[string]*entry
	lru     list.List // of *entry, most recent first
	used    int64
	filling map[string]chan struct{} // keys being fetched, closed when done
}

type entry struct {
	key     string
	info    kiln.BlobInfo
	path    string
	checked time.Time // when the store last confirmed info
	elem    *list.Element
}

var _ kiln.BlobStore = (*Cache)(nil)

// New puts a cache of at most limit bytes, kept under dir (emptied
// first), in front of store.
func New(store kiln.BlobStore, dir string, limit int64) (*Cache, error) {
	const op = "blobcache.New"
	if limit <= 0 {
		return nil, kiln.E(op, kiln.Errorf(kiln.KindInvalid, "invalid_cache_size", "cache size must be positive, got %d", limit))
	}
	if err := os.RemoveAll(dir); err != nil {
		return nil, kiln.E(op, err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, kiln.E(op, err)
	}
	return &Cache{
		store: store, dir: dir, limit: limit, maxEntry: limit / 8, now: time.Now,
		entries: map[string]*entry{}, filling: map[string]chan struct{}{},
	}, nil
}

// File is a cached blob: a whole file holding exactly the blob's bytes,
// which the API hands to http.ServeContent as an *os.File so that the
// kernel copies it to the socket (sendfile).
type File struct {
	*os.File
	info kiln.BlobInfo
}

// Info describes the blob.
func (f *File) Info() kiln.BlobInfo { return f.info }

// OSFile is the file itself, positioned where the blob's reads are.
func (f *File) OSFile() *os.File { return f.File }

// Get opens the cached copy of key, fetching it first on a miss or when
// the store holds another blob under key by now.
func (c *Cache) Get(ctx context.Context, key string) (kiln.Blob, error) {
	for {
		if f, ok := c.open(ctx, key); ok {
			return f, nil
		}
		b, again, err := c.fill(ctx, key)
		if !again {
			return b, err
		}
	}
}

// open returns the cached copy of key when there is one the store still
// backs.
func (c *Cache) open(ctx context.Context, key string) (*File, bool) {
	e, fresh := c.lookup(key)
	if e.path == "" {
		return nil, false
	}
	if !fresh && !c.revalidate(ctx, e) {
		return nil, false
	}
	f, err := os.Open(e.path)
	if err != nil {
		// Evicted between the lookup and the open, or removed behind the
		// cache's back: forget the file so that fill fetches anew.
		c.dropPath(key, e.path)
		return nil, false
	}
	return &File{File: f, info: e.info}, true
}

// lookup finds key's entry, marks it most recently used and reports
// whether it was confirmed within Revalidate.
func (c *Cache) lookup(key string) (entry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entries[key]
	if e == nil {
		return entry{}, false
	}
	c.lru.MoveToFront(e.elem)
	return *e, c.now().Sub(e.checked) < Revalidate
}

// revalidate asks the store whether key still holds the cached blob; a
// changed or missing blob drops the entry.
func (c *Cache) revalidate(ctx context.Context, e entry) bool {
	info, err := c.store.Stat(ctx, e.key)
	if err == nil && info.ETag == e.info.ETag {
		c.mu.Lock()
		if cur := c.entries[e.key]; cur != nil && cur.path == e.path {
			cur.checked = c.now()
		}
		c.mu.Unlock()
		return true
	}
	c.drop(e.key)
	return false
}

// fill fetches key from the store into the cache, one fetch per key at a
// time: a caller that finds a fetch under way waits for it and reports
// again=true, to look the key up anew. A blob too large to cache comes
// back as the store's own.
func (c *Cache) fill(ctx context.Context, key string) (blob kiln.Blob, again bool, err error) {
	c.mu.Lock()
	if c.entries[key] != nil {
		// Another caller's fill landed between our lookup and here (it
		// adds the entry before it clears filling): use its file.
		c.mu.Unlock()
		return nil, true, nil
	}
	if done, busy := c.filling[key]; busy {
		c.mu.Unlock()
		select {
		case <-done:
			return nil, true, nil
		case <-ctx.Done():
			return nil, false, kiln.E("blobcache.Get", kiln.KindUnavailable, ctx.Err())
		}
	}
	done := make(chan struct{})
	c.filling[key] = done
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.filling, key)
		c.mu.Unlock()
		close(done)
	}()

	b, err := c.store.Get(ctx, key)
	if err != nil {
		return nil, false, err
	}
	info := b.Info()
	if info.Size > c.maxEntry {
		return b, false, nil
	}
	defer b.Close()
	f, path, err := c.write(key, b)
	if err != nil {
		return nil, false, err
	}
	c.add(key, info, path)
	return &File{File: f, info: info}, false, nil
}

// write copies b into a file of its own: the name holds the key's hash
// and the ETag's, so a newer blob under the same key never overwrites a
// file that a download is reading. It answers the file opened for
// reading before its rename: a write through the cache may drop (remove)
// an older entry of the same name at any moment, and an open file stays
// readable after that.
func (c *Cache) write(key string, b kiln.Blob) (*os.File, string, error) {
	const op = "blobcache.Get"
	tmp, err := os.CreateTemp(c.dir, ".fill-*")
	if err != nil {
		return nil, "", kiln.E(op, err)
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	_, err = io.Copy(tmp, b)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, "", kiln.E(op, kiln.KindUnavailable, err)
	}
	f, err := os.Open(tmp.Name())
	if err != nil {
		return nil, "", kiln.E(op, err)
	}
	path := filepath.Join(c.dir, hash(key)+"-"+hash(b.Info().ETag))
	if err := os.Rename(tmp.Name(), path); err != nil {
		f.Close()
		return nil, "", kiln.E(op, err)
	}
	return f, path, nil
}

func hash(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:12])
}

// add records a filled file and evicts the least recently used ones past
// the limit. Open files stay readable after their removal, so a download
// in progress is never cut.
func (c *Cache) add(key string, info kiln.BlobInfo, path string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if old := c.entries[key]; old != nil {
		c.removeLocked(old)
	}
	e := &entry{key: key, info: info, path: path, checked: c.now()}
	e.elem = c.lru.PushFront(e)
	c.entries[key] = e
	c.used += info.Size
	for c.used > c.limit {
		c.removeLocked(c.lru.Back().Value.(*entry))
	}
}

func (c *Cache) removeLocked(e *entry) {
	c.lru.Remove(e.elem)
	delete(c.entries, e.key)
	c.used -= e.info.Size
	// A file that cannot be removed stays until the next start empties
	// the directory; the bound counts only the entries.
	_ = os.Remove(e.path)
}

// drop forgets key.
func (c *Cache) drop(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.entries[key]; e != nil {
		c.removeLocked(e)
	}
}

// dropPath forgets key if its entry is still the file at path, so that a
// newer fill of the same key survives.
func (c *Cache) dropPath(key, path string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.entries[key]; e != nil && e.path == path {
		c.removeLocked(e)
	}
}

// Used reports the bytes the cached files take, for the metrics and the
// tests of the bound.
func (c *Cache) Used() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.used
}

// Stat answers from a cached copy confirmed within Revalidate, else from
// the store.
func (c *Cache) Stat(ctx context.Context, key string) (kiln.BlobInfo, error) {
	if e, fresh := c.lookup(key); e.path != "" && fresh {
		return e.info, nil
	}
	return c.store.Stat(ctx, key)
}

// Put writes through to the store and drops the cached copy.
func (c *Cache) Put(ctx context.Context, key string, r io.Reader, size int64, contentType string) (kiln.BlobInfo, error) {
	info, err := c.store.Put(ctx, key, r, size, contentType)
	c.drop(key)
	return info, err
}

// Delete deletes from the store and drops the cached copy.
func (c *Cache) Delete(ctx context.Context, key string) error {
	err := c.store.Delete(ctx, key)
	c.drop(key)
	return err
}

// List asks the store.
func (c *Cache) List(ctx context.Context, prefix string) ([]kiln.BlobInfo, error) {
	return c.store.List(ctx, prefix)
}

// Copy copies in the store and drops the cached copy of dst.
func (c *Cache) Copy(ctx context.Context, src, dst string) (kiln.BlobInfo, error) {
	info, err := c.store.Copy(ctx, src, dst)
	c.drop(dst)
	return info, err
}

// PresignPut asks the store.
func (c *Cache) PresignPut(ctx context.Context, key string, size int64, expiry time.Duration) (string, bool, error) {
	return c.store.PresignPut(ctx, key, size, expiry)
}

// PresignGet asks the store, when it signs download URLs.
func (c *Cache) PresignGet(ctx context.Context, key string, expiry time.Duration) (string, bool, error) {
	if p, ok := c.store.(kiln.GetPresigner); ok {
		return p.PresignGet(ctx, key, expiry)
	}
	return "", false, nil
}

// Ping pings the store.
func (c *Cache) Ping(ctx context.Context) error { return c.store.Ping(ctx) }
