// Package embedded runs the Redis of `kiln serve` in-process with miniredis,
// so that a single binary works without a Redis server. miniredis forgets
// everything when the process ends, so the package logs every write ahead
// of its answer (wal.go) and snapshots the data into the data dir, and
// restores both at the next start: no acknowledged write is lost when the
// process is killed.
package embedded

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/alicebob/miniredis/v2/server"
	"github.com/redis/go-redis/v9"

	"github.com/kilnhq/kiln"
)

const (
	snapshotName = "redis-snapshot.gob.gz"
	addrName     = "redis.addr"
	lockName     = "redis.lock"

	// databases is the number of databases Save covers; the embedded server
	// refuses the others, as a Redis with its default config does.
	databases = 16

	// tickEvery bounds how late a key expires: miniredis only ages TTLs when
	// told to.
	tickEvery     = time.Second
	snapshotEvery = 10 * time.Second
	// compactAt is the log segment size from which compaction folds the
	// log into a new snapshot.
	compactAt = 4 << 20
	// saveTimeout keeps a wedged server from hanging Close forever.
	saveTimeout = time.Minute
)

// Server is a running embedded Redis bound to one data dir.
type Server struct {
	dir    string
	addr   string
	log    *slog.Logger
	m      *miniredis.Miniredis
	client *redis.Client // Save reads the data through it, in one script
	wal    *wal          // the proxy clients reach, and its log
	lock   *os.File
	stop   context.CancelFunc
	done   chan struct{}

	mu     sync.Mutex // serialises ageing and saving
	aged   time.Time  // when the TTLs were last advanced
	saved  [32]byte   // digest of the last snapshot written, to skip unchanged ones
	closed sync.Once
	err    error // of Close
}

// Start runs an embedded Redis on a random loopback port with the data last
// saved in dir, and keeps saving it there until Close. Only one Server may
// use a dir at a time.
func Start(ctx context.Context, dir string, logger *slog.Logger) (*Server, error) {
	const op = "embedded.Start"
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, kiln.E(op, err)
	}
	lock, err := lockDir(dir)
	if err != nil {
		return nil, kiln.E(op, err)
	}
	s, err := start(ctx, dir, logger, lock)
	if err != nil {
		lock.Close()
		return nil, kiln.E(op, err)
	}
	return s, nil
}

func start(ctx context.Context, dir string, logger *slog.Logger, lock *os.File) (*Server, error) {
	if err := removeTemps(dir); err != nil {
		return nil, err
	}
	m := miniredis.NewMiniRedis()
	now := time.Now() // TTLs are restored as of now, and aged from it
	n, snapWAL, err := load(m, filepath.Join(dir, snapshotName), now)
	if err != nil {
		return nil, err
	}
	if err := m.StartAddr("127.0.0.1:0"); err != nil {
		return nil, err
	}
	m.Server().SetPreHook(refuseHighDB)
	last, replayed, err := replay(ctx, dir, m.Addr(), snapWAL, -1)
	if err != nil {
		m.Close()
		return nil, fmt.Errorf("write-ahead log: %w", err)
	}
	w, err := openWAL(dir, m.Addr(), last, logger)
	if err != nil {
		m.Close()
		return nil, err
	}
	s := &Server{
		dir:    dir,
		addr:   w.addr(),
		log:    logger,
		m:      m,
		client: redis.NewClient(&redis.Options{Addr: m.Addr()}),
		wal:    w,
		lock:   lock,
		done:   make(chan struct{}),
		aged:   now,
	}
	err = s.client.Ping(ctx).Err()
	if err == nil {
		err = writeAtomic(filepath.Join(dir, addrName), func(w io.Writer) error {
			_, err := io.WriteString(w, s.Addr()+"\n")
			return err
		})
	}
	if err != nil {
		w.close()
		s.client.Close()
		m.Close()
		return nil, err
	}
	// The loop lives until Close, not until ctx, which only bounds the start.
	loop, stop := context.WithCancel(context.WithoutCancel(ctx))
	s.stop = stop
	go s.run(loop)
	logger.Info("embedded redis started", "addr", s.Addr(), "dir", dir, "keys", n, "log_commands_replayed", replayed)
	return s, nil
}

// Addr is the host:port the server listens on.
func (s *Server) Addr() string { return s.addr }

// URL is Addr as a redis:// URL, for clients configured by URL.
func (s *Server) URL() string { return "redis://" + s.Addr() }

