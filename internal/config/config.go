// Package config reads Kiln's configuration from the environment. A bad
// value stops the program at start with one line that names the variable
// and what is wrong, instead of failing later in a request.
package config

import (
	"fmt"
	"math"
	"net"
	"net/mail"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/avatar"
	"github.com/kilnhq/kiln/assets/vrm"
	"github.com/kilnhq/kiln/internal/redisurl"
)

// Config is the whole configuration (the README's Configuration table).
type Config struct {
	PlatformAddr    string
	AvatarAddr      string
	WorkerAddr      string // health and metrics of `kiln worker`
	PublicAvatarURL string
	DataDir         string
	RedisURL        string // empty: embedded
	S3              S3
	AdminKey        string // empty: made and kept in DataDir
	Blender         string
	Concurrency     int
	ShutdownTimeout time.Duration
	// JobMemory is the peak memory one job may need (KILN_JOB_MEMORY):
	// a model whose estimate is over it fails before the work starts
	// instead of killing the worker.
	JobMemory int64
	// JobMemoryShared is true when JobMemory is the default: the workers
	// running on the machine share it (internal/hostshare).
	JobMemoryShared bool
	LogLevel        string
	LogFormat       string
	// PublicPlatformURL is the base of links in mails (the worker has no
	// request to take a host from) and of the URLs the platform answers
	// (local upload URLs, rendering files): from configuration, never from
	// a request's Host, which any client can set.
	PublicPlatformURL string
	// BodyTimeout bounds the arrival of a request body; UploadTimeout that
	// of a file PUT to a local upload URL.
	BodyTimeout, UploadTimeout time.Duration
	// UploadURLTTL is how long an upload URL stays valid.
	UploadURLTTL time.Duration
	// PublicURLsFollow says which public URLs were not configured: they
	// default to the listeners' own addresses (localhost and the port of
	// KILN_PLATFORM_ADDR, KILN_AVATAR_ADDR) and follow the port a
	// listener actually bound (port 0 in tests).
	PublicURLsFollow struct{ Platform, Avatar bool }
	// SMTPURL (smtp://user:pass@host:port) sends mail_after_upload; empty
	// disables mail. MailFrom is the sender address.
	SMTPURL  string
	MailFrom string
	// AI is the chat completions provider of the assistant; an empty URL
	// means the built-in one.
	AI AI
	// TrackingRate and TrackingBurst bound tracking events per client
	// address and viewer (a token bucket); a zero rate means no limit.
	TrackingRate float64
	// TrustedProxies are the addresses (IPs or CIDRs) whose
	// X-Forwarded-For is believed; none by default, so a client cannot
	// fake its address to dodge the rate limit or pose as many visitors.
	TrustedProxies []string
	TrackingBurst  int
	// AvatarDefault is what POST /avatar with `{}` registers: random, a
	// built-in id (default-male, default-female), or a configuration as
	// JSON.
	AvatarDefault string
	// VRMAuthor and VRMLicenseURL are what a VRM download's meta names as
	// its author and licence (KILN_VRM_AUTHOR, KILN_VRM_LICENSE_URL): the
	// operator's, CC0 by default, the licence of Kiln's own avatars.
	VRMAuthor, VRMLicenseURL string
	// CORSOrigins are the origins a browser may call both listeners from:
	// exact origins (scheme://host[:port]) or "*" for any.
	CORSOrigins []string
	// BlobCacheMB bounds the API's on-node cache of downloaded blobs,
	// kept under DataDir/blobcache; 0 turns it off.
	BlobCacheMB int
	// CreatorDomain (KILN_CREATOR_DOMAIN, e.g. avatars.example.com) makes
	// the first label of a Host under it name the creator's app, as
	// acme.avatars.example.com opens app acme; empty turns that off.
	CreatorDomain string
	// CreatorWarm (KILN_CREATOR_WARM) has a process serving the avatar
	// listener warm the creator at start, in the background
	// (api.Server.WarmCreator): a fresh kiln serve's first avatar
	// otherwise waits seconds for the body model to load.
	CreatorWarm bool
	// DownloadRedirect answers variant and preview downloads with a 302
	// to a presigned S3 URL instead of serving the bytes.
	DownloadRedirect bool
	// FairRunning is how many of one account's jobs may be in a queue at
	// once (0 turns fair queuing off) and FairHeld how many more may wait
	// behind them (jobs.FairPolicy).
	FairRunning int
	FairHeld    int
	// AvatarCreateRate and AvatarCreateBurst bound POST /avatar per
	// account (a token bucket); a zero rate means no limit.
	AvatarCreateRate  float64
	AvatarCreateBurst int
}

