// Package redis keeps Kiln's metadata (API keys, objects) in Redis
// through go-redis. Records are JSON strings: they are small, read whole,
// and a JSON value survives the embedded server's snapshot unchanged.
package redis

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/internal/redisurl"
)

// prefix namespaces Kiln's keys; Asynq's live under "asynq:". On a Redis
// Cluster, Open makes it the hash tag "{kiln}:", so that every Kiln key
// lives in one slot and the transactions and scripts over several keys
// stay legal there (Asynq tags its keys per queue the same way). A
// process talks to one Redis, so one prefix serves it.
var prefix = "kiln:"

// DB is the metadata store.
type DB struct {
	rdb goredis.UniversalClient
}

// New wraps a go-redis client.
func New(rdb goredis.UniversalClient) *DB { return &DB{rdb: rdb} }

// Open connects to the Redis of url (a server, a Sentinel group or a
// Cluster: see package redisurl) and checks it answers.
func Open(ctx context.Context, url string) (goredis.UniversalClient, error) {
	opt, err := redisurl.Parse(url)
	if err != nil {
		return nil, kiln.E("redis.Open", kiln.KindInvalid, err)
	}
	if opt.Kind == redisurl.Cluster {
		prefix = "{kiln}:"
	}
	rdb := opt.Client()
	if err := rdb.Ping(ctx).Err(); err != nil {
		rdb.Close()
		return nil, kiln.E("redis.Open", kiln.KindUnavailable, err)
	}
	return rdb, nil
}

// Ping reports whether Redis answers, for /readyz.
func (db *DB) Ping(ctx context.Context) error {
	if err := db.rdb.Ping(ctx).Err(); err != nil {
		return kiln.E("redis.Ping", kiln.KindUnavailable, err)
	}
	return nil
}

func (db *DB) getJSON(ctx context.Context, op, key string, v any) error {
	b, err := db.rdb.Get(ctx, key).Bytes()
	if errors.Is(err, goredis.Nil) {
		return kiln.E(op, kiln.KindNotFound, err)
	}
	if err != nil {
		return kiln.E(op, kiln.KindUnavailable, err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return kiln.E(op, err)
	}
	return nil
}

// update reads the JSON record under key, lets fn change it, and writes it
// back in a WATCH transaction, retrying when another writer got there
// first, so that two workers never lose each other's change.
func update[T any](ctx context.Context, db *DB, op, key string, fn func(*T) error) (*T, error) {
	var out *T
	txf := func(tx *goredis.Tx) error {
		b, err := tx.Get(ctx, key).Bytes()
		if errors.Is(err, goredis.Nil) {
			return kiln.E(op, kiln.KindNotFound, err)
		}
		if err != nil {
			return kiln.E(op, kiln.KindUnavailable, err)
		}
		v := new(T)
		if err := json.Unmarshal(b, v); err != nil {
			return kiln.E(op, err)
		}
		if err := fn(v); err != nil {
			return err
		}
		nb, err := json.Marshal(v)
		if err != nil {
			return kiln.E(op, err)
		}
		_, err = tx.TxPipelined(ctx, func(p goredis.Pipeliner) error {
			p.Set(ctx, key, nb, 0)
			return nil
		})
		out = v
		return err
	}
	if err := db.watch(ctx, op, txf, key); err != nil {
		return nil, err
	}
	return out, nil
}

// unlockScript deletes a lock only while it still holds the token of the
// one who took it: a holder whose lock expired must not free the next
// holder's.
var unlockScript = goredis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

// renewScript extends a lock only while it still holds the holder's token.
var renewScript = goredis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) end return 0`)

// Lock takes the named lock and reports false when another holds it. The
// lock lives ttl past its holder's last sign of life: while held, it is
// renewed every ttl/3 until unlock, so a short ttl frees the lock of a
// holder that died (a worker killed mid-job) within ttl, without ever
// expiring under a live holder however long its work takes. A holder
// must call unlock.
func (db *DB) Lock(ctx context.Context, name string, ttl time.Duration) (unlock func(), ok bool, err error) {
	const op = "redis.Lock"
	key := prefix + "lock:" + name
	token := kiln.NewID("lk")
	ok, err = db.rdb.SetNX(ctx, key, token, ttl).Result()
	if err != nil {
		return nil, false, kiln.E(op, kiln.KindUnavailable, err)
	}
	free := func() { unlockScript.Run(context.WithoutCancel(ctx), db.rdb, []string{key}, token) }
	if !ok {
		return free, false, nil
	}
	done := make(chan struct{})
	go func() {
		tick := time.NewTicker(ttl / 3)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				// A failed renewal (Redis restarting) is tried again at
				// the next tick; the ttl leaves room for two misses.
				rctx, cancel := context.WithTimeout(context.Background(), ttl/3)
				renewScript.Run(rctx, db.rdb, []string{key}, token, ttl.Milliseconds())
				cancel()
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			close(done)
			free()
		})
	}, true, nil
}
