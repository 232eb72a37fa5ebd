// Package disk keeps blobs as files under a local directory: the blob store
// of `kiln serve` when no S3 is configured.
//
// A blob's file holds its bytes followed by a trailer: the JSON metadata
// (content type, ETag), its length and a magic number. Data and metadata in
// one file are published by one rename, so a reader can never pair new bytes
// with an old ETag, as it could with a sidecar file; an If-Range request
// would then splice two versions.
package disk

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/kilnhq/kiln"
)

const (
	// tmpDir holds uploads in progress. It sits inside the store so that the
	// final rename stays on one filesystem, and keys cannot reach it because
	// no key segment may start with a dot.
	tmpDir      = ".tmp"
	magic       = "KLN1"
	footerLen   = 4 + 4 // uint32 length of the JSON, then magic
	defaultType = "application/octet-stream"
)

type meta struct {
	ContentType string `json:"contentType"`
	ETag        string `json:"etag"`
}

// Store is a kiln.BlobStore on a local directory.
type Store struct {
	dir string
}

var _ kiln.BlobStore = (*Store)(nil)

// New opens the store under dir, creating it if needed.
func New(dir string) (*Store, error) {
	dir = filepath.Clean(dir)
	if err := os.MkdirAll(filepath.Join(dir, tmpDir), 0o755); err != nil {
		return nil, kiln.E("disk.New", err)
	}
	return &Store{dir: dir}, nil
}

func (s *Store) path(key string) string { return filepath.Join(s.dir, filepath.FromSlash(key)) }

// Put streams r into a temporary file, hashing it on the way, and renames
// the file into place only once it is complete and synced.
func (s *Store) Put(ctx context.Context, key string, r io.Reader, size int64, contentType string) (kiln.BlobInfo, error) {
	const op = "disk.Put"
	if err := kiln.CheckBlobKey(key); err != nil {
		return kiln.BlobInfo{}, kiln.E(op, err)
	}
	if contentType == "" {
		contentType = defaultType
	}
	f, err := os.CreateTemp(filepath.Join(s.dir, tmpDir), "put-*")
	if err != nil {
		return kiln.BlobInfo{}, kiln.E(op, err)
	}
	published := false
	defer func() {
		f.Close()
		if !published {
			os.Remove(f.Name())
		}
	}()

	if size >= 0 {
		r = io.LimitReader(r, size+1) // one byte more reveals a body longer than announced
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(f, h), ctxReader{ctx, r})
	if err != nil {
		return kiln.BlobInfo{}, kiln.E(op, err)
	}
	if size >= 0 && n != size {
		return kiln.BlobInfo{}, kiln.E(op, kiln.Errorf(kiln.KindInvalid, "size_mismatch", "blob %q: announced %d bytes, got %d", key, size, n))
	}
	m := meta{ContentType: contentType, ETag: `"` + hex.EncodeToString(h.Sum(nil)) + `"`}
	trailer, err := json.Marshal(m)
	if err != nil {
		return kiln.BlobInfo{}, kiln.E(op, err)
	}
	trailer = append(binary.BigEndian.AppendUint32(trailer, uint32(len(trailer))), magic...)
	if _, err := f.Write(trailer); err != nil {
		return kiln.BlobInfo{}, kiln.E(op, err)
	}
	if err := f.Sync(); err != nil {
		return kiln.BlobInfo{}, kiln.E(op, err)
	}
	fi, err := f.Stat()
	if err != nil {
		return kiln.BlobInfo{}, kiln.E(op, err)
	}
	if err := ctx.Err(); err != nil {
		return kiln.BlobInfo{}, kiln.E(op, err)
	}
	if err := s.publish(f.Name(), s.path(key)); err != nil {
		return kiln.BlobInfo{}, kiln.E(op, err)
	}
	published = true
	return kiln.BlobInfo{Key: key, Size: n, ContentType: m.ContentType, ETag: m.ETag, LastModified: fi.ModTime()}, nil
}

