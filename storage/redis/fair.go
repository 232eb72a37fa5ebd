package redis

import (
	"context"
	"errors"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/jobs"
)

// The fair queue's bookkeeping (see jobs.Client.Enqueue): per account,
// the sorted set of its tasks in the shared queues, whichever queue they
// are in ("queue id", scored by when the entry goes stale); per account
// and queue, the list of its task ids held back; and per task the
// account that owns it.
func fairRunning(account string) string {
	return prefix + "fair:running:" + account
}
func fairHeld(queue, account string) string {
	return prefix + "fair:" + queue + ":" + account + ":held"
}
func fairOwner(queue, id string) string { return prefix + "fair:owner:" + queue + ":" + id }

// fairMember names a task in an account's running set.
func fairMember(queue, id string) string { return queue + " " + id }

// admitScript decides a new task's place: 0 in the shared queue, 1 held,
// 2 refused (the held list is full). The owner key is set first and only
// once, so a second run of the same call (go-redis sending it again)
// answers the first decision instead of counting the task twice.
//
// KEYS: running, held, owner. ARGV: now (ms), stale after (ms), running
// cap, held cap, task id, account, owner TTL (ms), running member.
var admitScript = goredis.NewScript(`
local now, stale = tonumber(ARGV[1]), tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if not redis.call('SET', KEYS[3], ARGV[6], 'NX', 'PX', ARGV[7]) then
  if redis.call('ZSCORE', KEYS[1], ARGV[8]) then return 0 end
  return 1
end
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], now + stale, ARGV[8])
  redis.call('PEXPIRE', KEYS[1], stale)
  return 0
end
if redis.call('LLEN', KEYS[2]) >= tonumber(ARGV[4]) then
  redis.call('DEL', KEYS[3])
  return 2
end
redis.call('RPUSH', KEYS[2], ARGV[5])
redis.call('PEXPIRE', KEYS[2], ARGV[7])
return 1
`)

// doneScript takes a finished task out of its account's share and moves
// held tasks into the freed places: the held lists in the order given
// (the queues' priority), each oldest first. It answers the queue and id
// of each, flat.
//
// KEYS: running, owner, then one held list per queue. ARGV: now (ms),
// stale after (ms), running cap, task id, the task's queue, then the
// queue of each held list.
var doneScript = goredis.NewScript(`
local now, stale = tonumber(ARGV[1]), tonumber(ARGV[2])
redis.call('ZREM', KEYS[1], ARGV[5] .. ' ' .. ARGV[4])
for i = 3, #KEYS do
  if ARGV[i + 3] == ARGV[5] then redis.call('LREM', KEYS[i], 0, ARGV[4]) end
end
redis.call('DEL', KEYS[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local out = {}
local i = 3
while i <= #KEYS and redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[3]) do
  local id = redis.call('LPOP', KEYS[i])
  if id then
    redis.call('ZADD', KEYS[1], now + stale, ARGV[i + 3] .. ' ' .. id)
    redis.call('PEXPIRE', KEYS[1], stale)
    table.insert(out, ARGV[i + 3])
    table.insert(out, id)
  else
    i = i + 1
  end
end
return out
`)

// Admit places a new task of account on queue: in the shared queues
// while the account has fewer than p.Running there (in all queues
// together), held back while it has fewer than p.Held waiting in this
// queue, refused otherwise.
func (db *DB) Admit(ctx context.Context, account, queue, id string, p jobs.FairPolicy) (jobs.Place, error) {
	const op = "redis.Admit"
	keys := []string{fairRunning(account), fairHeld(queue, account), fairOwner(queue, id)}
	n, err := admitScript.Run(ctx, db.rdb, keys, time.Now().UnixMilli(), p.Stale.Milliseconds(),
		p.Running, p.Held, id, account, (p.Hold + p.Stale).Milliseconds(), fairMember(queue, id)).Int()
	if err != nil {
		return 0, storeErr(op, err)
	}
	return jobs.Place(n), nil
}

// Done takes a finished task out of its account's share and answers the
// held tasks that take its place, which the caller must start: those of
// the queue of higher priority first (jobs.QueueOrder). A task that no account owns answers none.
func (db *DB) Done(ctx context.Context, queue, id string, p jobs.FairPolicy) ([]jobs.QueuedTask, error) {
	const op = "redis.Done"
	account, err := db.rdb.Get(ctx, fairOwner(queue, id)).Result()
	if errors.Is(err, goredis.Nil) {
		return nil, nil
	}
	if err != nil {
		return nil, kiln.E(op, kiln.KindUnavailable, err)
	}
	keys := []string{fairRunning(account), fairOwner(queue, id)}
	args := []any{time.Now().UnixMilli(), p.Stale.Milliseconds(), p.Running, id, queue}
	for _, q := range jobs.QueueOrder {
		keys = append(keys, fairHeld(q, account))
		args = append(args, q)
	}
	flat, err := doneScript.Run(ctx, db.rdb, keys, args...).StringSlice()
	if err != nil && !errors.Is(err, goredis.Nil) {
		return nil, storeErr(op, err)
	}
	var out []jobs.QueuedTask
	for i := 0; i+1 < len(flat); i += 2 {
		out = append(out, jobs.QueuedTask{Queue: flat[i], ID: flat[i+1]})
	}
	return out, nil
}
