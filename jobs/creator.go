package jobs

import (
	"encoding/json"
	"time"

	"github.com/hibiken/asynq"
)

// TypeConfigRender renders a picture of an avatar configuration that has
// no avatar record: the creator's catalogue thumbnails and quick-start
// templates, which are the same for every app and person.
const TypeConfigRender = "config:render"

// ConfigRender carries the configuration itself and where the picture
// goes (BlobKey, a PNG). The key names a hash of the configuration and
// the picture's parameters, so a changed catalogue renders anew and
// identical requests share one job.
type ConfigRender struct {
	BlobKey       string          `json:"blobKey"`
	Configuration json.RawMessage `json:"configuration"`
	Camera        string          `json:"camera"`
	Size          int             `json:"size"`
}

// TaskID is deterministic per picture.
func (p ConfigRender) TaskID() string { return TypeConfigRender + ":" + p.BlobKey }

// Task builds the task on the interactive queue: a page waits for it.
func (p ConfigRender) Task() (*asynq.Task, error) {
	return newTask(TypeConfigRender, p,
		asynq.TaskID(p.TaskID()),
		asynq.Queue(QueueInteractive),
		asynq.MaxRetry(3),
		asynq.Timeout(2*time.Minute),
		asynq.Retention(time.Hour),
	)
}
