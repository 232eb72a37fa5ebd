// Package jobs is the contract between the api and the worker: task type
// names, payloads, deterministic task ids, queues and their priorities,
// retry and timeout policy. Nothing else in Kiln knows Asynq's wire format.
package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hibiken/asynq"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/internal/redisurl"
)

// Queues. A download someone waits on goes before an upload, an upload
// before a product rendering, and housekeeping last.
const (
	QueueInteractive = "interactive"
	QueueDefault     = "default"
	QueueRender      = "render"
	QueueLow         = "low"
)

// QueuePriorities are the weights of asynq.Config.Queues: weighted, not
// strict, so a burst of downloads slows uploads down without starving them.
var QueuePriorities = map[string]int{
	QueueInteractive: 6,
	QueueDefault:     3,
	QueueRender:      2,
	QueueLow:         1,
}

// QueueOrder is the queues by priority, highest first.
var QueueOrder = []string{QueueInteractive, QueueDefault, QueueRender, QueueLow}

// Task types.
const (
	TypeObjectProcess = "object:process"
	// TypeMailObjectProcessed is the mail_after_upload notification. It is a
	// job of its own so that a mail server that is down delays the mail,
	// never the object.
	TypeMailObjectProcessed = "mail:object-processed"
)

// Retention keeps a finished task (and so its id) for a day: a second
// identical request within that time finds the job done instead of
// running it again, and asynqmon shows what happened.
const Retention = 24 * time.Hour

// ObjectProcess turns an uploaded file into the object's canonical GLB.
type ObjectProcess struct {
	ObjectID string `json:"objectId"`
}

// TaskID is deterministic, so finishing an upload twice enqueues one job.
func (p ObjectProcess) TaskID() string { return TypeObjectProcess + ":" + p.ObjectID }

// Task builds the Asynq task with its queue and policy.
func (p ObjectProcess) Task() (*asynq.Task, error) {
	return newTask(TypeObjectProcess, p,
		asynq.TaskID(p.TaskID()),
		asynq.Queue(QueueDefault),
		asynq.MaxRetry(5),
		asynq.Timeout(ObjectTime+grace),
		asynq.Retention(Retention),
	)
}

// MailObjectProcessed tells the object's mail_after_upload address that
// processing ended in State.
type MailObjectProcessed struct {
	ObjectID string           `json:"objectId"`
	State    kiln.ObjectState `json:"state"`
}

// TaskID is one per object and final state, so a processing job that runs
// twice sends one mail.
func (p MailObjectProcessed) TaskID() string {
	return TypeMailObjectProcessed + ":" + p.ObjectID + ":" + string(p.State)
}

// Task builds the Asynq task: low priority, and retried for about a day
// with Asynq's backoff, as a mail server may be down for hours.
func (p MailObjectProcessed) Task() (*asynq.Task, error) {
	return newTask(TypeMailObjectProcessed, p,
		asynq.TaskID(p.TaskID()),
		asynq.Queue(QueueLow),
		asynq.MaxRetry(12),
		asynq.Timeout(2*time.Minute),
		asynq.Retention(Retention),
	)
}

// Decode reads a task's payload into v, and rejects a payload that cannot
// be read at once: retrying cannot fix it.
func Decode(t *asynq.Task, v any) error {
	if err := json.Unmarshal(t.Payload(), v); err != nil {
		return Permanent(fmt.Errorf("payload of %s: %w", t.Type(), err))
	}
	return nil
}

// Permanent marks err as one a retry cannot fix (a corrupt file): Asynq
// archives the task at once instead of retrying it. An err marked
// already is returned as it is, so that its message ends in one mark,
// which Failure takes off.
func Permanent(err error) error {
	if IsPermanent(err) {
		return err
	}
	return fmt.Errorf("%w: %w", err, asynq.SkipRetry)
}

// IsPermanent reports whether err was marked Permanent.
func IsPermanent(err error) bool { return errors.Is(err, asynq.SkipRetry) }

// CannotSucceed is the one rule of which failures running again cannot
// change, for every job type: input that is invalid, too large or cannot
// be processed, and a resource that is gone. Everything else (a store
// that is down, a deadline, a crash) is worth another attempt.
func CannotSucceed(err error) bool {
	switch kiln.KindOf(err) {
	case kiln.KindInvalid, kiln.KindUnprocessable, kiln.KindNotFound, kiln.KindTooLarge:
		return true
	}
	return false
}

// Outcome is what a task's handler answers Asynq for err: Permanent when
// CannotSucceed, err as it is otherwise.
func Outcome(err error) error {
	if err != nil && !IsPermanent(err) && CannotSucceed(err) {
		return Permanent(err)
	}
	return err
}

// Tasker is a payload that knows its task.
type Tasker interface {
	Task() (*asynq.Task, error)
}

