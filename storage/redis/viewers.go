package redis

import (
	"context"
	"encoding/json"

	goredis "github.com/redis/go-redis/v9"

	"github.com/kilnhq/kiln"
)

func viewerRecord(token string) string { return prefix + "viewer:" + token }
func accountViewers(a string) string   { return prefix + "account:" + a + ":viewers" }
func publicViewers(kind string) string { return prefix + "viewers:public:" + kind }

// CreateViewer stores a new viewer and, when public, lists it by kind in
// creation order.
func (db *DB) CreateViewer(ctx context.Context, v *kiln.Viewer) error {
	const op = "redis.CreateViewer"
	b, err := json.Marshal(v)
	if err != nil {
		return kiln.E(op, err)
	}
	score := float64(v.CreatedAt.UnixMilli())
	_, err = db.rdb.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		p.Set(ctx, viewerRecord(v.Token), b, 0)
		p.ZAdd(ctx, accountViewers(v.Account), goredis.Z{Score: score, Member: v.Token})
		if v.Public {
			p.ZAdd(ctx, publicViewers(v.Kind), goredis.Z{Score: score, Member: v.Token})
		}
		return nil
	})
	if err != nil {
		return kiln.E(op, kiln.KindUnavailable, err)
	}
	return nil
}

// Viewer returns the viewer with token, whatever its account.
func (db *DB) Viewer(ctx context.Context, token string) (*kiln.Viewer, error) {
	var v kiln.Viewer
	if err := db.getJSON(ctx, "redis.Viewer", viewerRecord(token), &v); err != nil {
		return nil, err
	}
	return &v, nil
}
