package kiln

import (
	"errors"
	"time"
)

// Limits of a tracking event. The spec leaves them open; these are Kiln's.
const (
	MaxTrackingBody  = 16 << 10 // the whole request body
	MaxEventPayload  = 4 << 10  // the event's payload object, as sent
	MaxSessionIDLen  = 128
	MaxEventKeyLen   = 64
	SessionTimeout   = 30 * time.Minute
	ViewEventKey     = "view" // the event key that counts as a view
	MaxAnalyticsDays = 732    // how far back GET .../views may reach
)

// TrackedEvent is a visitor event as the store keeps it. It holds no
// client address: Visitor and Client are hashes salted with a salt that
// is deleted after two days, so they cannot be traced back.
type TrackedEvent struct {
	Viewer    string
	SessionID string
	// Visitor identifies one visitor (address, user agent, viewer) for one
	// UTC day.
	Visitor string
	// Client identifies the client address for the rate limit.
	Client string
	View   bool
	At     time.Time
	// ID makes saving the event idempotent: a second save with the same
	// ID (a retry) counts nothing. It is the client's eventId when the
	// client sent one (kept for EventIDRetention, so a client may retry a
	// 503 safely), else one the server makes for this request (kept only
	// while the request could still be retried inside the store client).
	ID string
	// ClientID says ID came from the client.
	ClientID bool
}

// EventIDRetention is how long a client's eventId is remembered: a retry
// within a day of the first attempt is recognised.
const EventIDRetention = 24 * time.Hour

// ErrEventOutcomeUnknown says the store took an event but stopped
// answering before it said whether it saved it (a Redis frozen between
// running the save and sending its reply). Unlike other unavailable
// errors, the event may have been counted: only a retry with the same
// client eventId is then sure to count it once.
var ErrEventOutcomeUnknown = errors.New("the store stopped answering after it received the event; it may have been saved")

// RateLimit is a token bucket: Rate events a second on average, Burst at
// once. A zero Rate means no limit.
type RateLimit struct {
	Rate  float64
	Burst int
}

// Period is a span of whole UTC days, First to Last inclusive.
type Period struct {
	First, Last time.Time
}

// Days lists the UTC dates of the period as YYYY-MM-DD.
func (p Period) Days() []string {
	var days []string
	for d := p.First; !d.After(p.Last); d = d.AddDate(0, 0, 1) {
		days = append(days, d.Format(time.DateOnly))
	}
	return days
}

// PeriodStats counts a period's events. Visitors are distinct visitor
// hashes; as the salt changes each day, one person on two days counts
// twice, as in Plausible.
type PeriodStats struct {
	Views    int64 `json:"views"`
	Events   int64 `json:"events"`
	Visitors int64 `json:"visitors"`
}

// SessionStats aggregates the sessions of a time range.
type SessionStats struct {
	Visitors int64
	Sessions int64
	// Seconds is the sum over sessions of last event minus first.
	Seconds int64
}
