package api

import (
	"errors"
	"log/slog"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/kilnhq/kiln"
)

// statusOf maps an error kind to its HTTP status: the one place where
// Kiln's errors meet HTTP.
func statusOf(k kiln.Kind) int {
	switch k {
	case kiln.KindInvalid:
		return http.StatusBadRequest
	case kiln.KindUnauthorized:
		return http.StatusUnauthorized
	case kiln.KindForbidden:
		return http.StatusForbidden
	case kiln.KindNotFound:
		return http.StatusNotFound
	case kiln.KindConflict:
		return http.StatusConflict
	case kiln.KindTooLarge:
		return http.StatusRequestEntityTooLarge
	case kiln.KindRateLimited:
		return http.StatusTooManyRequests
	case kiln.KindUnprocessable:
		return http.StatusUnprocessableEntity
	case kiln.KindUnavailable:
		return http.StatusServiceUnavailable
	case kiln.KindTimeout:
		return http.StatusRequestTimeout
	case kiln.KindRange:
		return http.StatusRequestedRangeNotSatisfiable
	case kiln.KindPrecondition:
		return http.StatusPreconditionFailed
	}
	return http.StatusInternalServerError
}

// errorBody is the one error shape of both services (README, API keys).
type errorBody struct {
	Status string      `json:"status"`
	Error  errorDetail `json:"error"`
}

type errorDetail struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// fail answers err with its status and the error body, and logs what the
// client does not see.
func fail(c *gin.Context, err error) {
	kind := kiln.KindOf(err)
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		err = kiln.Errorf(kiln.KindTooLarge, "body_too_large", "the request body exceeds %d bytes", mbe.Limit)
		kind = kiln.KindTooLarge
	}
	status := statusOf(kind)
	code, msg := kiln.CodeOf(err)
	level := slog.LevelInfo
	if status >= 500 {
		level = slog.LevelError
	}
	logger(c).Log(c.Request.Context(), level, "request failed", "status", status, "code", code, "err", err.Error())
	if status == http.StatusUnauthorized {
		c.Header("WWW-Authenticate", `Bearer realm="kiln"`)
	}
	c.AbortWithStatusJSON(status, errorBody{Status: "error", Error: errorDetail{Code: code, Message: msg}})
}

func invalidf(code, format string, args ...any) error {
	return kiln.Errorf(kiln.KindInvalid, code, format, args...)
}
