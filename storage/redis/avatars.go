package redis

import (
	"context"
	"encoding/json"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/kilnhq/kiln"
)

func avatarRecord(id string) string  { return prefix + "avatar:" + id }
func accountAvatars(a string) string { return prefix + "account:" + a + ":avatars" }

// CreateAvatar stores a new avatar record and lists it under its account
// and, when a creator user made it, under the user.
func (db *DB) CreateAvatar(ctx context.Context, a *kiln.Avatar) error {
	const op = "redis.CreateAvatar"
	b, err := json.Marshal(a)
	if err != nil {
		return kiln.E(op, err)
	}
	_, err = db.rdb.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		p.Set(ctx, avatarRecord(a.ID), b, 0)
		p.ZAdd(ctx, accountAvatars(a.Account), goredis.Z{Score: createdScore(a.CreatedAt), Member: a.ID})
		if a.User != "" {
			p.ZAdd(ctx, userAvatars(a.User), goredis.Z{Score: createdScore(a.CreatedAt), Member: a.ID})
		}
		return nil
	})
	if err != nil {
		return kiln.E(op, kiln.KindUnavailable, err)
	}
	return nil
}

// DeleteAvatar removes a new avatar record that its account's full job
// backlog refused (POST /avatar's 429), so that nothing stays of it.
func (db *DB) DeleteAvatar(ctx context.Context, a *kiln.Avatar) error {
	_, err := db.rdb.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		p.Del(ctx, avatarRecord(a.ID))
		p.ZRem(ctx, accountAvatars(a.Account), a.ID)
		return nil
	})
	if err != nil {
		return kiln.E("redis.DeleteAvatar", kiln.KindUnavailable, err)
	}
	return nil
}

// Avatar returns the avatar with id. Model downloads are public, so no
// account is checked.
func (db *DB) Avatar(ctx context.Context, id string) (*kiln.Avatar, error) {
	var a kiln.Avatar
	if err := db.getJSON(ctx, "redis.Avatar", avatarRecord(id), &a); err != nil {
		return nil, err
	}
	return &a, nil
}

// UpdateAvatar applies fn to the stored avatar atomically and returns the
// result. fn's error aborts the update and is returned as is.
func (db *DB) UpdateAvatar(ctx context.Context, id string, fn func(*kiln.Avatar) error) (*kiln.Avatar, error) {
	return update(ctx, db, "redis.UpdateAvatar", avatarRecord(id), func(a *kiln.Avatar) error {
		if err := fn(a); err != nil {
			return err
		}
		a.UpdatedAt = time.Now().UTC()
		return nil
	})
}