// AI locates an OpenAI-compatible chat completions endpoint.
type AI struct {
	URL, Model, Key string
}

// S3 locates the blob store; an empty Endpoint means local disk.
// PublicEndpoint (host:port) is the name clients reach the same S3 by,
// written into the presigned URLs they receive, when it differs from
// the one Kiln uses (minio:9000 inside compose, localhost:9000 outside);
// PublicSecure says whether those URLs are https.
type S3 struct {
	Endpoint, AccessKey, SecretKey, Bucket string
	Secure                                 bool
	PublicEndpoint                         string
	PublicSecure                           bool
}

// Error names the variable whose value is wrong.
type Error struct {
	Var, Problem string
}

func (e *Error) Error() string { return e.Var + ": " + e.Problem }

// FromEnv reads the configuration through getenv (os.Getenv in main).
func FromEnv(getenv func(string) string) (*Config, error) {
	r := reader{getenv: getenv}
	c := &Config{
		PlatformAddr:    r.addr("KILN_PLATFORM_ADDR", ":8080"),
		AvatarAddr:      r.addr("KILN_AVATAR_ADDR", ":8081"),
		WorkerAddr:      r.addr("KILN_WORKER_ADDR", ":8082"),
		PublicAvatarURL: strings.TrimRight(r.url("KILN_PUBLIC_AVATAR_URL", "", "http", "https"), "/"),
		DataDir:         r.str("KILN_DATA_DIR", "./data"),
		RedisURL:        r.url("KILN_REDIS_URL", "", redisurl.Schemes...),
		S3: S3{
			Endpoint:  r.str("KILN_S3_ENDPOINT", ""),
			AccessKey: r.str("KILN_S3_ACCESS_KEY", ""),
			SecretKey: r.str("KILN_S3_SECRET_KEY", ""),
			Bucket:    r.str("KILN_S3_BUCKET", "kiln"),
			Secure:    r.boolean("KILN_S3_SECURE", false),
		},
		AdminKey:          r.str("KILN_ADMIN_KEY", ""),
		Blender:           r.str("KILN_BLENDER", "blender"),
		Concurrency:       r.integer("KILN_WORKER_CONCURRENCY", runtime.NumCPU(), 1, 256),
		ShutdownTimeout:   r.duration("KILN_SHUTDOWN_TIMEOUT", 20*time.Second),
		LogLevel:          r.oneOf("KILN_LOG_LEVEL", "info", "debug", "info", "warn", "error"),
		LogFormat:         r.oneOf("KILN_LOG_FORMAT", "json", "json", "text"),
		PublicPlatformURL: strings.TrimRight(r.url("KILN_PUBLIC_PLATFORM_URL", "", "http", "https"), "/"),
		SMTPURL:           r.url("KILN_SMTP_URL", "", "smtp", "smtps"),
		MailFrom:          r.str("KILN_MAIL_FROM", "Kiln <kiln@localhost>"),
		AI: AI{
			URL:   strings.TrimRight(r.url("KILN_AI_URL", "", "http", "https"), "/"),
			Model: r.str("KILN_AI_MODEL", ""),
			Key:   r.str("KILN_AI_KEY", ""),
		},
	}
	c.TrackingRate, c.TrackingBurst = r.rate("KILN_TRACKING_RATE", 50, 100)
	c.TrustedProxies = r.proxies("KILN_TRUSTED_PROXIES")
	c.BodyTimeout = r.duration("KILN_BODY_TIMEOUT", time.Minute)
	c.UploadTimeout = r.duration("KILN_UPLOAD_TIMEOUT", time.Hour)
	if c.UploadURLTTL = r.duration("KILN_UPLOAD_URL_TTL", kiln.UploadURLTTL); c.UploadURLTTL < time.Second || c.UploadURLTTL > 7*24*time.Hour {
		r.fail("KILN_UPLOAD_URL_TTL", "must be from 1s to 168h (S3's longest presigned URL), got %v", c.UploadURLTTL)
	}
	if c.PublicPlatformURL == "" {
		c.PublicURLsFollow.Platform = true
		c.PublicPlatformURL = ListenerURL(c.PlatformAddr)
	}
	if c.PublicAvatarURL == "" {
		c.PublicURLsFollow.Avatar = true
		c.PublicAvatarURL = ListenerURL(c.AvatarAddr)
	}
	c.AvatarDefault = r.avatarDefault("KILN_AVATAR_DEFAULT")
	c.VRMAuthor = r.str("KILN_VRM_AUTHOR", "Kiln")
	c.VRMLicenseURL = r.url("KILN_VRM_LICENSE_URL", vrm.CC0, "https", "http")
	c.CORSOrigins = r.origins("KILN_CORS_ORIGINS")
	c.JobMemory = r.bytes("KILN_JOB_MEMORY", defaultJobMemory(c.Concurrency), MinJobMemory)
	c.JobMemoryShared = r.str("KILN_JOB_MEMORY", "") == ""
	c.BlobCacheMB = r.integer("KILN_BLOB_CACHE_MB", 1024, 0, 1<<20)
	c.DownloadRedirect = r.boolean("KILN_DOWNLOAD_REDIRECT", false)
	c.FairRunning = r.integer("KILN_FAIR_RUNNING", 2, 0, 1000)
	c.FairHeld = r.integer("KILN_FAIR_HELD", 100, 0, 100000)
	c.AvatarCreateRate, c.AvatarCreateBurst = r.rate("KILN_AVATAR_CREATE_RATE", 2, 30)
	c.CreatorDomain = r.domain("KILN_CREATOR_DOMAIN")
	c.CreatorWarm = r.boolean("KILN_CREATOR_WARM", true)
	c.S3.PublicEndpoint, c.S3.PublicSecure = r.publicEndpoint("KILN_S3_PUBLIC_ENDPOINT", c.S3.Secure)
	if r.err != nil {
		return nil, r.err
	}
	if c.S3.Endpoint != "" {
		if strings.Contains(c.S3.Endpoint, "://") || strings.Contains(c.S3.Endpoint, "/") {
			return nil, &Error{"KILN_S3_ENDPOINT", fmt.Sprintf("must be host:port without a scheme (set KILN_S3_SECURE for https), got %q", c.S3.Endpoint)}
		}
		if c.S3.AccessKey == "" {
			return nil, &Error{"KILN_S3_ACCESS_KEY", "must be set when KILN_S3_ENDPOINT is"}
		}
		if c.S3.SecretKey == "" {
			return nil, &Error{"KILN_S3_SECRET_KEY", "must be set when KILN_S3_ENDPOINT is"}
		}
	} else if c.DownloadRedirect {
		return nil, &Error{"KILN_DOWNLOAD_REDIRECT", "needs KILN_S3_ENDPOINT: local disk has no URLs to redirect to"}
	} else if c.S3.PublicEndpoint != "" {
		return nil, &Error{"KILN_S3_PUBLIC_ENDPOINT", "needs KILN_S3_ENDPOINT: with local disk the upload URLs are the platform listener's"}
	}
	if !validBucket(c.S3.Bucket) {
		return nil, &Error{"KILN_S3_BUCKET", fmt.Sprintf("must be 3 to 63 lower-case letters, digits, dots or hyphens, got %q", c.S3.Bucket)}
	}
	if c.AdminKey != "" && len(c.AdminKey) < 16 {
		return nil, &Error{"KILN_ADMIN_KEY", "must be at least 16 characters"}
	}
	if c.AI.URL != "" && c.AI.Model == "" {
		return nil, &Error{"KILN_AI_MODEL", "must be set when KILN_AI_URL is"}
	}
	if c.DataDir == "" {
		return nil, &Error{"KILN_DATA_DIR", "must not be empty"}
	}
	if _, err := mail.ParseAddress(c.MailFrom); err != nil {
		return nil, &Error{"KILN_MAIL_FROM", fmt.Sprintf("must be an e-mail address like Kiln <kiln@example.com>, got %q", c.MailFrom)}
	}
	return c, nil
}

