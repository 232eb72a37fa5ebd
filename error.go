package kiln

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Kind classifies an error by what the caller can do about it. Each kind maps
// to one HTTP status in the api package, and nowhere else.
type Kind uint8

const (
	KindInternal      Kind = iota // a fault of ours or of a server we depend on
	KindInvalid                   // malformed input: fix the request
	KindUnauthorized              // no credential, or an unknown one
	KindForbidden                 // a credential that lacks the right
	KindNotFound                  // no such resource (or not yours)
	KindConflict                  // the resource's state forbids the change
	KindTooLarge                  // the body exceeds a limit
	KindRateLimited               // too many requests; try later
	KindUnavailable               // a dependency is down; try later
	KindUnprocessable             // well-formed, but the content cannot be processed (a corrupt model)
	KindTimeout                   // the request (its body) did not arrive in time; send it again
	KindRange                     // the requested byte range lies outside the content
	KindPrecondition              // a conditional request's condition (If-Match) does not hold
)

func (k Kind) String() string {
	switch k {
	case KindInvalid:
		return "invalid"
	case KindUnauthorized:
		return "unauthorized"
	case KindForbidden:
		return "forbidden"
	case KindNotFound:
		return "not found"
	case KindConflict:
		return "conflict"
	case KindTooLarge:
		return "too large"
	case KindRateLimited:
		return "rate limited"
	case KindUnavailable:
		return "unavailable"
	case KindUnprocessable:
		return "unprocessable"
	case KindTimeout:
		return "timeout"
	case KindRange:
		return "range not satisfiable"
	case KindPrecondition:
		return "precondition failed"
	}
	return "internal"
}

// Error is the error type of Kiln, after upspin's errors.E: Op names the
// function that failed so a log line reads as a trail, Code is the
// snake_case code a client sees, Message what the client should read.
type Error struct {
	Op      string
	Kind    Kind
	Code    string
	Message string
	Err     error
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.Op != "" {
		b.WriteString(e.Op)
		b.WriteString(": ")
	}
	if e.Message != "" {
		b.WriteString(e.Message)
	} else if e.Code != "" {
		b.WriteString(e.Code)
	}
	if e.Err != nil {
		if b.Len() > 0 && !strings.HasSuffix(b.String(), ": ") {
			b.WriteString(": ")
		}
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// E builds an *Error from its arguments in any order: a string is the Op,
// a Kind the kind, an error the cause. Use Errorf or Invalid and friends
// for errors a client reads.
func E(args ...any) error {
	e := &Error{}
	for _, a := range args {
		switch a := a.(type) {
		case string:
			e.Op = a
		case Kind:
			e.Kind = a
		case error:
			e.Err = a
		}
	}
	if e.Err != nil && e.Kind == KindInternal {
		var inner *Error
		if errors.As(e.Err, &inner) {
			e.Kind = inner.Kind
		}
	}
	return e
}

// Errorf builds a client-facing error with a code and a formatted message.
// A string, error or Stringer argument longer than MaxEcho bytes is
// clipped (Clip): messages quote the client's bad values, and a request
// of 10,000 unknown names must not get them all back (a 139 KB body).
func Errorf(kind Kind, code, format string, args ...any) error {
	return &Error{Kind: kind, Code: code, Message: fmt.Sprintf(format, clipArgs(args)...)}
}

// MaxEcho is how many bytes of one value an error message quotes.
const MaxEcho = 256

// Clip cuts s to MaxEcho bytes, at a character's start, and says how long
// it was.
func Clip(s string) string {
	if len(s) <= MaxEcho {
		return s
	}
	cut := MaxEcho
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d bytes in all)", s[:cut], len(s))
}

// clipArgs answers args with each long text clipped; args itself when
// none is long.
func clipArgs(args []any) []any {
	var out []any
	for i, a := range args {
		var s string
		switch a := a.(type) {
		case string:
			s = a
		case error:
			s = a.Error()
		case fmt.Stringer:
			s = a.String()
		default:
			continue
		}
		if len(s) <= MaxEcho {
			continue
		}
		if out == nil {
			out = append([]any(nil), args...)
		}
		out[i] = Clip(s)
	}
	if out == nil {
		return args
	}
	return out
}

// KindOf reports the kind of the outermost *Error in err's chain that has
// one set, or KindInternal.
func KindOf(err error) Kind {
	var e *Error
	for err != nil {
		if errors.As(err, &e) {
			if e.Kind != KindInternal || e.Code != "" {
				return e.Kind
			}
			err = e.Err
			continue
		}
		break
	}
	return KindInternal
}

// CodeOf reports the client-facing code and message of err. Only an
// error made with a code (Errorf) speaks for itself; any other gets its
// kind's generic message, because its chain holds driver messages and
// addresses that belong in the log, not in a client's body.
func CodeOf(err error) (code, message string) {
	if e := coded(err); e != nil {
		if e.Kind == KindInternal {
			return e.Code, genericMessage[KindInternal]
		}
		return e.Code, e.Message
	}
	k := KindOf(err)
	return strings.ReplaceAll(k.String(), " ", "_"), genericMessage[k]
}

// HasCode reports whether err carries a code and message of its own, that
// CodeOf answers instead of its kind's generic message.
func HasCode(err error) bool { return coded(err) != nil }

// coded is the outermost *Error in err's chain made with a code.
func coded(err error) *Error {
	var e *Error
	for cur := err; cur != nil; cur = e.Err {
		if !errors.As(cur, &e) {
			return nil
		}
		if e.Code != "" {
			return e
		}
	}
	return nil
}

// genericMessage is what a client reads of an error that has no code of
// its own.
var genericMessage = map[Kind]string{
	KindInternal:      "internal error; the request id in the X-Request-Id header finds it in the log",
	KindInvalid:       "the request is malformed",
	KindUnauthorized:  "a valid API key is required (Authorization: Bearer <key>)",
	KindForbidden:     "the API key may not do this",
	KindNotFound:      "not found",
	KindConflict:      "the resource's state does not allow this now",
	KindTooLarge:      "the request is too large",
	KindRateLimited:   "too many requests; try again later",
	KindUnavailable:   "a service Kiln depends on is unavailable; try again shortly (the request id in the X-Request-Id header finds it in the log)",
	KindUnprocessable: "the content cannot be processed",
	KindTimeout:       "the request did not arrive in time",
	KindRange:         "the requested range lies outside the content",
	KindPrecondition:  "the content no longer matches the request's If-Match or If-Unmodified-Since",
}
