package kiln

import (
	"encoding/json"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// App is a creator app: an integration that embeds the avatar creator
// (GET /apps/{slug}/avatar), registered by an account, which owns every
// avatar its users make. Defaults and Styles shape what the page offers;
// AllowedOrigins are the pages that may frame it (frame-ancestors) and
// receive its messages.
type App struct {
	Slug           string        `json:"slug"`
	Name           string        `json:"name"`
	Account        string        `json:"account"`
	AllowedOrigins []string      `json:"allowedOrigins"`
	Defaults       AppDefaults   `json:"defaults"`
	Styles         AppStyles     `json:"styles"`
	RateLimits     AppRateLimits `json:"rateLimits"`
	CreatedAt      time.Time     `json:"createdAt"`
	UpdatedAt      time.Time     `json:"updatedAt"`
}

// Owner is the account that registered the app.
func (a *App) Owner() string { return a.Account }

// AppDefaults is what a new avatar starts from: the leader's gender
// (male or female, "" lets the person choose) and a configuration, partial
// or whole, kept as JSON so that this package needs no knowledge of it.
type AppDefaults struct {
	Gender        string          `json:"gender,omitempty"`
	Configuration json.RawMessage `json:"configuration,omitempty"`
}

// AppStyles lists, per catalogue category (hair, top, bottom, footwear,
// glasses), the style ids the app offers; a category left out offers all.
type AppStyles map[string][]string

// AppRateLimits bound how many users and avatars (creations and edits
// together) an app's creator makes in an hour, for the whole app and per
// client address; zero takes the default (DefaultCreatePerHour...).
type AppRateLimits struct {
	CreatePerHour          int `json:"createPerHour"`
	CreatePerHourPerClient int `json:"createPerHourPerClient"`
}

// The defaults of AppRateLimits: an app's creator serves many people at
// once (a launch, a classroom behind one address is the per-client
// bound's worst case), while one person makes a user and a few avatars
// an hour.
const (
	DefaultCreatePerHour          = 2000
	DefaultCreatePerHourPerClient = 60
	// MaxCreatePerHour bounds what an app may ask for.
	MaxCreatePerHour = 1_000_000
)

// Resolved fills the zero limits with the defaults.
func (l AppRateLimits) Resolved() AppRateLimits {
	if l.CreatePerHour == 0 {
		l.CreatePerHour = DefaultCreatePerHour
	}
	if l.CreatePerHourPerClient == 0 {
		l.CreatePerHourPerClient = DefaultCreatePerHourPerClient
	}
	return l
}

// HourlyLimit is the token bucket of n events an hour: n at once, then
// one every hour/n.
func HourlyLimit(n int) RateLimit {
	return RateLimit{Rate: float64(n) / 3600, Burst: n}
}

// DefaultApp is the slug of the built-in app that /avatar without a slug
// opens: the operator's (account "admin"), every style, default limits,
// framed from anywhere.
const DefaultApp = "default"

// DefaultAppAccount owns the built-in app's avatars: the admin key's.
const DefaultAppAccount = "admin"

var slugPattern = regexp.MustCompile(`^[a-z0-9-]{2,40}$`)

// CheckSlug admits an app slug: 2 to 40 of a-z, 0-9 and -, so that it is
// a DNS label (the creator domain's first label) and a path segment.
func CheckSlug(slug string) error {
	if !slugPattern.MatchString(slug) || strings.HasPrefix(slug, "-") || strings.HasSuffix(slug, "-") {
		return Errorf(KindInvalid, "invalid_slug", "slug must be 2 to 40 characters of a-z, 0-9 and - (not at either end), got %q", slug)
	}
	return nil
}

// CheckOrigin reads an allowed origin, scheme://host[:port] (http or
// https, no path, query or user), and answers it in the form browsers
// send in the Origin header: lower case, without a default port.
func CheckOrigin(o string) (string, error) {
	bad := func() (string, error) {
		return "", Errorf(KindInvalid, "invalid_origin", "allowedOrigins: %q is not an origin; give scheme://host[:port] with http or https and nothing after", o)
	}
	u, err := url.Parse(o)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" ||
		strings.ContainsAny(u.Host, "*\"' ;,") {
		return bad()
	}
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if host == "" {
		return bad()
	}
	if port != "" {
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 {
			return bad()
		}
		if (u.Scheme == "http" && n == 80) || (u.Scheme == "https" && n == 443) {
			port = ""
		}
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		host += ":" + port
	}
	return u.Scheme + "://" + host, nil
}

// CreatorUser is a person in an app's creator: a guest the page made, or
// a user the app's server minted a token for. It owns the avatars it
// makes there (their account is the app's).
type CreatorUser struct {
	ID        string    `json:"id"`
	App       string    `json:"app"`
	CreatedAt time.Time `json:"createdAt"`
}

// How long user tokens last: a guest's is kept by the browser as its
// identity; an app's server mints short ones per session and may ask for
// up to the guest's span.
const (
	GuestTokenTTL     = 365 * 24 * time.Hour
	MintedTokenTTL    = 24 * time.Hour
	MaxUserTokenTTL   = GuestTokenTTL
	MinUserTokenTTL   = time.Minute
	MaxAppsPerAccount = 100
)
