package redis

import (
	"context"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/kilnhq/kiln"
)

// rateBucketKey is the token bucket of a limiter key, rateSeenKey the
// answer already given to one call of Allow.
func rateBucketKey(key string) string { return prefix + "rate:" + key }
func rateSeenKey(call string) string  { return prefix + "rate:seen:" + call }

// rateSeenTTL outlives every retry go-redis makes of one call (three,
// each bounded by the read timeout).
const rateSeenTTL = time.Minute

// allowScript takes a token from a bucket in one round trip. A bucket is
// the hash {tokens, at}: it holds Burst tokens when new, gains Rate a
// second up to Burst, and expires once it would be full again, so an
// idle key costs nothing. The call's id makes the script count once: a
// read timeout makes go-redis send it again, and the second run answers
// what the first decided instead of taking a second token.
//
// KEYS: bucket, seen. ARGV: now (ms), rate (per second), burst, seen TTL
// (ms). It answers 0 when allowed, or the milliseconds until a token.
var allowScript = goredis.NewScript(`
local seen = redis.call('GET', KEYS[2])
if seen then return tonumber(seen) end
local now, rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local b = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(b[1]) or burst
local at = tonumber(b[2]) or now
if now > at then
  tokens = math.min(burst, tokens + (now - at) * rate / 1000)
  at = now
end
local wait = 0
if tokens < 1 then
  wait = math.ceil((1 - tokens) * 1000 / rate)
else
  redis.call('HSET', KEYS[1], 'tokens', tostring(tokens - 1), 'at', tostring(at))
  redis.call('PEXPIRE', KEYS[1], math.ceil(burst * 1000 / rate) + 1000)
end
redis.call('SET', KEYS[2], tostring(wait), 'PX', ARGV[4])
return wait
`)

// Allow takes one token from the bucket of key under limit and answers 0,
// or, when the bucket is empty, how long until it holds one again. A
// zero limit (no rate) allows everything without a round trip.
func (db *DB) Allow(ctx context.Context, key string, limit kiln.RateLimit) (time.Duration, error) {
	const op = "redis.Allow"
	if limit.Rate <= 0 {
		return 0, nil
	}
	burst := max(limit.Burst, 1)
	call := kiln.NewID("rl")
	ms, err := allowScript.Run(ctx, db.rdb, []string{rateBucketKey(key), rateSeenKey(call)},
		time.Now().UnixMilli(), limit.Rate, burst, rateSeenTTL.Milliseconds()).Int64()
	if err != nil {
		return 0, storeErr(op, err)
	}
	return time.Duration(ms) * time.Millisecond, nil
}
