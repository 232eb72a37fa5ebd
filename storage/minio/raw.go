package minio

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/minio/minio-go/v7"
)

// A download through Kiln without its cache passes every byte from the
// store's socket to the client's. Through net/http's client the bytes
// must come up into Kiln's memory (a read) and go down again (a write):
// on a 2-core machine shared with the store, those copies were most of
// Kiln's CPU per download. A GET sent on a connection of Kiln's own
// leaves the response body on a bare *net.TCPConn, which net/http's
// server hands to the kernel (TCPConn.ReadFrom: splice on Linux), so
// the bytes go from socket to socket without being copied through Kiln.
// Only a plain GET of a whole object over http takes this way; TLS, and
// any answer but a 200 with a length, go through minio-go as before.

// rawIdleTimeout is how long an idle connection is kept: well under the
// idle timeouts of S3 servers, so that a kept connection is seldom found
// closed (one that is costs a retry on a new one).
const rawIdleTimeout = 15 * time.Second

// rawHeaderTimeout bounds the wait for the response's header, as
// minio-go's transport does.
const rawHeaderTimeout = time.Minute

// presignExpiry is the validity of the URL a raw GET is sent to: it is
// used at once.
const presignExpiry = 5 * time.Minute

// signedFor is how long a signed request is reused for the same key:
// signing (a SHA-256, five HMACs and minio-go's request building) was
// 7 % of Kiln's CPU per uncached download of a 1.4 MB avatar, and a hot
// download is asked for many times a second. It stays well inside
// presignExpiry.
const signedFor = time.Minute

// maxSigned bounds the signed requests kept; past it they are dropped
// and signed anew.
const maxSigned = 4096

// signed is a raw GET's request, signed at made.
type signed struct {
	req  string
	made time.Time
}

// rawConn is a connection to the store with the reader of its responses.
type rawConn struct {
	c    *net.TCPConn
	br   *bufio.Reader
	idle time.Time // when it was put back in the pool
}

// rawPool keeps the idle connections of raw GETs, like net/http's
// Transport does for minio-go.
type rawPool struct {
	endpoint string // as configured, the Host of path-style URLs
	// off is set once a signed URL names another host than the one
	// dialled (virtual-host style, as minio-go uses on AWS): raw GETs
	// are not sent then.
	off    atomic.Bool
	addr   string
	dialer net.Dialer
	mu     sync.Mutex
	idle   []*rawConn
	signed map[string]signed // by key, under mu
}

func newRawPool(endpoint string) *rawPool {
	addr := endpoint
	if _, _, err := net.SplitHostPort(addr); err != nil {
		addr = net.JoinHostPort(addr, "80") // as minio-go dials an endpoint without a port
	}
	return &rawPool{endpoint: endpoint, addr: addr, dialer: net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}}
}

// request is the raw GET of key: a presigned URL's request line and
// Host, signed at most signedFor ago.
func (p *rawPool) request(ctx context.Context, s *Store, key string) (string, error) {
	now := time.Now()
	p.mu.Lock()
	sg, ok := p.signed[key]
	p.mu.Unlock()
	if ok && now.Sub(sg.made) < signedFor {
		return sg.req, nil
	}
	u, err := s.client.PresignedGetObject(ctx, s.bucket, key, presignExpiry, nil)
	if err != nil {
		return "", err
	}
	if u.Host != p.endpoint {
		p.off.Store(true)
		return "", errors.New("signed URL of another host: " + u.Host)
	}
	req := "GET " + u.RequestURI() + " HTTP/1.1\r\nHost: " + u.Host + "\r\nUser-Agent: kiln\r\n\r\n"
	p.mu.Lock()
	if p.signed == nil || len(p.signed) >= maxSigned {
		p.signed = make(map[string]signed)
	}
	p.signed[key] = signed{req: req, made: now}
	p.mu.Unlock()
	return req, nil
}

// get returns an idle connection, newest first, or dials one; reused
// says which.
func (p *rawPool) get(ctx context.Context) (rc *rawConn, reused bool, err error) {
	p.mu.Lock()
	for len(p.idle) > 0 {
		rc = p.idle[len(p.idle)-1]
		p.idle = p.idle[:len(p.idle)-1]
		if time.Since(rc.idle) < rawIdleTimeout {
			p.mu.Unlock()
			return rc, true, nil
		}
		rc.c.Close()
	}
	p.mu.Unlock()
	rc, err = p.dial(ctx)
	return rc, false, err
}

func (p *rawPool) dial(ctx context.Context) (*rawConn, error) {
	c, err := p.dialer.DialContext(ctx, "tcp", p.addr)
	if err != nil {
		return nil, err
	}
	tc, ok := c.(*net.TCPConn)
	if !ok {
		c.Close()
		return nil, errors.New("not a TCP connection")
	}
	// The header alone is read through the buffer; the body is taken
	// from the socket.
	return &rawConn{c: tc, br: bufio.NewReaderSize(tc, 4<<10)}, nil
}

