package jobs

import (
	"time"

	"github.com/hibiken/asynq"
)

// TypeRenderProduct renders a product with Blender for a rendering record.
const TypeRenderProduct = "render:product"

// RenderProduct names the rendering to make; the record holds the object,
// the setup and the settings.
type RenderProduct struct {
	RenderingID string `json:"renderingId"`
}

// TaskID is one per rendering, so a repeated enqueue runs Blender once.
func (p RenderProduct) TaskID() string { return TypeRenderProduct + ":" + p.RenderingID }

// Task builds the task on the render queue. Few retries: Blender either
// renders or fails the same way again; a failure of the script itself is
// marked Permanent by the worker and not retried at all.
func (p RenderProduct) Task() (*asynq.Task, error) {
	return newTask(TypeRenderProduct, p,
		asynq.TaskID(p.TaskID()),
		asynq.Queue(QueueRender),
		asynq.MaxRetry(2),
		asynq.Timeout(10*time.Minute+grace),
		asynq.Retention(Retention),
	)
}