// Embedded reports whether no Redis is configured, so kiln serve runs its own.
func (c *Config) Embedded() bool { return c.RedisURL == "" }

func validBucket(b string) bool {
	if len(b) < 3 || len(b) > 63 {
		return false
	}
	for _, r := range b {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '-') {
			return false
		}
	}
	return true
}

// reader keeps the first error, so FromEnv reads like a table.
type reader struct {
	getenv func(string) string
	err    error
}

func (r *reader) fail(name, format string, args ...any) {
	if r.err == nil {
		r.err = &Error{name, fmt.Sprintf(format, args...)}
	}
}

func (r *reader) str(name, def string) string {
	if v := strings.TrimSpace(r.getenv(name)); v != "" {
		return v
	}
	return def
}

func (r *reader) addr(name, def string) string {
	v := r.str(name, def)
	_, port, err := net.SplitHostPort(v)
	if err != nil {
		r.fail(name, "must be host:port or :port, got %q", v)
		return v
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		r.fail(name, "port must be a number from 0 to 65535, got %q", port)
	}
	return v
}

func (r *reader) url(name, def string, schemes ...string) string {
	v := r.str(name, def)
	if v == "" {
		return v
	}
	u, err := url.Parse(v)
	if err != nil || u.Host == "" {
		r.fail(name, "must be a URL like %s://host:port, got %q", schemes[0], Redact(v))
		return v
	}
	for _, s := range schemes {
		if u.Scheme == s {
			return v
		}
	}
	r.fail(name, "scheme must be one of %s, got %q", strings.Join(schemes, ", "), u.Scheme)
	return v
}

