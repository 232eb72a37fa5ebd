package worker

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"

	"github.com/hibiken/asynq"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets"
	"github.com/kilnhq/kiln/assets/lod"
	"github.com/kilnhq/kiln/assets/render"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/jobs"
)

// ProcessObject reads an uploaded file, builds the canonical GLB and
// stores it, then marks the object ready. It is idempotent: the GLB is
// written atomically under its final key, and the record changes last, so
// a run killed halfway and retried leaves one complete result.
func (w *Worker) ProcessObject(ctx context.Context, t *asynq.Task) error {
	const op = "worker.ProcessObject"
	var p jobs.ObjectProcess
	if err := jobs.Decode(t, &p); err != nil {
		return err
	}
	if !kiln.ValidID(p.ObjectID) {
		return jobs.Permanent(fmt.Errorf("%s: invalid object id %q", op, p.ObjectID))
	}
	o, err := w.Objects.Object(ctx, p.ObjectID)
	if err != nil {
		return kiln.E(op, err)
	}
	if o.State == kiln.StateReady || o.State == kiln.StateAwaitingReconstruction {
		return nil
	}
	state, err := w.process(ctx, o)
	if jobs.CannotSucceed(err) {
		return w.failObject(ctx, o.ID, err)
	}
	if err != nil {
		if lastAttempt(ctx) {
			return w.failObject(ctx, o.ID, err)
		}
		return kiln.E(op, err)
	}
	w.mailAfterUpload(ctx, o, state)
	return nil
}

// process does what the object's type asks for and returns the state it
// ends in. Models become GLBs; an image series waits for a
// reconstruction outside Kiln; an OpenConfiguration file, and an AI model
// in a format Kiln does not convert, are kept as uploaded and ready to
// download.
func (w *Worker) process(ctx context.Context, o *kiln.Object) (kiln.ObjectState, error) {
	model := slices.Contains(assets.Extensions, o.Extension)
	switch {
	case o.Type == "images":
		return kiln.StateAwaitingReconstruction, w.keepSource(ctx, o, kiln.StateAwaitingReconstruction)
	case o.Type == "openconfiguration", o.Type == "ai_model" && !model:
		return kiln.StateReady, w.keepSource(ctx, o, kiln.StateReady)
	}
	return kiln.StateReady, w.buildGLB(ctx, o)
}

// keepSource checks that the upload is stored and moves the object to
// state without converting anything.
func (w *Worker) keepSource(ctx context.Context, o *kiln.Object, state kiln.ObjectState) error {
	const op = "worker.keepSource"
	if _, err := w.Blobs.Stat(ctx, o.SourceKey()); err != nil {
		if kiln.KindOf(err) == kiln.KindNotFound {
			return kiln.Errorf(kiln.KindNotFound, "upload_missing", "the uploaded file of object %s is missing; upload it again", o.ID)
		}
		return kiln.E(op, err)
	}
	_, err := w.Objects.UpdateObject(ctx, o.ID, func(o *kiln.Object) error {
		o.State = state
		o.Error = ""
		return nil
	})
	return err
}

