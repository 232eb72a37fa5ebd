package api

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"regexp"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/kilnhq/kiln"
)

// AnalyticsStore keeps tracking events and aggregates them.
type AnalyticsStore interface {
	DailySalt(ctx context.Context, day, fresh string) (string, error)
	RecordEvent(ctx context.Context, e *kiln.TrackedEvent, key string, limit kiln.RateLimit) (retryAfter time.Duration, err error)
	PeriodStats(ctx context.Context, viewer string, periods []kiln.Period) ([]kiln.PeriodStats, kiln.PeriodStats, error)
	SessionStats(ctx context.Context, viewer string, start, end int64) (kiln.SessionStats, error)
	Viewer(ctx context.Context, token string) (*kiln.Viewer, error)
}

func (s *Server) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// saltCache keeps today's salt in the process, so that an event costs one
// Redis round trip; it asks Redis again when the UTC day changes.
type saltCache struct {
	mu   sync.Mutex
	day  string
	salt string
}

func (s *Server) dailySalt(ctx context.Context, day string) (string, error) {
	s.salt.mu.Lock()
	defer s.salt.mu.Unlock()
	if s.salt.day == day {
		return s.salt.salt, nil
	}
	salt, err := s.Analytics.DailySalt(ctx, day, kiln.NewSecret())
	if err != nil {
		return "", err
	}
	s.salt.day, s.salt.salt = day, salt
	return salt, nil
}

// visitorHash is Plausible's visitor id: a hash of the daily salt and what
// the request says about its sender, never stored in the clear.
func visitorHash(salt string, parts ...string) string {
	h := sha256.New()
	h.Write([]byte(salt))
	for _, p := range parts {
		h.Write([]byte{0})
		h.Write([]byte(p))
	}
	return base64.RawURLEncoding.EncodeToString(h.Sum(nil)[:12])
}

// trackingRequest is the body of spec section 2. Pointers tell a missing
// field from an empty one.
type trackingRequest struct {
	SessionID *string `json:"sessionId"`
	// EventID, beyond the spec, makes a retry safe: an event whose id was
	// saved before is not counted again (the Idempotency-Key header does
	// the same for clients that can set headers).
	EventID *string `json:"eventId"`
	Event   *struct {
		Key     *string         `json:"key"`
		Payload json.RawMessage `json:"payload"`
	} `json:"event"`
}

var (
	sessionIDPattern = regexp.MustCompile(`^[\x21-\x7e]{1,128}$`)
	eventKeyPattern  = regexp.MustCompile(`^[A-Za-z0-9_.:-]{1,64}$`)
)

// readTrackingEvent reads and checks the body; the payload is checked
// for shape and size but not kept: analytics need only the key.
func readTrackingEvent(c *gin.Context) (sessionID, key, eventID string, err error) {
	ct := c.ContentType()
	if ct != "application/json" && ct != "text/plain" {
		return "", "", "", invalidf("invalid_content_type", "send the event as application/json (or text/plain, as navigator.sendBeacon does)")
	}
	body, err := io.ReadAll(http.MaxBytesReader(c.Writer, c.Request.Body, kiln.MaxTrackingBody))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return "", "", "", err
		}
		return "", "", "", invalidf("invalid_body", "the body could not be read: %v", err)
	}
	var req trackingRequest
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return "", "", "", invalidf("invalid_json", "the body must be {\"sessionId\": string, \"event\": {\"key\": string, \"payload\": object}}: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return "", "", "", invalidf("invalid_json", "the body must hold one JSON object and nothing after it")
	}
	switch {
	case req.SessionID == nil:
		return "", "", "", invalidf("missing_session_id", "sessionId is required")
	case !sessionIDPattern.MatchString(*req.SessionID):
		return "", "", "", invalidf("invalid_session_id", "sessionId must be 1 to %d printable ASCII characters without spaces", kiln.MaxSessionIDLen)
	case req.Event == nil:
		return "", "", "", invalidf("missing_event", "event is required: {\"key\": string, \"payload\": object}")
	case req.Event.Key == nil:
		return "", "", "", invalidf("missing_event_key", "event.key is required")
	case !eventKeyPattern.MatchString(*req.Event.Key):
		return "", "", "", invalidf("invalid_event_key", "event.key must be 1 to %d characters of A-Z, a-z, 0-9, _, ., : and -", kiln.MaxEventKeyLen)
	}
	if p := bytes.TrimSpace(req.Event.Payload); len(p) > 0 && !bytes.Equal(p, []byte("null")) {
		if p[0] != '{' {
			return "", "", "", invalidf("invalid_event_payload", "event.payload must be a JSON object")
		}
		if len(p) > kiln.MaxEventPayload {
			return "", "", "", invalidf("event_payload_too_large", "event.payload is %d bytes; at most %d are allowed", len(p), kiln.MaxEventPayload)
		}
	}
	id := c.GetHeader("Idempotency-Key")
	if req.EventID != nil {
		id = *req.EventID
	}
	if id != "" && !sessionIDPattern.MatchString(id) {
		return "", "", "", invalidf("invalid_event_id", "eventId (or Idempotency-Key) must be 1 to %d printable ASCII characters without spaces", kiln.MaxSessionIDLen)
	}
	return *req.SessionID, *req.Event.Key, id, nil
}

// trackEvent saves one visitor event: 204, or 429 with Retry-After when
// the client sends faster than the rate limit.
func (s *Server) trackEvent(c *gin.Context) {
	token := c.Param("viewerToken")
	if err := kiln.CheckID("viewerToken", token); err != nil {
		fail(c, err)
		return
	}
	sessionID, key, eventID, err := readTrackingEvent(c)
	if err != nil {
		fail(c, err)
		return
	}
	ctx := c.Request.Context()
	now := s.now().UTC()
	salt, err := s.dailySalt(ctx, now.Format(time.DateOnly))
	if err != nil {
		fail(c, err)
		return
	}
	addr := c.ClientIP()
	e := &kiln.TrackedEvent{
		Viewer:    token,
		SessionID: sessionID,
		Visitor:   visitorHash(salt, "visitor", addr, c.Request.UserAgent(), token),
		Client:    visitorHash(salt, "client", addr),
		View:      key == kiln.ViewEventKey,
		At:        now,
		ID:        eventID,
		ClientID:  eventID != "",
	}
	wait, err := s.Analytics.RecordEvent(ctx, e, key, s.TrackingRate)
	switch {
	case kiln.KindOf(err) == kiln.KindNotFound:
		err = kiln.Errorf(kiln.KindNotFound, "viewer_not_found", "no viewer with token %s", token)
	case errors.Is(err, kiln.ErrEventOutcomeUnknown):
		err = &kiln.Error{Kind: kiln.KindUnavailable, Code: "event_outcome_unknown", Err: err,
			Message: "the store stopped answering after it received the event, which may have been counted; send it again with an eventId to be sure it counts once"}
	}
	if err != nil {
		fail(c, err)
		return
	}
	if wait > 0 {
		tooMany(c, wait, kiln.Errorf(kiln.KindRateLimited, "rate_limited",
			"more than %g tracking events a second from this client; retry after %v", s.TrackingRate.Rate, wait.Round(time.Millisecond)))
		return
	}
	c.Status(http.StatusNoContent)
}
