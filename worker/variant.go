package worker

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"time"

	"github.com/hibiken/asynq"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets"
	"github.com/kilnhq/kiln/jobs"
)

// variantLockTTL frees the model's lock if a worker dies while building.
const variantLockTTL = 5 * time.Minute

// BuildVariant builds one variant of a ready object's model from its lod
// 0 GLB and stores it under its key. Variants of one model are built one
// at a time (a second one gets jobs.ErrBusy and runs again shortly), so
// the one asked for first is not slowed down by the next.
func (w *Worker) BuildVariant(ctx context.Context, t *asynq.Task) error {
	const op = "worker.BuildVariant"
	var p jobs.ModelVariant
	if err := jobs.Decode(t, &p); err != nil {
		return err
	}
	v := assets.Variant{LOD: p.LOD, TextureFormat: p.TextureFormat, AtlasSize: p.AtlasSize, Merge: p.Merge}
	if !kiln.ValidID(p.ObjectID) || v.Validate() != nil || v.Key() != p.Key {
		return jobs.Permanent(fmt.Errorf("%s: invalid payload %+v", op, p))
	}
	o, err := w.Objects.Object(ctx, p.ObjectID)
	if kiln.KindOf(err) == kiln.KindNotFound {
		return jobs.Permanent(kiln.E(op, err))
	}
	if err != nil {
		return kiln.E(op, err)
	}
	key := o.VariantKey(p.Key)
	if _, err := w.Blobs.Stat(ctx, key); err == nil {
		return nil
	}
	unlock, ok, err := w.Objects.Lock(ctx, "model:"+o.ID, variantLockTTL)
	if err != nil {
		return kiln.E(op, err)
	}
	if !ok {
		return jobs.ErrBusy
	}
	defer unlock()
	src, err := w.Blobs.Get(ctx, o.GLBKey(0))
	if err != nil {
		return kiln.E(op, err)
	}
	data, err := io.ReadAll(io.LimitReader(src, assets.MaxModelBytes+1))
	src.Close()
	if err != nil {
		return kiln.E(op, kiln.KindUnavailable, err)
	}
	s, err := assets.Read(data)
	if err == nil {
		var m assets.Model
		if m, err = assets.BuildVariant(ctx, s, v); err == nil {
			_, err = w.Blobs.Put(ctx, key, bytes.NewReader(m.GLB), int64(len(m.GLB)), "model/gltf-binary")
		}
	}
	if k := kiln.KindOf(err); k == kiln.KindUnprocessable || k == kiln.KindInvalid {
		return jobs.Permanent(kiln.E(op, err))
	}
	if err != nil {
		return kiln.E(op, err)
	}
	return nil
}
