package worker

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/hibiken/asynq"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/jobs"
)

// SweepInterval is how often a worker looks for records whose task asynq
// gave up on. Asynq itself notices a dead worker's task about a minute
// after the death, so sweeping more often would find nothing more.
const SweepInterval = 30 * time.Second

// Inspector is the part of asynq's Inspector the sweep uses.
type Inspector interface {
	ListArchivedTasks(queue string, opts ...asynq.ListOption) ([]*asynq.TaskInfo, error)
	ListRetryTasks(queue string, opts ...asynq.ListOption) ([]*asynq.TaskInfo, error)
	ArchiveTask(queue, id string) error
	GetTaskInfo(queue, id string) (*asynq.TaskInfo, error)
}

// RunSweeper sweeps at once and then every interval until ctx ends. It is
// why nothing stays processing for ever: a task whose worker dies on
// every attempt (out of memory, killed) never runs its handler's last
// attempt, so only a sweep outside the handler can record the failure.
func (w *Worker) RunSweeper(ctx context.Context, insp Inspector, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if n, err := w.Sweep(ctx, insp); err != nil && ctx.Err() == nil {
			w.Log.Warn("sweep of archived tasks stopped early", "err", err, "failed", n)
		} else if n > 0 {
			w.Log.Info("sweep marked records failed", "failed", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// sweepPage is how many archived tasks one call to the inspector lists.
const sweepPage = 200

// Sweep marks failed, with a reason a client can read, every object and
// product rendering whose task is archived while the record still says
// it is being worked on. Model variants and previews have no record of
// their own: their archived task is the record, and jobs.Failure reads
// it for the download that waits on it; the sweep archives those whose
// worker died crashLimit times (stopCrashLoops). It also expires uploads
// left unfinished (expireUploads). It reports how many records and tasks
// it changed. Sweeping twice changes nothing more: a record already
// failed (or done) is left alone.
func (w *Worker) Sweep(ctx context.Context, insp Inspector) (int, error) {
	marked := 0
	for _, q := range []string{jobs.QueueDefault, jobs.QueueRender} {
		for page := 1; ; page++ {
			if err := ctx.Err(); err != nil {
				return marked, err
			}
			tasks, err := insp.ListArchivedTasks(q, asynq.PageSize(sweepPage), asynq.Page(page))
			if errors.Is(err, asynq.ErrQueueNotFound) {
				break
			}
			if err != nil {
				return marked, kiln.E("worker.Sweep", kiln.KindUnavailable, err)
			}
			for _, t := range tasks {
				ok, err := w.sweepTask(ctx, t)
				if err != nil {
					w.Log.Warn("sweep could not mark a record failed", "task_id", t.ID, "err", err)
					continue
				}
				if ok {
					marked++
				}
			}
			if len(tasks) < sweepPage {
				break
			}
		}
	}
	n, err := w.stopCrashLoops(ctx, insp)
	marked += n
	if err != nil {
		return marked, err
	}
	n, err = w.expireUploads(ctx)
	marked += n
	if err != nil {
		return marked, err
	}
	n, err = w.failLost(ctx, insp)
	return marked + n, err
}

// ProcessingLister is the part of an ObjectStore that finds objects left
// processing; a store without it is not searched.
type ProcessingLister interface {
	StaleProcessing(ctx context.Context, before time.Time, fn func(*kiln.Object) error) error
}

// processingDeadline is when an object still processing is looked at:
// past every attempt of its job (6 of at most 10 minutes) and the
// backoff between them (about 20 minutes in all).
const processingDeadline = 2 * time.Hour

// lostEvery spaces the searches for lost jobs, which read every object
// record.
const lostEvery = 10 * time.Minute

// failLost marks failed the objects processing for longer than
// processingDeadline whose job no longer exists, or is archived or done
// (a Redis restored without its queues, an archive trimmed): nothing
// would ever finish them. It runs at most every lostEvery.
func (w *Worker) failLost(ctx context.Context, insp Inspector) (int, error) {
	pl, ok := w.Objects.(ProcessingLister)
	if !ok {
		return 0, nil
	}
	w.crashMu.Lock()
	due := time.Since(w.lostAt) >= lostEvery
	if due {
		w.lostAt = time.Now()
	}
	w.crashMu.Unlock()
	if !due {
		return 0, nil
	}
	marked := 0
	err := pl.StaleProcessing(ctx, time.Now().Add(-processingDeadline), func(o *kiln.Object) error {
		info, err := insp.GetTaskInfo(jobs.QueueDefault, jobs.ObjectProcess{ObjectID: o.ID}.TaskID())
		var cause error
		switch {
		case errors.Is(err, asynq.ErrTaskNotFound), errors.Is(err, asynq.ErrQueueNotFound):
			cause = kiln.Errorf(kiln.KindUnprocessable, "processing_lost",
				"processing stopped: its job was lost (the queue was reset); upload the file again")
		case err != nil:
			return kiln.E("worker.Sweep", kiln.KindUnavailable, err)
		case info.State == asynq.TaskStateArchived:
			cause = abandoned(info, "processing")
		case info.State == asynq.TaskStateCompleted:
			cause = kiln.Errorf(kiln.KindUnprocessable, "processing_lost",
				"processing ended without a result; upload the file again")
		default:
			return nil // queued, running or waiting to retry
		}
		w.Log.Error("object processing past its deadline with no job at work", "object_id", o.ID, "updated_at", o.UpdatedAt)
		if err := w.failObject(ctx, o.ID, cause); !jobs.IsPermanent(err) {
			return err
		}
		marked++
		return nil
	})
	return marked, err
}

// crashLimit is how many deaths of its worker an interactive task (a
// model variant or a preview someone waits for) is given. Their 600
// retries are for waiting their turn (jobs.ErrBusy); spent on a worker
// that dies, at a minute or more each, they would keep the download
// pending for hours instead of answering why.
const crashLimit = 3

// crashMemory is how long the sweep remembers a task's deaths.
const crashMemory = time.Hour

// stopCrashLoops archives the interactive tasks whose worker died
// crashLimit times (seen by the sweeps of this worker as distinct
// failures with asynq's lease-expired error), so that jobs.Failure
// answers the download that waits on them. It reports how many.
func (w *Worker) stopCrashLoops(ctx context.Context, insp Inspector) (int, error) {
	w.crashMu.Lock()
	defer w.crashMu.Unlock()
	if w.crashes == nil {
		w.crashes = map[string][]time.Time{}
	}
	archived := 0
	for page := 1; ; page++ {
		if err := ctx.Err(); err != nil {
			return archived, err
		}
		tasks, err := insp.ListRetryTasks(jobs.QueueInteractive, asynq.PageSize(sweepPage), asynq.Page(page))
		if errors.Is(err, asynq.ErrQueueNotFound) {
			break
		}
		if err != nil {
			return archived, kiln.E("worker.Sweep", kiln.KindUnavailable, err)
		}
		for _, t := range tasks {
			if !jobs.Crashed(t.LastErr) {
				continue
			}
			seen := w.crashes[t.ID]
			if !slices.ContainsFunc(seen, t.LastFailedAt.Equal) {
				seen = append(seen, t.LastFailedAt)
				w.crashes[t.ID] = seen
			}
			if len(seen) < crashLimit {
				continue
			}
			if err := insp.ArchiveTask(t.Queue, t.ID); err != nil {
				// Gone, running again, or archived by another worker's
				// sweep: nothing left to do here.
				if !errors.Is(err, asynq.ErrTaskNotFound) {
					w.Log.Warn("crash-looping task not archived", "task_id", t.ID, "err", err)
				}
				delete(w.crashes, t.ID)
				continue
			}
			w.Log.Error("task archived: its worker died on each of several attempts", "task_id", t.ID, "type", t.Type, "deaths", len(seen))
			delete(w.crashes, t.ID)
			archived++
		}
		if len(tasks) < sweepPage {
			break
		}
	}
	for id, seen := range w.crashes {
		if time.Since(seen[len(seen)-1]) > crashMemory {
			delete(w.crashes, id)
		}
	}
	return archived, nil
}

// UploadExpirer is the part of an ObjectStore that lists objects left
// uploading; a store without it expires nothing.
type UploadExpirer interface {
	StaleUploads(ctx context.Context, before time.Time, limit int) ([]string, error)
	ForgetUpload(ctx context.Context, account, id string) error
}

// expireUploads marks failed the objects still uploading kiln.UploadExpiry
// after they were prepared, deletes what was uploaded of them, and
// reports how many it marked.
func (w *Worker) expireUploads(ctx context.Context) (int, error) {
	ex, ok := w.Objects.(UploadExpirer)
	if !ok {
		return 0, nil
	}
	marked := 0
	for {
		ids, err := ex.StaleUploads(ctx, time.Now().Add(-kiln.UploadExpiry), sweepPage)
		if err != nil || len(ids) == 0 {
			return marked, err
		}
		for _, id := range ids {
			account, expired := "", false
			o, err := w.Objects.UpdateObject(ctx, id, func(o *kiln.Object) error {
				account, expired = o.Account, o.State == kiln.StateUploading
				if expired {
					o.State = kiln.StateFailed
					o.Error = fmt.Sprintf("the upload was not finished within %d hours of prepare-upload; prepare a new upload", int(kiln.UploadExpiry.Hours()))
				}
				return nil
			})
			switch {
			case err == nil && expired:
				marked++
				if err := w.Blobs.Delete(ctx, o.UploadKey()); err != nil && kiln.KindOf(err) != kiln.KindNotFound {
					w.Log.Warn("expired upload not deleted", "object_id", id, "err", err)
				}
			case err != nil && kiln.KindOf(err) != kiln.KindNotFound:
				return marked, err
			}
			if err := ex.ForgetUpload(ctx, account, id); err != nil {
				return marked, err
			}
		}
	}
}

// sweepTask marks the record of one archived task failed when it is still
// in progress, and reports whether it did.
func (w *Worker) sweepTask(ctx context.Context, t *asynq.TaskInfo) (bool, error) {
	switch t.Type {
	case jobs.TypeObjectProcess:
		var p jobs.ObjectProcess
		if jobs.Decode(asynq.NewTask(t.Type, t.Payload), &p) != nil || !kiln.ValidID(p.ObjectID) {
			return false, nil
		}
		o, err := w.Objects.Object(ctx, p.ObjectID)
		if kiln.KindOf(err) == kiln.KindNotFound {
			return false, nil
		}
		if err != nil || o.State != kiln.StateProcessing {
			return false, err
		}
		w.Log.Error("object task archived while the object was processing", "object_id", o.ID, "task_id", t.ID, "last_err", t.LastErr)
		err = w.failObject(ctx, o.ID, abandoned(t, "processing"))
		if jobs.IsPermanent(err) {
			err = nil
		}
		return err == nil, err
	case jobs.TypeRenderProduct:
		if w.Renderings == nil {
			return false, nil
		}
		var p jobs.RenderProduct
		if jobs.Decode(asynq.NewTask(t.Type, t.Payload), &p) != nil || !kiln.ValidID(p.RenderingID) {
			return false, nil
		}
		r, err := w.Renderings.Rendering(ctx, p.RenderingID)
		if kiln.KindOf(err) == kiln.KindNotFound {
			return false, nil
		}
		if err != nil || (r.State != kiln.RenderingQueued && r.State != kiln.RenderingRendering) {
			return false, err
		}
		w.Log.Error("rendering task archived while the rendering was in progress", "rendering_id", r.ID, "task_id", t.ID, "last_err", t.LastErr)
		_, msg := kiln.CodeOf(abandoned(t, "rendering"))
		now := time.Now().UTC()
		_, err = w.Renderings.UpdateRendering(ctx, r.ID, func(r *kiln.Rendering) error {
			if r.State == kiln.RenderingQueued || r.State == kiln.RenderingRendering {
				r.State, r.ErrorCode, r.Error, r.FinishedAt = kiln.RenderingFailed, codeRenderFailed, msg, &now
			}
			return nil
		})
		if err != nil {
			return false, err
		}
		return true, nil
	}
	return false, nil
}

// abandoned is the client-facing reason of a task asynq archived: a
// worker that died on every attempt says so (the usual cause is a model
// that needs more memory than the worker has), anything else says the
// attempts ran out; the raw cause stays in the log.
func abandoned(t *asynq.TaskInfo, what string) error {
	if jobs.Crashed(t.LastErr) {
		return kiln.Errorf(kiln.KindUnprocessable, "worker_crashed",
			"%s stopped: the worker died on each of %d attempts (the file may need more memory or time than a worker has)", what, t.Retried+1)
	}
	return kiln.Errorf(kiln.KindUnprocessable, "attempts_exhausted",
		"%s failed on each of %d attempts; the cause is in the worker's log", what, t.Retried+1)
}
