package redis

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/kilnhq/kiln"
)

// A viewer's annotations are a list (creation order is the order shown);
// its space-objects a hash by id, as each one moves on its own.
func viewerAnnotations(token string) string { return prefix + "viewer:" + token + ":annotations" }
func viewerObjects(token string) string     { return prefix + "viewer:" + token + ":objects" }

var (
	// addToViewerScript adds an item to a viewer's list or hash unless the
	// viewer was deleted (-1) or holds the maximum already (-2), checked
	// and written in one step so concurrent adds cannot pass the limit.
	// KEYS: viewer, list or hash. ARGV: JSON, maximum, hash field (none
	// for a list).
	addToViewerScript = goredis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if ARGV[3] then
  if redis.call('HLEN', KEYS[2]) >= tonumber(ARGV[2]) then return -2 end
  redis.call('HSET', KEYS[2], ARGV[3], ARGV[1])
  return 1
end
if redis.call('LLEN', KEYS[2]) >= tonumber(ARGV[2]) then return -2 end
redis.call('RPUSH', KEYS[2], ARGV[1])
return 1`)
)

func (db *DB) addToViewer(ctx context.Context, op, token, key, what string, limit int, v any, field ...any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return kiln.E(op, err)
	}
	n, err := addToViewerScript.Run(ctx, db.rdb, []string{viewerRecord(token), key}, append([]any{b, limit}, field...)...).Int()
	switch {
	case err != nil:
		return kiln.E(op, kiln.KindUnavailable, err)
	case n == -1:
		return kiln.E(op, kiln.KindNotFound, errors.New("the viewer was deleted"))
	case n == -2:
		return kiln.Errorf(kiln.KindConflict, "too_many_"+what, "viewer %s holds the maximum of %d %s", token, limit, what)
	}
	return nil
}

// AddAnnotation appends an annotation to its viewer.
func (db *DB) AddAnnotation(ctx context.Context, a *kiln.Annotation) error {
	return db.addToViewer(ctx, "redis.AddAnnotation", a.ViewerToken, viewerAnnotations(a.ViewerToken), "annotations", kiln.MaxAnnotations, a)
}

// Annotations lists a viewer's annotations in creation order.
func (db *DB) Annotations(ctx context.Context, token string) ([]*kiln.Annotation, error) {
	const op = "redis.Annotations"
	vals, err := db.rdb.LRange(ctx, viewerAnnotations(token), 0, -1).Result()
	if err != nil {
		return nil, kiln.E(op, kiln.KindUnavailable, err)
	}
	out := make([]*kiln.Annotation, 0, len(vals))
	for _, s := range vals {
		a := new(kiln.Annotation)
		if err := json.Unmarshal([]byte(s), a); err != nil {
			return nil, kiln.E(op, err)
		}
		out = append(out, a)
	}
	return out, nil
}

// AddSpaceObject places a space-object in its viewer.
func (db *DB) AddSpaceObject(ctx context.Context, o *kiln.SpaceObject) error {
	return db.addToViewer(ctx, "redis.AddSpaceObject", o.ViewerToken, viewerObjects(o.ViewerToken), "space_objects", kiln.MaxSpaceObjects, o, o.ID)
}

// SpaceObjects lists a viewer's space-objects in creation order.
func (db *DB) SpaceObjects(ctx context.Context, token string) ([]*kiln.SpaceObject, error) {
	const op = "redis.SpaceObjects"
	m, err := db.rdb.HGetAll(ctx, viewerObjects(token)).Result()
	if err != nil {
		return nil, kiln.E(op, kiln.KindUnavailable, err)
	}
	return decodeSpaceObjects(op, m)
}

func decodeSpaceObjects(op string, m map[string]string) ([]*kiln.SpaceObject, error) {
	out := make([]*kiln.SpaceObject, 0, len(m))
	for _, s := range m {
		o := new(kiln.SpaceObject)
		if err := json.Unmarshal([]byte(s), o); err != nil {
			return nil, kiln.E(op, err)
		}
		out = append(out, o)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].CreatedAt.Equal(out[j].CreatedAt) {
			return out[i].CreatedAt.Before(out[j].CreatedAt)
		}
		return out[i].ID < out[j].ID
	})
	return out, nil
}

// UpdateSpaceObject applies fn to a stored space-object atomically: a
// concurrent move or reset is retried, never lost.
func (db *DB) UpdateSpaceObject(ctx context.Context, token, id string, fn func(*kiln.SpaceObject) error) (*kiln.SpaceObject, error) {
	const op = "redis.UpdateSpaceObject"
	key := viewerObjects(token)
	var out *kiln.SpaceObject
	err := db.watch(ctx, op, func(tx *goredis.Tx) error {
		s, err := tx.HGet(ctx, key, id).Result()
		if errors.Is(err, goredis.Nil) {
			return kiln.E(op, kiln.KindNotFound, err)
		}
		if err != nil {
			return kiln.E(op, kiln.KindUnavailable, err)
		}
		o := new(kiln.SpaceObject)
		if err := json.Unmarshal([]byte(s), o); err != nil {
			return kiln.E(op, err)
		}
		if err := fn(o); err != nil {
			return err
		}
		o.UpdatedAt = time.Now().UTC()
		b, err := json.Marshal(o)
		if err != nil {
			return kiln.E(op, err)
		}
		_, err = tx.TxPipelined(ctx, func(p goredis.Pipeliner) error {
			p.HSet(ctx, key, id, b)
			return nil
		})
		out = o
		return err
	}, key)
	return out, err
}

// ResetSpaceObjects removes every sticky note of a viewer and puts every
// movable object back at its initial pose, in one transaction, and
// reports how many of each.
func (db *DB) ResetSpaceObjects(ctx context.Context, token string) (removed, reset int, err error) {
	const op = "redis.ResetSpaceObjects"
	key := viewerObjects(token)
	err = db.watch(ctx, op, func(tx *goredis.Tx) error {
		m, err := tx.HGetAll(ctx, key).Result()
		if err != nil {
			return kiln.E(op, kiln.KindUnavailable, err)
		}
		objs, err := decodeSpaceObjects(op, m)
		if err != nil {
			return err
		}
		removed, reset = 0, 0
		now := time.Now().UTC()
		_, err = tx.TxPipelined(ctx, func(p goredis.Pipeliner) error {
			for _, o := range objs {
				if o.Kind != kiln.Movable {
					p.HDel(ctx, key, o.ID)
					removed++
					continue
				}
				o.Position, o.Rotation, o.UpdatedAt = o.InitialPosition, o.InitialRotation, now
				b, err := json.Marshal(o)
				if err != nil {
					return kiln.E(op, err)
				}
				p.HSet(ctx, key, o.ID, b)
				reset++
			}
			return nil
		})
		return err
	}, key)
	return removed, reset, err
}

// watch runs txf in a WATCH transaction on keys, retrying while another
// writer changes them first.
func (db *DB) watch(ctx context.Context, op string, txf func(*goredis.Tx) error, keys ...string) error {
	for i := 0; i < 50; i++ {
		err := db.rdb.Watch(ctx, txf, keys...)
		var ke *kiln.Error
		switch {
		case err == nil || errors.As(err, &ke):
			return err // txf's own verdict
		case !errors.Is(err, goredis.TxFailedErr):
			// WATCH or EXEC itself failed: Redis is out of reach.
			return kiln.E(op, kiln.KindUnavailable, err)
		}
		select {
		case <-ctx.Done():
			return kiln.E(op, ctx.Err())
		case <-time.After(time.Duration(i+1) * time.Millisecond):
		}
	}
	return kiln.E(op, kiln.KindUnavailable, errors.New("too many concurrent updates"))
}