// Client enqueues tasks.
type Client struct {
	c *asynq.Client
	i *asynq.Inspector
	// Fair keeps the fair queues' bookkeeping and Policy each account's
	// share (fair.go); without Fair, or with Policy.Running 0, every job
	// goes straight into its queue.
	Fair   FairStore
	Policy FairPolicy
	// Placed counts where fair queuing put new jobs; nil counts nothing.
	Placed *prometheus.CounterVec

	// WorkerSlots shows the workers' slots as fair queuing counts them;
	// nil shows nothing.
	WorkerSlots prometheus.Gauge

	// The workers' slots as share last read them (fair.go).
	slotsMu sync.Mutex
	slotsAt time.Time
	slotsN  int
}

// NewClient makes a client on the Redis of opt.
func NewClient(opt asynq.RedisConnOpt) *Client {
	return &Client{c: asynq.NewClient(opt), i: asynq.NewInspector(opt)}
}

// Close closes the client's Redis connections.
func (c *Client) Close() error { return errors.Join(c.c.Close(), c.i.Close()) }

// Failure reports why the task id of queue is archived (it failed for
// good), or "" while it is queued, running, retrying or done: the API
// waits on a job with it and answers the failure instead of waiting in
// vain.
func (c *Client) Failure(ctx context.Context, queue, id string) (string, error) {
	info, err := c.i.GetTaskInfo(queue, id)
	if errors.Is(err, asynq.ErrTaskNotFound) || errors.Is(err, asynq.ErrQueueNotFound) {
		return "", nil
	}
	if err != nil {
		return "", kiln.E("jobs.Failure", kiln.KindUnavailable, err)
	}
	if info.State == asynq.TaskStateArchived {
		if Crashed(info.LastErr) {
			// The worker died on the last attempt (out of memory, killed):
			// asynq's own words name a lease, which tells a client nothing.
			return "the worker building it died on its last attempts (the model may need more memory or time than a worker has)", nil
		}
		// Permanent's mark is asynq's wording, not part of the reason.
		return strings.TrimSuffix(info.LastErr, ": "+asynq.SkipRetry.Error()), nil
	}
	return "", nil
}

// Crashed reports whether a task's last error (asynq.TaskInfo.LastErr) is
// asynq's note that the worker running it stopped without answering: it
// died, was killed or lost Redis for longer than the task's lease.
func Crashed(lastErr string) bool { return lastErr == asynq.ErrLeaseExpired.Error() }

// Enqueue adds the job; a job with the same task id already queued,
// running or recently done is not added again and is not an error.
func (c *Client) Enqueue(ctx context.Context, job Tasker) error {
	const op = "jobs.Enqueue"
	t, err := job.Task()
	if err != nil {
		return kiln.E(op, err)
	}
	if o, ok := job.(owned); ok && o.account != "" && c.Fair != nil && c.Policy.Running > 0 {
		return c.enqueueFair(ctx, o.account, t)
	}
	_, err = c.c.EnqueueContext(ctx, t)
	if errors.Is(err, asynq.ErrTaskIDConflict) || errors.Is(err, asynq.ErrDuplicateTask) {
		return nil
	}
	if err != nil {
		return kiln.E(op, kiln.KindUnavailable, err)
	}
	return nil
}

// RedisOpt turns KILN_REDIS_URL (a server, a Sentinel group or a Cluster)
// into Asynq's connection option.
func RedisOpt(url string) (asynq.RedisConnOpt, error) {
	opt, err := redisurl.Parse(url)
	if err != nil {
		return nil, kiln.E("jobs.RedisOpt", kiln.KindInvalid, err)
	}
	return opt.Asynq(), nil
}

// headerEnqueued is the task header that carries when the task was
// enqueued (Unix milliseconds), so that the worker can tell how long it
// waited for a slot (Waited).
const headerEnqueued = "kiln-enqueued-ms"

// newTask builds the task of type typ with payload p as JSON, stamped
// with the time it is made: every job is made to be enqueued at once.
func newTask(typ string, p any, opts ...asynq.Option) (*asynq.Task, error) {
	b, err := json.Marshal(p)
	if err != nil {
		return nil, err
	}
	h := map[string]string{headerEnqueued: strconv.FormatInt(time.Now().UnixMilli(), 10)}
	return asynq.NewTaskWithHeaders(typ, b, h, opts...), nil
}

// Waited is how long task t waited between its enqueue and now: in its
// queue, and for a job held back by fair queuing, behind its account's
// own jobs first. ok is false for a task without the stamp (enqueued by
// an older Kiln).
func Waited(t *asynq.Task, now time.Time) (d time.Duration, ok bool) {
	ms, err := strconv.ParseInt(t.Headers()[headerEnqueued], 10, 64)
	if err != nil {
		return 0, false
	}
	return max(0, now.Sub(time.UnixMilli(ms))), true
}
