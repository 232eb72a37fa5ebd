package redis

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/kilnhq/kiln"
)

// Analytics keys live under kiln:stats:<viewer>: so that nothing else
// named after a viewer collides with them.
func trackingSalt(day string) string          { return prefix + "tracking:salt:" + day }
func rateBucket(viewer, client string) string { return prefix + "stats:" + viewer + ":rate:" + client }
func liveSession(viewer, sid string) string   { return prefix + "stats:" + viewer + ":live:" + sid }
func viewerSessions(viewer string) string     { return prefix + "stats:" + viewer + ":sessions" }
func eventSeen(viewer, id string) string      { return prefix + "stats:" + viewer + ":seen:" + id }
func dayCounters(viewer, day string) string   { return prefix + "stats:" + viewer + ":day:" + day }
func dayVisitors(viewer, day string) string {
	return prefix + "stats:" + viewer + ":day:" + day + ":visitors"
}

// saltTTL is how long a daily salt lives: a day of use plus a day for
// events that arrive late, after which no visitor hash can be recomputed.
const saltTTL = 48 * time.Hour

// DailySalt returns the salt of the UTC day (YYYY-MM-DD), storing fresh
// when the day has none yet, so that every API process hashes alike.
func (db *DB) DailySalt(ctx context.Context, day, fresh string) (string, error) {
	const op = "redis.DailySalt"
	var get *goredis.StringCmd
	_, err := db.rdb.Pipelined(ctx, func(p goredis.Pipeliner) error {
		p.SetNX(ctx, trackingSalt(day), fresh, saltTTL)
		get = p.Get(ctx, trackingSalt(day))
		return nil
	})
	if err != nil {
		return "", kiln.E(op, kiln.KindUnavailable, err)
	}
	return get.Val(), nil
}

// recordScript saves one event in one round trip: it checks the viewer
// exists, takes a token from the client's bucket, continues or starts the
// session, and counts the day. It answers -1 for an unknown viewer, 0
// when saved (or saved before under the same event id), -2 when it ran
// past its deadline and saved nothing, or the milliseconds to wait when
// the bucket is empty.
//
// It counts each event once whatever happens between Kiln and Redis:
//   - the event id (KEYS[7]) is set when the event is saved, and a second
//     run with the same id saves nothing: go-redis retries a command whose
//     answer it did not read, and a client may retry a 503 with its own id;
//   - the deadline (ARGV[10], Unix ms) is when Kiln stops waiting for the
//     answer: a Redis that was frozen and runs the script later saves
//     nothing, so a 503 means the event was not saved.
//
// KEYS: viewer record, rate bucket, live session, sessions, day counters,
// day visitors, event id. ARGV: now (ms), session id, visitor, view
// (1|0), rate (events/s, 0 = none), burst, live session TTL (s), session
// timeout (s), event key, deadline (ms), event id retention (ms).
//
// A session is the hash {first, last, visitor} under the client's
// session id while it lives, and the member "first:visitor:sessionId"
// of the viewer's sessions sorted set, scored by its last event: the
// member never changes, so ZADD moves the score as the session goes on.
var recordScript = goredis.NewScript(`
local t = redis.call('TIME')
if tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) > tonumber(ARGV[10]) then return -2 end
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if redis.call('EXISTS', KEYS[7]) == 1 then return 0 end
local now = tonumber(ARGV[1])
local rate = tonumber(ARGV[5])
if rate > 0 then
  local burst = tonumber(ARGV[6])
  local b = redis.call('HMGET', KEYS[2], 'tokens', 'at')
  local tokens = tonumber(b[1]) or burst
  local at = tonumber(b[2]) or now
  if now > at then
    tokens = math.min(burst, tokens + (now - at) * rate / 1000)
    at = now
  end
  if tokens < 1 then
    return math.ceil((1 - tokens) * 1000 / rate)
  end
  redis.call('HSET', KEYS[2], 'tokens', tostring(tokens - 1), 'at', tostring(at))
  redis.call('PEXPIRE', KEYS[2], math.ceil(burst * 1000 / rate) + 1000)
end
local sec = math.floor(now / 1000)
local s = redis.call('HMGET', KEYS[3], 'first', 'last', 'visitor')
local first, last, visitor = tonumber(s[1]), tonumber(s[2]), s[3]
if not first or not last or not visitor or sec - last > tonumber(ARGV[8]) then
  first, last, visitor = sec, sec, ARGV[3]
  redis.call('HSET', KEYS[3], 'first', tostring(first), 'visitor', visitor)
elseif sec > last then
  last = sec
end
redis.call('HSET', KEYS[3], 'last', tostring(last))
redis.call('EXPIRE', KEYS[3], ARGV[7])
redis.call('ZADD', KEYS[4], last, tostring(first) .. ':' .. visitor .. ':' .. ARGV[2])
redis.call('HINCRBY', KEYS[5], 'events', 1)
redis.call('HINCRBY', KEYS[5], 'key:' .. ARGV[9], 1)
if ARGV[4] == '1' then redis.call('HINCRBY', KEYS[5], 'views', 1) end
redis.call('SADD', KEYS[6], ARGV[3])
redis.call('SET', KEYS[7], '1', 'PX', ARGV[11])
return 0
`)

