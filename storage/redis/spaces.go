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

func templateRecord(id string) string  { return prefix + "space-template:" + id }
func templateSpaces(id string) string  { return prefix + "space-template:" + id + ":spaces" }
func systemTemplates() string          { return prefix + "space-templates:system" }
func accountTemplates(a string) string { return prefix + "account:" + a + ":space-templates" }
func spaceRecord(id string) string     { return prefix + "space:" + id }
func spaceViewers(id string) string    { return prefix + "space:" + id + ":viewers" }
func accountSpaces(a string) string    { return prefix + "account:" + a + ":spaces" }

// The use counts (spaces of a template, viewers of a space) change only in
// scripts, which Redis runs atomically: a space cannot be created between
// the check that its template is unused and the template's deletion.
var (
	// KEYS: parent record, child record, account's child index, parent's
	// use count. ARGV: child JSON, score, child id. Answers 0 when the
	// parent is gone.
	createChildScript = goredis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('SET', KEYS[2], ARGV[1])
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[3])
redis.call('INCR', KEYS[4])
return 1`)

	// KEYS: record, its use count, account's index, use count of what it
	// uses (or the use count again when nothing). ARGV: id. Answers -1 when
	// the record is gone, the use count when in use, 0 when deleted.
	deleteUnusedScript = goredis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
local n = tonumber(redis.call('GET', KEYS[2]) or '0')
if n > 0 then return n end
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('ZREM', KEYS[3], ARGV[1])
if KEYS[4] ~= KEYS[2] and redis.call('DECR', KEYS[4]) <= 0 then redis.call('DEL', KEYS[4]) end
return 0`)
)

// SeedSystemTemplates writes the built-in templates. It runs at every
// start: the records are fixed, so writing them again changes nothing,
// and a new release's descriptions replace the old ones.
func (db *DB) SeedSystemTemplates(ctx context.Context) error {
	const op = "redis.SeedSystemTemplates"
	_, err := db.rdb.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		for _, t := range kiln.SystemTemplates() {
			b, err := json.Marshal(t)
			if err != nil {
				return kiln.E(op, err)
			}
			p.Set(ctx, templateRecord(t.ID), b, 0)
			p.SAdd(ctx, systemTemplates(), t.ID)
		}
		return nil
	})
	if err != nil {
		return kiln.E(op, kiln.KindUnavailable, err)
	}
	return nil
}

// CreateTemplate stores a new custom template of t.Account.
func (db *DB) CreateTemplate(ctx context.Context, t *kiln.SpaceTemplate) error {
	const op = "redis.CreateTemplate"
	b, err := json.Marshal(t)
	if err != nil {
		return kiln.E(op, err)
	}
	_, err = db.rdb.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		p.Set(ctx, templateRecord(t.ID), b, 0)
		p.ZAdd(ctx, accountTemplates(t.Account), goredis.Z{Score: createdScore(t.CreatedAt), Member: t.ID})
		return nil
	})
	if err != nil {
		return kiln.E(op, kiln.KindUnavailable, err)
	}
	return nil
}

// Template returns the template with id, whatever its account.
func (db *DB) Template(ctx context.Context, id string) (*kiln.SpaceTemplate, error) {
	var t kiln.SpaceTemplate
	if err := db.getJSON(ctx, "redis.Template", templateRecord(id), &t); err != nil {
		return nil, err
	}
	return &t, nil
}

// Templates lists the templates account may use: the system ones by name,
// then its own, newest first.
func (db *DB) Templates(ctx context.Context, account string) ([]*kiln.SpaceTemplate, error) {
	const op = "redis.Templates"
	sys, err := db.rdb.SMembers(ctx, systemTemplates()).Result()
	if err != nil {
		return nil, kiln.E(op, kiln.KindUnavailable, err)
	}
	system, err := mgetJSON[kiln.SpaceTemplate](ctx, db, op, templateRecord, sys)
	if err != nil {
		return nil, err
	}
	sort.Slice(system, func(i, j int) bool { return system[i].Name < system[j].Name })
	own, err := db.rdb.ZRevRange(ctx, accountTemplates(account), 0, -1).Result()
	if err != nil {
		return nil, kiln.E(op, kiln.KindUnavailable, err)
	}
	mine, err := mgetJSON[kiln.SpaceTemplate](ctx, db, op, templateRecord, own)
	if err != nil {
		return nil, err
	}
	return append(system, mine...), nil
}

