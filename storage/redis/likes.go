package redis

import (
	"context"

	goredis "github.com/redis/go-redis/v9"

	"github.com/kilnhq/kiln"
)

// objectLikes is the set of accounts that like an object: a set makes a
// like idempotent per account, and its size is the count.
func objectLikes(id string) string { return prefix + "object:" + id + ":likes" }

// SetLike adds account's like of object id, or removes it when like is
// false, and returns the number of likes after the change.
func (db *DB) SetLike(ctx context.Context, id, account string, like bool) (int64, error) {
	const op = "redis.SetLike"
	var n *goredis.IntCmd
	_, err := db.rdb.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		if like {
			p.SAdd(ctx, objectLikes(id), account)
		} else {
			p.SRem(ctx, objectLikes(id), account)
		}
		n = p.SCard(ctx, objectLikes(id))
		return nil
	})
	if err != nil {
		return 0, kiln.E(op, kiln.KindUnavailable, err)
	}
	return n.Val(), nil
}

// Likes returns the number of likes of object id and whether account is
// one of them.
func (db *DB) Likes(ctx context.Context, id, account string) (count int64, mine bool, err error) {
	const op = "redis.Likes"
	var n *goredis.IntCmd
	var is *goredis.BoolCmd
	_, err = db.rdb.Pipelined(ctx, func(p goredis.Pipeliner) error {
		n = p.SCard(ctx, objectLikes(id))
		is = p.SIsMember(ctx, objectLikes(id), account)
		return nil
	})
	if err != nil {
		return 0, false, kiln.E(op, kiln.KindUnavailable, err)
	}
	return n.Val(), is.Val(), nil
}

// viewerBatch bounds one MGET of viewer records.
const viewerBatch = 500

// ObjectViewers returns the product viewers of account that show object
// id, oldest first. Viewers show their own account's objects, so the
// account's list is all there is to read; it is read in batches, which
// suits the few hundred viewers an account has.
func (db *DB) ObjectViewers(ctx context.Context, account, id string) ([]*kiln.Viewer, error) {
	const op = "redis.ObjectViewers"
	tokens, err := db.rdb.ZRange(ctx, accountViewers(account), 0, -1).Result()
	if err != nil {
		return nil, kiln.E(op, kiln.KindUnavailable, err)
	}
	var out []*kiln.Viewer
	for len(tokens) > 0 {
		batch := tokens[:min(viewerBatch, len(tokens))]
		tokens = tokens[len(batch):]
		viewers, err := mgetJSON[kiln.Viewer](ctx, db, op, viewerRecord, batch)
		if err != nil {
			return nil, err
		}
		for _, vw := range viewers {
			if vw.Kind == kiln.ViewerProduct && vw.ObjectID == id {
				out = append(out, vw)
			}
		}
	}
	return out, nil
}
