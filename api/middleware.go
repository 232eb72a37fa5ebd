package api

import (
	"context"
	"fmt"
	"log/slog"
	"regexp"
	"runtime/debug"
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
		l.Info("request", "listener", listener, "method", c.Request.Method, "path", c.Request.URL.Path,
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
		Message: "method " + c.Request.Method + " is not allowed on " + c.Request.URL.Path,
	}})
}
