// Package worker runs the Asynq server and turns each task into calls of
// assets, reading inputs from and writing outputs to storage.
package worker

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/hibiken/asynq"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/internal/memrelease"
	"github.com/kilnhq/kiln/jobs"
)

// ObjectStore keeps object records.
type ObjectStore interface {
	Object(ctx context.Context, id string) (*kiln.Object, error)
	UpdateObject(ctx context.Context, id string, fn func(*kiln.Object) error) (*kiln.Object, error)
	Lock(ctx context.Context, name string, ttl time.Duration) (unlock func(), ok bool, err error)
}

// AvatarStore keeps avatar records.
type AvatarStore interface {
	Avatar(ctx context.Context, id string) (*kiln.Avatar, error)
	UpdateAvatar(ctx context.Context, id string, fn func(*kiln.Avatar) error) (*kiln.Avatar, error)
}

// Worker holds what the task handlers need.
type Worker struct {
	Blobs   kiln.BlobStore
	Objects ObjectStore
	Avatars AvatarStore
	Log     *slog.Logger
	// Jobs queues follow-up jobs (mail after upload); Mail sends mail, nil
	// when no SMTP server is configured. PublicURL is the platform
	// service's base URL, for links in mails.
	Jobs      Enqueuer
	Mail      Mailer
	PublicURL string
	// Renderings keeps product renderings; Blender is KILN_BLENDER, the
	// executable that renders them.
	Renderings RenderingStore
	Blender    string
	// JobMemory is KILN_JOB_MEMORY: an upload whose estimated peak memory
	// (assets.Estimate) is over it fails before it is read, instead of
	// taking the worker down; 0 sets no budget.
	JobMemory int64
	// Budget, when set, is the budget of a job starting now, in place of
	// JobMemory: the default budget shared among the workers running on
	// the machine at the time (internal/hostshare).
	Budget func() int64
	// Ends hears of every task that ended for good, so that fair queuing
	// lets the account's next task in (jobs.Client.Ended); nil for none.
	Ends Ender

	outcomes *prometheus.CounterVec
	// waits and runs are how long a task waited for a slot (its enqueue to
	// its first start) and how long its attempts ran.
	waits, runs *prometheus.HistogramVec
	// The sweep's memory (crashMu guards it): the deaths it has seen per
	// interactive task, and when it last searched for lost jobs.
	crashMu sync.Mutex
	crashes map[string][]time.Time
	lostAt  time.Time // the sweep's last search for lost jobs

	// release hands the heap the jobs grew back to the system once none
	// has run for idleRelease; nil (a Worker not made by New) never does.
	release *memrelease.Releaser
}

// idleRelease is how long a worker stays without a job before it returns
// its free memory: long enough that a queue of jobs pays no collection
// between them.
const idleRelease = 2 * time.Second

// New builds a Worker and registers its metrics on reg.
func New(blobs kiln.BlobStore, objects ObjectStore, log *slog.Logger, reg prometheus.Registerer) *Worker {
	w := &Worker{Blobs: blobs, Objects: objects, Log: log, release: memrelease.New(idleRelease)}
	w.outcomes = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "kiln_jobs_total",
		Help: "Jobs finished, by task type and outcome (ok, retry, failed).",
	}, []string{"type", "outcome"})
	// From a tenth of a second to ten minutes: an interactive job should
	// start within the first buckets; a held one may wait minutes.
	buckets := prometheus.ExponentialBuckets(0.1, 2, 13)
	w.waits = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "kiln_job_wait_seconds",
		Help:    "How long a job waited from its enqueue to its first start, by queue; a job that fair queuing held back behind its account's own jobs counts that time too.",
		Buckets: buckets,
	}, []string{"queue"})
	w.runs = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "kiln_job_run_seconds",
		Help:    "How long one attempt of a job ran, by task type (attempts that only found their model busy are not counted).",
		Buckets: buckets,
	}, []string{"type"})
	reg.MustRegister(w.outcomes, w.waits, w.runs)
	return w
}

// Ender is told when a task ended for good.
type Ender interface {
	Ended(ctx context.Context, queue, id string) error
}

// Mux routes task types to their handlers.
func (w *Worker) Mux() *asynq.ServeMux {
	mux := asynq.NewServeMux()
	mux.Use(w.observe)
	mux.HandleFunc(jobs.TypeObjectProcess, w.ProcessObject)
	mux.HandleFunc(jobs.TypeMailObjectProcessed, w.MailObjectProcessed)
	mux.HandleFunc(jobs.TypeModelVariant, w.BuildVariant)
	mux.HandleFunc(jobs.TypePreviewRender, w.RenderPreview)
	mux.HandleFunc(jobs.TypeConfigRender, w.RenderConfig)
	mux.HandleFunc(jobs.TypeRenderProduct, w.RenderProduct)
	return mux
}

