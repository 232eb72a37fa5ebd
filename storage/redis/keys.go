package redis

import (
	"context"
	"encoding/json"
	"errors"
	"sort"

	goredis "github.com/redis/go-redis/v9"

	"github.com/kilnhq/kiln"
)

func keyRecord(id string) string    { return prefix + "apikey:" + id }
func keyByHash(hash string) string  { return prefix + "apikey-hash:" + hash }
func keyHash(id string) string      { return prefix + "apikey:" + id + ":hash" }
func accountRecord(a string) string { return prefix + "account:" + a }
func accountKeys(a string) string   { return prefix + "account:" + a + ":keys" }
func allKeys() string               { return prefix + "apikeys" }

// CreateKey stores k under the hash of its secret. The account is created
// when new.
func (db *DB) CreateKey(ctx context.Context, k *kiln.APIKey, secretHash string) error {
	const op = "redis.CreateKey"
	b, err := json.Marshal(k)
	if err != nil {
		return kiln.E(op, err)
	}
	_, err = db.rdb.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		p.Set(ctx, keyRecord(k.ID), b, 0)
		p.Set(ctx, keyByHash(secretHash), k.ID, 0)
		p.Set(ctx, keyHash(k.ID), secretHash, 0)
		p.HSetNX(ctx, accountRecord(k.Account), "createdAt", k.CreatedAt.UTC().Format("2006-01-02T15:04:05Z"))
		p.SAdd(ctx, accountKeys(k.Account), k.ID)
		p.SAdd(ctx, allKeys(), k.ID)
		return nil
	})
	if err != nil {
		return kiln.E(op, kiln.KindUnavailable, err)
	}
	return nil
}

// KeyBySecretHash finds the key whose secret hashes to hash.
func (db *DB) KeyBySecretHash(ctx context.Context, hash string) (*kiln.APIKey, error) {
	const op = "redis.KeyBySecretHash"
	id, err := db.rdb.Get(ctx, keyByHash(hash)).Result()
	if errors.Is(err, goredis.Nil) {
		return nil, kiln.E(op, kiln.KindNotFound, err)
	}
	if err != nil {
		return nil, kiln.E(op, kiln.KindUnavailable, err)
	}
	return db.Key(ctx, id)
}

// Key returns the key with id.
func (db *DB) Key(ctx context.Context, id string) (*kiln.APIKey, error) {
	var k kiln.APIKey
	if err := db.getJSON(ctx, "redis.Key", keyRecord(id), &k); err != nil {
		return nil, err
	}
	return &k, nil
}

// ListKeys returns every key, oldest first.
func (db *DB) ListKeys(ctx context.Context) ([]*kiln.APIKey, error) {
	const op = "redis.ListKeys"
	ids, err := db.rdb.SMembers(ctx, allKeys()).Result()
	if err != nil {
		return nil, kiln.E(op, kiln.KindUnavailable, err)
	}
	keys := make([]*kiln.APIKey, 0, len(ids))
	for _, id := range ids {
		k, err := db.Key(ctx, id)
		if kiln.KindOf(err) == kiln.KindNotFound {
			continue
		}
		if err != nil {
			return nil, kiln.E(op, err)
		}
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if !keys[i].CreatedAt.Equal(keys[j].CreatedAt) {
			return keys[i].CreatedAt.Before(keys[j].CreatedAt)
		}
		return keys[i].ID < keys[j].ID
	})
	return keys, nil
}

// RevokeKey deletes the key with id, so its secret no longer authenticates.
func (db *DB) RevokeKey(ctx context.Context, id string) error {
	const op = "redis.RevokeKey"
	k, err := db.Key(ctx, id)
	if err != nil {
		return kiln.E(op, err)
	}
	hash, err := db.rdb.Get(ctx, keyHash(id)).Result()
	if err != nil && !errors.Is(err, goredis.Nil) {
		return kiln.E(op, kiln.KindUnavailable, err)
	}
	_, err = db.rdb.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		p.Del(ctx, keyRecord(id))
		p.Del(ctx, keyHash(id))
		if hash != "" {
			p.Del(ctx, keyByHash(hash))
		}
		p.SRem(ctx, accountKeys(k.Account), id)
		p.SRem(ctx, allKeys(), id)
		return nil
	})
	if err != nil {
		return kiln.E(op, kiln.KindUnavailable, err)
	}
	return nil
}