// eventBudget is how long RecordEvent waits for Redis; eventMargin is
// the part of it left for the answer to travel back, so that a script
// that starts before its deadline is answered before Kiln gives up.
const (
	eventBudget = time.Second
	eventMargin = 200 * time.Millisecond
	// serverIDRetention keeps an id the server made past every retry the
	// store client may send within eventBudget.
	serverIDRetention = 10 * eventBudget
)

// RecordEvent saves e unless the client's bucket is empty, in which case
// it answers how long to wait. An unknown viewer is KindNotFound. It
// saves e at most once per e.ID, and an error means e was not saved:
// Redis runs the script only until Kiln stops waiting (see recordScript).
func (db *DB) RecordEvent(ctx context.Context, e *kiln.TrackedEvent, key string, limit kiln.RateLimit) (time.Duration, error) {
	const op = "redis.RecordEvent"
	if e.ID == "" {
		e.ID = kiln.NewID("ev")
	}
	retain := serverIDRetention
	if e.ClientID {
		retain = kiln.EventIDRetention
	}
	day := e.At.UTC().Format(time.DateOnly)
	keys := []string{
		viewerRecord(e.Viewer), rateBucket(e.Viewer, e.Client), liveSession(e.Viewer, e.SessionID),
		viewerSessions(e.Viewer), dayCounters(e.Viewer, day), dayVisitors(e.Viewer, day),
		eventSeen(e.Viewer, e.ID),
	}
	view := "0"
	if e.View {
		view = "1"
	}
	timeout := int64(kiln.SessionTimeout / time.Second)
	ctx, cancel := context.WithTimeout(ctx, eventBudget)
	defer cancel()
	deadline := time.Now().Add(eventBudget - eventMargin)
	n, err := recordScript.Run(ctx, db.rdb, keys, e.At.UnixMilli(), e.SessionID, e.Visitor, view,
		limit.Rate, limit.Burst, 2*timeout, timeout, key, deadline.UnixMilli(), retain.Milliseconds()).Int64()
	if err != nil {
		if sentAndLost(err) {
			return 0, kiln.E(op, kiln.KindUnavailable, fmt.Errorf("%w: %v", kiln.ErrEventOutcomeUnknown, err))
		}
		return 0, storeErr(op, err)
	}
	switch {
	case n == -2:
		return 0, kiln.E(op, kiln.KindUnavailable, errors.New("redis ran the event past its deadline; nothing saved"))
	case n < 0:
		return 0, kiln.E(op, kiln.KindNotFound, errors.New("no viewer "+e.Viewer))
	case n > 0:
		return time.Duration(n) * time.Millisecond, nil
	}
	return 0, nil
}

// sentAndLost reports whether err may have come after Redis received the
// script: a deadline or a broken connection while waiting for the reply.
// A Redis frozen between running the script and writing its reply saves
// the event yet answers too late; the deadline inside the script cannot
// guard that window. A reply error, an exhausted pool or a closed client
// mean the script did not run.
func sentAndLost(err error) bool {
	var reply goredis.Error
	switch {
	case errors.As(err, &reply), errors.Is(err, goredis.ErrPoolTimeout), errors.Is(err, goredis.ErrClosed):
		return false
	}
	return true
}