// publish renames tmp to path. It retries because a concurrent Delete may
// prune a parent folder between MkdirAll and Rename; it syncs the folder so
// that the rename survives a crash.
func (s *Store) publish(tmp, path string) error {
	dir := filepath.Dir(path)
	var err error
	for range 3 {
		if err = os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		if err = os.Rename(tmp, path); !errors.Is(err, fs.ErrNotExist) {
			break
		}
	}
	if err != nil {
		return err
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// Copy streams src into a new file published under dst like Put's, so a
// later Put to src leaves dst as it was.
func (s *Store) Copy(ctx context.Context, src, dst string) (kiln.BlobInfo, error) {
	const op = "disk.Copy"
	if err := kiln.CheckBlobKey(dst); err != nil {
		return kiln.BlobInfo{}, kiln.E(op, err)
	}
	f, info, err := s.open(ctx, src)
	if err != nil {
		return kiln.BlobInfo{}, kiln.E(op, err)
	}
	defer f.Close()
	out, err := s.Put(ctx, dst, io.NewSectionReader(f, 0, info.Size), info.Size, info.ContentType)
	if err != nil {
		return kiln.BlobInfo{}, kiln.E(op, err)
	}
	return out, nil
}

// Get returns the blob as an open file, so range reads are a Seek away.
func (s *Store) Get(ctx context.Context, key string) (kiln.Blob, error) {
	f, info, err := s.open(ctx, key)
	if err != nil {
		return nil, kiln.E("disk.Get", err)
	}
	return &blob{SectionReader: io.NewSectionReader(f, 0, info.Size), f: f, info: info}, nil
}

func (s *Store) Stat(ctx context.Context, key string) (kiln.BlobInfo, error) {
	f, info, err := s.open(ctx, key)
	if err != nil {
		return kiln.BlobInfo{}, kiln.E("disk.Stat", err)
	}
	f.Close()
	return info, nil
}

func (s *Store) open(ctx context.Context, key string) (*os.File, kiln.BlobInfo, error) {
	if err := ctx.Err(); err != nil {
		return nil, kiln.BlobInfo{}, err
	}
	if err := kiln.CheckBlobKey(key); err != nil {
		return nil, kiln.BlobInfo{}, err
	}
	return openFile(s.path(key), key)
}

// openFile opens the blob file at path and reads its trailer. Anything that
// is not a file, such as the folder of a longer key, is not found.
func openFile(path, key string) (*os.File, kiln.BlobInfo, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return nil, kiln.BlobInfo{}, notFound(key)
	}
	if err != nil {
		return nil, kiln.BlobInfo{}, err
	}
	info, err := readInfo(f, key)
	if err != nil {
		f.Close()
		return nil, kiln.BlobInfo{}, err
	}
	return f, info, nil
}

func readInfo(f *os.File, key string) (kiln.BlobInfo, error) {
	fi, err := f.Stat()
	if err != nil {
		return kiln.BlobInfo{}, err
	}
	if !fi.Mode().IsRegular() {
		return kiln.BlobInfo{}, notFound(key)
	}
	corrupt := kiln.E("disk.readInfo", kiln.Errorf(kiln.KindInternal, "corrupt_blob", "blob file %s has no valid trailer", f.Name()))
	var foot [footerLen]byte
	if fi.Size() < footerLen {
		return kiln.BlobInfo{}, corrupt
	}
	if _, err := f.ReadAt(foot[:], fi.Size()-footerLen); err != nil {
		return kiln.BlobInfo{}, err
	}
	n := int64(binary.BigEndian.Uint32(foot[:4]))
	size := fi.Size() - footerLen - n
	if string(foot[4:]) != magic || size < 0 {
		return kiln.BlobInfo{}, corrupt
	}
	b := make([]byte, n)
	if _, err := f.ReadAt(b, size); err != nil {
		return kiln.BlobInfo{}, err
	}
	var m meta
	if json.Unmarshal(b, &m) != nil {
		return kiln.BlobInfo{}, corrupt
	}
	return kiln.BlobInfo{Key: key, Size: size, ContentType: m.ContentType, ETag: m.ETag, LastModified: fi.ModTime()}, nil
}

// Delete removes the file and then the folders it leaves empty, so that
// deleted objects do not accumulate as empty folders.
func (s *Store) Delete(ctx context.Context, key string) error {
	const op = "disk.Delete"
	if err := ctx.Err(); err != nil {
		return kiln.E(op, err)
	}
	if err := kiln.CheckBlobKey(key); err != nil {
		return kiln.E(op, err)
	}
	path := s.path(key)
	switch err := os.Remove(path); {
	case err == nil:
		for dir := filepath.Dir(path); dir != s.dir && os.Remove(dir) == nil; dir = filepath.Dir(dir) {
		}
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR), errors.Is(err, syscall.ENOTEMPTY):
		// No blob under key; a non-empty folder is a prefix of other keys.
	default:
		return kiln.E(op, err)
	}
	return nil
}

// List walks only the folder named by the prefix up to its last slash.
func (s *Store) List(ctx context.Context, prefix string) ([]kiln.BlobInfo, error) {
	const op = "disk.List"
	if err := kiln.CheckBlobPrefix(prefix); err != nil {
		return nil, kiln.E(op, err)
	}
	root := s.dir
	if i := strings.LastIndexByte(prefix, '/'); i >= 0 {
		root = s.path(prefix[:i])
	}
	var out []kiln.BlobInfo
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil // deleted while we walk
		}
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if path != root && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		key := filepath.ToSlash(path[len(s.dir)+1:])
		if !strings.HasPrefix(key, prefix) {
			return nil
		}
		f, info, err := openFile(path, key)
		if kiln.KindOf(err) == kiln.KindNotFound {
			return nil
		}
		if err != nil {
			return err
		}
		f.Close()
		out = append(out, info)
		return nil
	})
	if err != nil {
		return nil, kiln.E(op, err)
	}
	slices.SortFunc(out, func(a, b kiln.BlobInfo) int { return strings.Compare(a.Key, b.Key) })
	return out, nil
}

// PresignPut reports ok=false: a local directory has no URL of its own.
func (s *Store) PresignPut(context.Context, string, int64, time.Duration) (string, bool, error) {
	return "", false, nil
}

// Ping creates and removes a temporary file: a store that cannot write
// cannot take uploads, even if it can still serve them.
func (s *Store) Ping(ctx context.Context) error {
	f, err := os.CreateTemp(filepath.Join(s.dir, tmpDir), "ping-*")
	if err != nil {
		return kiln.E("disk.Ping", kiln.KindUnavailable, err)
	}
	f.Close()
	if err := os.Remove(f.Name()); err != nil {
		return kiln.E("disk.Ping", kiln.KindUnavailable, err)
	}
	return nil
}

// blob reads the data part of a blob file, up to its trailer.
type blob struct {
	*io.SectionReader
	f    *os.File
	info kiln.BlobInfo
}

func (b *blob) Close() error        { return b.f.Close() }
func (b *blob) Info() kiln.BlobInfo { return b.info }

// ctxReader ends a copy when ctx ends: a slow or stalled client would
// otherwise hold a Put long after its request was abandoned.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

func notFound(key string) error {
	return kiln.Errorf(kiln.KindNotFound, "blob_not_found", "no blob under key %q", key)
}
