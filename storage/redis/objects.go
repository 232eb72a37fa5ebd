package redis

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/kilnhq/kiln"
)

func objectRecord(id string) string  { return prefix + "object:" + id }
func accountObjects(a string) string { return prefix + "account:" + a + ":objects" }
func uploadSecret() string           { return prefix + "upload-secret" }

// CreateObject stores a new object record.
func (db *DB) CreateObject(ctx context.Context, o *kiln.Object) error {
	const op = "redis.CreateObject"
	b, err := json.Marshal(o)
	if err != nil {
		return kiln.E(op, err)
	}
	_, err = db.rdb.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		p.Set(ctx, objectRecord(o.ID), b, 0)
		p.ZAdd(ctx, accountObjects(o.Account), goredis.Z{Score: float64(o.CreatedAt.UnixMilli()), Member: o.ID})
		if o.State == kiln.StateUploading {
			pending(ctx, p, o)
		}
		return nil
	})
	if err != nil {
		return kiln.E(op, kiln.KindUnavailable, err)
	}
	return nil
}

// Object returns the object with id, whatever its account: callers that
// answer a client check the account themselves.
func (db *DB) Object(ctx context.Context, id string) (*kiln.Object, error) {
	var o kiln.Object
	if err := db.getJSON(ctx, "redis.Object", objectRecord(id), &o); err != nil {
		return nil, err
	}
	return &o, nil
}

// UpdateObject applies fn to the stored object atomically and returns the
// result. fn's error aborts the update and is returned as is.
func (db *DB) UpdateObject(ctx context.Context, id string, fn func(*kiln.Object) error) (*kiln.Object, error) {
	return update(ctx, db, "redis.UpdateObject", objectRecord(id), func(o *kiln.Object) error {
		if err := fn(o); err != nil {
			return err
		}
		o.UpdatedAt = time.Now().UTC()
		return nil
	})
}

// UploadSecret returns the secret that signs local upload URLs, made once
// and shared by every API process of the deployment.
func (db *DB) UploadSecret(ctx context.Context, fresh string) (string, error) {
	const op = "redis.UploadSecret"
	if err := db.rdb.SetNX(ctx, uploadSecret(), fresh, 0).Err(); err != nil {
		return "", kiln.E(op, kiln.KindUnavailable, err)
	}
	s, err := db.rdb.Get(ctx, uploadSecret()).Result()
	if errors.Is(err, goredis.Nil) || s == "" {
		return "", kiln.E(op, kiln.KindInternal, errors.New("upload secret vanished"))
	}
	if err != nil {
		return "", kiln.E(op, kiln.KindUnavailable, err)
	}
	return s, nil
}