func (r *reader) boolean(name string, def bool) bool {
	v := r.str(name, "")
	if v == "" {
		return def
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		r.fail(name, "must be true or false, got %q", v)
	}
	return b
}

func (r *reader) integer(name string, def, lo, hi int) int {
	v := r.str(name, "")
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		r.fail(name, "must be a whole number from %d to %d, got %q", lo, hi, v)
	}
	return n
}

// avatarDefault reads random, default-male, default-female or a JSON
// configuration, which must be one POST /avatar would accept.
func (r *reader) avatarDefault(name string) string {
	v := r.str(name, "random")
	switch v {
	case "random", "default-male", "default-female":
		return v
	}
	if !strings.HasPrefix(v, "{") {
		r.fail(name, "must be random, default-male, default-female or a JSON configuration, got %q", v)
		return v
	}
	if _, err := avatar.ParseConfig([]byte(v)); err != nil {
		r.fail(name, "not a valid avatar configuration: %s", strings.ReplaceAll(err.Error(), "\n", " "))
	}
	return v
}

// origins reads a comma-separated list of browser origins: "*", or
// scheme://host[:port] with no path, as browsers send them in Origin.
// Empty means "*", so that Kiln works from any page out of the box.
func (r *reader) origins(name string) []string {
	var out []string
	for _, o := range strings.Split(r.str(name, "*"), ",") {
		if o = strings.TrimSpace(o); o == "" {
			continue
		}
		if o != "*" {
			u, err := url.Parse(o)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
				u.Path != "" || u.RawQuery != "" || u.User != nil || u.Fragment != "" {
				r.fail(name, "must be * or comma-separated origins like https://app.example.com (scheme, host, optional port, no path), got %q", o)
				return nil
			}
			o = strings.ToLower(o)
		}
		out = append(out, o)
	}
	if len(out) == 0 {
		out = []string{"*"}
	}
	return out
}

