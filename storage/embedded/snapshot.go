package embedded

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/kilnhq/kiln"
)

// snapshotVersion changes whenever snapshot's meaning does, so that an old
// binary refuses a newer file instead of misreading it.
const snapshotVersion = 1

// snapshot is the saved content of the databases. Gob keeps keys and values
// byte for byte (Asynq payloads are binary), and floats exact.
type snapshot struct {
	Version int
	Keys    []entry
	// WAL is the last write-ahead log segment the snapshot holds: a start
	// replays only the segments after it.
	WAL int
}

type entry struct {
	DB   int
	Key  string
	Type string // as TYPE answers: string, hash, list, set or zset
	// ExpireAt is the Unix time in milliseconds at which the key expires,
	// 0 for never. Being absolute, the time the server is down counts, as
	// it does for a real Redis.
	ExpireAt int64
	// Values holds the value of a string, the field-value pairs of a hash,
	// the elements of a list, the members of a set or of a sorted set.
	Values []string
	Scores []float64 // of a sorted set, one per member
	// FieldExpireAt is, for a hash with field TTLs, one ExpireAt per field.
	FieldExpireAt []int64
}

// dumpScript reads every database in one script, which miniredis runs under
// its lock: the snapshot is consistent even while Asynq moves tasks between
// lists, which reading key by key through the Go API would not be. Keys of
// other types come back with no value, for Save to refuse.
const dumpScript = `
local dbs = {}
for db = 0, tonumber(ARGV[1]) - 1 do
  redis.call('SELECT', db)
  local keys = {}
  for _, k in ipairs(redis.call('KEYS', '*')) do
    local t = redis.call('TYPE', k)['ok']
    local v, fttl = {}, {}
    if t == 'string' then
      v = {redis.call('GET', k)}
    elseif t == 'hash' then
      v = redis.call('HGETALL', k)
      for i = 1, #v, 2 do
        fttl[#fttl + 1] = redis.call('HPTTL', k, 'FIELDS', 1, v[i])[1]
      end
    elseif t == 'list' then
      v = redis.call('LRANGE', k, 0, -1)
    elseif t == 'set' then
      v = redis.call('SMEMBERS', k)
    elseif t == 'zset' then
      v = redis.call('ZRANGE', k, 0, -1, 'WITHSCORES')
    end
    keys[#keys + 1] = {k, t, redis.call('PTTL', k), v, fttl}
  end
  dbs[#dbs + 1] = keys
end
return dbs
`

// Save writes the current data to the snapshot file and drops the log
// segments it now holds. It holds the log for the dump, so no write slips
// between the two; Close uses it, and compaction does the same work
// without holding anything. It writes a temporary file and renames it
// over the old one, so a crash or a failure at any point leaves the
// previous snapshot whole.
func (s *Server) Save() error {
	const op = "embedded.Save"
	s.mu.Lock()
	defer s.mu.Unlock()
	s.wal.mu.Lock()
	defer s.wal.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), saveTimeout)
	defer cancel()
	snap, err := dump(ctx, s.client, s.age())
	if err != nil {
		return kiln.E(op, err)
	}
	// The snapshot holds every finished segment, and the current one when
	// it has entries, which then gives way to a new one.
	snap.WAL = s.wal.seg - 1
	if s.wal.size > 0 {
		snap.WAL = s.wal.seg
	}
	if err := s.write(snap); err != nil {
		return kiln.E(op, err)
	}
	if snap.WAL == s.wal.seg {
		if _, _, err := s.wal.rotateLocked(); err != nil {
			return kiln.E(op, err)
		}
	}
	if err := removeSegments(s.dir, snap.WAL); err != nil {
		return kiln.E(op, err)
	}
	return nil
}

// write writes snap unless it is the one last written.
func (s *Server) write(snap *snapshot) error {
	var raw bytes.Buffer
	if err := gob.NewEncoder(&raw).Encode(snap); err != nil {
		return err
	}
	sum := sha256.Sum256(raw.Bytes())
	if sum == s.saved {
		return nil
	}
	err := writeAtomic(filepath.Join(s.dir, snapshotName), func(w io.Writer) error {
		zw := gzip.NewWriter(w)
		if _, err := zw.Write(raw.Bytes()); err != nil {
			return err
		}
		return zw.Close()
	})
	if err != nil {
		return err
	}
	s.saved = sum
	return nil
}

