package jobs

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/hibiken/asynq"
)

// TypePreviewRender renders a preview image of an avatar that someone is
// waiting for (GET /preview/{id}.png|jpg|webp).
const TypePreviewRender = "preview:render"

// PreviewRender names the avatar and the picture: Format png, jpg or
// webp, Size in pixels, Camera full or portrait, Background "R,G,B" or
// "" for transparent. Key is their canonical form, part of the blob key
// and the task id, so identical requests share one job and one image.
type PreviewRender struct {
	AvatarID   string `json:"avatarId"`
	Key        string `json:"key"`
	Format     string `json:"format"`
	Size       int    `json:"size"`
	Camera     string `json:"camera"`
	Background string `json:"background,omitempty"`
}

// PreviewKey is the canonical key of a preview's parameters; the format
// is the blob's extension, not part of it.
func PreviewKey(size int, camera, background string) string {
	bg := "transparent"
	if background != "" {
		bg = background
	}
	return fmt.Sprintf("%s-%d-%s", camera, size, bg)
}

// BlobKey is where the preview is stored.
func (p PreviewRender) BlobKey() string {
	return "avatars/" + p.AvatarID + "/previews/" + p.Key + "." + p.Format
}

// TaskID is deterministic per avatar and picture.
func (p PreviewRender) TaskID() string {
	return TypePreviewRender + ":" + p.AvatarID + ":" + p.Key + "." + p.Format
}

// Task builds the task on the interactive queue. The retries match the
// variant jobs': a preview of an avatar whose model is being generated
// waits its turn (ErrBusy).
func (p PreviewRender) Task() (*asynq.Task, error) {
	b, err := json.Marshal(p)
	if err != nil {
		return nil, err
	}
	return asynq.NewTask(TypePreviewRender, b,
		asynq.TaskID(p.TaskID()),
		asynq.Queue(QueueInteractive),
		asynq.MaxRetry(600),
		asynq.Timeout(2*time.Minute),
		asynq.Retention(time.Hour),
	), nil
}
