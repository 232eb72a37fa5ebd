package redis

import (
	"context"
	"errors"

	goredis "github.com/redis/go-redis/v9"

	"github.com/kilnhq/kiln"
)

func adminKey() string { return prefix + "admin-key" }

// SharedAdminKey returns the admin key every api process of a deployment
// shares when KILN_ADMIN_KEY is unset: the first process to ask stores
// fresh (created is then true, so that it alone shows the key once), and
// every later one reads it. Without this, each api process minted its own
// key and refused the others'.
func (db *DB) SharedAdminKey(ctx context.Context, fresh string) (key string, created bool, err error) {
	const op = "redis.SharedAdminKey"
	created, err = db.rdb.SetNX(ctx, adminKey(), fresh, 0).Result()
	if err != nil {
		return "", false, kiln.E(op, kiln.KindUnavailable, err)
	}
	if created {
		return fresh, true, nil
	}
	key, err = db.rdb.Get(ctx, adminKey()).Result()
	if errors.Is(err, goredis.Nil) || (err == nil && key == "") {
		return "", false, kiln.E(op, kiln.KindInternal, errors.New("shared admin key vanished"))
	}
	if err != nil {
		return "", false, kiln.E(op, kiln.KindUnavailable, err)
	}
	return key, false, nil
}
