package worker

import (
	"context"
	"sync"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets"
	"github.com/kilnhq/kiln/assets/avatar"
	"github.com/kilnhq/kiln/assets/avatar/leaderimport"
	"github.com/kilnhq/kiln/assets/scene"
)

// generate builds an avatar's lod 0 scene: from its configuration, or,
// for an imported avatar, from the file it was imported from, with
// Kiln's face shapes carried onto a face that has none.
func (w *Worker) generate(ctx context.Context, id string, cfg avatar.Config) (*scene.Scene, error) {
	if kiln.BuiltInAvatar(id) {
		return avatar.Generate(cfg)
	}
	a, err := w.Avatars.Avatar(ctx, id)
	if err != nil {
		return nil, err
	}
	if !a.Imported {
		return avatar.Generate(cfg)
	}
	data, err := w.readModel(ctx, kiln.AvatarImportKey(id))
	if err != nil {
		return nil, err
	}
	s, err := assets.ReadContext(ctx, data)
	if err != nil {
		return nil, err
	}
	if err := leaderimport.Check(s); err != nil {
		return nil, err
	}
	if leaderimport.NeedsFace(s) {
		src, err := kilnFace(cfg.Body.Type)
		if err != nil {
			return nil, err
		}
		if err := leaderimport.Transfer(ctx, s, src); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// kilnFace is the default avatar of a body type, the face every import
// of that type takes its shapes from: generated once per process (about
// a second), then only read.
func kilnFace(gender string) (*scene.Scene, error) {
	f, _ := kilnFaces.LoadOrStore(gender, sync.OnceValues(func() (*scene.Scene, error) {
		return avatar.Generate(avatar.Default(gender))
	}))
	return f.(func() (*scene.Scene, error))()
}

var kilnFaces sync.Map
