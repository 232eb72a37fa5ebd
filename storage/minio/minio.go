// Package minio keeps blobs in an S3 bucket through minio-go: the store of
// production, shared by every api and worker process. It speaks to any S3,
// MinIO in docker-compose among them.
package minio

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"github.com/kilnhq/kiln"
)

// partSize bounds the memory of an upload of unknown size: minio-go buffers
// one part at a time and would otherwise pick parts of hundreds of MiB.
const partSize = 16 << 20

// maxExpiry is the longest validity S3 accepts for a presigned URL.
const maxExpiry = 7 * 24 * time.Hour

// Config locates the bucket.
type Config struct {
	Endpoint  string // host:port, without scheme
	AccessKey string
	SecretKey string
	Bucket    string
	Secure    bool // https
	// PublicEndpoint (host:port) is the name clients reach the same S3
	// by, written into the presigned URLs they receive; empty means
	// Endpoint. PublicSecure makes those URLs https.
	PublicEndpoint string
	PublicSecure   bool
}

// Store is a kiln.BlobStore on one S3 bucket.
type Store struct {
	client *minio.Client
	// core sends GETs whose response body Get hands over as is.
	core minio.Core
	// presigner signs the URLs that clients receive: client itself, or
	// one on the public endpoint, which Kiln may be unable to reach.
	presigner *minio.Client
	bucket    string
	// raw sends the GETs whose body the kernel can pass on (raw.go);
	// nil over https.
	raw *rawPool
}

var _ kiln.BlobStore = (*Store)(nil)

// New connects and creates the bucket when it is missing, so that a fresh
// MinIO works without a setup step.
func New(ctx context.Context, cfg Config) (*Store, error) {
	const op = "minio.New"
	tr, err := transport(cfg.Secure)
	if err != nil {
		return nil, kiln.E(op, kiln.KindInvalid, err)
	}
	client, err := minio.New(cfg.Endpoint, &minio.Options{
		Creds:     credentials.NewStaticV4(cfg.AccessKey, cfg.SecretKey, ""),
		Secure:    cfg.Secure,
		Transport: tr,
	})
	if err != nil {
		return nil, kiln.E(op, kiln.KindInvalid, err)
	}
	exists, err := client.BucketExists(ctx, cfg.Bucket)
	if err != nil {
		return nil, wrap(op, "", err)
	}
	if !exists {
		// Another process may create it between the two calls.
		err := client.MakeBucket(ctx, cfg.Bucket, minio.MakeBucketOptions{})
		if err != nil && minio.ToErrorResponse(err).Code != minio.BucketAlreadyOwnedByYou {
			return nil, wrap(op, "", err)
		}
	}
	st := &Store{client: client, core: minio.Core{Client: client}, presigner: client, bucket: cfg.Bucket}
	if !cfg.Secure {
		st.raw = newRawPool(cfg.Endpoint)
	}
	if cfg.PublicEndpoint != "" && (cfg.PublicEndpoint != cfg.Endpoint || cfg.PublicSecure != cfg.Secure) {
		// Signing is offline once the region is known; asking for it here
		// through the inner endpoint keeps the public one from ever being
		// dialled (inside compose it is often unreachable from Kiln).
		region, err := client.GetBucketLocation(ctx, cfg.Bucket)
		if err != nil {
			return nil, wrap(op, "", err)
		}
		st.presigner, err = minio.New(cfg.PublicEndpoint, &minio.Options{
			Creds:  credentials.NewStaticV4(cfg.AccessKey, cfg.SecretKey, ""),
			Secure: cfg.PublicSecure,
			Region: region,
		})
		if err != nil {
			return nil, kiln.E(op, kiln.KindInvalid, err)
		}
	}
	return st, nil
}

// maxIdlePerHost is how many kept-alive connections to the store wait for
// the next request. minio-go's 16 is fewer than the downloads an API
// process streams at once under load: every one past it paid a new TCP
// connection (and the store a new goroutine) per request.
const maxIdlePerHost = 256

// transport is minio-go's own (keep-alive, no transparent gzip) with a
// pool as large as the downloads in flight and larger socket buffers,
// so that a download reads MinIO in large pieces.
func transport(secure bool) (*http.Transport, error) {
	tr, err := minio.DefaultTransport(secure)
	if err != nil {
		return nil, err
	}
	tr.MaxIdleConns = maxIdlePerHost
	tr.MaxIdleConnsPerHost = maxIdlePerHost
	tr.ReadBufferSize = 64 << 10
	tr.WriteBufferSize = 64 << 10
	return tr, nil
}

