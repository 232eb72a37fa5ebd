package worker

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/hibiken/asynq"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets"
	"github.com/kilnhq/kiln/assets/animation"
	"github.com/kilnhq/kiln/assets/avatar"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/jobs"
)

// variantLockTTL frees the model's lock within this time when the worker
// building it dies; a live worker renews it however long it builds.
const variantLockTTL = 15 * time.Second

// BuildVariant builds one variant of a model and stores it under its
// key: of a ready object's model from its lod 0 GLB, or of an avatar's
// model (see buildAvatarVariant). Variants of one model are built one at
// a time (a second one gets jobs.ErrBusy and runs again shortly), so the
// one asked for first is not slowed down by the next.
func (w *Worker) BuildVariant(ctx context.Context, t *asynq.Task) error {
	const op = "worker.BuildVariant"
	var p jobs.ModelVariant
	if err := jobs.Decode(t, &p); err != nil {
		return err
	}
	if p.Variant.Validate() != nil || (p.ObjectID == "") == (p.AvatarID == "") || !kiln.ValidID(p.ObjectID+p.AvatarID) {
		return jobs.Permanent(fmt.Errorf("%s: invalid payload %+v", op, p))
	}
	if p.AvatarID != "" {
		return w.buildAvatarVariant(ctx, p)
	}
	if len(p.Variant.Animations) > 0 {
		return jobs.Permanent(fmt.Errorf("%s: invalid payload %+v: objects have no clips", op, p))
	}
	o, err := w.Objects.Object(ctx, p.ObjectID)
	if err != nil {
		return kiln.E(op, err)
	}
	key := o.VariantKey(p.Variant.Key())
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
	data, err := w.readModel(ctx, o.GLBKey(0))
	if err != nil {
		return kiln.E(op, err)
	}
	if err := w.withinBudget(data); err != nil {
		return err
	}
	s, err := assets.ReadContext(ctx, data)
	if err != nil {
		return building(ctx, op, "a model variant", err)
	}
	return w.storeVariant(ctx, op, s, p.Variant, key)
}

// withinBudget refuses, for good, to build a variant of a model whose
// estimate is over the job's memory budget (KILN_JOB_MEMORY), as object
// processing does: the variant's stages hold the model read, simplified
// and its images decoded, which is what the estimate counts. The
// error's message is the client's whole reason: without an op in front,
// what jobs.Failure reads of the archived task is the message alone.
func (w *Worker) withinBudget(glb []byte) error {
	budget := w.budget()
	if budget <= 0 {
		return nil
	}
	need, err := assets.Estimate(glb, "glb")
	if err != nil {
		return kiln.E("worker.BuildVariant", err)
	}
	if err := need.OverBudget(budget); err != nil {
		return jobs.Permanent(err)
	}
	return nil
}

// readModel reads a stored GLB, at most assets.MaxModelBytes of it.
func (w *Worker) readModel(ctx context.Context, key string) ([]byte, error) {
	src, err := w.Blobs.Get(ctx, key)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	data, err := io.ReadAll(io.LimitReader(src, assets.MaxModelBytes+1))
	if err != nil {
		return nil, kiln.E("worker.readModel", kiln.KindUnavailable, err)
	}
	return data, nil
}

// storeVariant runs the variant's stages on s and stores the GLB at key.
func (w *Worker) storeVariant(ctx context.Context, op string, s *scene.Scene, v kiln.Variant, key string) error {
	m, err := assets.BuildVariant(ctx, s, v)
	if err != nil {
		return building(ctx, op, "a model variant", err)
	}
	if _, err := w.Blobs.Put(ctx, key, bytes.NewReader(m.GLB), int64(len(m.GLB)), "model/gltf-binary"); err != nil {
		return kiln.E(op, err)
	}
	return nil
}