// DeleteTemplate deletes a template no space uses; while one does, it
// answers a conflict. The caller checks ownership and origin first.
func (db *DB) DeleteTemplate(ctx context.Context, t *kiln.SpaceTemplate) error {
	const op = "redis.DeleteTemplate"
	n, err := deleteUnusedScript.Run(ctx, db.rdb,
		[]string{templateRecord(t.ID), templateSpaces(t.ID), accountTemplates(t.Account), templateSpaces(t.ID)}, t.ID).Int()
	switch {
	case err != nil:
		return kiln.E(op, kiln.KindUnavailable, err)
	case n < 0:
		return kiln.E(op, kiln.KindNotFound, errors.New("no such template"))
	case n > 0:
		return kiln.Errorf(kiln.KindConflict, "template_in_use",
			"space template %s is used by %d spaces; delete them first (DELETE /resources/spaces/instances/{spaceId})", t.ID, n)
	}
	return nil
}

// CreateSpace stores a new space and counts it as a use of its template,
// in one step: when the template was deleted meanwhile, it answers not
// found and stores nothing.
func (db *DB) CreateSpace(ctx context.Context, s *kiln.Space) error {
	const op = "redis.CreateSpace"
	b, err := json.Marshal(s)
	if err != nil {
		return kiln.E(op, err)
	}
	n, err := createChildScript.Run(ctx, db.rdb,
		[]string{templateRecord(s.SpaceTemplateID), spaceRecord(s.ID), accountSpaces(s.Account), templateSpaces(s.SpaceTemplateID)},
		b, createdScore(s.CreatedAt), s.ID).Int()
	if err != nil {
		return kiln.E(op, kiln.KindUnavailable, err)
	}
	if n == 0 {
		return kiln.E(op, kiln.KindNotFound, errors.New("the space template was deleted"))
	}
	return nil
}

// Space returns the space with id, whatever its account.
func (db *DB) Space(ctx context.Context, id string) (*kiln.Space, error) {
	var s kiln.Space
	if err := db.getJSON(ctx, "redis.Space", spaceRecord(id), &s); err != nil {
		return nil, err
	}
	return &s, nil
}

// Spaces lists the spaces of account, newest first.
func (db *DB) Spaces(ctx context.Context, account string) ([]*kiln.Space, error) {
	const op = "redis.Spaces"
	ids, err := db.rdb.ZRevRange(ctx, accountSpaces(account), 0, -1).Result()
	if err != nil {
		return nil, kiln.E(op, kiln.KindUnavailable, err)
	}
	return mgetJSON[kiln.Space](ctx, db, op, spaceRecord, ids)
}

// DeleteSpace deletes a space no viewer shows, and so frees its template;
// while a viewer shows it, it answers a conflict.
func (db *DB) DeleteSpace(ctx context.Context, s *kiln.Space) error {
	const op = "redis.DeleteSpace"
	n, err := deleteUnusedScript.Run(ctx, db.rdb,
		[]string{spaceRecord(s.ID), spaceViewers(s.ID), accountSpaces(s.Account), templateSpaces(s.SpaceTemplateID)}, s.ID).Int()
	switch {
	case err != nil:
		return kiln.E(op, kiln.KindUnavailable, err)
	case n < 0:
		return kiln.E(op, kiln.KindNotFound, errors.New("no such space"))
	case n > 0:
		return kiln.Errorf(kiln.KindConflict, "space_in_use",
			"space %s is shown by %d viewers; delete them first (DELETE /viewers/{viewerToken})", s.ID, n)
	}
	return nil
}

// mgetJSON reads the JSON records of ids in one MGET, skipping those
// deleted since the index was read.
func mgetJSON[T any](ctx context.Context, db *DB, op string, key func(string) string, ids []string) ([]*T, error) {
	out := make([]*T, 0, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	keys := make([]string, len(ids))
	for i, id := range ids {
		keys[i] = key(id)
	}
	vals, err := db.rdb.MGet(ctx, keys...).Result()
	if err != nil {
		return nil, kiln.E(op, kiln.KindUnavailable, err)
	}
	for _, v := range vals {
		s, ok := v.(string)
		if !ok {
			continue
		}
		r := new(T)
		if err := json.Unmarshal([]byte(s), r); err != nil {
			return nil, kiln.E(op, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// createdScore orders an index by creation time, in microseconds so that
// records made in one millisecond keep their order (a float64 holds them
// exactly for millennia).
func createdScore(t time.Time) float64 { return float64(t.UnixMicro()) }