// dump reads the data of the server behind client as of now, the time
// its TTLs were last aged to.
func dump(ctx context.Context, client *redis.Client, now time.Time) (*snapshot, error) {
	res, err := client.Eval(ctx, dumpScript, nil, databases).Slice()
	if err != nil {
		return nil, err
	}
	expireAt := func(pttl int64) int64 {
		if pttl < 0 { // no TTL
			return 0
		}
		return now.UnixMilli() + pttl
	}
	snap := &snapshot{Version: snapshotVersion}
	for db, keys := range res {
		for _, k := range keys.([]any) {
			k := k.([]any)
			e := entry{DB: db, Key: k[0].(string), Type: k[1].(string), ExpireAt: expireAt(k[2].(int64))}
			v := k[3].([]any)
			switch e.Type {
			case "string", "list", "set":
				e.Values = strs(v)
			case "hash":
				e.Values = strs(v)
				for _, t := range k[4].([]any) {
					e.FieldExpireAt = append(e.FieldExpireAt, expireAt(t.(int64)))
				}
				if !slices.ContainsFunc(e.FieldExpireAt, func(t int64) bool { return t != 0 }) {
					e.FieldExpireAt = nil
				}
			case "zset":
				for i := 0; i < len(v); i += 2 {
					score, err := strconv.ParseFloat(v[i+1].(string), 64)
					if err != nil {
						return nil, fmt.Errorf("db %d key %q: score %w", db, e.Key, err)
					}
					e.Values = append(e.Values, v[i].(string))
					e.Scores = append(e.Scores, score)
				}
			default:
				return nil, fmt.Errorf("db %d key %q is a %s, which the snapshot cannot hold: it would be lost at restart", db, e.Key, e.Type)
			}
			snap.Keys = append(snap.Keys, e)
		}
	}
	return snap, nil
}

func strs(v []any) []string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = x.(string)
	}
	return s
}

// load restores the snapshot at path into m, which must not be serving yet,
// and reports how many keys it restored. No file means a first start; a file
// that cannot be read whole is an error, never an empty start that the next
// Save would write over it.
func load(m *miniredis.Miniredis, path string, now time.Time) (n, wal int, err error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, 0, nil
	}
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	snap, err := decode(f)
	if err != nil {
		return 0, 0, fmt.Errorf("snapshot %s is unreadable (move it away to start empty): %w", path, err)
	}
	ttl := func(at int64) time.Duration { return time.UnixMilli(at).Sub(now) }
	for _, e := range snap.Keys {
		if e.ExpireAt != 0 && ttl(e.ExpireAt) <= 0 {
			continue
		}
		db := m.DB(e.DB)
		switch e.Type {
		case "string":
			err = db.Set(e.Key, e.Values[0])
		case "hash":
			var fv []string
			var fttl []time.Duration
			for i := 0; i < len(e.Values); i += 2 {
				var t time.Duration
				if e.FieldExpireAt != nil && e.FieldExpireAt[i/2] != 0 {
					if t = ttl(e.FieldExpireAt[i/2]); t <= 0 {
						continue
					}
				}
				fv = append(fv, e.Values[i], e.Values[i+1])
				fttl = append(fttl, t)
			}
			if len(fv) == 0 {
				continue
			}
			db.HSet(e.Key, fv...)
			for i, t := range fttl {
				if t > 0 {
					db.HExpire(e.Key, fv[2*i], t)
				}
			}
		case "list":
			_, err = db.Push(e.Key, e.Values...)
		case "set":
			_, err = db.SetAdd(e.Key, e.Values...)
		case "zset":
			for i, member := range e.Values {
				if _, err = db.ZAdd(e.Key, e.Scores[i], member); err != nil {
					break
				}
			}
		}
		if err != nil {
			return 0, 0, fmt.Errorf("snapshot %s: db %d key %q: %w", path, e.DB, e.Key, err)
		}
		if e.ExpireAt != 0 {
			db.SetTTL(e.Key, ttl(e.ExpireAt))
		}
		n++
	}
	return n, snap.WAL, nil
}

// decode reads a whole snapshot, checking the gzip checksum and that every
// entry is well formed, so that load cannot fail half way.
func decode(r io.Reader) (*snapshot, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, err
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, err
	}
	var snap snapshot
	if err := gob.NewDecoder(bytes.NewReader(raw)).Decode(&snap); err != nil {
		return nil, err
	}
	if snap.Version != snapshotVersion {
		return nil, fmt.Errorf("version %d, want %d", snap.Version, snapshotVersion)
	}
	for _, e := range snap.Keys {
		ok := e.DB >= 0 && e.DB < databases && len(e.Values) > 0
		switch e.Type {
		case "string":
			ok = ok && len(e.Values) == 1
		case "hash":
			ok = ok && len(e.Values)%2 == 0 && (e.FieldExpireAt == nil || len(e.FieldExpireAt) == len(e.Values)/2)
		case "list", "set":
		case "zset":
			ok = ok && len(e.Scores) == len(e.Values)
		default:
			ok = false
		}
		if !ok {
			return nil, fmt.Errorf("malformed entry for db %d key %q", e.DB, e.Key)
		}
	}
	return &snap, nil
}

// writeAtomic replaces path with what write writes, through a synced
// temporary file in the same dir, so that readers and a restart after a
// crash see the old content or the new, never a mix.
func writeAtomic(path string, write func(io.Writer) error) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*"+tempSuffix)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err = write(f); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(f.Name(), path); err != nil {
		return err
	}
	// The rename is durable only once the dir is.
	d, err := os.Open(filepath.Dir(path))
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

const tempSuffix = ".tmp"

// removeTemps deletes the temporary files of writes that a crash
// interrupted. Call it with the dir locked, when no write is running.
func removeTemps(dir string) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range ents {
		name := e.Name()
		if strings.HasSuffix(name, tempSuffix) && (strings.HasPrefix(name, snapshotName+".") || strings.HasPrefix(name, addrName+".")) {
			if err := os.Remove(filepath.Join(dir, name)); err != nil {
				return err
			}
		}
	}
	return nil
}
