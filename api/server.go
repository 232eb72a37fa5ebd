// Package api is Kiln's HTTP side: the platform and avatar services of the
// spec on Gin. It validates, authenticates, answers from storage when a
// result exists, and otherwise enqueues a job.
package api

import (
	"context"
	"log/slog"
	"net/http"
	"net/netip"
	"sync"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/internal/assistant"
	"github.com/kilnhq/kiln/jobs"
)

// KeyStore keeps API keys.
type KeyStore interface {
	CreateKey(ctx context.Context, k *kiln.APIKey, secretHash string) error
	KeyBySecretHash(ctx context.Context, hash string) (*kiln.APIKey, error)
	ListKeys(ctx context.Context) ([]*kiln.APIKey, error)
	RevokeKey(ctx context.Context, id string) error
}

// ObjectStore keeps object records.
type ObjectStore interface {
	CreateObject(ctx context.Context, o *kiln.Object) error
	Object(ctx context.Context, id string) (*kiln.Object, error)
	UpdateObject(ctx context.Context, id string, fn func(*kiln.Object) error) (*kiln.Object, error)
	Lock(ctx context.Context, name string, ttl time.Duration) (unlock func(), ok bool, err error)
	UploadSecret(ctx context.Context, fresh string) (string, error)
	// PendingUploads counts the account's objects still uploading that
	// were prepared after since (their upload URL is still valid).
	PendingUploads(ctx context.Context, account string, since time.Time) (int, error)
}

// Enqueuer puts jobs on the queue.
type Enqueuer interface {
	Enqueue(ctx context.Context, job jobs.Tasker) error
	// Failure reports why a job failed for good, or "" while it has not.
	Failure(ctx context.Context, queue, id string) (string, error)
}

// Pinger is a dependency /readyz checks.
type Pinger interface {
	Ping(ctx context.Context) error
}

// Config holds what the server is built from.
type Config struct {
	AdminKey string
	Keys     KeyStore
	Objects  ObjectStore
	// Spaces keeps space templates and spaces; Viewers the viewers with
	// their annotations and space-objects.
	Spaces  SpaceStore
	Viewers ViewerStore
	Blobs   kiln.BlobStore
	Jobs    Enqueuer
	// Ready lists the dependencies /readyz checks, by name. Reports are
	// checks /readyz shows without failing readiness: parts only some
	// requests need (Blender, for renderings).
	Ready   map[string]Pinger
	Reports map[string]Pinger
	// Monitor is the queue monitor (asynqmon) served under /monitoring/.
	Monitor  http.Handler
	Registry *prometheus.Registry
	Logger   *slog.Logger
	// Now is the clock of tracking and analytics; nil means time.Now.
	// Tests replay a known stream of events through it.
	Now func() time.Time
	// TrustedProxies may set X-Forwarded-For; nil trusts none.
	TrustedProxies []string
	// Analytics keeps tracking events and answers the analytics endpoints.
	Analytics AnalyticsStore
	// TrackingRate bounds tracking events per client address and viewer.
	TrackingRate kiln.RateLimit
	// Limiter keeps the token buckets of the other rate limits
	// (Server.limit); nil limits nothing.
	Limiter Limiter
	// AvatarCreateRate bounds POST /avatar per account
	// (KILN_AVATAR_CREATE_RATE).
	AvatarCreateRate kiln.RateLimit
	// Chat keeps conversations; Assistant answers them.
	Chat      ChatStore
	Assistant assistant.Assistant

	// Likes keeps who likes which object; Catalog the accounts' custom
	// furniture catalogs.
	Likes   LikeStore
	Catalog CatalogStore

	// Avatars keeps registered avatars. PublicAvatarURL is the base of
	// their modelUrl and previewUrl; AvatarDefault is KILN_AVATAR_DEFAULT,
	// what `{}` resolves to (checked at start).
	Avatars         AvatarStore
	PublicAvatarURL string
	AvatarDefault   string
	// VRMAuthor and VRMLicenseURL fill a VRM download's meta
	// (KILN_VRM_AUTHOR, KILN_VRM_LICENSE_URL).
	VRMAuthor, VRMLicenseURL string

	// BodyTimeout bounds the time a request body may take to arrive
	// (KILN_BODY_TIMEOUT); UploadTimeout that of a file sent to a local
	// upload URL (KILN_UPLOAD_TIMEOUT). Zero means no bound.
	BodyTimeout, UploadTimeout time.Duration
	// UploadURLTTL is how long an upload URL stays valid
	// (KILN_UPLOAD_URL_TTL); a prepared upload counts against the pending
	// cap that long.
	UploadURLTTL time.Duration

	// PublicPlatformURL is the base of the URLs the platform answers
	// (local upload URLs, rendering files), unless a trusted proxy names
	// the scheme and host the client used (see platformURL).
	PublicPlatformURL string

	// Renderings keeps product renderings and uploaded render setups.
	Renderings RenderingStore

	// CORSOrigins are the origins browsers may call both listeners from
	// (KILN_CORS_ORIGINS); "*" or none means any, without credentials.
	CORSOrigins []string

	// Creator keeps the creator's apps and users; CreatorPage is its web
	// app, and CreatorDomain (KILN_CREATOR_DOMAIN) the domain under which
	// the first label of Host names an app (acme.avatars.example.com).
	Creator       CreatorStore
	CreatorPage   CreatorPage
	CreatorDomain string

	// DownloadRedirect answers the downloads of variants and previews
	// with a 302 to a presigned URL of the store, when Blobs can sign one
	// (KILN_DOWNLOAD_REDIRECT).
	DownloadRedirect bool
}

