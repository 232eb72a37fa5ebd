package api

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/kilnhq/kiln"
)

// serveBlob streams a stored blob that its key may hold in another
// version later (an upload's source, a stored level): clients revalidate
// it with its ETag (304) every time.
func (s *Server) serveBlob(c *gin.Context, key, name, contentType string) {
	s.serveStored(c, key, name, contentType, cacheRevalidate)
}

// cachePolicy says how long caches may keep a stored blob's answer.
type cachePolicy int

const (
	// cacheRevalidate: the key may hold another version later, and the
	// answer is the account's: private, asked again every time.
	cacheRevalidate cachePolicy = iota
	// cacheImmutable: a key written once with one content (an object's
	// variant, built once under a key named by its parameters), which
	// browsers and CDNs may keep for a year without asking again.
	cacheImmutable
	// cacheShared: public files whose URL stays while their content may
	// change (an avatar's model and previews, which an edit replaces):
	// shared caches may keep them but ask again (ETag, 304) every time.
	cacheShared
)

// serveStored streams a stored blob with ETag, conditional requests (304),
// ranges (206) and HEAD, all from http.ServeContent. A blob that the
// store hands over as a local file (the on-node cache, storage/blobcache)
// goes to the socket with sendfile, without passing through Kiln's
// memory. A request with credentials gets a cacheable answer as private,
// so that a shared cache never hands an account's model to someone else.
func (s *Server) serveStored(c *gin.Context, key, name, contentType string, cache cachePolicy) {
	if s.redirects(cache) && s.redirect(c, key) {
		return
	}
	b, err := s.Blobs.Get(c.Request.Context(), key)
	if err != nil {
		fail(c, err)
		return
	}
	s.sendStored(c, b, name, contentType, cache)
}

// redirects reports whether answers of this cache policy may be
// redirected to the store (KILN_DOWNLOAD_REDIRECT).
func (s *Server) redirects(cache cachePolicy) bool {
	return cache == cacheImmutable && s.DownloadRedirect
}

// sendStored answers with an open blob, as serveStored says, and closes it.
func (s *Server) sendStored(c *gin.Context, b kiln.Blob, name, contentType string, cache cachePolicy) {
	defer b.Close()
	info := b.Info()
	h := c.Writer.Header()
	h.Set("Content-Type", contentType)
	h.Set("ETag", info.ETag)
	h.Set("Cache-Control", cacheControl(c, cache))
	h.Set("Content-Disposition", fmt.Sprintf("inline; filename=%q", name))
	var content io.ReadSeeker = b
	if f, ok := b.(localFile); ok {
		content = f.OSFile()
	}
	w := &sendfileWriter{ResponseWriter: c.Writer}
	c.Writer = w
	serveContent(c, name, info.LastModified, content)
}

// serveContent is http.ServeContent with its error answers (416 for a
// range outside the content, 412 for an If-Match that no longer holds, 500
// for a failed seek) in Kiln's error body instead of net/http's plain
// text, so a client reads every error the same way. The Content-Range of
// a 416 (bytes */size) stays.
func serveContent(c *gin.Context, name string, modtime time.Time, content io.ReadSeeker) {
	w := &contentErrorWriter{ResponseWriter: c.Writer}
	c.Writer = w
	http.ServeContent(w, c.Request, name, modtime, content)
	c.Writer = w.ResponseWriter
	if w.status == 0 {
		return
	}
	h := c.Writer.Header()
	h.Del("Content-Type")
	h.Del("Content-Disposition")
	h.Del("X-Content-Type-Options")
	switch w.status {
	case http.StatusRequestedRangeNotSatisfiable:
		fail(c, kiln.Errorf(kiln.KindRange, "range_not_satisfiable",
			"the Range %.100q lies outside the %s bytes of the file (Content-Range gives its size)", c.GetHeader("Range"), strings.TrimPrefix(h.Get("Content-Range"), "bytes */")))
	case http.StatusPreconditionFailed:
		fail(c, kiln.Errorf(kiln.KindPrecondition, "precondition_failed",
			"the file no longer matches If-Match or If-Unmodified-Since; fetch it again"))
	default:
		fail(c, kiln.E("api.serveContent", fmt.Errorf("http.ServeContent answered %d", w.status)))
	}
}

// contentErrorWriter keeps the error answer of http.ServeContent (a
// status of 400 or more, and its plain-text body) from the client, for
// serveContent to answer it in the error body.
type contentErrorWriter struct {
	gin.ResponseWriter
	status int
}

