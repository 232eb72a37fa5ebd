package jobs

import (
	"errors"
	"strconv"
	"time"

	"github.com/hibiken/asynq"

	"github.com/kilnhq/kiln"
)

// TypeModelVariant builds one variant of a model (a level of detail with
// a texture format, an atlas, merged meshes) that someone is waiting for.
const TypeModelVariant = "model:variant"

// ModelVariant names the model and carries the variant as the handler
// parsed it; the variant's key is part of the task id, so identical
// requests at the same time share one job. The model is an object's
// (ObjectID) or an avatar's (AvatarID); exactly one of the two is set.
type ModelVariant struct {
	ObjectID string       `json:"objectId,omitempty"`
	AvatarID string       `json:"avatarId,omitempty"`
	Variant  kiln.Variant `json:"variant"`
	// Revision is the avatar's (kiln.Avatar.Revision) the job builds.
	Revision int `json:"revision,omitempty"`
}

// TaskID is deterministic per model and variant.
func (p ModelVariant) TaskID() string {
	if p.AvatarID != "" {
		return TypeModelVariant + ":avatar:" + p.AvatarID + revisionPart(p.Revision) + ":" + p.Variant.Key()
	}
	return TypeModelVariant + ":" + p.ObjectID + ":" + p.Variant.Key()
}

// revisionPart names an avatar's revision in a task id: nothing for the
// first, so that ids of avatars never edited stay as they were.
func revisionPart(rev int) string {
	if rev == 0 {
		return ""
	}
	return ":r" + strconv.Itoa(rev)
}

// Task builds the task on the interactive queue: someone waits for it.
// Many retries, because a variant waits its turn (ErrBusy) while another
// variant of the same model is built.
func (p ModelVariant) Task() (*asynq.Task, error) {
	return newTask(TypeModelVariant, p,
		asynq.TaskID(p.TaskID()),
		asynq.Queue(QueueInteractive),
		asynq.MaxRetry(600),
		asynq.Timeout(VariantTime+grace),
		asynq.Retention(time.Hour),
	)
}

// ErrBusy says a task must wait for another on the same resource; it is
// retried after BusyDelay instead of the usual backoff, so that the
// variants of one model are built one after another, in order.
var ErrBusy = errors.New("busy: another job on the same model is running")

// BusyDelay is how soon a busy task runs again.
const BusyDelay = 200 * time.Millisecond

// RetryDelay is asynq's retry delay: BusyDelay for ErrBusy, a short one
// after a worker died (asynq.ErrLeaseExpired), the default
// exponential backoff otherwise.
func RetryDelay(n int, err error, t *asynq.Task) time.Duration {
	if errors.Is(err, ErrBusy) {
		return BusyDelay
	}
	if errors.Is(err, asynq.ErrLeaseExpired) {
		// The worker died, not the task: asynq finds it a minute or two
		// after the crash already, so run it again at once the first
		// time, and back off only when it keeps killing workers.
		return min(time.Duration(1<<min(n, 10))*time.Second, asynq.DefaultRetryDelayFunc(n, err, t))
	}
	return asynq.DefaultRetryDelayFunc(n, err, t)
}
