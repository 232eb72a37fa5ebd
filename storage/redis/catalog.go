package redis

import (
	"context"
	"encoding/json"
	"errors"

	goredis "github.com/redis/go-redis/v9"

	"github.com/kilnhq/kiln"
)

// accountCatalog holds an account's custom catalog as one JSON array: it
// is read whole, and a replacement must be atomic.
func accountCatalog(a string) string { return prefix + "account:" + a + ":catalog" }

// Catalog returns the account's catalog; an account without one has an
// empty catalog.
func (db *DB) Catalog(ctx context.Context, account string) ([]kiln.CatalogEntry, error) {
	entries := []kiln.CatalogEntry{}
	err := db.getJSON(ctx, "redis.Catalog", accountCatalog(account), &entries)
	if kiln.KindOf(err) == kiln.KindNotFound {
		return []kiln.CatalogEntry{}, nil
	}
	return entries, err
}

// UpdateCatalog replaces the account's catalog with what fn makes of the
// current one, in a WATCH transaction so that two concurrent additions
// both land. fn's error aborts the update and is returned as is.
func (db *DB) UpdateCatalog(ctx context.Context, account string, fn func([]kiln.CatalogEntry) ([]kiln.CatalogEntry, error)) ([]kiln.CatalogEntry, error) {
	const op = "redis.UpdateCatalog"
	key := accountCatalog(account)
	var out []kiln.CatalogEntry
	txf := func(tx *goredis.Tx) error {
		cur := []kiln.CatalogEntry{}
		b, err := tx.Get(ctx, key).Bytes()
		switch {
		case errors.Is(err, goredis.Nil):
		case err != nil:
			return kiln.E(op, kiln.KindUnavailable, err)
		default:
			if err := json.Unmarshal(b, &cur); err != nil {
				return kiln.E(op, err)
			}
		}
		next, err := fn(cur)
		if err != nil {
			return err
		}
		if next == nil {
			next = []kiln.CatalogEntry{}
		}
		nb, err := json.Marshal(next)
		if err != nil {
			return kiln.E(op, err)
		}
		_, err = tx.TxPipelined(ctx, func(p goredis.Pipeliner) error {
			p.Set(ctx, key, nb, 0)
			return nil
		})
		out = next
		return err
	}
	if err := db.watch(ctx, op, txf, key); err != nil {
		return nil, err
	}
	return out, nil
}

// Objects returns the objects with ids in one round trip, nil where an id
// has no object.
func (db *DB) Objects(ctx context.Context, ids []string) ([]*kiln.Object, error) {
	const op = "redis.Objects"
	out := make([]*kiln.Object, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	keys := make([]string, len(ids))
	for i, id := range ids {
		keys[i] = objectRecord(id)
	}
	vals, err := db.rdb.MGet(ctx, keys...).Result()
	if err != nil {
		return nil, kiln.E(op, kiln.KindUnavailable, err)
	}
	for i, v := range vals {
		s, ok := v.(string)
		if !ok {
			continue
		}
		var o kiln.Object
		if err := json.Unmarshal([]byte(s), &o); err != nil {
			return nil, kiln.E(op, err)
		}
		out[i] = &o
	}
	return out, nil
}