func (w *Worker) buildGLB(ctx context.Context, o *kiln.Object) error {
	const op = "worker.buildGLB"
	src, err := w.Blobs.Get(ctx, o.SourceKey())
	if err != nil {
		return kiln.E(op, err)
	}
	defer src.Close()
	if src.Info().Size > assets.MaxModelBytes {
		return kiln.Errorf(kiln.KindUnprocessable, "file_too_large", "the file is %d bytes; at most %d can be processed", src.Info().Size, assets.MaxModelBytes)
	}
	data, err := io.ReadAll(io.LimitReader(src, assets.MaxModelBytes+1))
	if err != nil {
		return kiln.E(op, kiln.KindUnavailable, err)
	}
	if budget := w.budget(); budget > 0 {
		need, err := assets.Estimate(data, o.Extension)
		if err != nil {
			return kiln.E(op, err)
		}
		if err := need.OverBudget(budget); err != nil {
			return err
		}
	}
	s, err := assets.ReadUploadContext(ctx, data, o.Extension)
	if err != nil {
		return building(ctx, op, "an upload", err)
	}
	// Repeated and zero-area triangles go before anything that costs per
	// triangle: the thumbnail and the simplification then work on what
	// the model really shows.
	if _, err := s.DropDegenerate(ctx); err != nil {
		return building(ctx, op, "an upload", err)
	}
	// The thumbnail is drawn from the source, before the levels simplify
	// the scene in place; an uploaded preview image wins over it.
	thumbnail := ""
	if o.PreviewType == "" {
		thumbnail = w.storeThumbnail(ctx, o, s)
	}
	levels := 0
	if o.Optimize {
		levels = lod.Max
	}
	models, err := assets.Levels(ctx, s, levels)
	if err != nil {
		return building(ctx, op, "an upload", err)
	}
	lods := make([]kiln.LOD, 0, len(models))
	for _, m := range models {
		// Each level is written atomically under its final key; the record
		// changes only once all are there.
		if err := ctx.Err(); err != nil {
			return kiln.E(op, err)
		}
		if _, err := w.Blobs.Put(ctx, o.GLBKey(m.Level.Level), bytes.NewReader(m.GLB), int64(len(m.GLB)), "model/gltf-binary"); err != nil {
			return kiln.E(op, err)
		}
		lods = append(lods, kiln.LOD{Level: m.Level.Level, Triangles: m.Level.Triangles, Error: m.Level.Error})
	}
	stats := assets.ModelStats(models[0].Stats)
	_, err = w.Objects.UpdateObject(ctx, o.ID, func(o *kiln.Object) error {
		o.State = kiln.StateReady
		o.Error = ""
		o.Stats = &stats
		o.LODs = lods
		if o.PreviewType == "" {
			o.PreviewType = thumbnail
		}
		return nil
	})
	return err
}

// building is the error of a job's reading or building: one that ran out
// of the task's time fails for good (jobs.OutOfTime), since the same
// input would take as long again. Its message has no op in front: it is
// the reason a client reads (an object's error, or what jobs.Failure
// answers a download of a variant).
func building(ctx context.Context, op, what string, err error) error {
	if jobs.Late(ctx, err) {
		return jobs.Permanent(jobs.OutOfTime(ctx, what))
	}
	return kiln.E(op, err)
}

// failObject records why processing failed and stops the retries: the
// object's state tells the client, the archived task tells the operator.
func (w *Worker) failObject(ctx context.Context, id string, cause error) error {
	// Only a coded error speaks to the client; any other cause (a driver
	// message, an address) goes to the log with the object's id.
	_, msg := kiln.CodeOf(cause)
	if !kiln.HasCode(cause) || kiln.KindOf(cause) == kiln.KindInternal {
		w.Log.Error("object processing failed", "object_id", id, "err", cause)
		msg = "processing failed after several attempts; the cause is in the worker's log under the object's id"
	}
	// The task's context may be over (it ran out of time): what records
	// the failure does not depend on it.
	ctx = context.WithoutCancel(ctx)
	o, err := w.Objects.UpdateObject(ctx, id, func(o *kiln.Object) error {
		o.State = kiln.StateFailed
		o.Error = msg
		return nil
	})
	if err != nil {
		return err
	}
	w.mailAfterUpload(ctx, o, kiln.StateFailed)
	return jobs.Permanent(cause)
}

// thumbnailSize is the side of the thumbnail drawn for a processed model.
const thumbnailSize = 256

// storeThumbnail renders the model (full view, transparent background)
// and stores it as the object's preview image, returning its media type.
// A model the renderer cannot draw still gets processed: the failure is
// logged and the object has no preview.
func (w *Worker) storeThumbnail(ctx context.Context, o *kiln.Object, s *scene.Scene) string {
	img, err := render.Render(ctx, s, render.Options{Size: thumbnailSize, Camera: "full"})
	var b bytes.Buffer
	if err == nil {
		err = render.Encode(&b, img, "png", 0)
	}
	if err == nil {
		_, err = w.Blobs.Put(ctx, o.PreviewKey(), bytes.NewReader(b.Bytes()), int64(b.Len()), "image/png")
	}
	if err != nil {
		w.Log.Warn("no thumbnail", "object_id", o.ID, "err", err)
		return ""
	}
	return "image/png"
}
