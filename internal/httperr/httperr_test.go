package httperr

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"
)

// serve runs a real net/http server on the wrapped listener; its handler
// answers the Authorization it saw, or, at /plain, a plain-text 400 of its
// own that must pass through untouched.
func serve(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/plain" {
				w.Header().Set("Connection", "close")
				http.Error(w, "handler's own", http.StatusBadRequest)
				return
			}
			fmt.Fprintf(w, "saw %q", r.Header.Get("Authorization"))
		}),
		MaxHeaderBytes:    4096,
		ReadHeaderTimeout: 5 * time.Second,
	}
	go srv.Serve(Listener(ln))
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// raw sends req as bytes and reads the whole answer.
func raw(t *testing.T, addr, req string) *http.Response {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.WriteString(c, req); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("reading the answer to %q: %v", req, err)
	}
	return res
}

func TestEarlyErrorsAreJSON(t *testing.T) {
	addr := serve(t)
	get := func(headers string) string {
		return "GET / HTTP/1.1\r\nHost: kiln\r\n" + headers + "Connection: close\r\n\r\n"
	}
	cases := []struct {
		name       string
		req        string
		wantStatus int
		wantCode   string
	}{
		{"control byte in Authorization", get("Authorization: Bearer kiln_\x01abc\r\n"), 400, "malformed_request"},
		{"NUL in Authorization", get("Authorization: Bearer \x00\r\n"), 400, "malformed_request"},
		{"DEL in a header", get("X-Thing: a\x7fb\r\n"), 400, "malformed_request"},
		{"line without a colon", get("Authorization Bearer x\r\n"), 400, "malformed_request"},
		{"space in a header name", get("Bad Name: x\r\n"), 400, "malformed_request"},
		{"no Host", "GET / HTTP/1.1\r\nConnection: close\r\n\r\n", 400, "malformed_request"},
		{"header too large", get("X-Big: " + strings.Repeat("a", 8192) + "\r\n"), 431, "headers_too_large"},
		{"HTTP/3.0", "GET / HTTP/3.0\r\nHost: kiln\r\n\r\n", 505, "http_version_not_supported"},
		{"unknown transfer encoding", "POST / HTTP/1.1\r\nHost: kiln\r\nTransfer-Encoding: zip\r\nConnection: close\r\n\r\n", 501, "unsupported_transfer_encoding"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := raw(t, addr, c.req)
			body, _ := io.ReadAll(res.Body)
			if res.StatusCode != c.wantStatus {
				t.Fatalf("status %d, want %d (body %q)", res.StatusCode, c.wantStatus, body)
			}
			if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				t.Errorf("Content-Type %q, want JSON", ct)
			}
			var e struct {
				Status string `json:"status"`
				Error  struct{ Code, Message string }
			}
			if err := json.Unmarshal(body, &e); err != nil || e.Status != "error" || e.Error.Code != c.wantCode || e.Error.Message == "" {
				t.Errorf("body %q (%v), want the error body with code %s", body, err, c.wantCode)
			}
			if int64(len(body)) != res.ContentLength {
				t.Errorf("Content-Length %d for a %d-byte body", res.ContentLength, len(body))
			}
		})
	}
}

// TestHandlersPassThrough: the wrapper leaves every answer of a handler as
// it was, a plain-text 400 included, and keep-alive still works.
func TestHandlersPassThrough(t *testing.T) {
	addr := serve(t)
	res := raw(t, addr, "GET /plain HTTP/1.1\r\nHost: kiln\r\n\r\n")
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 400 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/plain") || string(body) != "handler's own\n" {
		t.Errorf("handler's own 400: %d %q %q", res.StatusCode, res.Header.Get("Content-Type"), body)
	}

	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	br := bufio.NewReader(c)
	for i := range 3 {
		fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: kiln\r\nAuthorization: Bearer k%d\r\n\r\n", i)
		res, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("request %d on one connection: %v", i, err)
		}
		body, _ := io.ReadAll(res.Body)
		if want := fmt.Sprintf("saw %q", fmt.Sprintf("Bearer k%d", i)); res.StatusCode != 200 || string(body) != want {
			t.Errorf("request %d: %d %q, want 200 %q", i, res.StatusCode, body, want)
		}
	}
}

// TestBodiesReachTheKernel: a wrapped connection keeps the ReadFrom of
// the TCP connection under it, which net/http's server calls to send a
// file with sendfile (and a socket's bytes with splice); without it
// every download went through user-space buffers. The file's bytes
// arrive whole.
func TestBodiesReachTheKernel(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	wl := Listener(ln)
	defer wl.Close()
	want := strings.Repeat("kiln body ", 100_000)
	path := t.TempDir() + "/body"
	if err := os.WriteFile(path, []byte(want), 0o600); err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 1)
	go func() {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			got <- err.Error()
			return
		}
		defer c.Close()
		b, _ := io.ReadAll(c)
		got <- string(b)
	}()
	c, err := wl.Accept()
	if err != nil {
		t.Fatal(err)
	}
	rf, ok := c.(io.ReaderFrom)
	if !ok {
		c.Close()
		t.Fatalf("the wrapped connection %T has no ReadFrom: net/http copies bodies through its buffers, not sendfile", c)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n, err := rf.ReadFrom(f)
	c.Close()
	if err != nil || n != int64(len(want)) {
		t.Fatalf("ReadFrom: %d bytes, %v; want %d", n, err, len(want))
	}
	if b := <-got; b != want {
		t.Errorf("the client read %d bytes, not the file's %d", len(b), len(want))
	}
}
