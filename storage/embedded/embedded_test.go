package embedded

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/gob"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
)

func startT(t *testing.T, dir string) *Server {
	t.Helper()
	s, err := Start(t.Context(), dir, slog.New(slog.NewTextHandler(t.Output(), nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func clientT(t *testing.T, s *Server, db int) *redis.Client {
	t.Helper()
	c := redis.NewClient(&redis.Options{Addr: s.Addr(), DB: db})
	t.Cleanup(func() { c.Close() })
	return c
}

// value reads a key the way a client sees it, whatever its type.
func value(ctx context.Context, c *redis.Client, key string) (any, error) {
	typ, err := c.Type(ctx, key).Result()
	if err != nil {
		return nil, err
	}
	switch typ {
	case "string":
		return c.Get(ctx, key).Result()
	case "hash":
		return c.HGetAll(ctx, key).Result()
	case "list":
		return c.LRange(ctx, key, 0, -1).Result()
	case "set":
		m, err := c.SMembers(ctx, key).Result()
		slices.Sort(m)
		return m, err
	case "zset":
		return c.ZRangeWithScores(ctx, key, 0, -1).Result()
	}
	return nil, fmt.Errorf("key %q has type %q", key, typ)
}

func TestRestartKeepsEveryType(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	const bin = "bin\x00ary\xff\xfe\x00"
	types := []struct {
		name  string
		write func(c *redis.Client, key string) error
		want  any
	}{
		{"string", func(c *redis.Client, key string) error {
			return c.Set(ctx, key, bin, 0).Err()
		}, bin},
		{"hash", func(c *redis.Client, key string) error {
			return c.HSet(ctx, key, "f"+bin, "v"+bin, "empty", "").Err()
		}, map[string]string{"f" + bin: "v" + bin, "empty": ""}},
		{"list", func(c *redis.Client, key string) error {
			return c.RPush(ctx, key, "a", "", "a", bin).Err()
		}, []string{"a", "", "a", bin}},
		{"set", func(c *redis.Client, key string) error {
			return c.SAdd(ctx, key, "x", bin, "").Err()
		}, []string{"", bin, "x"}},
		{"zset", func(c *redis.Client, key string) error {
			return c.ZAdd(ctx, key,
				redis.Z{Score: math.Inf(-1), Member: "-inf"}, redis.Z{Score: -2.5, Member: bin},
				redis.Z{Score: 5e-324, Member: "tiny"}, redis.Z{Score: 0.1, Member: "tenth"},
				redis.Z{Score: 1.0 / 3, Member: "third"}, redis.Z{Score: math.Pi, Member: "pi"},
				redis.Z{Score: 1e300, Member: "huge"}, redis.Z{Score: math.Inf(1), Member: "+inf"},
			).Err()
		}, []redis.Z{
			{Score: math.Inf(-1), Member: "-inf"}, {Score: -2.5, Member: bin},
			{Score: 5e-324, Member: "tiny"}, {Score: 0.1, Member: "tenth"},
			{Score: 1.0 / 3, Member: "third"}, {Score: math.Pi, Member: "pi"},
			{Score: 1e300, Member: "huge"}, {Score: math.Inf(1), Member: "+inf"},
		}},
	}
	type key struct {
		db   int
		name string
		want any
		ttl  time.Duration // as read before the restart; -1 for none
	}
	dir := t.TempDir()
	a := startT(t, dir)
	var keys []*key
	for _, db := range []int{0, 3} {
		c := clientT(t, a, db)
		for _, typ := range types {
			for _, ttl := range []time.Duration{0, time.Hour} {
				k := &key{db: db, name: fmt.Sprintf("%s-ttl%v", typ.name, ttl), want: typ.want}
				if err := typ.write(c, k.name); err != nil {
					t.Fatalf("write %s: %v", k.name, err)
				}
				if ttl > 0 {
					if err := c.PExpire(ctx, k.name, ttl).Err(); err != nil {
						t.Fatal(err)
					}
				}
				keys = append(keys, k)
			}
		}
	}
	c := clientT(t, a, 0)
	fields := &key{name: "hash-field-ttl", want: map[string]string{"f1": "1", "f2": "2"}}
	if err := c.HSet(ctx, fields.name, "f1", "1", "f2", "2").Err(); err != nil {
		t.Fatal(err)
	}
	if err := c.HExpire(ctx, fields.name, time.Hour, "f1").Err(); err != nil {
		t.Fatal(err)
	}
	fieldTTL, err := c.HPTTL(ctx, fields.name, "f1", "f2").Result()
	if err != nil {
		t.Fatal(err)
	}
	keys = append(keys, fields)

	for _, k := range keys {
		c := clientT(t, a, k.db)
		got, err := value(ctx, c, k.name)
		if err != nil || !reflect.DeepEqual(got, k.want) {
			t.Fatalf("db %d %s before restart: %q, %v; want %q", k.db, k.name, got, err, k.want)
		}
		if k.ttl, err = c.PTTL(ctx, k.name).Result(); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}

	b := startT(t, dir)
	for _, k := range keys {
		c := clientT(t, b, k.db)
		got, err := value(ctx, c, k.name)
		if err != nil || !reflect.DeepEqual(got, k.want) {
			t.Errorf("db %d %s after restart: %q, %v; want %q", k.db, k.name, got, err, k.want)
		}
		ttl, err := c.PTTL(ctx, k.name).Result()
		if err != nil {
			t.Fatal(err)
		}
		if k.ttl < 0 && ttl != k.ttl || k.ttl >= 0 && (ttl <= 0 || ttl > k.ttl) {
			t.Errorf("db %d %s: ttl %v after restart, %v before", k.db, k.name, ttl, k.ttl)
		}
	}
	ft, err := clientT(t, b, 0).HPTTL(ctx, fields.name, "f1", "f2").Result()
	if err != nil {
		t.Fatal(err)
	}
	if ft[0] <= 0 || ft[0] > fieldTTL[0] || ft[1] != -1 {
		t.Errorf("hash field ttls %v after restart, %v before", ft, fieldTTL)
	}
}

func TestAsynqSurvivesRestart(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	dir := t.TempDir()
	a := startT(t, dir)
	opt := asynq.RedisClientOpt{Addr: a.Addr()}
	client := asynq.NewClient(opt)
	want := map[string]*asynq.TaskInfo{}
	for _, e := range []struct {
		payload string
		opts    []asynq.Option
	}{
		{"pending\x00payload", nil},
		{"scheduled", []asynq.Option{asynq.ProcessIn(time.Hour)}},
		{"with id", []asynq.Option{asynq.TaskID("fixed-id")}},
		{"paused", []asynq.Option{asynq.Queue("paused")}},
	} {
		info, err := client.EnqueueContext(ctx, asynq.NewTask("test:work", []byte(e.payload)), e.opts...)
		if err != nil {
			t.Fatalf("enqueue %q: %v", e.payload, err)
		}
		want[info.ID] = info
	}
	insp := asynq.NewInspector(opt)
	if err := insp.PauseQueue("paused"); err != nil {
		t.Fatal(err)
	}
	insp.Close()
	client.Close()
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}

	b := startT(t, dir)
	opt = asynq.RedisClientOpt{Addr: b.Addr()}
	insp = asynq.NewInspector(opt)
	defer insp.Close()
	got := map[string]*asynq.TaskInfo{}
	for _, list := range []func() ([]*asynq.TaskInfo, error){
		func() ([]*asynq.TaskInfo, error) { return insp.ListPendingTasks("default") },
		func() ([]*asynq.TaskInfo, error) { return insp.ListScheduledTasks("default") },
		func() ([]*asynq.TaskInfo, error) { return insp.ListPendingTasks("paused") },
	} {
		infos, err := list()
		if err != nil {
			t.Fatal(err)
		}
		for _, info := range infos {
			got[info.ID] = info
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d tasks after restart, want %d", len(got), len(want))
	}
	for id, w := range want {
		g, ok := got[id]
		switch {
		case !ok:
			t.Errorf("task %s (%q) lost", id, w.Payload)
		case !bytes.Equal(g.Payload, w.Payload) || g.Queue != w.Queue || g.State != w.State || g.Type != w.Type:
			t.Errorf("task %s: got %q in %s (%v), want %q in %s (%v)", id, g.Payload, g.Queue, g.State, w.Payload, w.Queue, w.State)
		case w.State == asynq.TaskStateScheduled && !g.NextProcessAt.Equal(w.NextProcessAt.Truncate(time.Second)):
			t.Errorf("task %s: due %v, want %v", id, g.NextProcessAt, w.NextProcessAt)
		}
	}
	if qi, err := insp.GetQueueInfo("paused"); err != nil || !qi.Paused {
		t.Errorf("queue paused after restart: %v, %v", qi, err)
	}
	client = asynq.NewClient(opt)
	defer client.Close()
	if _, err := client.EnqueueContext(ctx, asynq.NewTask("test:work", nil), asynq.TaskID("fixed-id")); !errors.Is(err, asynq.ErrTaskIDConflict) {
		t.Errorf("enqueue of a taken task id after restart: %v, want ErrTaskIDConflict", err)
	}

	processed := make(chan string, len(want))
	srv := asynq.NewServer(opt, asynq.Config{
		Concurrency: 1,
		Queues:      map[string]int{"default": 1, "paused": 1},
		LogLevel:    asynq.ErrorLevel,
	})
	mux := asynq.NewServeMux()
	mux.HandleFunc("test:work", func(_ context.Context, task *asynq.Task) error {
		processed <- string(task.Payload())
		return nil
	})
	if err := srv.Start(mux); err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	var done []string
	for len(done) < 2 {
		select {
		case p := <-processed:
			done = append(done, p)
		case <-time.After(20 * time.Second):
			t.Fatalf("processed %q after restart, want the two pending tasks of the default queue", done)
		}
	}
	slices.Sort(done)
	if want := []string{"pending\x00payload", "with id"}; !slices.Equal(done, want) {
		t.Errorf("processed %q, want %q", done, want)
	}
}

func TestTTLsRunOnWallClock(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	dir := t.TempDir()
	a := startT(t, dir)
	c := clientT(t, a, 0)
	set := time.Now()
	for key, ttl := range map[string]time.Duration{"short": 2 * time.Second, "down": 4 * time.Second, "long": time.Hour} {
		if err := c.Set(ctx, key, "v", ttl).Err(); err != nil {
			t.Fatal(err)
		}
	}
	exists := func(c *redis.Client, key string) bool {
		n, err := c.Exists(ctx, key).Result()
		if err != nil {
			t.Fatal(err)
		}
		return n == 1
	}
	time.Sleep(time.Second)
	if !exists(c, "short") {
		t.Fatal("key with a 2 s TTL gone after 1 s")
	}
	for exists(c, "short") {
		if time.Since(set) > 3500*time.Millisecond {
			t.Fatal("key with a 2 s TTL still there after 3.5 s")
		}
		time.Sleep(100 * time.Millisecond)
	}
	if !exists(c, "down") || !exists(c, "long") {
		t.Fatal("keys with a longer TTL expired too")
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Until(set.Add(4500 * time.Millisecond)))
	c = clientT(t, startT(t, dir), 0)
	if exists(c, "down") {
		t.Error("key whose TTL ran out while the server was down came back")
	}
	if !exists(c, "long") {
		t.Error("key with a 1 h TTL lost")
	}
}

func TestOneServerPerDir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := startT(t, dir)
	if _, err := Start(t.Context(), dir, slog.Default()); err == nil || !strings.Contains(err.Error(), "in use") {
		t.Fatalf("second Start on the same dir: %v, want an error saying the dir is in use", err)
	}
	if addr, ok := Running(dir); !ok || addr != a.Addr() {
		t.Errorf("Running = %q, %v; want %q, true", addr, ok, a.Addr())
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if addr, ok := Running(dir); ok {
		t.Errorf("Running after Close = %q, true", addr)
	}

	// A crashed server leaves its address behind; nothing listens there.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := l.Addr().String()
	l.Close()
	if err := os.WriteFile(filepath.Join(dir, addrName), []byte(dead+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if addr, ok := Running(dir); ok {
		t.Errorf("Running with the stale address of a closed port = %q, true", addr)
	}
	// Or another Redis took the port since.
	other := startT(t, t.TempDir())
	if err := os.WriteFile(filepath.Join(dir, addrName), []byte(other.Addr()+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if addr, ok := Running(dir); ok {
		t.Errorf("Running with the stale address of another server = %q, true", addr)
	}
	startT(t, dir) // the lock went with Close
}

func TestCorruptSnapshotStopsStart(t *testing.T) {
	t.Parallel()
	src := t.TempDir()
	s := startT(t, src)
	if err := clientT(t, s, 0).Set(t.Context(), "k", strings.Repeat("v", 1000), 0).Err(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(filepath.Join(src, snapshotName))
	if err != nil {
		t.Fatal(err)
	}
	flipped := bytes.Clone(good)
	flipped[len(flipped)/2] ^= 0xff
	var future bytes.Buffer
	zw := gzip.NewWriter(&future)
	if err := gob.NewEncoder(zw).Encode(snapshot{Version: snapshotVersion + 1}); err != nil {
		t.Fatal(err)
	}
	zw.Close()

	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"garbage", []byte("not a snapshot")},
		{"empty", nil},
		{"truncated", good[:len(good)/2]},
		{"flipped byte", flipped},
		{"newer version", future.Bytes()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, snapshotName)
			if err := os.WriteFile(path, tc.data, 0o600); err != nil {
				t.Fatal(err)
			}
			if s, err := Start(t.Context(), dir, slog.Default()); err == nil || !strings.Contains(err.Error(), path) {
				if err == nil {
					s.Close()
				}
				t.Fatalf("Start: %v, want an error naming %s", err, path)
			}
			if after, err := os.ReadFile(path); err != nil || !bytes.Equal(after, tc.data) {
				t.Errorf("snapshot changed by the failed Start: %v", err)
			}
			if _, ok := Running(dir); ok {
				t.Error("Running after a failed Start")
			}
			lock, err := lockDir(dir)
			if err != nil {
				t.Fatalf("failed Start kept the lock: %v", err)
			}
			lock.Close()
		})
	}
}

func temps(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "*"+tempSuffix))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestSaveRefusesUnsupportedTypes(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	dir := t.TempDir()
	s := startT(t, dir)
	c := clientT(t, s, 0)
	if err := c.Set(ctx, "k", "v", 0).Err(); err != nil {
		t.Fatal(err)
	}
	if err := s.Save(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, snapshotName)
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		typ   string
		write func(key string) error
	}{
		{"stream", func(key string) error {
			return c.XAdd(ctx, &redis.XAddArgs{Stream: key, Values: []string{"f", "v"}}).Err()
		}},
		{"hll", func(key string) error { return c.PFAdd(ctx, key, "a").Err() }},
	} {
		key := "a-" + tc.typ
		if err := tc.write(key); err != nil {
			t.Fatal(err)
		}
		err := s.Save()
		if err == nil || !strings.Contains(err.Error(), key) || !strings.Contains(err.Error(), tc.typ) {
			t.Errorf("Save with a %s: %v, want an error naming the key and its type", tc.typ, err)
		}
		if after, err := os.ReadFile(path); err != nil || !bytes.Equal(after, before) {
			t.Errorf("snapshot changed by a failed Save: %v", err)
		}
		if err := c.Del(ctx, key).Err(); err != nil {
			t.Fatal(err)
		}
	}
	if tmp := temps(t, dir); len(tmp) > 0 {
		t.Errorf("temporary files left: %q", tmp)
	}
}

func TestSaveSkipsUnchangedData(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := startT(t, dir)
	c := clientT(t, s, 0)
	path := filepath.Join(dir, snapshotName)
	file := func() os.FileInfo {
		t.Helper()
		if err := s.Save(); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return fi
	}
	if err := c.Set(t.Context(), "k", "1", 0).Err(); err != nil {
		t.Fatal(err)
	}
	first := file()
	if !os.SameFile(first, file()) {
		t.Error("Save rewrote a snapshot of unchanged data")
	}
	if err := c.Set(t.Context(), "k", "2", 0).Err(); err != nil {
		t.Fatal(err)
	}
	if os.SameFile(first, file()) {
		t.Error("Save kept the snapshot of changed data")
	}
}

func TestHighDatabasesRefused(t *testing.T) {
	t.Parallel()
	s := startT(t, t.TempDir())
	if err := clientT(t, s, 0).Set(t.Context(), "k", "v", 0).Err(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []any
		ok   bool
	}{
		{[]any{"select", "16"}, false},
		{[]any{"MOVE", "k", "16"}, false},
		{[]any{"SWAPDB", "0", "16"}, false},
		{[]any{"COPY", "k", "k2", "db", "16"}, false},
		{[]any{"COPY", "k", "k2", "DB", "15"}, true},
		{[]any{"SELECT", "15"}, true},
	} {
		err := clientT(t, s, 0).Do(t.Context(), tc.args...).Err()
		if tc.ok && err != nil || !tc.ok && (err == nil || !strings.Contains(err.Error(), "out of range")) {
			t.Errorf("%v: %v", tc.args, err)
		}
	}
}

const crashEnv = "KILN_EMBEDDED_CRASH_DIR"

// TestCrashDuringSave kills a process that saves in a loop, at random
// moments, until a kill lands while a snapshot is being written, and checks
// that the previous snapshot is still whole.
func TestCrashDuringSave(t *testing.T) {
	if dir := os.Getenv(crashEnv); dir != "" {
		saveForever(t, dir)
		return
	}
	t.Parallel()
	dir := t.TempDir()
	interrupted := false
	for attempt := 0; attempt < 20 && !interrupted; attempt++ {
		cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestCrashDuringSave$")
		cmd.Env = append(os.Environ(), crashEnv+"="+dir)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if !waitLine(out, "saved") {
			cmd.Process.Kill()
			t.Fatalf("child: %v", cmd.Wait())
		}
		time.Sleep(rand.N(300 * time.Millisecond))
		cmd.Process.Kill()
		cmd.Wait()
		interrupted = len(temps(t, dir)) > 0

		s := startT(t, dir)
		got, err := clientT(t, s, 0).Get(t.Context(), "big").Bytes()
		if err != nil || len(got) != bigSize || !bytes.Equal(got, bigValue()) {
			t.Fatalf("after a kill (mid-write: %v): big value of %d bytes, %v", interrupted, len(got), err)
		}
		if tmp := temps(t, dir); len(tmp) > 0 {
			t.Errorf("Start left the temporary files of the killed Save: %q", tmp)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if !interrupted {
		t.Fatal("no kill landed during a write")
	}
}

const bigSize = 4 << 20

// bigValue is incompressible, so that writing a snapshot takes long enough
// to be killed in the middle.
func bigValue() []byte {
	b := make([]byte, bigSize)
	r := rand.NewChaCha8([32]byte{})
	r.Read(b)
	return b
}

func waitLine(out interface{ Read([]byte) (int, error) }, want string) bool {
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if sc.Text() == want {
			return true
		}
	}
	return false
}

func saveForever(t *testing.T, dir string) {
	s, err := Start(context.Background(), dir, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	c := redis.NewClient(&redis.Options{Addr: s.Addr()})
	if err := c.Set(context.Background(), "big", bigValue(), 0).Err(); err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		if err := c.Set(context.Background(), "counter", i, 0).Err(); err != nil {
			t.Fatal(err)
		}
		if err := s.Save(); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			fmt.Println("saved")
		}
	}
}