// PeriodStats counts views, events and distinct visitors of each period,
// and of all of them together, in one transaction: the union of day sets
// gives exact visitor counts for any grouping.
func (db *DB) PeriodStats(ctx context.Context, viewer string, periods []kiln.Period) ([]kiln.PeriodStats, kiln.PeriodStats, error) {
	const op = "redis.PeriodStats"
	tmp := prefix + "tmp:" + kiln.NewID("union")
	type period struct {
		counters []*goredis.SliceCmd
		visitors *goredis.IntCmd
	}
	ps := make([]period, len(periods))
	var total *goredis.IntCmd
	_, err := db.rdb.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		var all []string
		for i, per := range periods {
			var sets []string
			for _, d := range per.Days() {
				ps[i].counters = append(ps[i].counters, p.HMGet(ctx, dayCounters(viewer, d), "views", "events"))
				sets = append(sets, dayVisitors(viewer, d))
			}
			if len(sets) == 1 {
				ps[i].visitors = p.SCard(ctx, sets[0])
			} else {
				ps[i].visitors = p.SUnionStore(ctx, tmp, sets...)
			}
			all = append(all, sets...)
		}
		if len(all) > 0 {
			total = p.SUnionStore(ctx, tmp, all...)
		}
		p.Del(ctx, tmp)
		return nil
	})
	if err != nil {
		return nil, kiln.PeriodStats{}, storeErr(op, err)
	}
	out := make([]kiln.PeriodStats, len(periods))
	var sum kiln.PeriodStats
	for i, per := range ps {
		for _, c := range per.counters {
			vals := c.Val()
			out[i].Views += count(vals[0])
			out[i].Events += count(vals[1])
		}
		out[i].Visitors = per.visitors.Val()
		sum.Views += out[i].Views
		sum.Events += out[i].Events
	}
	if total != nil {
		sum.Visitors = total.Val()
	}
	return out, sum, nil
}

// storeErr tells a Redis that refused a command (a key of the wrong type:
// our fault, 500) from one that could not be reached (try later, 503).
func storeErr(op string, err error) error {
	var reply goredis.Error
	if errors.As(err, &reply) {
		return kiln.E(op, err)
	}
	return kiln.E(op, kiln.KindUnavailable, err)
}

func count(v any) int64 {
	s, _ := v.(string)
	n, _ := strconv.ParseInt(s, 10, 64)
	return n
}

// SessionStats aggregates the viewer's sessions whose span, first event
// to last, overlaps [start, end] (Unix seconds, inclusive). The sorted set
// is scored by the last event, so Redis returns only the sessions that
// end at or after start; those that begin after end are skipped here.
func (db *DB) SessionStats(ctx context.Context, viewer string, start, end int64) (kiln.SessionStats, error) {
	const op = "redis.SessionStats"
	min := "-inf"
	if start != math.MinInt64 {
		min = strconv.FormatInt(start, 10)
	}
	zs, err := db.rdb.ZRangeByScoreWithScores(ctx, viewerSessions(viewer), &goredis.ZRangeBy{Min: min, Max: "+inf"}).Result()
	if err != nil {
		return kiln.SessionStats{}, storeErr(op, err)
	}
	var st kiln.SessionStats
	visitors := make(map[string]struct{}, len(zs)/2)
	for _, z := range zs {
		m, _ := z.Member.(string)
		firstS, rest, ok1 := strings.Cut(m, ":")
		visitor, _, ok2 := strings.Cut(rest, ":")
		first, err := strconv.ParseInt(firstS, 10, 64)
		if !ok1 || !ok2 || err != nil {
			return kiln.SessionStats{}, kiln.E(op, errors.New("malformed session member "+strconv.Quote(m)))
		}
		if first > end {
			continue
		}
		st.Sessions++
		st.Seconds += int64(z.Score) - first
		visitors[visitor] = struct{}{}
	}
	st.Visitors = int64(len(visitors))
	return st, nil
}
