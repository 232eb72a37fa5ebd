package redis

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"

	goredis "github.com/redis/go-redis/v9"

	"github.com/kilnhq/kiln"
)

// Creator apps are keyed by slug (one namespace for the whole service, as
// the slug is a URL path segment and a host label) and listed per
// account; a user's avatars are listed per user, scored by creation time.
func appRecord(slug string) string       { return prefix + "app:" + slug }
func accountApps(account string) string  { return prefix + "account:" + account + ":apps" }
func creatorUserRecord(id string) string { return prefix + "creator:user:" + id }
func userAvatars(user string) string     { return prefix + "creator:user:" + user + ":avatars" }
func creatorSecret() string              { return prefix + "creator:secret" }

// CreateApp stores a new app; a slug already taken is a conflict.
func (db *DB) CreateApp(ctx context.Context, a *kiln.App) error {
	const op = "redis.CreateApp"
	b, err := json.Marshal(a)
	if err != nil {
		return kiln.E(op, err)
	}
	ok, err := createAppScript.Run(ctx, db.rdb, []string{appRecord(a.Slug), accountApps(a.Account)}, b, a.Slug).Bool()
	if err != nil {
		return kiln.E(op, kiln.KindUnavailable, err)
	}
	if !ok {
		return kiln.Errorf(kiln.KindConflict, "slug_taken", "the slug %s is taken; choose another", a.Slug)
	}
	return nil
}

// createAppScript sets the record only when the slug is free and lists it
// under its account in the same step.
var createAppScript = goredis.NewScript(`
if redis.call("SET", KEYS[1], ARGV[1], "NX") then
  redis.call("SADD", KEYS[2], ARGV[2])
  return 1
end
return 0`)

// App returns the app with slug.
func (db *DB) App(ctx context.Context, slug string) (*kiln.App, error) {
	var a kiln.App
	if err := db.getJSON(ctx, "redis.App", appRecord(slug), &a); err != nil {
		return nil, err
	}
	return &a, nil
}

// AccountApps lists the account's apps, by slug.
func (db *DB) AccountApps(ctx context.Context, account string) ([]*kiln.App, error) {
	const op = "redis.AccountApps"
	slugs, err := db.rdb.SMembers(ctx, accountApps(account)).Result()
	if err != nil {
		return nil, kiln.E(op, kiln.KindUnavailable, err)
	}
	apps, err := mgetJSON[kiln.App](ctx, db, op, appRecord, slugs)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(apps, func(a, b *kiln.App) int { return strings.Compare(a.Slug, b.Slug) })
	return apps, nil
}

// UpdateApp applies fn to the stored app atomically.
func (db *DB) UpdateApp(ctx context.Context, slug string, fn func(*kiln.App) error) (*kiln.App, error) {
	return update(ctx, db, "redis.UpdateApp", appRecord(slug), fn)
}

// DeleteApp removes the app. Its users and avatars stay (the avatars are
// the account's); tokens of its users stop working, as they name it.
func (db *DB) DeleteApp(ctx context.Context, a *kiln.App) error {
	_, err := db.rdb.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		p.Del(ctx, appRecord(a.Slug))
		p.SRem(ctx, accountApps(a.Account), a.Slug)
		return nil
	})
	if err != nil {
		return kiln.E("redis.DeleteApp", kiln.KindUnavailable, err)
	}
	return nil
}

// CreateCreatorUser stores a new user of an app.
func (db *DB) CreateCreatorUser(ctx context.Context, u *kiln.CreatorUser) error {
	b, err := json.Marshal(u)
	if err != nil {
		return kiln.E("redis.CreateCreatorUser", err)
	}
	if err := db.rdb.Set(ctx, creatorUserRecord(u.ID), b, 0).Err(); err != nil {
		return kiln.E("redis.CreateCreatorUser", kiln.KindUnavailable, err)
	}
	return nil
}

// CreatorUser returns the user with id.
func (db *DB) CreatorUser(ctx context.Context, id string) (*kiln.CreatorUser, error) {
	var u kiln.CreatorUser
	if err := db.getJSON(ctx, "redis.CreatorUser", creatorUserRecord(id), &u); err != nil {
		return nil, err
	}
	return &u, nil
}

// UserAvatars lists the avatars a creator user made, oldest first.
func (db *DB) UserAvatars(ctx context.Context, user string) ([]*kiln.Avatar, error) {
	const op = "redis.UserAvatars"
	ids, err := db.rdb.ZRange(ctx, userAvatars(user), 0, -1).Result()
	if err != nil {
		return nil, kiln.E(op, kiln.KindUnavailable, err)
	}
	return mgetJSON[kiln.Avatar](ctx, db, op, avatarRecord, ids)
}

// CreatorSecret returns the key that signs user tokens, storing fresh
// when there is none yet, so that every API process signs with one key.
func (db *DB) CreatorSecret(ctx context.Context, fresh string) (string, error) {
	const op = "redis.CreatorSecret"
	if err := db.rdb.SetNX(ctx, creatorSecret(), fresh, 0).Err(); err != nil {
		return "", kiln.E(op, kiln.KindUnavailable, err)
	}
	s, err := db.rdb.Get(ctx, creatorSecret()).Result()
	if errors.Is(err, goredis.Nil) || s == "" {
		return "", kiln.E(op, kiln.KindInternal, errors.New("creator secret vanished"))
	}
	if err != nil {
		return "", kiln.E(op, kiln.KindUnavailable, err)
	}
	return s, nil
}
