package api

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"regexp"
	"runtime/debug"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/kilnhq/kiln"
)

type loggerKey struct{}

var requestIDPattern = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// requestLog gives every request an id (the client's X-Request-Id when it
// is sane), a logger that carries it, and one log line when it ends.
func (s *Server) requestLog(listener string) gin.HandlerFunc {
	return func(c *gin.Context) {
		start := time.Now()
		id := c.GetHeader("X-Request-Id")
		if !requestIDPattern.MatchString(id) {
			id = kiln.NewID("req")
		}
		c.Header("X-Request-Id", id)
		l := s.log.With("request_id", id)
		c.Request = c.Request.WithContext(context.WithValue(c.Request.Context(), loggerKey{}, l))
		c.Next()
		route := c.FullPath()
		if route == "" {
			route = "unmatched"
		}
		d := time.Since(start)
		status := c.Writer.Status()
		s.metrics.observe(listener, c.Request.Method, route, status, d)
		l.Info("request", "listener", listener, "method", c.Request.Method, "path", loggedPath(c),
			"route", route, "status", status, "bytes", c.Writer.Size(), "duration_ms", d.Milliseconds())
	}
}

func logger(c *gin.Context) *slog.Logger {
	if l, ok := c.Request.Context().Value(loggerKey{}).(*slog.Logger); ok {
		return l
	}
	return slog.Default()
}

// recovery turns a panic into a 500 with the error body; the stack goes
// to the log, never to the client.
func recovery(c *gin.Context) {
	defer func() {
		if r := recover(); r != nil {
			logger(c).Error("panic", "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			fail(c, kiln.E("api.recovery", fmt.Errorf("panic: %v", r)))
		}
	}()
	c.Next()
}

func notFound(c *gin.Context) {
	fail(c, kiln.Errorf(kiln.KindNotFound, "route_not_found", "no endpoint %s %s; the README lists them", c.Request.Method, c.Request.URL.Path))
}

func methodNotAllowed(c *gin.Context) {
	c.AbortWithStatusJSON(405, errorBody{Status: "error", Error: errorDetail{
		Code:    "method_not_allowed",
		Message: "method " + kiln.Clip(c.Request.Method) + " is not allowed on " + kiln.Clip(c.Request.URL.Path),
	}})
}

// capabilities are the path parameters that are credentials by
// themselves (a local upload URL's signed token): the log shows their
// route, never their value.
var capabilities = []string{"token"}

// loggedPath is the request path with capability parameters masked.
func loggedPath(c *gin.Context) string {
	p := c.Request.URL.Path
	for _, name := range capabilities {
		if v := c.Param(name); v != "" {
			p = strings.ReplaceAll(p, v, ":"+name)
		}
	}
	return p
}

// bodyDeadline bounds the time a request body may take to arrive, so a
// client that trickles its body (a byte every few seconds) cannot hold a
// connection and a goroutine for ever. A later bodyDeadline on a route
// (the upload URL's) replaces the listener's. A body cut by the deadline
// answers 408 body_timeout.
func bodyDeadline(d time.Duration) gin.HandlerFunc {
	return func(c *gin.Context) {
		if d <= 0 || c.Request.Body == nil || c.Request.Body == http.NoBody {
			c.Next()
			return
		}
		if err := http.NewResponseController(c.Writer).SetReadDeadline(time.Now().Add(d)); err == nil {
			if b, ok := c.Request.Body.(*deadlineBody); ok {
				b.d = d
			} else {
				c.Request.Body = &deadlineBody{ReadCloser: c.Request.Body, d: d}
			}
		}
		c.Next()
	}
}

// deadlineBody turns the connection's read timeout into Kiln's error.
type deadlineBody struct {
	io.ReadCloser
	d time.Duration
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && errors.Is(err, os.ErrDeadlineExceeded) {
		err = kiln.Errorf(kiln.KindTimeout, "body_timeout",
			"the request body did not arrive within %v; send it again, faster", b.d)
	}
	return n, err
}