// run ages TTLs with the wall clock, so that locks and heartbeats expire as
// on a real Redis, and compacts the log when it has grown.
func (s *Server) run(ctx context.Context) {
	defer close(s.done)
	tick := time.NewTicker(tickEvery)
	defer tick.Stop()
	snap := time.NewTicker(snapshotEvery)
	defer snap.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			s.mu.Lock()
			s.age()
			s.mu.Unlock()
			if err := s.wal.sync(); err != nil {
				s.log.Error("embedded redis log sync failed", "dir", s.dir, "err", err)
			}
		case <-snap.C:
			if s.wal.segmentSize() < compactAt {
				continue
			}
			if err := s.compact(ctx); err != nil {
				s.log.Error("embedded redis log compaction failed", "dir", s.dir, "err", err)
			}
		}
	}
}

// compact folds the finished log segments into a new snapshot without
// holding the served data: it starts a new segment, rebuilds the last
// snapshot plus the finished segments in a scratch miniredis, dumps that,
// and deletes the segments the new snapshot holds. Call it from run only.
func (s *Server) compact(ctx context.Context) error {
	closed, ok, err := s.wal.rotate()
	if err != nil || !ok {
		return err
	}
	scratch := miniredis.NewMiniRedis()
	defer scratch.Close()
	now := time.Now()
	_, snapWAL, err := load(scratch, filepath.Join(s.dir, snapshotName), now)
	if err != nil {
		return err
	}
	if err := scratch.StartAddr("127.0.0.1:0"); err != nil {
		return err
	}
	if _, _, err := replay(ctx, s.dir, scratch.Addr(), snapWAL, closed); err != nil {
		return err
	}
	c := redis.NewClient(&redis.Options{Addr: scratch.Addr()})
	defer c.Close()
	dctx, cancel := context.WithTimeout(ctx, saveTimeout)
	defer cancel()
	snap, err := dump(dctx, c, now)
	if err != nil {
		return err
	}
	snap.WAL = closed
	s.mu.Lock()
	err = s.write(snap)
	s.mu.Unlock()
	if err != nil {
		return err
	}
	return removeSegments(s.dir, closed)
}

// age advances the TTLs to now and returns now. Call it with s.mu held.
func (s *Server) age() time.Time {
	now := time.Now()
	s.m.FastForward(now.Sub(s.aged))
	s.aged = now
	return now
}

// Close saves a last snapshot and stops the server. Call it after the
// clients (the Asynq server above all) have shut down, or their last
// writes are lost.
func (s *Server) Close() error {
	s.closed.Do(func() {
		s.stop()
		<-s.done
		err := s.Save()
		err = errors.Join(err, s.wal.close())
		if rerr := os.Remove(filepath.Join(s.dir, addrName)); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
			err = errors.Join(err, rerr)
		}
		s.client.Close()
		s.m.Close()
		s.lock.Close()
		if err != nil {
			s.err = kiln.E("embedded.Close", err)
		}
	})
	return s.err
}

// lockDir takes an exclusive lock that the kernel drops when the process
// dies, so a crash never leaves the dir locked.
func lockDir(dir string) (*os.File, error) {
	path := filepath.Join(dir, lockName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("data dir %s is in use by another kiln serve (it holds %s): stop that one or use another data dir", dir, path)
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return f, nil
}

// Running reports the address of the embedded Redis serving dir, for
// commands such as `kiln keys` that must talk to the live server rather than
// edit its snapshot behind its back. A redis.addr left by a crashed server
// does not count.
func Running(dir string) (addr string, ok bool) {
	b, err := os.ReadFile(filepath.Join(dir, addrName))
	if err != nil {
		return "", false
	}
	addr = strings.TrimSpace(string(b))
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	c := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1})
	defer c.Close()
	if c.Ping(ctx).Err() != nil {
		return "", false
	}
	// Something answers, but it may have taken the port of a dead server.
	if lock, err := lockDir(dir); err == nil {
		lock.Close()
		return "", false
	}
	return addr, true
}

// refuseHighDB answers a command that reaches a database Save does not
// cover with the error of a real Redis, rather than letting its keys vanish
// at the next restart. It runs before every command, Lua's included.
func refuseHighDB(c *server.Peer, cmd string, args ...string) bool {
	var ids []string
	switch cmd {
	case "SELECT", "SWAPDB":
		ids = args
	case "MOVE":
		ids = args[min(1, len(args)):]
	case "COPY": // COPY source destination [DB n] [REPLACE]
		for i := 2; i+1 < len(args); i++ {
			if strings.EqualFold(args[i], "DB") {
				ids = append(ids, args[i+1])
			}
		}
	}
	for _, id := range ids {
		if n, err := strconv.Atoi(id); err == nil && n >= databases {
			c.WriteError("ERR DB index is out of range")
			return true
		}
	}
	return false
}
