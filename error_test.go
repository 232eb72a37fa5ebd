package kiln_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/kilnhq/kiln"
)

func TestErrorKindAndCode(t *testing.T) {
	driver := errors.New("dial tcp 127.0.0.1:6379: connection refused")
	tests := []struct {
		name     string
		err      error
		kind     kiln.Kind
		code     string
		message  string // what the client reads, whole
		hasCode  bool
		logShows string // what Error() keeps for the log
	}{
		{"coded", kiln.Errorf(kiln.KindInvalid, "invalid_lod", "lod must be 0, 1 or 2"),
			kiln.KindInvalid, "invalid_lod", "lod must be 0, 1 or 2", true, "lod must be 0, 1 or 2"},
		{"coded, wrapped with an op", kiln.E("api.download", kiln.Errorf(kiln.KindNotFound, "object_not_found", "no object obj_1")),
			kiln.KindNotFound, "object_not_found", "no object obj_1", true, "api.download: no object obj_1"},
		{"coded, wrapped by fmt", fmt.Errorf("outer: %w", kiln.Errorf(kiln.KindConflict, "busy", "try later")),
			kiln.KindConflict, "busy", "try later", true, "outer: try later"},
		{"driver error of a kind", kiln.E("redis.KeyBySecretHash", kiln.KindUnavailable, driver),
			kiln.KindUnavailable, "unavailable", "a service Kiln depends on is unavailable; try again shortly (the request id in the X-Request-Id header finds it in the log)", false, "127.0.0.1:6379"},
		{"plain error", driver,
			kiln.KindInternal, "internal", "internal error; the request id in the X-Request-Id header finds it in the log", false, "connection refused"},
		{"op without kind takes the inner kind", kiln.E("worker.x", kiln.E("store.y", kiln.KindNotFound, driver)),
			kiln.KindNotFound, "not_found", "not found", false, "worker.x: store.y: dial tcp"},
		{"coded internal error hides its message", kiln.Errorf(kiln.KindInternal, "deletion_failed", "redis said %v", driver),
			kiln.KindInternal, "deletion_failed", "internal error; the request id in the X-Request-Id header finds it in the log", true, "redis said"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if k := kiln.KindOf(tt.err); k != tt.kind {
				t.Errorf("kind %v, want %v", k, tt.kind)
			}
			code, msg := kiln.CodeOf(tt.err)
			if code != tt.code || msg != tt.message {
				t.Errorf("CodeOf = %q, %q; want %q, %q", code, msg, tt.code, tt.message)
			}
			if strings.Contains(msg, "127.0.0.1") || strings.Contains(msg, "dial tcp") {
				t.Errorf("client message leaks the cause: %q", msg)
			}
			if got := kiln.HasCode(tt.err); got != tt.hasCode {
				t.Errorf("HasCode %v, want %v", got, tt.hasCode)
			}
			if !strings.Contains(tt.err.Error(), tt.logShows) {
				t.Errorf("Error() = %q, want it to keep %q for the log", tt.err.Error(), tt.logShows)
			}
		})
	}
}

func TestEKeepsItsCause(t *testing.T) {
	cause := errors.New("cause")
	err := kiln.E("op", kiln.KindUnavailable, cause)
	if !errors.Is(err, cause) {
		t.Error("errors.Is does not find the cause")
	}
	var e *kiln.Error
	if !errors.As(err, &e) || e.Op != "op" || e.Kind != kiln.KindUnavailable {
		t.Errorf("E built %+v", e)
	}
}

// TestErrorfClipsLongValues: a long value in an error message is cut at
// kiln.MaxEcho bytes, at a character's start, with its whole length;
// short values and other arguments are quoted whole.
func TestErrorfClipsLongValues(t *testing.T) {
	long := strings.Repeat("é", 1000) // 2,000 bytes; MaxEcho falls inside no character
	tests := []struct {
		name string
		err  error
		want string // the whole message, or its prefix when it ends in …
	}{
		{"short", kiln.Errorf(kiln.KindInvalid, "x", "name %q and %d", "walk", 7), `name "walk" and 7`},
		{"long string", kiln.Errorf(kiln.KindInvalid, "x", "name %s; use all", long),
			"name " + strings.Repeat("é", kiln.MaxEcho/2) + "… (2000 bytes in all); use all"},
		{"odd cut", kiln.Errorf(kiln.KindInvalid, "x", "%s", "a"+long),
			"a" + strings.Repeat("é", (kiln.MaxEcho-1)/2) + "… (2001 bytes in all)"},
		{"long error", kiln.Errorf(kiln.KindInvalid, "x", "cannot read: %v", errors.New(long)),
			"cannot read: " + strings.Repeat("é", kiln.MaxEcho/2) + "… (2000 bytes in all)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, msg := kiln.CodeOf(tt.err); msg != tt.want {
				t.Errorf("message %q, want %q", msg, tt.want)
			}
		})
	}
}
