package jobs

import (
	"context"
	"errors"
	"time"

	"github.com/hibiken/asynq"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/kilnhq/kiln"
)

// Fair queues. Asynq's queues are first in, first out, so one account
// that queues 600 avatars puts every other account's first job behind
// them. Kiln keeps each account's share of the queues small instead: at
// most FairPolicy.Running of its tasks are in the shared queues (pending
// or running, all queues together) at a time, and never as many as the
// workers have slots (Client.share), so a flood always leaves a slot to
// another account's first job. The account's other tasks wait held back,
// as asynq scheduled tasks, in a list per queue, and each task of the
// account that ends (done, or failed for good) lets its oldest held task
// in, of the queue of highest priority first. Another account's first
// job then waits behind at most Running tasks of each busy account, not
// behind their whole backlog, and starts at once while a slot is free; a
// backlog past FairPolicy.Held is refused (429 too_many_queued_jobs)
// rather than piling up. Accounts are served round robin in effect: each
// gets its next place in the queue only when one of its own tasks ends,
// behind whatever other accounts queued meanwhile.
//
// A held task is an asynq task scheduled FairPolicy.Hold ahead, so a
// release that is lost (a process killed between the bookkeeping and
// asynq) costs that task time, never the task; an entry in the shared
// queue that no end ever took out goes stale after FairPolicy.Stale.

// FairPolicy is the share of one account in one queue.
type FairPolicy struct {
	// Running is how many of an account's tasks may be in the queues at
	// once (KILN_FAIR_RUNNING); 0 turns fair queuing off. Client.share
	// lowers it below the workers' slots.
	Running int
	// Held is how many more may wait held back per queue (KILN_FAIR_HELD).
	Held int
	// Hold is how long a held task waits at most: it runs then even if
	// no release came.
	Hold time.Duration
	// Stale is when an entry of the shared queue no longer counts: longer
	// than any task of the queue runs with its retries in the normal case.
	Stale time.Duration
}

// DefaultFairPolicy is the policy when the configuration sets only
// Running and Held.
var DefaultFairPolicy = FairPolicy{Running: 2, Held: 100, Hold: time.Hour, Stale: 20 * time.Minute}

// Place is where Admit puts a new task.
type Place int

// Places of a new task.
const (
	Admitted Place = iota // in the shared queue
	Held                  // held back until one of the account's tasks ends
	Refused               // the account's held list is full
)

// FairStore keeps the fair queues' bookkeeping (storage/redis).
type FairStore interface {
	// Admit places a new task of account on queue.
	Admit(ctx context.Context, account, queue, id string, p FairPolicy) (Place, error)
	// Done takes an ended task out of its account's share and answers the
	// held tasks to start in its place.
	Done(ctx context.Context, queue, id string, p FairPolicy) ([]QueuedTask, error)
}

// QueuedTask names a task of a queue.
type QueuedTask struct{ Queue, ID string }

// QueuedRetryAfter is the Retry-After of a refused task: the held tasks
// ahead of it take at least that long.
const QueuedRetryAfter = 10 * time.Second

// owned is a job enqueued on behalf of an account.
type owned struct {
	Tasker
	account string
}

// For marks job as account's, so that Client.Enqueue queues it fairly
// among the account's other jobs.
func For(account string, job Tasker) Tasker { return owned{Tasker: job, account: account} }

// enqueueFair enqueues t as held, then lets the store decide whether it
// starts now, stays held or is refused (deleted again). Enqueuing first
// means no release can find a task id that is not in asynq yet.
func (c *Client) enqueueFair(ctx context.Context, account string, t *asynq.Task) error {
	const op = "jobs.Enqueue"
	info, err := c.c.EnqueueContext(ctx, t, asynq.ProcessIn(c.Policy.Hold))
	if errors.Is(err, asynq.ErrTaskIDConflict) || errors.Is(err, asynq.ErrDuplicateTask) {
		return nil
	}
	if err != nil {
		return kiln.E(op, kiln.KindUnavailable, err)
	}
	place, err := c.Fair.Admit(ctx, account, info.Queue, info.ID, c.share())
	if err != nil {
		// Held with no bookkeeping: it runs after Hold.
		return err
	}
	c.placed(info.Queue, place)
	switch place {
	case Admitted:
		return c.start(info.Queue, info.ID)
	case Refused:
		if err := c.i.DeleteTask(info.Queue, info.ID); err != nil && !errors.Is(err, asynq.ErrTaskNotFound) {
			return kiln.E(op, kiln.KindUnavailable, err)
		}
		return kiln.Errorf(kiln.KindRateLimited, "too_many_queued_jobs",
			"this account already has %d jobs waiting in the %s queue; retry after %d s", c.Policy.Held, info.Queue, int(QueuedRetryAfter.Seconds()))
	}
	return nil
}

