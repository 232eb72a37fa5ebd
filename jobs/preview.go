package jobs

import (
	"time"

	"github.com/hibiken/asynq"

	"github.com/kilnhq/kiln"
)

// TypePreviewRender renders a picture of an avatar that someone is
// waiting for (GET /preview/{id}.png|jpg|webp and the render API's
// GET /{id}.png|jpg).
const TypePreviewRender = "preview:render"

// PreviewRender names the avatar and the picture: Format png, jpg or
// webp, and the options as the handler parsed them. Their key is part
// of the blob key and the task id, so identical requests share one job
// and one image.
type PreviewRender struct {
	AvatarID string      `json:"avatarId"`
	Format   string      `json:"format"`
	Render   kiln.Render `json:"render"`
	// Revision is the avatar's (kiln.Avatar.Revision) the picture shows:
	// an edit changes the blob key and the task id, so no old picture is
	// served or rebuilt for the new model.
	Revision int `json:"revision,omitempty"`
}

// Key is the picture's canonical key; the format is the blob's
// extension, not part of it.
func (p PreviewRender) Key() string { return p.Render.Key() }

// BlobKey is where the picture is stored.
func (p PreviewRender) BlobKey() string {
	return kiln.AvatarFiles(p.AvatarID, p.Revision) + "/previews/" + p.Key() + "." + p.Format
}

// TaskID is deterministic per avatar and picture.
func (p PreviewRender) TaskID() string {
	return TypePreviewRender + ":" + p.AvatarID + revisionPart(p.Revision) + ":" + p.Key() + "." + p.Format
}

// Task builds the task on the interactive queue. The retries match the
// variant jobs': a preview of an avatar whose model is being generated
// waits its turn (ErrBusy).
func (p PreviewRender) Task() (*asynq.Task, error) {
	return newTask(TypePreviewRender, p,
		asynq.TaskID(p.TaskID()),
		asynq.Queue(QueueInteractive),
		asynq.MaxRetry(600),
		asynq.Timeout(2*time.Minute+grace),
		asynq.Retention(time.Hour),
	)
}
