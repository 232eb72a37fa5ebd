package redis

import (
	"context"
	"encoding/json"
	"errors"

	goredis "github.com/redis/go-redis/v9"

	"github.com/kilnhq/kiln"
)

func viewerRecord(token string) string { return prefix + "viewer:" + token }
func accountViewers(a string) string   { return prefix + "account:" + a + ":viewers" }
func publicViewers(kind string) string { return prefix + "viewers:public:" + kind }

// createSpaceViewerScript stores a space viewer and counts it as a use of
// its space in one step, so the space cannot be deleted in between.
// KEYS: space, viewer, account's viewers, public viewers of the kind, the
// space's viewer count. ARGV: viewer JSON, score, token, "1" when public.
var createSpaceViewerScript = goredis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('SET', KEYS[2], ARGV[1])
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[3])
if ARGV[4] == '1' then redis.call('ZADD', KEYS[4], ARGV[2], ARGV[3]) end
redis.call('INCR', KEYS[5])
return 1`)

// deleteViewerScript deletes a viewer with its annotations and
// space-objects, and releases its space once: of two concurrent deletions
// only the one that removed the record counts down.
// KEYS: viewer, account's viewers, public viewers, annotations, objects,
// the space's viewer count (the viewer again for a product viewer).
var deleteViewerScript = goredis.NewScript(`
if redis.call('DEL', KEYS[1]) == 0 then return 0 end
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
redis.call('DEL', KEYS[4], KEYS[5])
if KEYS[6] ~= KEYS[1] and redis.call('DECR', KEYS[6]) <= 0 then redis.call('DEL', KEYS[6]) end
return 1`)

// CreateViewer stores a new viewer and, when public, lists it by kind in
// creation order. A space viewer's space must exist: when it does not (or
// was deleted meanwhile) it answers not found and stores nothing.
func (db *DB) CreateViewer(ctx context.Context, v *kiln.Viewer) error {
	const op = "redis.CreateViewer"
	b, err := json.Marshal(v)
	if err != nil {
		return kiln.E(op, err)
	}
	score := createdScore(v.CreatedAt)
	if v.Kind == kiln.ViewerSpace {
		public := "0"
		if v.Public {
			public = "1"
		}
		n, err := createSpaceViewerScript.Run(ctx, db.rdb, []string{spaceRecord(v.SpaceID), viewerRecord(v.Token),
			accountViewers(v.Account), publicViewers(v.Kind), spaceViewers(v.SpaceID)}, b, score, v.Token, public).Int()
		if err != nil {
			return kiln.E(op, kiln.KindUnavailable, err)
		}
		if n == 0 {
			return kiln.E(op, kiln.KindNotFound, errors.New("the space was deleted"))
		}
		return nil
	}
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

// DeleteViewer deletes a viewer, its annotations and its space-objects;
// a space viewer no longer holds its space. Analytics kept under the
// token stay until they expire.
func (db *DB) DeleteViewer(ctx context.Context, v *kiln.Viewer) error {
	const op = "redis.DeleteViewer"
	count := viewerRecord(v.Token)
	if v.Kind == kiln.ViewerSpace {
		count = spaceViewers(v.SpaceID)
	}
	n, err := deleteViewerScript.Run(ctx, db.rdb, []string{viewerRecord(v.Token), accountViewers(v.Account),
		publicViewers(v.Kind), viewerAnnotations(v.Token), viewerObjects(v.Token), count}, v.Token).Int()
	if err != nil {
		return kiln.E(op, kiln.KindUnavailable, err)
	}
	if n == 0 {
		return kiln.E(op, kiln.KindNotFound, errors.New("no such viewer"))
	}
	return nil
}

// PublicViewers returns a page of the public viewers of kind, newest
// first: count of them after skipping offset.
func (db *DB) PublicViewers(ctx context.Context, kind string, offset, count int64) ([]*kiln.Viewer, error) {
	return db.viewerPage(ctx, "redis.PublicViewers", publicViewers(kind), offset, count)
}

// AccountViewers returns a page of account's viewers, newest first.
func (db *DB) AccountViewers(ctx context.Context, account string, offset, count int64) ([]*kiln.Viewer, error) {
	return db.viewerPage(ctx, "redis.AccountViewers", accountViewers(account), offset, count)
}

func (db *DB) viewerPage(ctx context.Context, op, index string, offset, count int64) ([]*kiln.Viewer, error) {
	tokens, err := db.rdb.ZRevRange(ctx, index, offset, offset+count-1).Result()
	if err != nil {
		return nil, kiln.E(op, kiln.KindUnavailable, err)
	}
	return mgetJSON[kiln.Viewer](ctx, db, op, viewerRecord, tokens)
}