// observe logs each task and counts its outcome, after deciding with
// jobs.Outcome, for every handler, whether a failure is worth a retry.
// Handlers run under jobs.Work, whose deadline comes before asynq's, so
// that one stopped by it can still say so (jobs.OutOfTime).
func (w *Worker) observe(next asynq.Handler) asynq.Handler {
	return asynq.HandlerFunc(func(ctx context.Context, t *asynq.Task) error {
		if w.release != nil {
			w.release.Start()
			defer w.release.Done()
		}
		ctx, cancel := jobs.Work(ctx)
		defer cancel()
		id, _ := asynq.GetTaskID(ctx)
		retry, _ := asynq.GetRetryCount(ctx)
		queue, _ := asynq.GetQueueName(ctx)
		log := w.Log.With("task_id", id, "type", t.Type(), "retry", retry)
		start := time.Now()
		waited, stamped := jobs.Waited(t, start)
		if stamped {
			log = log.With("waited_ms", waited.Milliseconds())
		}
		log.Info("task started")
		err := jobs.Outcome(next.ProcessTask(ctx, t))
		ran := time.Since(start)
		d := ran.Milliseconds()
		if !errors.Is(err, jobs.ErrBusy) {
			w.runs.WithLabelValues(t.Type()).Observe(ran.Seconds())
			if stamped && retry == 0 {
				// A busy model's task starts again with retry 0: only the
				// start that does the work ends the wait.
				w.waits.WithLabelValues(queue).Observe(waited.Seconds())
			}
		}
		switch {
		case errors.Is(err, jobs.ErrBusy):
			log.Debug("task waits for another on the same model")
		case err == nil:
			w.outcomes.WithLabelValues(t.Type(), "ok").Inc()
			log.Info("task done", "duration_ms", d)
		case jobs.IsPermanent(err) || lastAttempt(ctx):
			w.outcomes.WithLabelValues(t.Type(), "failed").Inc()
			log.Error("task failed", "duration_ms", d, "err", err)
		default:
			w.outcomes.WithLabelValues(t.Type(), "retry").Inc()
			log.Warn("task will be retried", "duration_ms", d, "err", err)
		}
		if w.Ends != nil && (err == nil || jobs.IsPermanent(err) || lastAttempt(ctx)) {
			if err := w.Ends.Ended(context.WithoutCancel(ctx), queue, id); err != nil {
				log.Warn("the account's next task was not let in; it runs when its hold ends", "err", err)
			}
		}
		return err
	})
}

func lastAttempt(ctx context.Context) bool {
	retry, ok1 := asynq.GetRetryCount(ctx)
	maxRetry, ok2 := asynq.GetMaxRetry(ctx)
	return ok1 && ok2 && retry >= maxRetry
}

// Config tunes the Asynq server.
type Config struct {
	Concurrency     int
	ShutdownTimeout time.Duration
	// Poll is how often an idle worker looks for new tasks and for
	// retries that are due; zero keeps asynq's defaults (1 s and 5 s). A
	// cold avatar download waits on jobs in turn, each up to a poll
	// late; every poll is a Redis call.
	Poll time.Duration
}

// NewServer makes the Asynq server over all of Kiln's queues.
func NewServer(opt asynq.RedisConnOpt, cfg Config, log *slog.Logger) *asynq.Server {
	return asynq.NewServer(opt, asynq.Config{
		Concurrency:              cfg.Concurrency,
		Queues:                   jobs.QueuePriorities,
		ShutdownTimeout:          cfg.ShutdownTimeout,
		TaskCheckInterval:        cfg.Poll,
		DelayedTaskCheckInterval: cfg.Poll,
		Logger:                   asynqLogger{log.With("component", "asynq")},
		LogLevel:                 asynq.WarnLevel,
		RetryDelayFunc:           jobs.RetryDelay,
		IsFailure: func(err error) bool {
			// A busy task waits its turn: that is no failure.
			return !errors.Is(err, context.Canceled) && !errors.Is(err, jobs.ErrBusy)
		},
	})
}

// budget is the memory a job starting now may need: Budget, else
// JobMemory; 0 sets none.
func (w *Worker) budget() int64 {
	if w.Budget != nil {
		return w.Budget()
	}
	return w.JobMemory
}
