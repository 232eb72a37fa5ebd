package kiln

import (
	"context"
	"io"
	"strings"
	"time"
)

// BlobInfo describes a stored blob.
type BlobInfo struct {
	Key          string
	Size         int64
	ContentType  string
	ETag         string // strong validator, quoted as HTTP wants it
	LastModified time.Time
}

// Blob is an open blob: seekable, so http.ServeContent answers Range and
// conditional requests straight from it.
type Blob interface {
	io.ReadSeekCloser
	Info() BlobInfo
}

// BlobStore keeps large binary objects (uploads, GLBs, images). Put is
// atomic: a reader sees the whole new blob or the old state, never a
// partial one, and a Put that fails or is interrupted leaves nothing under
// the key. Missing keys give an error of KindNotFound.
type BlobStore interface {
	// Put streams r (size bytes, or -1 when unknown) under key.
	Put(ctx context.Context, key string, r io.Reader, size int64, contentType string) (BlobInfo, error)
	Get(ctx context.Context, key string) (Blob, error)
	Stat(ctx context.Context, key string) (BlobInfo, error)
	// Delete removes key; deleting a missing key is not an error.
	Delete(ctx context.Context, key string) error
	// List returns the blobs whose key starts with prefix, sorted by key.
	List(ctx context.Context, prefix string) ([]BlobInfo, error)
	// Copy makes dst a copy of src (inside the store where it can), for a
	// blob that must stop changing: the API copies an upload to its final
	// key so that the upload URL cannot reach the processed source.
	Copy(ctx context.Context, src, dst string) (BlobInfo, error)
	// PresignPut returns a URL that a client can PUT the blob to directly,
	// or ok=false when the store has no such URL (local disk), in which case
	// the API offers an upload URL of its own. size > 0 is signed into the
	// URL where the store allows it (S3 signs Content-Length), so a body of
	// another length is refused by the store itself; size <= 0 leaves it
	// open.
	PresignPut(ctx context.Context, key string, size int64, expiry time.Duration) (url string, ok bool, err error)
	// Ping reports whether the store is reachable, for /readyz.
	Ping(ctx context.Context) error
}

// GetPresigner is a BlobStore that signs download URLs (S3 does, local
// disk does not): the API can then redirect a download to the store
// instead of serving it (KILN_DOWNLOAD_REDIRECT). ok is false when the store
// behind cannot sign.
type GetPresigner interface {
	PresignGet(ctx context.Context, key string, expiry time.Duration) (url string, ok bool, err error)
}

// CheckBlobKey admits slash-separated names that cannot leave a store's
// folder or reach its temporary files: no "..", no empty segment, no
// segment starting with a dot, no backslash (a separator on Windows).
// Every store applies this one rule, so a key valid on one is valid on all.
func CheckBlobKey(key string) error {
	bad := key == "" || len(key) > 1024 || strings.ContainsAny(key, "\\\x00") || strings.Contains(key, "..")
	for seg := range strings.SplitSeq(key, "/") {
		bad = bad || seg == "" || seg[0] == '.'
	}
	if bad {
		return Errorf(KindInvalid, "invalid_blob_key", "blob key %q must be slash-separated names, none empty or starting with a dot, without backslashes", key)
	}
	return nil
}

// CheckBlobPrefix admits the empty prefix and any valid key, with or
// without a trailing slash.
func CheckBlobPrefix(prefix string) error {
	if prefix == "" {
		return nil
	}
	return CheckBlobKey(strings.TrimSuffix(prefix, "/"))
}
