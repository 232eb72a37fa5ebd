package redis

import (
	"context"
	"encoding/json"

	goredis "github.com/redis/go-redis/v9"

	"github.com/kilnhq/kiln"
)

func renderingRecord(id string) string    { return prefix + "rendering:" + id }
func viewerRenderings(t string) string    { return prefix + "viewer:" + t + ":renderings" }
func setupRecord(id string) string        { return prefix + "render-setup:" + id }
func accountSetups(account string) string { return prefix + "account:" + account + ":render-setups" }

// CreateRendering stores a new rendering and lists it under its viewer.
func (db *DB) CreateRendering(ctx context.Context, r *kiln.Rendering) error {
	const op = "redis.CreateRendering"
	b, err := json.Marshal(storedRendering{r, r.Account, r.SetupKey})
	if err != nil {
		return kiln.E(op, err)
	}
	_, err = db.rdb.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		p.Set(ctx, renderingRecord(r.ID), b, 0)
		p.ZAdd(ctx, viewerRenderings(r.ViewerToken), goredis.Z{Score: createdScore(r.CreatedAt), Member: r.ID})
		return nil
	})
	if err != nil {
		return kiln.E(op, kiln.KindUnavailable, err)
	}
	return nil
}

// storedRendering keeps the fields the API does not show (json:"-").
type storedRendering struct {
	*kiln.Rendering
	Account  string `json:"account"`
	SetupKey string `json:"setupKey"`
}

func (s *storedRendering) rendering() *kiln.Rendering {
	s.Rendering.Account, s.Rendering.SetupKey = s.Account, s.SetupKey
	return s.Rendering
}

// Rendering returns the rendering with id.
func (db *DB) Rendering(ctx context.Context, id string) (*kiln.Rendering, error) {
	s := storedRendering{Rendering: new(kiln.Rendering)}
	if err := db.getJSON(ctx, "redis.Rendering", renderingRecord(id), &s); err != nil {
		return nil, err
	}
	return s.rendering(), nil
}

// UpdateRendering changes a rendering in a transaction (a worker's state
// changes race with nothing else, but a retried job may overlap).
func (db *DB) UpdateRendering(ctx context.Context, id string, fn func(*kiln.Rendering) error) (*kiln.Rendering, error) {
	s, err := update(ctx, db, "redis.UpdateRendering", renderingRecord(id), func(s *storedRendering) error {
		if s.Rendering == nil {
			s.Rendering = new(kiln.Rendering)
		}
		return fn(s.rendering())
	})
	if err != nil {
		return nil, err
	}
	return s.rendering(), nil
}

// ViewerRenderings returns a viewer's renderings, newest first.
func (db *DB) ViewerRenderings(ctx context.Context, token string) ([]*kiln.Rendering, error) {
	const op = "redis.ViewerRenderings"
	ids, err := db.rdb.ZRevRange(ctx, viewerRenderings(token), 0, -1).Result()
	if err != nil {
		return nil, kiln.E(op, kiln.KindUnavailable, err)
	}
	stored, err := mgetJSON[storedRendering](ctx, db, op, renderingRecord, ids)
	if err != nil {
		return nil, err
	}
	out := make([]*kiln.Rendering, 0, len(stored))
	for _, s := range stored {
		if s.Rendering != nil {
			out = append(out, s.rendering())
		}
	}
	return out, nil
}

// storedSetup keeps the account, which the API does not show.
type storedSetup struct {
	*kiln.RenderSetup
	Account string `json:"account"`
}

// CreateSetup stores an uploaded render setup of an account.
func (db *DB) CreateSetup(ctx context.Context, s *kiln.RenderSetup) error {
	const op = "redis.CreateSetup"
	b, err := json.Marshal(storedSetup{s, s.Account})
	if err != nil {
		return kiln.E(op, err)
	}
	_, err = db.rdb.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		p.Set(ctx, setupRecord(s.ID), b, 0)
		p.ZAdd(ctx, accountSetups(s.Account), goredis.Z{Score: createdScore(s.CreatedAt), Member: s.ID})
		return nil
	})
	if err != nil {
		return kiln.E(op, kiln.KindUnavailable, err)
	}
	return nil
}

// Setup returns the uploaded setup with id, whatever its account.
func (db *DB) Setup(ctx context.Context, id string) (*kiln.RenderSetup, error) {
	s := storedSetup{RenderSetup: new(kiln.RenderSetup)}
	if err := db.getJSON(ctx, "redis.Setup", setupRecord(id), &s); err != nil {
		return nil, err
	}
	s.RenderSetup.Account = s.Account
	return s.RenderSetup, nil
}

// AccountSetups returns an account's uploaded setups, oldest first.
func (db *DB) AccountSetups(ctx context.Context, account string) ([]*kiln.RenderSetup, error) {
	const op = "redis.AccountSetups"
	ids, err := db.rdb.ZRange(ctx, accountSetups(account), 0, -1).Result()
	if err != nil {
		return nil, kiln.E(op, kiln.KindUnavailable, err)
	}
	stored, err := mgetJSON[storedSetup](ctx, db, op, setupRecord, ids)
	if err != nil {
		return nil, err
	}
	out := make([]*kiln.RenderSetup, 0, len(stored))
	for _, s := range stored {
		if s.RenderSetup != nil {
			s.RenderSetup.Account = s.Account
			out = append(out, s.RenderSetup)
		}
	}
	return out, nil
}
