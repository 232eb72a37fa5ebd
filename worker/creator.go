package worker

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/hibiken/asynq"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/avatar"
	"github.com/kilnhq/kiln/assets/render"
	"github.com/kilnhq/kiln/internal/priority"
	"github.com/kilnhq/kiln/jobs"
)

// RenderConfig generates the avatar of a configuration and stores its
// picture (PNG, transparent) under the job's key: a catalogue thumbnail
// or a template's preview of the creator.
func (w *Worker) RenderConfig(ctx context.Context, t *asynq.Task) error {
	const op = "worker.RenderConfig"
	var p jobs.ConfigRender
	if err := jobs.Decode(t, &p); err != nil {
		return err
	}
	if !strings.HasPrefix(p.BlobKey, "creator/") || kiln.CheckBlobKey(p.BlobKey) != nil ||
		p.Size < 1 || p.Size > render.MaxSize || (p.Camera != "full" && p.Camera != "portrait") {
		return jobs.Permanent(fmt.Errorf("%s: invalid payload %+v", op, p))
	}
	if _, err := w.Blobs.Stat(ctx, p.BlobKey); err == nil {
		return nil
	}
	cfg, err := avatar.ParseConfig(p.Configuration)
	if err != nil {
		return jobs.Permanent(kiln.E(op, err))
	}
	// A picture is background work: in kiln serve it waits while the
	// creator builds what a person is waiting on (a part, the avatar on
	// screen), and runs beside other background work on half the cores.
	leave, err := priority.Default.Enter(ctx, priority.Background)
	if err != nil {
		return kiln.E(op, kiln.KindUnavailable, err)
	}
	defer leave()
	s, err := avatar.Generate(cfg)
	if err != nil {
		return jobs.Permanent(kiln.E(op, kiln.KindUnprocessable, err))
	}
	m, err := render.Render(ctx, s, render.Options{Size: p.Size, Camera: p.Camera, Background: render.ForFormat("png", nil)})
	if err != nil {
		return kiln.E(op, err)
	}
	var buf bytes.Buffer
	if err := render.Encode(&buf, m, "png", 0); err != nil {
		return kiln.E(op, err)
	}
	if _, err := w.Blobs.Put(ctx, p.BlobKey, bytes.NewReader(buf.Bytes()), int64(buf.Len()), "image/png"); err != nil {
		return kiln.E(op, err)
	}
	return nil
}
