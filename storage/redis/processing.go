package redis

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/kilnhq/kiln"
)

// StaleProcessing calls fn with every object still processing whose
// record last changed before before. It scans the object records (there
// is no index by state), a batch at a time, so a worker's sweep finds
// objects whose processing job was lost (a Redis restored without its
// queues) however few there are; it is meant to run rarely.
func (db *DB) StaleProcessing(ctx context.Context, before time.Time, fn func(*kiln.Object) error) error {
	var fnErr error // fn's own, returned as it is
	scan := func(ctx context.Context, c goredis.UniversalClient) error {
		it := c.Scan(ctx, 0, prefix+"object:*", 1000).Iterator()
		var batch []string
		flush := func() error {
			if len(batch) == 0 {
				return nil
			}
			vals, err := c.MGet(ctx, batch...).Result()
			batch = batch[:0]
			if err != nil {
				return err
			}
			for _, v := range vals {
				var o kiln.Object
				s, ok := v.(string)
				if !ok || json.Unmarshal([]byte(s), &o) != nil || o.State != kiln.StateProcessing || !o.UpdatedAt.Before(before) {
					continue
				}
				if err := fn(&o); err != nil {
					fnErr = err
					return err
				}
			}
			return nil
		}
		for it.Next(ctx) {
			// object:<id> only, not object:<id>:likes.
			if id := strings.TrimPrefix(it.Val(), prefix+"object:"); kiln.ValidID(id) {
				batch = append(batch, it.Val())
			}
			if len(batch) == 500 {
				if err := flush(); err != nil {
					return err
				}
			}
		}
		if err := it.Err(); err != nil {
			return err
		}
		return flush()
	}
	var err error
	if cc, ok := db.rdb.(*goredis.ClusterClient); ok {
		// Every Kiln key shares one slot: one master holds them all.
		err = cc.ForEachMaster(ctx, func(ctx context.Context, c *goredis.Client) error { return scan(ctx, c) })
	} else {
		err = scan(ctx, db.rdb)
	}
	if fnErr != nil {
		return fnErr
	}
	if err != nil {
		return kiln.E("redis.StaleProcessing", kiln.KindUnavailable, err)
	}
	return nil
}
