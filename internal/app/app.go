// Package app builds Kiln from its configuration: the Redis (a server or
// the embedded one), the blob store (MinIO or local disk), the API
// listeners and the worker. cmd/kiln only chooses which of them to run.
package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/hibiken/asynq"
	"github.com/hibiken/asynqmon"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	goredis "github.com/redis/go-redis/v9"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/api"
	"github.com/kilnhq/kiln/creator"
	"github.com/kilnhq/kiln/internal/assistant"
	"github.com/kilnhq/kiln/internal/config"
	"github.com/kilnhq/kiln/internal/hostshare"
	"github.com/kilnhq/kiln/internal/httperr"
	"github.com/kilnhq/kiln/internal/mail"
	"github.com/kilnhq/kiln/jobs"
	"github.com/kilnhq/kiln/storage/blobcache"
	"github.com/kilnhq/kiln/storage/disk"
	"github.com/kilnhq/kiln/storage/embedded"
	miniostore "github.com/kilnhq/kiln/storage/minio"
	"github.com/kilnhq/kiln/storage/redis"
	"github.com/kilnhq/kiln/worker"
)

// App holds the connections every role shares.
type App struct {
	Config   *config.Config
	Log      *slog.Logger
	Redis    goredis.UniversalClient
	RedisOpt asynq.RedisConnOpt
	DB       *redis.DB
	Blobs    kiln.BlobStore
	Registry *prometheus.Registry

	embedded *embedded.Server
	clock    atomic.Pointer[func() time.Time]

	// workerJobs queues the worker's follow-up jobs (mail after upload).
	workerJobs *jobs.Client
	// share registers the worker among those of the machine, which share
	// the default job memory; nil when KILN_JOB_MEMORY is set.
	share *hostshare.Member
}

// SetClock replaces the API's clock, so that a test can replay visitor
// events at the times it chooses; nil restores the wall clock.
func (a *App) SetClock(now func() time.Time) {
	if now == nil {
		a.clock.Store(nil)
		return
	}
	a.clock.Store(&now)
}

func (a *App) now() time.Time {
	if f := a.clock.Load(); f != nil {
		return (*f)()
	}
	return time.Now()
}

// Open connects to Redis and the blob store, starting the embedded Redis
// when none is configured.
func Open(ctx context.Context, cfg *config.Config, log *slog.Logger) (*App, error) {
	a := &App{Config: cfg, Log: log, Registry: prometheus.NewRegistry()}
	a.Registry.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	url := cfg.RedisURL
	if cfg.Embedded() {
		srv, err := embedded.Start(ctx, cfg.DataDir, log.With("component", "embedded-redis"))
		if err != nil {
			return nil, err
		}
		a.embedded = srv
		url = srv.URL()
		log.Info("embedded redis started", "addr", srv.Addr(), "data_dir", cfg.DataDir)
	}
	rdb, err := redis.Open(ctx, url)
	if err != nil {
		a.Close()
		return nil, fmt.Errorf("redis at %s: %w", config.Redact(url), err)
	}
	a.Redis = rdb
	a.DB = redis.New(rdb)
	if err := a.DB.SeedSystemTemplates(ctx); err != nil {
		a.Close()
		return nil, fmt.Errorf("seed system space templates: %w", err)
	}
	if a.RedisOpt, err = jobs.RedisOpt(url); err != nil {
		a.Close()
		return nil, err
	}
	if cfg.S3.Endpoint != "" {
		a.Blobs, err = miniostore.New(ctx, miniostore.Config{
			Endpoint: cfg.S3.Endpoint, AccessKey: cfg.S3.AccessKey, SecretKey: cfg.S3.SecretKey,
			Bucket: cfg.S3.Bucket, Secure: cfg.S3.Secure,
			PublicEndpoint: cfg.S3.PublicEndpoint, PublicSecure: cfg.S3.PublicSecure,
		})
		if err != nil {
			err = fmt.Errorf("S3 at %s: %w", cfg.S3.Endpoint, err)
		}
	} else {
		a.Blobs, err = disk.New(filepath.Join(cfg.DataDir, "blobs"))
	}
	if err != nil {
		a.Close()
		return nil, err
	}
	return a, nil
}

