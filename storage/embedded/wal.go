package embedded

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// The write-ahead log. Clients reach miniredis through a proxy that
// forwards each command, reads its reply, and appends the command to the
// log before the reply goes back: a write a client saw acknowledged is in
// the log, which the kernel keeps through a SIGKILL of the process. At the
// next start the log is replayed over the last snapshot. Commands pass the
// proxy one at a time, so the log's order is the order miniredis ran them.
//
// The log is a series of segments (redis-wal.N). Compaction starts a new
// segment and folds the finished ones into a new snapshot built in a
// scratch miniredis off to the side, so the served data is never locked
// for a dump; the snapshot names the last segment it holds, and the
// segments it holds are then deleted.

const walPrefix = "redis-wal."

// readOnly are the commands that change nothing and are not logged.
// Anything else is logged, so an unknown command errs on the safe side.
var readOnly = map[string]bool{
	"GET": true, "MGET": true, "STRLEN": true, "GETRANGE": true, "EXISTS": true, "TYPE": true, "TTL": true, "PTTL": true,
	"EXPIRETIME": true, "PEXPIRETIME": true, "KEYS": true, "SCAN": true, "RANDOMKEY": true, "DBSIZE": true,
	"HGET": true, "HMGET": true, "HGETALL": true, "HKEYS": true, "HVALS": true, "HLEN": true, "HEXISTS": true, "HSCAN": true,
	"HSTRLEN": true, "HTTL": true, "HPTTL": true, "HRANDFIELD": true,
	"LRANGE": true, "LLEN": true, "LINDEX": true, "LPOS": true,
	"SMEMBERS": true, "SISMEMBER": true, "SMISMEMBER": true, "SCARD": true, "SSCAN": true, "SRANDMEMBER": true,
	"SINTER": true, "SUNION": true, "SDIFF": true, "SINTERCARD": true,
	"ZRANGE": true, "ZRANGEBYSCORE": true, "ZREVRANGE": true, "ZREVRANGEBYSCORE": true, "ZRANGEBYLEX": true,
	"ZREVRANGEBYLEX": true, "ZSCORE": true, "ZMSCORE": true, "ZCARD": true, "ZCOUNT": true, "ZLEXCOUNT": true,
	"ZRANK": true, "ZREVRANK": true, "ZSCAN": true, "ZRANDMEMBER": true,
	"PING": true, "ECHO": true, "HELLO": true, "AUTH": true, "CLIENT": true, "QUIT": true, "INFO": true,
	"COMMAND": true, "TIME": true, "CONFIG": true, "MEMORY": true, "OBJECT": true, "DUMP": true,
	"WATCH": true, "UNWATCH": true, "PUBLISH": true, "EVAL_RO": true, "EVALSHA_RO": true,
}

// wal is the proxy and its log.
type wal struct {
	dir   string
	inner string // miniredis's own address
	log   *slog.Logger
	ln    net.Listener

	mu      sync.Mutex // one command at a time through the proxy
	seg     int        // number of the segment being written
	f       *os.File
	size    int64
	scripts map[string]string // sha1 → body, so EVALSHA is logged as EVAL
}

func segmentPath(dir string, n int) string { return filepath.Join(dir, walPrefix+strconv.Itoa(n)) }

// segments lists the numbers of the log segments in dir, in order.
func segments(dir string) ([]int, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var ns []int
	for _, e := range ents {
		if n, ok := strings.CutPrefix(e.Name(), walPrefix); ok {
			if i, err := strconv.Atoi(n); err == nil {
				ns = append(ns, i)
			}
		}
	}
	slices.Sort(ns)
	return ns, nil
}

