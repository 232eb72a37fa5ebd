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
	// Part, when set, says the configuration is a default body with
	// that category's style changed (a catalogue thumbnail): the worker
	// draws the kept default body with the style's part, not a whole
	// build.
	Part string `json:"part,omitempty"`
	// Background queues the picture on the low queue: a serving
	// process's warm-up renders the catalogue ahead of anyone asking,
	// and must not hold back the downloads people wait on. A page's
	// request for the same picture meanwhile shares that task (same ID).
	Background bool `json:"-"`
}

// TaskID is deterministic per picture.
func (p ConfigRender) TaskID() string { return TypeConfigRender + ":" + p.BlobKey }

// Task builds the task on the interactive queue, since a page waits for
// it, or on the low queue for the warm-up's.
func (p ConfigRender) Task() (*asynq.Task, error) {
	queue := QueueInteractive
	if p.Background {
		queue = QueueLow
	}
	return newTask(TypeConfigRender, p,
		asynq.TaskID(p.TaskID()),
		asynq.Queue(queue),
		asynq.MaxRetry(3),
		asynq.Timeout(2*time.Minute),
		asynq.Retention(time.Hour),
	)
}