// Close releases the connections; the embedded Redis saves its state last.
func (a *App) Close() error {
	var errs []error
	if a.workerJobs != nil {
		errs = append(errs, a.workerJobs.Close())
	}
	if a.Redis != nil {
		errs = append(errs, a.Redis.Close())
	}
	if a.embedded != nil {
		errs = append(errs, a.embedded.Close())
	}
	return errors.Join(errs...)
}

// AdminKey returns the configured admin key (KILN_ADMIN_KEY); without
// one, kiln serve keeps its key in the data dir, and api processes on a
// shared Redis keep one key in Redis, so that every process of a cluster
// accepts the same key. created reports that this call made the key, so
// the caller shows it once.
func (a *App) AdminKey(ctx context.Context) (key string, created bool, err error) {
	if a.Config.AdminKey != "" {
		return a.Config.AdminKey, false, nil
	}
	if a.Config.Embedded() {
		return LoadAdminKey(a.Config.DataDir, true)
	}
	key, created, err = a.DB.SharedAdminKey(ctx, kiln.NewSecret())
	if err != nil {
		return "", false, fmt.Errorf("admin key: %w", err)
	}
	return key, created, nil
}

// LoadAdminKey reads dir/admin.key, or makes it when create is set.
func LoadAdminKey(dir string, create bool) (string, bool, error) {
	path := filepath.Join(dir, "admin.key")
	b, err := os.ReadFile(path)
	if err == nil {
		return strings.TrimSpace(string(b)), false, nil
	}
	if !errors.Is(err, os.ErrNotExist) || !create {
		return "", false, fmt.Errorf("admin key: %w", err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", false, fmt.Errorf("admin key: %w", err)
	}
	key := kiln.NewSecret()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", false, fmt.Errorf("admin key: %w", err)
	}
	if _, err := f.WriteString(key + "\n"); err != nil {
		f.Close()
		return "", false, fmt.Errorf("admin key: %w", err)
	}
	return key, true, f.Close()
}

// API builds the HTTP handlers over the app's stores.
func (a *App) API(adminKey string) (*api.Server, *asynqmon.HTTPHandler, *jobs.Client) {
	client := a.jobsClient()
	client.Placed = jobs.NewPlacedCounter(a.Registry)
	client.WorkerSlots = jobs.NewSlotsGauge(a.Registry)
	monitor := asynqmon.New(asynqmon.Options{RootPath: "/monitoring", RedisConnOpt: a.RedisOpt})
	a.Registry.MustRegister(jobs.NewQueueCollector(asynq.NewInspector(a.RedisOpt)))
	srv := api.New(api.Config{
		AdminKey: adminKey,
		Keys:     a.DB,
		Objects:  a.DB,
		Spaces:   a.DB,
		Viewers:  a.DB,
		Blobs:    a.downloadBlobs(),
		Jobs:     client,
		Ready:    map[string]api.Pinger{"redis": a.DB, "storage": a.Blobs},
		Reports:  map[string]api.Pinger{"renderer": worker.Renderer(a.Config.Blender)},
		Monitor:  monitor,
		Registry: a.Registry,
		Logger:   a.Log,

		Now:               a.now,
		TrustedProxies:    a.Config.TrustedProxies,
		Analytics:         a.DB,
		TrackingRate:      kiln.RateLimit{Rate: a.Config.TrackingRate, Burst: a.Config.TrackingBurst},
		Limiter:           a.DB,
		AvatarCreateRate:  kiln.RateLimit{Rate: a.Config.AvatarCreateRate, Burst: a.Config.AvatarCreateBurst},
		Chat:              a.DB,
		Likes:             a.DB,
		Catalog:           a.DB,
		Avatars:           a.DB,
		PublicAvatarURL:   a.Config.PublicAvatarURL,
		PublicPlatformURL: a.Config.PublicPlatformURL,
		BodyTimeout:       a.Config.BodyTimeout,
		UploadTimeout:     a.Config.UploadTimeout,
		UploadURLTTL:      a.Config.UploadURLTTL,
		AvatarDefault:     a.Config.AvatarDefault,
		VRMAuthor:         a.Config.VRMAuthor,
		VRMLicenseURL:     a.Config.VRMLicenseURL,
		CORSOrigins:       a.Config.CORSOrigins,
		DownloadRedirect:  a.Config.DownloadRedirect,
		Renderings:        a.DB,
		Creator:           a.DB,
		CreatorPage:       api.CreatorPage{Index: creator.Index, Static: creator.Static, Languages: creator.Languages},
		CreatorDomain:     a.Config.CreatorDomain,
		Assistant:         assistant.New(assistant.Config{URL: a.Config.AI.URL, Model: a.Config.AI.Model, Key: a.Config.AI.Key}),
	})
	return srv, monitor, client
}

