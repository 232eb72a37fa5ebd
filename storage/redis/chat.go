package redis

import (
	"context"
	"encoding/json"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/kilnhq/kiln"
)

// chatKey scopes a conversation to the account that holds it (or to
// anonymous callers) and the assistant type, so a conversation id sent by
// another account reaches nothing.
func chatKey(account, typ, conv string) string {
	return prefix + "chat:" + account + ":" + typ + ":" + conv
}

// ChatHistory returns the turns kept for a conversation, oldest first;
// none when it is new or expired.
func (db *DB) ChatHistory(ctx context.Context, account, typ, conv string) ([]kiln.ChatTurn, error) {
	const op = "redis.ChatHistory"
	raw, err := db.rdb.LRange(ctx, chatKey(account, typ, conv), 0, -1).Result()
	if err != nil {
		return nil, kiln.E(op, kiln.KindUnavailable, err)
	}
	turns := make([]kiln.ChatTurn, 0, len(raw))
	for _, r := range raw {
		var t kiln.ChatTurn
		if err := json.Unmarshal([]byte(r), &t); err != nil {
			return nil, kiln.E(op, err)
		}
		turns = append(turns, t)
	}
	return turns, nil
}

// AppendChat adds turns to a conversation, keeps only the last keep of
// them, and restarts its expiry.
func (db *DB) AppendChat(ctx context.Context, account, typ, conv string, keep int, ttl time.Duration, turns ...kiln.ChatTurn) error {
	const op = "redis.AppendChat"
	vals := make([]any, len(turns))
	for i, t := range turns {
		b, err := json.Marshal(t)
		if err != nil {
			return kiln.E(op, err)
		}
		vals[i] = b
	}
	key := chatKey(account, typ, conv)
	_, err := db.rdb.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		p.RPush(ctx, key, vals...)
		p.LTrim(ctx, key, int64(-keep), -1)
		p.Expire(ctx, key, ttl)
		return nil
	})
	if err != nil {
		return kiln.E(op, kiln.KindUnavailable, err)
	}
	return nil
}

// ChatCorpus returns the newest objects and viewers of an account (up to
// limit of each), which the built-in assistant searches.
func (db *DB) ChatCorpus(ctx context.Context, account string, limit int) ([]*kiln.Object, []*kiln.Viewer, error) {
	const op = "redis.ChatCorpus"
	var objIDs, viewerTokens *goredis.StringSliceCmd
	_, err := db.rdb.Pipelined(ctx, func(p goredis.Pipeliner) error {
		objIDs = p.ZRevRange(ctx, accountObjects(account), 0, int64(limit-1))
		viewerTokens = p.ZRevRange(ctx, accountViewers(account), 0, int64(limit-1))
		return nil
	})
	if err != nil {
		return nil, nil, kiln.E(op, kiln.KindUnavailable, err)
	}
	var keys []string
	for _, id := range objIDs.Val() {
		keys = append(keys, objectRecord(id))
	}
	nObjects := len(keys)
	for _, t := range viewerTokens.Val() {
		keys = append(keys, viewerRecord(t))
	}
	if len(keys) == 0 {
		return nil, nil, nil
	}
	vals, err := db.rdb.MGet(ctx, keys...).Result()
	if err != nil {
		return nil, nil, kiln.E(op, kiln.KindUnavailable, err)
	}
	var objects []*kiln.Object
	var viewers []*kiln.Viewer
	for i, v := range vals {
		s, ok := v.(string)
		if !ok {
			continue // deleted since it was listed
		}
		if i < nObjects {
			var o kiln.Object
			if err := json.Unmarshal([]byte(s), &o); err != nil {
				return nil, nil, kiln.E(op, err)
			}
			objects = append(objects, &o)
			continue
		}
		var vw kiln.Viewer
		if err := json.Unmarshal([]byte(s), &vw); err != nil {
			return nil, nil, kiln.E(op, err)
		}
		viewers = append(viewers, &vw)
	}
	return objects, viewers, nil
}