// Put relies on S3 for atomicity: an object appears only when its single
// PUT or its multipart upload completes.
func (s *Store) Put(ctx context.Context, key string, r io.Reader, size int64, contentType string) (kiln.BlobInfo, error) {
	const op = "minio.Put"
	if err := kiln.CheckBlobKey(key); err != nil {
		return kiln.BlobInfo{}, kiln.E(op, err)
	}
	if contentType == "" {
		contentType = "application/octet-stream"
	}
	b := &body{ctx: ctx, r: r, size: size, left: size}
	up, err := s.client.PutObject(ctx, s.bucket, key, b, size, minio.PutObjectOptions{ContentType: contentType, PartSize: partSize})
	if err != nil && b.err != nil {
		return kiln.BlobInfo{}, kiln.E(op, b.err)
	}
	if err != nil {
		return kiln.BlobInfo{}, wrap(op, key, err)
	}
	// S3 answers a PUT without Last-Modified; the local clock stands in,
	// and Stat and Get report the server's.
	modified := up.LastModified
	if modified.IsZero() {
		modified = time.Now()
	}
	return kiln.BlobInfo{Key: key, Size: up.Size, ContentType: contentType, ETag: quote(up.ETag), LastModified: modified}, nil
}

// Get sends one GET and hands its response body over as the blob: bytes
// go from MinIO's socket to the reader with no goroutine, channel or
// buffer of minio-go's Object in between, and Seek is lazy, so the
// Seek(0, end) and Seek(0, start) that http.ServeContent makes to learn
// the size cost no request (minio-go's Object answered them with a second
// GET and dropped the first connection unread). Info comes from the GET
// response itself, never from a separate HEAD that an overwrite could
// slip between; a later read at another offset is a ranged GET carrying
// If-Match, so it fails rather than mix versions.
func (s *Store) Get(ctx context.Context, key string) (kiln.Blob, error) {
	const op = "minio.Get"
	if err := kiln.CheckBlobKey(key); err != nil {
		return nil, kiln.E(op, err)
	}
	if s.raw != nil && !s.raw.off.Load() {
		// Any failure here (a missing key among them) is asked again
		// through minio-go, which reads the store's error.
		if rb, oi, ok, err := s.rawGet(ctx, key); err == nil && ok {
			return &blob{store: s, ctx: ctx, body: rb, etag: oi.ETag, info: info(oi)}, nil
		}
	}
	body, oi, _, err := s.core.GetObject(ctx, s.bucket, key, minio.GetObjectOptions{})
	if err != nil {
		return nil, wrap(op, key, err)
	}
	return &blob{store: s, ctx: ctx, body: body, etag: oi.ETag, info: info(oi)}, nil
}

func (s *Store) Stat(ctx context.Context, key string) (kiln.BlobInfo, error) {
	const op = "minio.Stat"
	if err := kiln.CheckBlobKey(key); err != nil {
		return kiln.BlobInfo{}, kiln.E(op, err)
	}
	oi, err := s.client.StatObject(ctx, s.bucket, key, minio.StatObjectOptions{})
	if err != nil {
		return kiln.BlobInfo{}, wrap(op, key, err)
	}
	return info(oi), nil
}

// Delete needs no existence check: S3 answers 204 for a missing key too.
func (s *Store) Delete(ctx context.Context, key string) error {
	const op = "minio.Delete"
	if err := kiln.CheckBlobKey(key); err != nil {
		return kiln.E(op, err)
	}
	if err := s.client.RemoveObject(ctx, s.bucket, key, minio.RemoveObjectOptions{}); err != nil {
		return wrap(op, key, err)
	}
	return nil
}

// List relies on S3 listing keys in byte order. Listing carries no content
// type, so ContentType is empty in its results.
func (s *Store) List(ctx context.Context, prefix string) ([]kiln.BlobInfo, error) {
	const op = "minio.List"
	if err := kiln.CheckBlobPrefix(prefix); err != nil {
		return nil, kiln.E(op, err)
	}
	ctx, cancel := context.WithCancel(ctx) // stops the lister if we return early
	defer cancel()
	var out []kiln.BlobInfo
	for oi := range s.client.ListObjects(ctx, s.bucket, minio.ListObjectsOptions{Prefix: prefix, Recursive: true}) {
		if oi.Err != nil {
			return nil, wrap(op, "", oi.Err)
		}
		out = append(out, info(oi))
	}
	return out, nil
}

// Copy copies inside the bucket (S3 CopyObject): the bytes never pass
// through Kiln. One CopyObject takes up to 5 GiB, above Kiln's upload cap.
func (s *Store) Copy(ctx context.Context, src, dst string) (kiln.BlobInfo, error) {
	const op = "minio.Copy"
	for _, k := range []string{src, dst} {
		if err := kiln.CheckBlobKey(k); err != nil {
			return kiln.BlobInfo{}, kiln.E(op, err)
		}
	}
	_, err := s.client.CopyObject(ctx,
		minio.CopyDestOptions{Bucket: s.bucket, Object: dst},
		minio.CopySrcOptions{Bucket: s.bucket, Object: src})
	if err != nil {
		return kiln.BlobInfo{}, wrap(op, src, err)
	}
	return s.Stat(ctx, dst)
}

