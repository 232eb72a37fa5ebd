package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/kilnhq/kiln/internal/config"
	"github.com/kilnhq/kiln/internal/hostshare"
)

// Roles chooses what a process runs: kiln serve runs both.
type Roles struct {
	API, Worker bool
}

// Running is a started Kiln.
type Running struct {
	*App
	PlatformURL, AvatarURL, WorkerURL string
	AdminKey                          string
	AdminKeyCreated                   bool

	stops []func()
}

// Run starts the roles, prints where they listen, and blocks until ctx is
// cancelled (SIGTERM); then it stops them in order.
func Run(ctx context.Context, cfg *config.Config, log *slog.Logger, roles Roles, out io.Writer) error {
	r, err := Start(ctx, cfg, log, roles)
	if err != nil {
		return err
	}
	if r.PlatformURL != "" {
		fmt.Fprintf(out, "Kiln platform service: %s\n", r.PlatformURL)
		fmt.Fprintf(out, "Kiln avatar service:   %s\n", r.AvatarURL)
		fmt.Fprintf(out, "Start page:            %s/\n", r.PlatformURL)
		fmt.Fprintf(out, "Queue monitor:         %s/monitoring/ (user admin, password: the admin key)\n", r.PlatformURL)
		// A key the operator chose is theirs to know. The one kiln serve
		// made is shown at every start: a first start that failed after
		// making it (a port in use) must not leave the user without it.
		// A cluster's shared key is shown once, by the process that made
		// it, and not again in every process's log.
		switch {
		case cfg.AdminKey != "":
		case cfg.Embedded():
			fmt.Fprintf(out, "Admin key (kept in %s; set KILN_ADMIN_KEY to choose your own): %s\n", filepath.Join(cfg.DataDir, "admin.key"), r.AdminKey)
		case r.AdminKeyCreated:
			fmt.Fprintf(out, "Admin key (shown once, kept in Redis for every api process; set KILN_ADMIN_KEY to choose it): %s\n", r.AdminKey)
		default:
			fmt.Fprintln(out, "Admin key:             kept in Redis (kiln:admin-key), shown by the process that made it; set KILN_ADMIN_KEY to choose your own")
		}
	}
	if r.WorkerURL != "" {
		fmt.Fprintf(out, "Kiln worker health and metrics: %s\n", r.WorkerURL)
	}
	<-ctx.Done()
	log.Info("shutting down")
	r.Stop()
	return nil
}

// Start opens the stores and starts the roles without blocking.
func Start(ctx context.Context, cfg *config.Config, log *slog.Logger, roles Roles) (r *Running, err error) {
	a, err := Open(ctx, cfg, log)
	if err != nil {
		return nil, err
	}
	r = &Running{App: a}
	// Stops run in reverse: Redis closes (and the embedded one saves) last.
	r.stops = append(r.stops, func() {
		if err := a.Close(); err != nil {
			log.Error("close", "err", err)
		}
	})
	defer func() {
		if err != nil {
			r.Stop()
		}
	}()
	// listen binds a listener; the returned start serves it. Binding
	// comes first so that the public URLs are known before the first
	// request.
	listen := func(name, addr string, h http.Handler) (url string, start func(), err error) {
		srv, ln, err := Listen(addr, h)
		if err != nil {
			return "", nil, fmt.Errorf("%s listener on %s: %w (set KILN_%s_ADDR to move it, e.g. KILN_%s_ADDR=:0 for any free port)", name, addr, err, strings.ToUpper(name), strings.ToUpper(name))
		}
		r.stops = append(r.stops, func() {
			sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			_ = srv.Shutdown(sctx)
		})
		start = func() {
			go func() {
				if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
					log.Error("listener stopped", "listener", name, "err", err)
				}
			}()
		}
		return config.ListenerURL(ln.Addr().String()), start, nil
	}

	if roles.Worker {
		if cfg.JobMemoryShared {
			if a.share, err = hostshare.Join(hostshare.Dir()); err != nil {
				log.Warn("the default job memory is not shared with the machine's other workers", "err", err)
			} else {
				r.stops = append(r.stops, a.share.Leave)
			}
		}
		wsrv, mux := a.Worker()
		if err := wsrv.Start(mux); err != nil {
			return r, fmt.Errorf("worker: %w", err)
		}
		// Shutdown waits for running tasks up to the timeout and puts the
		// rest back in their queues; it must finish before Redis closes.
		r.stops = append(r.stops, wsrv.Shutdown, a.startSweeper())
		log.Info("worker started", "concurrency", cfg.Concurrency)
	}

	if roles.API {
		if r.AdminKey, r.AdminKeyCreated, err = a.AdminKey(ctx); err != nil {
			return r, err
		}
		srv, monitor, client := a.API(r.AdminKey)
		r.stops = append(r.stops, func() { client.Close() }, func() { monitor.Close() })
		var startPlatform, startAvatar func()
		if r.PlatformURL, startPlatform, err = listen("platform", cfg.PlatformAddr, srv.Platform()); err != nil {
			return r, err
		}
		if r.AvatarURL, startAvatar, err = listen("avatar", cfg.AvatarAddr, srv.Avatar()); err != nil {
			return r, err
		}
		// Unconfigured public URLs follow the ports the listeners bound
		// (a URL set on the configuration after it was read stays).
		if cfg.PublicURLsFollow.Platform && cfg.PublicPlatformURL == config.ListenerURL(cfg.PlatformAddr) {
			cfg.PublicPlatformURL, srv.PublicPlatformURL = r.PlatformURL, r.PlatformURL
		}
		if cfg.PublicURLsFollow.Avatar && cfg.PublicAvatarURL == config.ListenerURL(cfg.AvatarAddr) {
			cfg.PublicAvatarURL, srv.PublicAvatarURL = r.AvatarURL, r.AvatarURL
		}
		startPlatform()
		startAvatar()
		log.Info("api started", "platform", r.PlatformURL, "avatar", r.AvatarURL)
		if cfg.CreatorWarm {
			// In the background, yielding to every request; stopped
			// before the job client closes.
			wctx, cancel := context.WithCancel(context.Background())
			r.stops = append(r.stops, cancel)
			go srv.WarmCreator(wctx)
		}
	} else if roles.Worker {
		var start func()
		if r.WorkerURL, start, err = listen("worker", cfg.WorkerAddr, a.workerStatus()); err != nil {
			return r, err
		}
		start()
	}
	return r, nil
}

// Stop stops what Start started, newest first.
func (r *Running) Stop() {
	for i := len(r.stops) - 1; i >= 0; i-- {
		r.stops[i]()
	}
	r.stops = nil
}

// workerStatus serves the health and metrics of a worker-only process.
func (a *App) workerStatus() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"status":"ok"}`)
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if err := errors.Join(a.DB.Ping(r.Context()), a.Blobs.Ping(r.Context())); err != nil {
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprintf(w, `{"status":"error","error":{"code":"not_ready","message":%q}}`, err.Error())
			return
		}
		io.WriteString(w, `{"status":"ok"}`)
	})
	mux.Handle("GET /metrics", promhttp.HandlerFor(a.Registry, promhttp.HandlerOpts{}))
	return mux
}