// jobsClient is a client of the job queues that queues accounts' jobs
// fairly (jobs.FairPolicy) with the configured shares.
func (a *App) jobsClient() *jobs.Client {
	c := jobs.NewClient(a.RedisOpt)
	c.Fair = a.DB
	c.Policy = jobs.DefaultFairPolicy
	c.Policy.Running, c.Policy.Held = a.Config.FairRunning, a.Config.FairHeld
	return c
}

// downloadBlobs is the blob store the API serves downloads from: the
// store behind an on-node cache of KILN_BLOB_CACHE_MB under the data dir,
// so that hot variants are sent from local files with sendfile. The
// cache only speeds things up: when it cannot be made, the API serves
// from the store and says why in the log. The worker writes to the store
// itself; the cache checks its copies against it (blobcache.Revalidate).
func (a *App) downloadBlobs() kiln.BlobStore {
	if a.Config.BlobCacheMB == 0 {
		return a.Blobs
	}
	dir := filepath.Join(a.Config.DataDir, "blobcache")
	c, err := blobcache.New(a.Blobs, dir, int64(a.Config.BlobCacheMB)<<20)
	if err != nil {
		a.Log.Error("download cache disabled", "dir", dir, "err", err)
		return a.Blobs
	}
	return c
}

// Worker builds the Asynq server and its handlers.
func (a *App) Worker() (*asynq.Server, *asynq.ServeMux) {
	w := worker.New(a.Blobs, a.DB, a.Log.With("component", "worker"), a.Registry)
	w.Avatars = a.DB
	w.Renderings, w.Blender = a.DB, a.Config.Blender
	w.JobMemory = a.Config.JobMemory
	if a.share != nil {
		w.Budget = func() int64 {
			return max(config.MinJobMemory, a.Config.JobMemory/int64(a.share.Count()))
		}
	}
	a.workerJobs = a.jobsClient()
	w.Ends = a.workerJobs
	w.Jobs, w.PublicURL = a.workerJobs, a.Config.PublicPlatformURL
	if a.Config.SMTPURL == "" {
		a.Log.Info("mail is disabled: set KILN_SMTP_URL to send mail_after_upload notifications")
	} else if m, err := mail.New(a.Config.SMTPURL, a.Config.MailFrom); err != nil {
		a.Log.Error("mail is disabled: KILN_SMTP_URL cannot be used", "err", err)
	} else {
		w.Mail = m
		a.Log.Info("mail after upload enabled", "smtp", m.Addr())
	}
	cfg := worker.Config{
		Concurrency:     a.Config.Concurrency,
		ShutdownTimeout: a.Config.ShutdownTimeout,
		// 20 polls a second: a cold avatar download (two jobs in turn)
		// in about 1.2 s instead of 2.1 s (bench/avatar).
		Poll: workerPoll,
	}
	if a.embedded != nil {
		// The embedded Redis logs every script call to its write-ahead
		// log, an idle poll included: asynq's pace keeps the log small.
		cfg.Poll = 0
	}
	srv := worker.NewServer(a.RedisOpt, cfg, a.Log)
	return srv, w.Mux()
}

// workerPoll is how often an idle worker on a real Redis looks for tasks.
const workerPoll = 50 * time.Millisecond

// Listen opens an HTTP server for h on addr and reports the bound address
// (addr may ask for port 0). Its listener answers the requests net/http
// refuses before h (a control byte in a header) with the JSON error body.
func Listen(addr string, h http.Handler) (*http.Server, net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, nil, err
	}
	// Headers must arrive within 10 s and an idle keep-alive connection
	// closes after 2 minutes; bodies have their own deadline per route
	// (api.bodyDeadline). No write timeout: a download may take long.
	return &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}, httperr.Listener(ln), nil
}