// put keeps a connection whose last response was read to its end, and
// closes the oldest ones once they have idled too long: get takes the
// newest, so those at the bottom would otherwise stay open after a burst.
func (p *rawPool) put(rc *rawConn) {
	now := time.Now()
	rc.idle = now
	var stale []*rawConn
	p.mu.Lock()
	n := 0
	for n < len(p.idle) && now.Sub(p.idle[n].idle) >= rawIdleTimeout {
		n++
	}
	if n > 0 {
		stale = append(stale, p.idle[:n]...)
		p.idle = append(p.idle[:0], p.idle[n:]...)
	}
	if len(p.idle) < maxIdlePerHost {
		p.idle = append(p.idle, rc)
	} else {
		stale = append(stale, rc)
	}
	p.mu.Unlock()
	for _, c := range stale {
		c.c.Close()
	}
}

// rawGet sends a GET of the whole object on a connection of the pool. ok
// is false when the answer is anything but a 200 with a length (a
// missing key among them): the caller asks again through minio-go, which
// reads the error. A kept connection that the store closed meanwhile is
// retried once on a new one.
func (s *Store) rawGet(ctx context.Context, key string) (rb *rawBody, oi minio.ObjectInfo, ok bool, err error) {
	req, err := s.raw.request(ctx, s, key)
	if err != nil {
		return nil, oi, false, err
	}
	for range 2 {
		rc, reused, err := s.raw.get(ctx)
		if err != nil {
			return nil, oi, false, err
		}
		stop := context.AfterFunc(ctx, func() { rc.c.SetDeadline(time.Unix(1, 0)) })
		rc.c.SetReadDeadline(time.Now().Add(rawHeaderTimeout))
		resp, err := roundTrip(rc, req)
		if err != nil {
			stop()
			rc.c.Close()
			if reused && ctx.Err() == nil {
				continue
			}
			return nil, oi, false, err
		}
		rc.c.SetReadDeadline(time.Time{})
		if err := ctx.Err(); err != nil {
			// Cancelled before the deadline above was lifted, which
			// would have undone the cancellation's.
			stop()
			rc.c.Close()
			return nil, oi, false, err
		}
		if resp.StatusCode != http.StatusOK || resp.ContentLength < 0 || resp.Close || len(resp.TransferEncoding) > 0 {
			stop()
			rc.c.Close()
			return nil, oi, false, nil
		}
		oi, err = minio.ToObjectInfo(s.bucket, key, resp.Header)
		if err != nil {
			stop()
			rc.c.Close()
			return nil, oi, false, nil
		}
		rb = &rawBody{pool: s.raw, rc: rc, stop: stop, left: resp.ContentLength}
		if rb.left == 0 {
			rb.done()
		}
		return rb, oi, true, nil
	}
	return nil, oi, false, errors.New("store closed the connection")
}

// roundTrip writes the request and reads the response's header.
func roundTrip(rc *rawConn, req string) (*http.Response, error) {
	if _, err := io.WriteString(rc.c, req); err != nil {
		return nil, err
	}
	return http.ReadResponse(rc.br, nil)
}

// rawBody is the body of a raw GET: left bytes still to come, the first
// of them perhaps in the connection's buffer, the rest on its socket.
type rawBody struct {
	pool *rawPool
	rc   *rawConn // nil once done or closed
	stop func() bool
	left int64
}

func (r *rawBody) Read(p []byte) (int, error) {
	if r.rc == nil || r.left == 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > r.left {
		p = p[:r.left]
	}
	// With its buffer empty and p at least as large, bufio reads the
	// socket straight into p.
	n, err := r.rc.br.Read(p)
	r.left -= int64(n)
	if r.left == 0 {
		r.done()
		return n, nil
	}
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return n, err
}

// writeTo copies the body's next n bytes to w: those already buffered
// with a write, the rest by w's ReadFrom from the socket itself, which
// net/http's server passes to the kernel.
func (r *rawBody) writeTo(w io.Writer, n int64) (int64, error) {
	if r.rc == nil {
		return 0, io.ErrUnexpectedEOF
	}
	n = min(n, r.left)
	var sent int64
	if k := min(int64(r.rc.br.Buffered()), n); k > 0 {
		b, _ := r.rc.br.Peek(int(k))
		m, err := w.Write(b)
		r.rc.br.Discard(m)
		sent += int64(m)
		r.left -= int64(m)
		if err != nil {
			return sent, err
		}
	}
	if sent < n {
		var m int64
		var err error
		want := n - sent
		lr := &io.LimitedReader{R: r.rc.c, N: want}
		if rf, ok := w.(io.ReaderFrom); ok {
			m, err = rf.ReadFrom(lr)
		} else {
			m, err = io.Copy(w, lr)
		}
		sent += m
		r.left -= m
		if err == nil && m < want {
			err = io.ErrUnexpectedEOF
		}
		if err != nil {
			return sent, err
		}
	}
	if r.left == 0 {
		r.done()
	}
	return sent, nil
}

// done hands the connection, read to the end of its response, back to
// the pool, unless the request's context was cancelled meanwhile (the
// connection then has a deadline in the past).
func (r *rawBody) done() {
	rc := r.rc
	r.rc = nil
	if r.stop() {
		r.pool.put(rc)
	} else {
		rc.c.Close()
	}
}

// Close drops a connection whose response was not read to its end.
func (r *rawBody) Close() error {
	if r.rc == nil {
		return nil
	}
	r.stop()
	err := r.rc.c.Close()
	r.rc = nil
	return err
}