// replay runs the segments after the snapshot's (after) and up to upTo
// (all when upTo < 0) against the miniredis at addr, in order, and returns
// the last segment number seen. A torn entry at the end of the last
// segment (a write the process died in, never acknowledged) ends the
// replay there and is cut off.
func replay(ctx context.Context, dir, addr string, after, upTo int) (last, commands int, err error) {
	ns, err := segments(dir)
	if err != nil {
		return 0, 0, err
	}
	if upTo >= 0 {
		ns = slices.DeleteFunc(ns, func(n int) bool { return n > upTo })
	}
	last = after
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return 0, 0, err
	}
	defer c.Close()
	cr := bufio.NewReader(c)
	db := -1
	for i, n := range ns {
		if n <= after {
			continue
		}
		last = n
		path := segmentPath(dir, n)
		f, err := os.OpenFile(path, os.O_RDWR, 0)
		if err != nil {
			return 0, 0, err
		}
		r := bufio.NewReader(f)
		var good int64
		for {
			raw, args, err := readCommand(r)
			if err == io.EOF {
				break
			}
			if err != nil || len(args) < 2 {
				if i != len(ns)-1 {
					f.Close()
					return 0, 0, fmt.Errorf("log segment %s is damaged before its end (entry at byte %d): %v", path, good, err)
				}
				if err := f.Truncate(good); err != nil {
					f.Close()
					return 0, 0, err
				}
				break
			}
			good += int64(len(raw))
			entryDB, err := strconv.Atoi(args[0])
			if err != nil {
				f.Close()
				return 0, 0, fmt.Errorf("log segment %s: bad database %q", path, args[0])
			}
			var out []byte
			if entryDB != db {
				out = appendCommand(out, "SELECT", args[0])
			}
			out = appendCommand(out, args[1:]...)
			if _, err := c.Write(out); err != nil {
				f.Close()
				return 0, 0, err
			}
			if entryDB != db {
				if _, _, err := readReply(cr, new(bytes.Buffer)); err != nil {
					f.Close()
					return 0, 0, err
				}
				db = entryDB
			}
			// Errors replay as they happened: they changed nothing then
			// and change nothing now.
			if _, _, err := readReply(cr, new(bytes.Buffer)); err != nil {
				f.Close()
				return 0, 0, err
			}
			commands++
		}
		f.Close()
	}
	return last, commands, nil
}

// openWAL starts the proxy on a loopback port, logging into a new segment
// numbered after last.
func openWAL(dir, inner string, last int, log *slog.Logger) (*wal, error) {
	w := &wal{dir: dir, inner: inner, log: log, seg: last + 1, scripts: map[string]string{}}
	f, err := os.OpenFile(segmentPath(dir, w.seg), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	w.f = f
	if w.ln, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
		f.Close()
		return nil, err
	}
	go w.accept()
	return w, nil
}

func (w *wal) addr() string { return w.ln.Addr().String() }

func (w *wal) accept() {
	for {
		c, err := w.ln.Accept()
		if err != nil {
			return
		}
		go w.serve(c)
	}
}

// serve relays one client connection.
func (w *wal) serve(client net.Conn) {
	defer client.Close()
	up, err := net.Dial("tcp", w.inner)
	if err != nil {
		return
	}
	defer up.Close()
	cr, ur := bufio.NewReader(client), bufio.NewReader(up)
	db := 0
	var queued [][]string // of a MULTI
	multi := false
	var reply bytes.Buffer
	for {
		raw, args, err := readCommand(cr)
		if err != nil {
			return
		}
		name := strings.ToUpper(args[0])
		if name == "SUBSCRIBE" || name == "PSUBSCRIBE" || name == "SSUBSCRIBE" {
			// A subscriber only listens from now on: relay both ways.
			if _, err := up.Write(raw); err != nil {
				return
			}
			go func() { io.Copy(client, ur); client.Close() }()
			io.Copy(up, cr)
			return
		}
		if name == "EVALSHA" && len(args) > 1 && !w.knows(args[1]) {
			// A script the log could not replay (miniredis may have it
			// from a replayed EVAL): the client sends its body instead.
			if _, err := client.Write([]byte("-NOSCRIPT No matching script. Please use EVAL.\r\n")); err != nil {
				return
			}
			continue
		}
		reply.Reset()
		w.mu.Lock()
		if _, err = up.Write(raw); err == nil {
			var typ byte
			var null bool
			if typ, null, err = readReply(ur, &reply); err == nil {
				err = w.note(&db, &multi, &queued, name, args, typ, null, reply.Bytes())
			}
		}
		w.mu.Unlock()
		if err != nil {
			w.log.Error("embedded redis log write failed: closing the connection unanswered", "err", err)
			return
		}
		if _, err := client.Write(reply.Bytes()); err != nil {
			return
		}
	}
}

