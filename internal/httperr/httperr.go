// Package httperr makes the errors that net/http answers on its own, before
// any handler runs, speak Kiln's error body. net/http refuses a request
// whose header has a control byte in a value, a malformed line, too many
// bytes or an unknown HTTP version with a plain-text "400 Bad Request"
// written straight to the connection; no handler, middleware or option
// can change it. Listener wraps each connection and rewrites exactly that
// response into {"status":"error","error":{"code","message"}}, so a client
// reads one shape of error whatever was wrong with its request.
package httperr

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
)

// Listener wraps l: see the package comment.
func Listener(l net.Listener) net.Listener { return listener{l} }

type listener struct{ net.Listener }

func (l listener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &conn{Conn: c}, nil
}

type conn struct{ net.Conn }

// early matches the response net/http writes in one Write when it rejects
// a request itself (server.go: "HTTP/1.1 "+publicErr+errorHeaders+publicErr).
// A handler's response never matches: net/http writes a handler's headers
// sorted (Connection before Content-Type) and with a Date.
var early = regexp.MustCompile(`\AHTTP/1\.1 ([45]\d\d) [^\r\n]*\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n([^\r\n]*)\z`)

// earlyHeader is what follows the status line of an early response: a
// write without it is passed on before the regular expression runs,
// which every handler's header write would otherwise pay for.
var earlyHeader = []byte("\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n")

func (c *conn) Write(p []byte) (int, error) {
	if !bytes.HasPrefix(p, []byte("HTTP/1.1 ")) {
		return c.Conn.Write(p)
	}
	if i := bytes.IndexByte(p, '\r'); i < 0 || !bytes.HasPrefix(p[i:], earlyHeader) {
		return c.Conn.Write(p)
	}
	m := early.FindSubmatch(p)
	if m == nil {
		return c.Conn.Write(p)
	}
	status, _ := strconv.Atoi(string(m[1]))
	if _, err := c.Conn.Write(Response(status, string(m[2]))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// ReadFrom passes a response body to the connection's own ReadFrom:
// net/http's server looks for it on the connection to send a file with
// sendfile, or a socket's bytes with splice (the downloads of api), and
// copies through its buffers without it. It only ever carries a body,
// after the header has been written, so no early response goes by here.
func (c *conn) ReadFrom(r io.Reader) (int64, error) {
	if rf, ok := c.Conn.(io.ReaderFrom); ok {
		return rf.ReadFrom(r)
	}
	return io.Copy(struct{ io.Writer }{c.Conn}, r)
}

// codes names the statuses net/http answers on its own (server.go's
// readRequest errors).
var codes = map[int]struct{ code, message string }{
	http.StatusBadRequest:                  {"malformed_request", "the request is malformed: a header line or value is invalid (control characters are not allowed in header values)"},
	http.StatusRequestHeaderFieldsTooLarge: {"headers_too_large", "the request's header is too large"},
	http.StatusNotImplemented:              {"unsupported_transfer_encoding", "the request's transfer encoding is not supported"},
	http.StatusHTTPVersionNotSupported:     {"http_version_not_supported", "this HTTP version is not supported"},
}

// Response is the whole HTTP/1.1 response Kiln sends instead of net/http's
// plain-text one for status; public is net/http's own text ("400 Bad
// Request: missing required Host header"), whose detail after the colon
// is kept: it names what was wrong and never carries an internal.
func Response(status int, public string) []byte {
	c, ok := codes[status]
	if !ok {
		c = codes[http.StatusBadRequest]
	}
	if _, detail, found := strings.Cut(public, ": "); found && status == http.StatusBadRequest && detail != "" {
		c.message = "the request is malformed: " + detail
	}
	body, _ := json.Marshal(map[string]any{"status": "error", "error": map[string]string{"code": c.code, "message": c.message}})
	return fmt.Appendf(nil, "HTTP/1.1 %d %s\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
		status, http.StatusText(status), len(body), body)
}