// publicEndpoint reads host:port (https as KILN_S3_SECURE says) or
// http(s)://host[:port], whose scheme decides: a public name often has
// TLS in front where the inner one has none.
func (r *reader) publicEndpoint(name string, secure bool) (string, bool) {
	v := r.str(name, "")
	if v == "" {
		return "", secure
	}
	if scheme, rest, ok := strings.Cut(v, "://"); ok {
		if scheme != "http" && scheme != "https" {
			r.fail(name, "scheme must be http or https, got %q", scheme)
			return v, secure
		}
		v, secure = strings.TrimRight(rest, "/"), scheme == "https"
	}
	if strings.ContainsAny(v, "/?#@") || v == "" {
		r.fail(name, "must be host:port or http(s)://host:port with no path, got %q", r.getenv(name))
	}
	return v, secure
}

// rate reads "RATE" or "RATE,BURST" (events a second, events at once);
// a burst left out is twice the rate, and "0" turns the limit off.
func (r *reader) proxies(name string) []string {
	var out []string
	for _, p := range strings.Split(r.str(name, ""), ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		_, _, cidrErr := net.ParseCIDR(p)
		if net.ParseIP(p) == nil && cidrErr != nil {
			r.fail(name, "must be comma-separated IP addresses or CIDRs, got %q", p)
		}
		out = append(out, p)
	}
	return out
}

func (r *reader) rate(name string, defRate float64, defBurst int) (float64, int) {
	v := r.str(name, "")
	if v == "" {
		return defRate, defBurst
	}
	rs, bs, hasBurst := strings.Cut(v, ",")
	rate, err := strconv.ParseFloat(strings.TrimSpace(rs), 64)
	if err != nil || rate < 0 || rate > 1e6 || math.IsNaN(rate) {
		r.fail(name, "must be RATE or RATE,BURST with RATE events a second from 0 (no limit) to 1000000, got %q", v)
		return defRate, defBurst
	}
	burst := int(math.Ceil(2 * rate))
	if hasBurst {
		burst, err = strconv.Atoi(strings.TrimSpace(bs))
		if err != nil || burst < 1 || burst > 1e7 {
			r.fail(name, "BURST must be a whole number from 1 to 10000000, got %q", v)
			return defRate, defBurst
		}
	}
	if rate > 0 && burst < 1 {
		burst = 1
	}
	return rate, burst
}

func (r *reader) duration(name string, def time.Duration) time.Duration {
	v := r.str(name, "")
	if v == "" {
		return def
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		r.fail(name, "must be a duration like 20s, got %q", v)
	}
	return d
}

// domain reads a DNS name: lower case letters, digits, - and dots, at
// least two labels, no scheme or port.
func (r *reader) domain(name string) string {
	v := strings.ToLower(strings.TrimSuffix(strings.TrimSpace(r.getenv(name)), "."))
	if v == "" {
		return ""
	}
	labels := strings.Split(v, ".")
	ok := len(labels) >= 2 && len(v) <= 253
	for _, l := range labels {
		ok = ok && l != "" && len(l) <= 63 && strings.Trim(l, "abcdefghijklmnopqrstuvwxyz0123456789-") == "" &&
			!strings.HasPrefix(l, "-") && !strings.HasSuffix(l, "-")
	}
	if !ok {
		r.fail(name, "%q is not a domain name such as avatars.example.com", v)
		return ""
	}
	return v
}

func (r *reader) oneOf(name, def string, allowed ...string) string {
	v := strings.ToLower(r.str(name, def))
	for _, a := range allowed {
		if v == a {
			return v
		}
	}
	r.fail(name, "must be one of %s, got %q", strings.Join(allowed, ", "), v)
	return v
}

// Redact hides the credentials of a URL (user:password@) so that it can
// be printed or logged.
func Redact(u string) string {
	if i := strings.LastIndex(u, "@"); i >= 0 {
		if j := strings.Index(u, "://"); j >= 0 && j < i {
			return u[:j+3] + "…" + u[i:]
		}
		return "…" + u[i:]
	}
	return u
}

// ListenerURL is the URL a browser on this machine reaches a listener on
// addr by: an unspecified or empty host is localhost.
func ListenerURL(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "http://" + addr
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port)
}
