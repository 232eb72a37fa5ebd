package redis

import (
	"context"
	"encoding/json"
	"strconv"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/kilnhq/kiln"
)

// Objects still uploading are listed twice, scored by creation time: per
// account (for the limit on pending uploads) and for the whole service
// (for the sweep that expires them). Both lists are cleaned lazily: an
// entry whose object has left uploading goes the next time it is read.
func pendingAll() string                   { return prefix + "uploading" }
func accountPending(account string) string { return prefix + "account:" + account + ":uploading" }

// pending lists o as uploading, inside CreateObject's transaction.
func pending(ctx context.Context, p goredis.Pipeliner, o *kiln.Object) {
	z := goredis.Z{Score: float64(o.CreatedAt.UnixMilli()), Member: o.ID}
	p.ZAdd(ctx, accountPending(o.Account), z)
	p.ZAdd(ctx, pendingAll(), z)
}

// PendingUploads counts the account's objects still uploading that were
// prepared after since (whose upload URL is still valid), dropping from
// its list those that are not any more.
func (db *DB) PendingUploads(ctx context.Context, account string, since time.Time) (int, error) {
	const op = "redis.PendingUploads"
	key := accountPending(account)
	cutoff := strconv.FormatInt(since.UnixMilli(), 10)
	if err := db.rdb.ZRemRangeByScore(ctx, key, "-inf", "("+cutoff).Err(); err != nil {
		return 0, kiln.E(op, kiln.KindUnavailable, err)
	}
	ids, err := db.rdb.ZRange(ctx, key, 0, -1).Result()
	if err != nil {
		return 0, kiln.E(op, kiln.KindUnavailable, err)
	}
	if len(ids) == 0 {
		return 0, nil
	}
	keys := make([]string, len(ids))
	for i, id := range ids {
		keys[i] = objectRecord(id)
	}
	vals, err := db.rdb.MGet(ctx, keys...).Result()
	if err != nil {
		return 0, kiln.E(op, kiln.KindUnavailable, err)
	}
	n := 0
	var gone []any
	for i, v := range vals {
		var o kiln.Object
		if s, ok := v.(string); ok && json.Unmarshal([]byte(s), &o) == nil && o.State == kiln.StateUploading {
			n++
			continue
		}
		gone = append(gone, ids[i])
	}
	if len(gone) > 0 {
		if err := db.rdb.ZRem(ctx, key, gone...).Err(); err != nil {
			return 0, kiln.E(op, kiln.KindUnavailable, err)
		}
	}
	return n, nil
}

// StaleUploads returns up to limit ids of objects listed as uploading
// that were created before before; the caller expires those still
// uploading and calls ForgetUpload for each.
func (db *DB) StaleUploads(ctx context.Context, before time.Time, limit int) ([]string, error) {
	ids, err := db.rdb.ZRangeByScore(ctx, pendingAll(), &goredis.ZRangeBy{
		Min: "-inf", Max: "(" + strconv.FormatInt(before.UnixMilli(), 10), Count: int64(limit),
	}).Result()
	if err != nil {
		return nil, kiln.E("redis.StaleUploads", kiln.KindUnavailable, err)
	}
	return ids, nil
}

// ForgetUpload takes the object off both lists of uploads.
func (db *DB) ForgetUpload(ctx context.Context, account, id string) error {
	_, err := db.rdb.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		p.ZRem(ctx, pendingAll(), id)
		p.ZRem(ctx, accountPending(account), id)
		return nil
	})
	if err != nil {
		return kiln.E("redis.ForgetUpload", kiln.KindUnavailable, err)
	}
	return nil
}
