package worker

import (
	"context"
	"testing"
	"time"

	"github.com/hibiken/asynq"

	"github.com/kilnhq/kiln/jobs"
)

// retrying is an Inspector whose interactive queue holds the given retry
// tasks and no archived ones; it records what the sweep archives.
type retrying struct {
	tasks    []*asynq.TaskInfo
	archived []string
}

func (r *retrying) ListArchivedTasks(string, ...asynq.ListOption) ([]*asynq.TaskInfo, error) {
	return nil, asynq.ErrQueueNotFound
}

func (r *retrying) ListRetryTasks(q string, _ ...asynq.ListOption) ([]*asynq.TaskInfo, error) {
	if q != jobs.QueueInteractive {
		return nil, asynq.ErrQueueNotFound
	}
	return r.tasks, nil
}

func (r *retrying) GetTaskInfo(string, string) (*asynq.TaskInfo, error) {
	return nil, asynq.ErrTaskNotFound
}

func (r *retrying) ArchiveTask(_, id string) error {
	r.archived = append(r.archived, id)
	return nil
}

// TestSweepStopsCrashLoops shows the sweep a variant whose worker dies on
// each attempt and one that waits its turn (busy): the first is archived
// at its third death, so its download answers why; the second is left.
func TestSweepStopsCrashLoops(t *testing.T) {
	ctx := context.Background()
	w, _, _ := newWorker(t)
	crash := asynq.ErrLeaseExpired.Error()
	start := time.Now().Add(-5 * time.Minute)
	insp := &retrying{}
	for death := range 3 {
		at := start.Add(time.Duration(death) * time.Minute)
		insp.tasks = []*asynq.TaskInfo{
			{ID: "model:variant:a", Queue: jobs.QueueInteractive, Type: jobs.TypeModelVariant, LastErr: crash, LastFailedAt: at, Retried: 10 + death},
			{ID: "model:variant:b", Queue: jobs.QueueInteractive, Type: jobs.TypeModelVariant, LastErr: jobs.ErrBusy.Error(), LastFailedAt: at, Retried: 10 + death},
		}
		// Each death is seen by several sweeps; only distinct ones count.
		for range 2 {
			if _, err := w.Sweep(ctx, insp); err != nil {
				t.Fatal(err)
			}
		}
		want := 0
		if death == 2 {
			want = 1
		}
		if len(insp.archived) != want {
			t.Fatalf("after death %d: archived %v", death+1, insp.archived)
		}
	}
	if insp.archived[0] != "model:variant:a" {
		t.Fatalf("archived %v, want the crashing variant", insp.archived)
	}
}