// PresignPut signs Content-Length into the URL when size > 0: S3 then
// refuses a body of any other length with 403, before a byte is stored.
func (s *Store) PresignPut(ctx context.Context, key string, size int64, expiry time.Duration) (string, bool, error) {
	const op = "minio.PresignPut"
	if err := kiln.CheckBlobKey(key); err != nil {
		return "", false, kiln.E(op, err)
	}
	if expiry < time.Second || expiry > maxExpiry {
		return "", false, kiln.E(op, kiln.Errorf(kiln.KindInvalid, "invalid_expiry", "a presigned URL lasts from 1 second to 7 days, not %v", expiry))
	}
	var signed http.Header
	if size > 0 {
		signed = http.Header{"Content-Length": {strconv.FormatInt(size, 10)}}
	}
	u, err := s.presigner.PresignHeader(ctx, http.MethodPut, s.bucket, key, expiry, nil, signed)
	if err != nil {
		return "", false, wrap(op, key, err)
	}
	return u.String(), true, nil
}

// PresignGet returns a URL that a client can GET the blob from directly,
// signed for the public endpoint like PresignPut's: the API redirects
// downloads to it when KILN_DOWNLOAD_REDIRECT is set.
func (s *Store) PresignGet(ctx context.Context, key string, expiry time.Duration) (string, bool, error) {
	const op = "minio.PresignGet"
	if err := kiln.CheckBlobKey(key); err != nil {
		return "", false, kiln.E(op, err)
	}
	if expiry < time.Second || expiry > maxExpiry {
		return "", false, kiln.E(op, kiln.Errorf(kiln.KindInvalid, "invalid_expiry", "a presigned URL lasts from 1 second to 7 days, not %v", expiry))
	}
	u, err := s.presigner.PresignedGetObject(ctx, s.bucket, key, expiry, nil)
	if err != nil {
		return "", false, wrap(op, key, err)
	}
	return u.String(), true, nil
}

var _ kiln.GetPresigner = (*Store)(nil)

// Ping checks the bucket, not just the server: without it nothing works.
func (s *Store) Ping(ctx context.Context) error {
	const op = "minio.Ping"
	ok, err := s.client.BucketExists(ctx, s.bucket)
	if err != nil {
		return kiln.E(op, kiln.KindUnavailable, err)
	}
	if !ok {
		return kiln.E(op, kiln.Errorf(kiln.KindUnavailable, "bucket_missing", "bucket %q does not exist", s.bucket))
	}
	return nil
}

// body watches an upload's reader. It keeps the reader's own error, which
// net/http would bury in a network error, and it fails a body shorter or
// longer than announced (size >= 0): minio-go would store the first size
// bytes of a longer one. Its errors come with no bytes, because minio-go
// reads through io.ReadFull, which drops an error that arrives with the
// last bytes it asked for. It also fails once ctx is done: net/http
// notices a cancelled request only between writes, and a body that goes on
// to its last byte lets MinIO store the object that Put reports as failed.
type body struct {
	ctx        context.Context
	r          io.Reader
	size, left int64
	err        error
}

func (b *body) Read(p []byte) (int, error) {
	n, err := b.read(p)
	if cerr := b.ctx.Err(); cerr != nil {
		err = cerr
	}
	if err != nil && err != io.EOF {
		b.err = err
		return 0, err
	}
	return n, err
}

func (b *body) read(p []byte) (int, error) {
	if b.size < 0 {
		return b.r.Read(p)
	}
	if b.left == 0 {
		return 0, io.EOF
	}
	n, err := b.r.Read(p[:min(int64(len(p)), b.left)])
	b.left -= int64(n)
	switch {
	case err == io.EOF && b.left > 0:
		return n, kiln.Errorf(kiln.KindInvalid, "size_mismatch", "announced %d bytes, got %d", b.size, b.size-b.left)
	case err == nil && b.left == 0:
		var extra [1]byte
		if m, err := io.ReadFull(b.r, extra[:]); m > 0 {
			return n, kiln.Errorf(kiln.KindInvalid, "size_mismatch", "announced %d bytes, got more", b.size)
		} else if err != io.EOF {
			return n, err
		}
	}
	return n, err
}