// Server holds the handlers of both services.
type Server struct {
	Config
	log     *slog.Logger
	metrics *metrics
	salt    saltCache
	// creatorBuilds runs and keeps the creator's preview builds.
	creatorBuilds creatorBuilds
	proxies       []netip.Prefix
	// creatorETags caches the ETags of the creator's static files.
	creatorETags sync.Map
	// staticLimits keeps the static files' buckets in memory (limitStatic).
	staticLimits localLimiter
	// previewLimits is the creator previews' fallback (limitPreview).
	previewLimits localLimiter
}

// New builds a Server.
func New(cfg Config) *Server {
	gin.SetMode(gin.ReleaseMode)
	s := &Server{Config: cfg, log: cfg.Logger}
	if s.log == nil {
		s.log = slog.Default()
	}
	s.metrics = newMetrics(cfg.Registry)
	s.proxies = prefixes(cfg.TrustedProxies)
	return s
}

func (s *Server) engine(listener string) *gin.Engine {
	r := gin.New()
	r.HandleMethodNotAllowed = true
	// Checked at start by config, so an error cannot happen here.
	_ = r.SetTrustedProxies(s.TrustedProxies)
	r.ContextWithFallback = true
	r.MaxMultipartMemory = 8 << 20
	r.Use(s.requestLog(listener), recovery, s.cors(), bodyDeadline(s.BodyTimeout))
	r.NoRoute(notFound)
	r.NoMethod(methodNotAllowed)
	r.GET("/healthz", s.healthz)
	r.GET("/readyz", s.readyz)
	r.GET("/metrics", gin.WrapH(promhttp.HandlerFor(s.Registry, promhttp.HandlerOpts{})))
	ref, err := newAPIReference(listener)
	if err != nil {
		// The documents are embedded and checked by tests: a build mistake.
		panic(err)
	}
	ref.routes(r)
	return r
}

// Platform is the handler of the platform service.
func (s *Server) Platform() http.Handler {
	r := s.engine("platform")
	s.platformRoutes(r)
	return r
}

// Avatar is the handler of the avatar service.
func (s *Server) Avatar() http.Handler {
	r := s.engine("avatar")
	s.avatarRoutes(r)
	s.previewRoutes(r)
	s.leaderRoutes(r)
	s.creatorRoutes(r)
	return r
}

func (s *Server) healthz(c *gin.Context) {
	c.JSON(http.StatusOK, gin.H{"status": "ok"})
}

// readyz answers 503 naming every dependency that does not answer. The
// cause (a driver message, an address) goes to the log, not the body.
func (s *Server) readyz(c *gin.Context) {
	ctx, cancel := context.WithTimeout(c.Request.Context(), 3*time.Second)
	defer cancel()
	checks := gin.H{}
	var failed []string
	for name, p := range s.Ready {
		if err := p.Ping(ctx); err != nil {
			logger(c).Warn("not ready", "dependency", name, "err", err.Error())
			checks[name] = "unreachable"
			failed = append(failed, name)
			continue
		}
		checks[name] = "ok"
	}
	for name, p := range s.Reports {
		checks[name] = "ok"
		if err := p.Ping(ctx); err != nil {
			checks[name] = err.Error()
		}
	}
	if len(failed) > 0 {
		c.JSON(http.StatusServiceUnavailable, gin.H{"status": "error", "error": errorDetail{
			Code: "not_ready", Message: "not reachable: " + joinSorted(failed),
		}, "checks": checks})
		return
	}
	c.JSON(http.StatusOK, gin.H{"status": "ok", "checks": checks})
}