// buildAvatarVariant builds a variant of an avatar's model. The model is
// generated from the avatar's configuration on first use (by the job that
// POST /avatar enqueues, or by the first download of a built-in avatar)
// and stored as its lod 0; the clips asked for are attached to it before
// the variant's stages, so that lod and merge keep them.
func (w *Worker) buildAvatarVariant(ctx context.Context, p jobs.ModelVariant) error {
	const op = "worker.buildAvatarVariant"
	key := kiln.AvatarVariantKey(p.AvatarID, p.Revision, p.Variant.Key())
	if _, err := w.Blobs.Stat(ctx, key); err == nil {
		return nil
	}
	cfg, err := w.avatarConfig(ctx, p.AvatarID, p.Revision)
	if err != nil {
		return kiln.E(op, err)
	}
	unlock, ok, err := w.Objects.Lock(ctx, "model:avatar:"+p.AvatarID, variantLockTTL)
	if err != nil {
		return kiln.E(op, err)
	}
	if !ok {
		return jobs.ErrBusy
	}
	defer unlock()
	s, err := w.avatarModel(ctx, p.AvatarID, p.Revision, cfg)
	if err == nil {
		err = animation.Attach(s, cfg.Body.Type, p.Variant.Animations)
	}
	if err != nil {
		return building(ctx, op, "a model variant", err)
	}
	return w.storeVariant(ctx, op, s, p.Variant, key)
}

// avatarConfig is the configuration of an avatar at revision rev: a
// built-in one's, or the one its record keeps (resolved and checked by
// POST /avatar, and checked again by Generate). A job of a revision that
// an edit has replaced fails for good: the configuration it was for is
// gone, and the downloads ask for the new revision's files.
func (w *Worker) avatarConfig(ctx context.Context, id string, rev int) (avatar.Config, error) {
	switch id {
	case kiln.AvatarDefaultMale:
		return avatar.Default(avatar.Masculine), nil
	case kiln.AvatarDefaultFemale:
		return avatar.Default(avatar.Feminine), nil
	}
	a, err := w.Avatars.Avatar(ctx, id)
	if err != nil {
		return avatar.Config{}, err
	}
	if a.Revision != rev {
		return avatar.Config{}, jobs.Permanent(kiln.Errorf(kiln.KindConflict, "avatar_edited",
			"avatar %s was edited (revision %d, the job was for %d); download it again", id, a.Revision, rev))
	}
	var cfg avatar.Config
	if err := json.Unmarshal(a.Configuration, &cfg); err != nil {
		return cfg, kiln.E("worker.avatarConfig", kiln.KindInvalid, err)
	}
	return cfg, nil
}

// avatarModel reads the avatar's stored model, or generates and stores it
// and marks the avatar ready; a configuration that cannot be generated
// marks it failed with the reason, for good.
func (w *Worker) avatarModel(ctx context.Context, id string, rev int, cfg avatar.Config) (*scene.Scene, error) {
	const op = "worker.avatarModel"
	data, err := w.readModel(ctx, kiln.AvatarModelKey(id, rev))
	if err == nil {
		return assets.ReadContext(ctx, data)
	}
	if kiln.KindOf(err) != kiln.KindNotFound {
		return nil, kiln.E(op, err)
	}
	s, err := w.generate(ctx, id, cfg)
	if err != nil && (ctx.Err() != nil || kiln.KindOf(err) == kiln.KindUnavailable) {
		// Storage or the deadline, not the avatar: the job runs again.
		return nil, kiln.E(op, err)
	}
	var glb []byte
	if err == nil {
		glb, err = scene.Write(s)
	}
	if err != nil {
		err = kiln.Errorf(kiln.KindUnprocessable, "avatar_generation_failed", "generating avatar %s failed: %v", id, err)
		w.setAvatarState(ctx, id, rev, kiln.AvatarFailed, err.Error())
		return nil, err
	}
	if _, err := w.Blobs.Put(ctx, kiln.AvatarModelKey(id, rev), bytes.NewReader(glb), int64(len(glb)), "model/gltf-binary"); err != nil {
		return nil, kiln.E(op, err)
	}
	w.setAvatarState(ctx, id, rev, kiln.AvatarReady, "")
	return s, nil
}

// setAvatarState records how the generation of the avatar's revision rev
// ended; an edit since then has its own state, which this leaves alone. A
// built-in avatar has no record; a record that cannot be updated is only
// logged, since the model (or its failure) is what downloads look at.
func (w *Worker) setAvatarState(ctx context.Context, id string, rev int, state kiln.AvatarState, reason string) {
	if kiln.BuiltInAvatar(id) {
		return
	}
	_, err := w.Avatars.UpdateAvatar(ctx, id, func(a *kiln.Avatar) error {
		if a.Revision != rev {
			return errStale
		}
		a.State, a.Error = state, reason
		return nil
	})
	if errors.Is(err, errStale) {
		return
	}
	if err != nil {
		w.Log.Error("avatar state not recorded", "avatar_id", id, "state", state, "err", err)
	}
}

// errStale aborts the update of an avatar that an edit has moved on.
var errStale = errors.New("avatar edited since")