// blob reads one object version from an open response body. pos is the
// offset of the body's next byte, want the offset the reader asked for
// with Seek; they differ only between a Seek and the next Read.
type blob struct {
	store     *Store
	ctx       context.Context
	body      io.ReadCloser // nil once closed, or at want >= size
	etag      string        // unquoted, for If-Match
	info      kiln.BlobInfo
	pos, want int64
	closed    bool
}

func (b *blob) Info() kiln.BlobInfo { return b.info }

func (b *blob) Read(p []byte) (int, error) {
	const op = "minio.Read"
	if b.closed {
		return 0, kiln.E(op, errors.New("read of a closed blob"))
	}
	if b.want != b.pos || b.body == nil {
		if err := b.reopen(); err != nil {
			return 0, err
		}
	}
	if b.body == nil {
		return 0, io.EOF
	}
	n, err := b.body.Read(p)
	b.pos += int64(n)
	b.want = b.pos
	if err != nil && err != io.EOF {
		return n, wrap(op, b.info.Key, err)
	}
	return n, err
}

// reopen moves the body to want: a ranged GET of the same version from
// there to the end, or no body at all at or past the end.
func (b *blob) reopen() error {
	const op = "minio.Read"
	if b.body != nil {
		b.body.Close()
		b.body = nil
	}
	b.pos = b.want
	if b.want >= b.info.Size {
		return nil
	}
	var opts minio.GetObjectOptions
	if err := opts.SetMatchETag(b.etag); err != nil {
		return kiln.E(op, err)
	}
	if b.want > 0 {
		if err := opts.SetRange(b.want, 0); err != nil {
			return kiln.E(op, err)
		}
	}
	body, _, _, err := b.store.core.GetObject(b.ctx, b.store.bucket, b.info.Key, opts)
	if err != nil {
		return wrap(op, b.info.Key, err)
	}
	b.body = body
	return nil
}

// SpliceTo copies the blob's next n bytes to w, as io.CopyN would, and
// reports whether it did: when the bytes come from a raw GET's socket
// (raw.go), w's ReadFrom takes them from the socket itself, which
// net/http's server hands to the kernel (splice), so they are never
// copied through Kiln. It does nothing and reports false otherwise.
func (b *blob) SpliceTo(w io.Writer, n int64) (int64, bool, error) {
	rb, ok := b.body.(*rawBody)
	if b.closed || !ok || b.want != b.pos || n > rb.left {
		return 0, false, nil
	}
	m, err := rb.writeTo(w, n)
	b.pos += m
	b.want = b.pos
	if err != nil {
		return m, true, wrap("minio.Read", b.info.Key, err)
	}
	return m, true, nil
}

// Seek only records the offset; the next Read goes there.
func (b *blob) Seek(offset int64, whence int) (int64, error) {
	const op = "minio.Seek"
	switch whence {
	case io.SeekCurrent:
		offset += b.want
	case io.SeekEnd:
		offset += b.info.Size
	case io.SeekStart:
	default:
		return 0, kiln.E(op, kiln.KindInvalid, fmt.Errorf("whence %d", whence))
	}
	if offset < 0 {
		return 0, kiln.E(op, kiln.KindInvalid, fmt.Errorf("seek to %d, before the start", offset))
	}
	b.want = offset
	return offset, nil
}

// Close releases the connection: to the pool when the body was read to
// its end, closed otherwise (net/http drops an unread connection).
func (b *blob) Close() error {
	if b.closed {
		return nil
	}
	b.closed = true
	if b.body == nil {
		return nil
	}
	return b.body.Close()
}

func info(oi minio.ObjectInfo) kiln.BlobInfo {
	return kiln.BlobInfo{Key: oi.Key, Size: oi.Size, ContentType: oi.ContentType, ETag: quote(oi.ETag), LastModified: oi.LastModified}
}

// quote restores the quotes that minio-go strips from ETags, as HTTP
// validators need them.
func quote(etag string) string { return `"` + etag + `"` }

// wrap classifies an S3 or network error. key names the blob for a client
// reading a not-found error.
func wrap(op, key string, err error) error {
	var resp minio.ErrorResponse
	var opErr *net.OpError
	var dnsErr *net.DNSError
	switch {
	case errors.As(err, &resp) && (resp.Code == minio.NoSuchKey || resp.Code == minio.NoSuchBucket):
		if key != "" && resp.Code == minio.NoSuchKey {
			return kiln.E(op, kiln.Errorf(kiln.KindNotFound, "blob_not_found", "no blob under key %q", key))
		}
		return kiln.E(op, kiln.KindNotFound, err)
	case errors.As(err, &resp) && resp.StatusCode == http.StatusServiceUnavailable,
		errors.As(err, &opErr), errors.As(err, &dnsErr), errors.Is(err, context.DeadlineExceeded):
		return kiln.E(op, kiln.KindUnavailable, err)
	}
	return kiln.E(op, err)
}