// start moves a held task into the shared queue.
func (c *Client) start(queue, id string) error {
	if err := c.i.RunTask(queue, id); err != nil {
		return kiln.E("jobs.start", kiln.KindUnavailable, err)
	}
	return nil
}

// Ended tells the fair queues that the task id of queue ended for good
// (done, or failed with no retry left), and starts the held tasks of its
// account that take its place. A held task that is gone or already
// running (its Hold passed) ends at once in turn, so its place goes on.
func (c *Client) Ended(ctx context.Context, queue, id string) error {
	if c.Fair == nil || c.Policy.Running <= 0 {
		return nil
	}
	p := c.share()
	ended := []QueuedTask{{queue, id}}
	for n := 0; len(ended) > 0 && n < 100; n++ {
		next, err := c.Fair.Done(ctx, ended[0].Queue, ended[0].ID, p)
		if err != nil {
			return err
		}
		ended = ended[1:]
		for _, t := range next {
			if err := c.i.RunTask(t.Queue, t.ID); err != nil {
				ended = append(ended, t)
			}
		}
	}
	return nil
}

// slotsFresh is how long the count of the workers' slots is kept: asynq
// workers write theirs every few seconds.
const slotsFresh = 10 * time.Second

// share is the policy with Running lowered below the slots of the
// workers that run now (read from asynq's server records), so that one
// account never holds every slot: with 2 slots it holds 1. Without a
// worker running, or with a single slot, Running stays.
func (c *Client) share() FairPolicy {
	p := c.Policy
	if slots := c.slots(); slots > 1 && p.Running >= slots {
		p.Running = slots - 1
	}
	return p
}

// slots counts the task slots of the workers running now (the sum of
// their concurrency), read at most every slotsFresh; 0 when unknown.
// None is read again at the next call: a worker that starts after the
// api counts from its first heartbeat, so a flood sent before cannot
// take every slot for the first seconds.
func (c *Client) slots() int {
	c.slotsMu.Lock()
	if c.slotsN > 0 && time.Since(c.slotsAt) < slotsFresh {
		defer c.slotsMu.Unlock()
		return c.slotsN
	}
	last := c.slotsN
	c.slotsMu.Unlock()
	servers, err := c.i.Servers()
	if err != nil {
		return last // the last count stands while Redis is away
	}
	n := 0
	for _, s := range servers {
		if s.Status == "active" || s.Status == "new" {
			n += s.Concurrency
		}
	}
	c.slotsMu.Lock()
	c.slotsN, c.slotsAt = n, time.Now()
	c.slotsMu.Unlock()
	if c.WorkerSlots != nil {
		c.WorkerSlots.Set(float64(n))
	}
	return n
}

// NewPlacedCounter makes the counter of Client.Placed, registered on reg.
func NewPlacedCounter(reg prometheus.Registerer) *prometheus.CounterVec {
	c := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "kiln_fair_jobs_total",
		Help: "Jobs of accounts queued through fair queuing, by queue and place: admitted (into the shared queue at once), held (behind the account's own jobs), refused (429 too_many_queued_jobs).",
	}, []string{"queue", "place"})
	reg.MustRegister(c)
	return c
}

// NewSlotsGauge makes the gauge of Client.WorkerSlots, registered on reg.
func NewSlotsGauge(reg prometheus.Registerer) prometheus.Gauge {
	g := prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "kiln_worker_slots",
		Help: "Task slots of the workers running, as fair queuing last counted them: one account may hold at most one less (and at most KILN_FAIR_RUNNING).",
	})
	reg.MustRegister(g)
	return g
}

func (c *Client) placed(queue string, p Place) {
	if c.Placed != nil {
		c.Placed.WithLabelValues(queue, [...]string{"admitted", "held", "refused"}[p]).Inc()
	}
}