// note logs what the command changed, given its reply. Call with w.mu.
func (w *wal) note(db *int, multi *bool, queued *[][]string, name string, args []string, typ byte, null bool, reply []byte) error {
	switch {
	case name == "SELECT":
		if typ == '+' {
			*db, _ = strconv.Atoi(args[1])
		}
		return nil
	case name == "MULTI":
		*multi, *queued = typ == '+', nil
		return nil
	case name == "DISCARD":
		*multi, *queued = false, nil
		return nil
	case name == "EXEC":
		q := *queued
		*multi, *queued = false, nil
		if typ != '*' || null { // aborted: WATCH saw a change, or a queued command was refused
			return nil
		}
		for _, args := range q {
			if err := w.append(*db, args); err != nil {
				return err
			}
			if strings.EqualFold(args[0], "SELECT") {
				*db, _ = strconv.Atoi(args[1])
			}
		}
		return nil
	case *multi:
		if typ == '+' && (!readOnly[name] || name == "SELECT") {
			*queued = append(*queued, w.loggable(name, args))
		}
		return nil
	case name == "SCRIPT" && len(args) == 3 && strings.EqualFold(args[1], "LOAD"):
		w.scripts[sha(args[2])] = args[2]
		return nil
	case (name == "EVALSHA") && typ == '-' && bytes.HasPrefix(reply, []byte("-NOSCRIPT")):
		return nil
	case readOnly[name]:
		return nil
	}
	return w.append(*db, w.loggable(name, args))
}

// loggable turns EVALSHA into EVAL, whose body the replay has.
func (w *wal) loggable(name string, args []string) []string {
	switch name {
	case "EVAL":
		if len(args) > 1 {
			w.scripts[sha(args[1])] = args[1]
		}
	case "EVALSHA":
		if len(args) > 1 {
			if body, ok := w.scripts[strings.ToLower(args[1])]; ok {
				return append([]string{"EVAL", body}, args[2:]...)
			}
		}
	}
	return args
}

// knows reports whether the log can write EVALSHA of sha1 as an EVAL.
func (w *wal) knows(sha1 string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	_, ok := w.scripts[strings.ToLower(sha1)]
	return ok
}

func sha(body string) string {
	h := sha1.Sum([]byte(body))
	return hex.EncodeToString(h[:])
}

// append writes one entry to the current segment. Call with w.mu.
func (w *wal) append(db int, args []string) error {
	b := appendCommand(nil, append([]string{strconv.Itoa(db)}, args...)...)
	n, err := w.f.Write(b)
	w.size += int64(n)
	return err
}

// rotate closes the current segment and starts the next; it returns the
// number of the closed one, or false when it holds nothing (no need to
// compact).
func (w *wal) rotate() (int, bool, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.size == 0 {
		return 0, false, nil
	}
	return w.rotateLocked()
}

// rotateLocked is rotate with w.mu held, whatever the segment holds.
func (w *wal) rotateLocked() (int, bool, error) {
	f, err := os.OpenFile(segmentPath(w.dir, w.seg+1), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return 0, false, err
	}
	// No fsync under the lock: the closed segment is read back through the
	// page cache, and the snapshot that replaces it is synced before it is
	// deleted.
	w.f.Close()
	closed := w.seg
	w.f, w.seg, w.size = f, w.seg+1, 0
	return closed, true, nil
}

// sync flushes the segment being written to disk, outside the lock, as
// Redis's appendfsync everysec does: a SIGKILL loses nothing in any case
// (the kernel has every append), a power cut at most the last second.
func (w *wal) sync() error {
	w.mu.Lock()
	f := w.f
	w.mu.Unlock()
	if err := f.Sync(); err != nil && !errors.Is(err, os.ErrClosed) {
		return err
	}
	return nil
}

// segmentSize is the size of the segment being written.
func (w *wal) segmentSize() int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.size
}

// close stops accepting, ends the connections and closes the segment.
func (w *wal) close() error {
	w.ln.Close()
	w.mu.Lock()
	defer w.mu.Unlock()
	err := w.f.Sync()
	return errors.Join(err, w.f.Close())
}

// removeSegments deletes the segments up to and including n, which a
// snapshot now holds.
func removeSegments(dir string, n int) error {
	ns, err := segments(dir)
	if err != nil {
		return err
	}
	for _, i := range ns {
		if i <= n {
			if err := os.Remove(segmentPath(dir, i)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
	}
	return nil
}
