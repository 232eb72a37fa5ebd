package minio

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/kilnhq/kiln"
)

// countingProxy forwards TCP connections to addr and counts them: the
// number of connections a client opened to the store.
func countingProxy(t *testing.T, addr string) (string, *atomic.Int64) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	var n atomic.Int64
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			n.Add(1)
			go func() {
				defer c.Close()
				up, err := net.Dial("tcp", addr)
				if err != nil {
					return
				}
				defer up.Close()
				go io.Copy(up, c)
				io.Copy(c, up)
			}()
		}
	}()
	return l.Addr().String(), &n
}

// testDownloadKeepsConnection serves one blob ten times the way the API
// does (Get, then http.ServeContent, which seeks to the end and back for
// the size) and counts the connections made to MinIO: a download must
// read its GET's body to the end on one kept-alive connection, not send
// a second GET and drop the first connection unread. A range and a read
// after a seek come back right too.
func testDownloadKeepsConnection(t *testing.T) {
	cfg := testConfig(t)
	proxy, conns := countingProxy(t, cfg.Endpoint)
	cfg.Endpoint = proxy
	s := newStore(t, cfg)
	data := bytes.Repeat([]byte("0123456789abcdef"), 64<<10) // 1 MiB
	if _, err := s.Put(t.Context(), "avatars/a/model.glb", bytes.NewReader(data), int64(len(data)), "model/gltf-binary"); err != nil {
		t.Fatal(err)
	}
	before := conns.Load()
	serve := func(header http.Header) *httptest.ResponseRecorder {
		b, err := s.Get(t.Context(), "avatars/a/model.glb")
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		req := httptest.NewRequest(http.MethodGet, "/model.glb", nil)
		req.Header = header
		w := httptest.NewRecorder()
		w.Header().Set("ETag", b.Info().ETag)
		http.ServeContent(w, req, "model.glb", b.Info().LastModified, b)
		return w
	}
	for i := range 10 {
		w := serve(http.Header{})
		if w.Code != http.StatusOK || !bytes.Equal(w.Body.Bytes(), data) {
			t.Fatalf("download %d: %d, %d bytes", i, w.Code, w.Body.Len())
		}
	}
	if got := conns.Load() - before; got > 1 {
		t.Errorf("10 downloads one after the other opened %d new connections to MinIO, want at most 1", got)
	}
	w := serve(http.Header{"Range": {"bytes=1000-1099"}})
	if w.Code != http.StatusPartialContent || !bytes.Equal(w.Body.Bytes(), data[1000:1100]) {
		t.Errorf("range 1000-1099: %d, %q", w.Code, w.Body.Bytes())
	}
}

// testDownloadSplices serves one blob five times through a real net/http
// server with SpliceTo, as api does: the blob's bytes go from the store's
// socket to the client's by the server's ReadFrom, arrive whole, and the
// GETs share one kept-alive connection to MinIO. A missing key still
// reads as not found.
func testDownloadSplices(t *testing.T) {
	cfg := testConfig(t)
	proxy, conns := countingProxy(t, cfg.Endpoint)
	cfg.Endpoint = proxy
	s := newStore(t, cfg)
	data := bytes.Repeat([]byte("fedcba9876543210"), 96<<10) // 1.5 MiB
	if _, err := s.Put(t.Context(), "avatars/a/model.glb", bytes.NewReader(data), int64(len(data)), "model/gltf-binary"); err != nil {
		t.Fatal(err)
	}
	type result struct {
		n       int64
		spliced bool
		err     error
	}
	results := make(chan result, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := s.Get(r.Context(), "avatars/a/model.glb")
		if err != nil {
			results <- result{err: err}
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		defer b.Close()
		w.Header().Set("Content-Length", strconv.FormatInt(b.Info().Size, 10))
		n, spliced, err := b.(interface {
			SpliceTo(io.Writer, int64) (int64, bool, error)
		}).SpliceTo(w, b.Info().Size)
		results <- result{n, spliced, err}
	}))
	defer srv.Close()
	before := conns.Load()
	for i := range 5 {
		res, err := srv.Client().Get(srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(res.Body)
		res.Body.Close()
		r := <-results
		if err != nil || res.StatusCode != http.StatusOK || !bytes.Equal(body, data) {
			t.Fatalf("download %d: %d, %d bytes of %d, %v", i, res.StatusCode, len(body), len(data), err)
		}
		if r.err != nil || !r.spliced || r.n != int64(len(data)) {
			t.Fatalf("download %d: SpliceTo sent %d bytes, spliced %v, %v", i, r.n, r.spliced, r.err)
		}
	}
	if got := conns.Load() - before; got > 1 {
		t.Errorf("5 spliced downloads one after the other opened %d new connections to MinIO, want at most 1", got)
	}
	if _, err := s.Get(t.Context(), "avatars/a/none.glb"); kiln.KindOf(err) != kiln.KindNotFound {
		t.Errorf("Get of a missing key: %v, want not found", err)
	}
}