func (w *contentErrorWriter) WriteHeader(code int) {
	if code >= http.StatusBadRequest {
		w.status = code
		return
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *contentErrorWriter) Write(b []byte) (int, error) {
	if w.status != 0 {
		return len(b), nil
	}
	return w.ResponseWriter.Write(b)
}

// ReadFrom keeps sendfileWriter's ReadFrom within reach of
// http.ServeContent's copy.
func (w *contentErrorWriter) ReadFrom(r io.Reader) (int64, error) {
	if rf, ok := w.ResponseWriter.(io.ReaderFrom); ok && w.status == 0 {
		return rf.ReadFrom(r)
	}
	return io.Copy(struct{ io.Writer }{w}, r)
}

func (w *contentErrorWriter) WriteString(s string) (int, error) {
	if w.status != 0 {
		return len(s), nil
	}
	return w.ResponseWriter.WriteString(s)
}

// cacheControl is the Cache-Control of a stored blob's answer.
func cacheControl(c *gin.Context, cache cachePolicy) string {
	scope := "public"
	if c.GetHeader("Authorization") != "" {
		scope = "private"
	}
	switch cache {
	case cacheImmutable:
		return scope + ", max-age=31536000, immutable"
	case cacheShared:
		return scope + ", no-cache"
	}
	return "private, max-age=0, must-revalidate"
}

// localFile is a blob held whole in a local file, which can then be
// served as an *os.File.
type localFile interface {
	OSFile() *os.File
}

// sendfileWriter gives gin's writer an io.ReaderFrom, which
// http.ServeContent's copy uses. A local file goes to net/http's own
// ReadFrom, which hands it to the kernel (sendfile) when the answer has a
// length and a body. A blob that can splice (storage/minio's body on a
// connection of its own) hands its socket to the same ReadFrom, which
// passes the bytes from socket to socket in the kernel (splice). Any
// other blob is copied through a pooled 256 KiB buffer straight to
// net/http's writer, which passes writes that large to the socket: no
// buffer allocated per request, no second copy through gin's or
// net/http's small buffers, a few large writes instead of many 32 KiB
// ones. (Both kernel paths need internal/httperr's connection to keep
// TCPConn's ReadFrom: net/http looks for it there.) The bytes sent that way
// are added to Size, which the request log reports.
type sendfileWriter struct {
	gin.ResponseWriter
	sent int64
}

// copyBufs holds the buffers of streamed downloads.
var copyBufs = sync.Pool{New: func() any { b := make([]byte, 256<<10); return &b }}

func (w *sendfileWriter) ReadFrom(r io.Reader) (int64, error) {
	hw := unwrap(w.ResponseWriter)
	w.WriteHeaderNow()
	var n int64
	var err error
	done := false
	if rf, ok := hw.(io.ReaderFrom); ok && isFile(r) {
		n, err = rf.ReadFrom(r)
		done = true
	} else if lr, ok := r.(*io.LimitedReader); ok {
		if sp, ok := lr.R.(splicer); ok {
			n, done, err = sp.SpliceTo(hw, lr.N)
			lr.N -= n
		}
	}
	if !done {
		buf := copyBufs.Get().(*[]byte)
		n, err = io.CopyBuffer(writerOnly{hw}, r, *buf)
		copyBufs.Put(buf)
	}
	w.sent += n
	return n, err
}

// splicer is a blob that can give its next n bytes to a writer's
// ReadFrom straight from the store's socket (storage/minio's raw GETs),
// for net/http to pass from socket to socket in the kernel (splice). It
// reports false, having done nothing, when it cannot.
type splicer interface {
	SpliceTo(w io.Writer, n int64) (int64, bool, error)
}

// isFile reports whether r reads a local file, as http.ServeContent's
// copy passes it (inside an io.LimitedReader).
func isFile(r io.Reader) bool {
	if lr, ok := r.(*io.LimitedReader); ok {
		r = lr.R
	}
	_, ok := r.(*os.File)
	return ok
}

// writerOnly hides a writer's ReadFrom from io.CopyBuffer, which would
// otherwise call it instead of using the buffer.
type writerOnly struct{ io.Writer }

func (w *sendfileWriter) Size() int {
	n := w.ResponseWriter.Size()
	if w.sent > 0 {
		n = max(n, 0) + int(w.sent)
	}
	return n
}

// unwrap is the http.ResponseWriter under gin's.
func unwrap(w gin.ResponseWriter) http.ResponseWriter {
	if u, ok := w.(interface{ Unwrap() http.ResponseWriter }); ok {
		return u.Unwrap()
	}
	return w
}

// redirectTTL is how long a download's presigned URL stays valid; the
// redirect itself may be reused for a tenth of it.
const redirectTTL = time.Hour

// redirect answers a GET with a 302 to a presigned URL of the store
// (KILN_DOWNLOAD_REDIRECT), so that the store serves the bytes, and
// reports whether it did. A conditional request that matches the ETag
// still gets its 304 from Kiln; HEAD, and stores that cannot sign
// (local disk), are served as usual.
func (s *Server) redirect(c *gin.Context, key string) bool {
	p, ok := s.Blobs.(kiln.GetPresigner)
	if !ok || c.Request.Method != http.MethodGet {
		return false
	}
	ctx := c.Request.Context()
	if inm := c.GetHeader("If-None-Match"); inm != "" {
		info, err := s.Blobs.Stat(ctx, key)
		if err == nil && inm == info.ETag {
			c.Header("ETag", info.ETag)
			c.Header("Cache-Control", cacheControl(c, cacheImmutable))
			c.Status(http.StatusNotModified)
			return true
		}
	}
	u, ok, err := p.PresignGet(ctx, key, redirectTTL)
	if err != nil || !ok {
		return false
	}
	c.Header("Cache-Control", fmt.Sprintf("private, max-age=%d", int(redirectTTL.Seconds()/10)))
	c.Redirect(http.StatusFound, u)
	return true
}
