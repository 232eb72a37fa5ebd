package chaos

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/kilnhq/kiln/internal/testenv"
)

// The one set-up of every scenario of this package: a redis-server, `kiln
// api` and `kiln worker` processes built from this tree, on the MinIO of
// KILN_TEST_S3_*, and the helpers a client of them needs.

// layout says what startCluster runs.
type layout struct {
	apis, workers int
	// durable makes Redis write every change to disk before it answers,
	// so a SIGKILL of Redis itself loses nothing acknowledged.
	durable bool
	// env is added to every Kiln process's environment, workerEnv to the
	// workers' only.
	env, workerEnv []string
}

// cluster is what startCluster started: the processes, the base URLs of
// each api's platform and avatar listeners, and the admin key they share.
type cluster struct {
	redis     *proc
	redisPort int
	apis      []*proc
	workers   []*proc
	platform  []string
	avatar    []string
	admin     string
}

func startCluster(t *testing.T, l layout) *cluster {
	t.Helper()
	bin := build(t)
	dir := t.TempDir()
	c := &cluster{redisPort: freePort(t), admin: "chaos-admin-key-0123456789"}
	args := []string{"redis-server", "--port", fmt.Sprint(c.redisPort), "--bind", "127.0.0.1", "--dir", dir, "--save", ""}
	if l.durable {
		args = append(args, "--appendonly", "yes", "--appendfsync", "always")
	} else {
		args = append(args, "--appendonly", "no")
	}
	c.redis = &proc{name: "redis", args: args}
	c.redis.start(t)
	t.Cleanup(c.redis.kill)
	time.Sleep(300 * time.Millisecond)

	common := append([]string{
		fmt.Sprintf("KILN_REDIS_URL=redis://127.0.0.1:%d/0", c.redisPort),
		"KILN_S3_ENDPOINT=" + os.Getenv("KILN_TEST_S3_ENDPOINT"),
		"KILN_S3_ACCESS_KEY=" + os.Getenv("KILN_TEST_S3_ACCESS_KEY"),
		"KILN_S3_SECRET_KEY=" + os.Getenv("KILN_TEST_S3_SECRET_KEY"),
		"KILN_S3_BUCKET=" + testenv.Bucket(t), "KILN_ADMIN_KEY=" + c.admin,
		"KILN_LOG_LEVEL=warn", "KILN_WORKER_CONCURRENCY=2", "KILN_SHUTDOWN_TIMEOUT=2s",
		"KILN_CREATOR_WARM=false", // the api processes' warm-up would queue thumbnails and build avatars
	}, l.env...)
	for i := range l.apis {
		pl, av := freePort(t), freePort(t)
		p := &proc{name: fmt.Sprint("api", i), args: []string{bin, "api"}, env: append(clone(common),
			fmt.Sprintf("KILN_PLATFORM_ADDR=127.0.0.1:%d", pl), fmt.Sprintf("KILN_AVATAR_ADDR=127.0.0.1:%d", av),
			"KILN_DATA_DIR="+filepath.Join(dir, fmt.Sprint("api", i)))}
		p.start(t)
		t.Cleanup(p.kill)
		c.apis = append(c.apis, p)
		c.platform = append(c.platform, fmt.Sprintf("http://127.0.0.1:%d", pl))
		c.avatar = append(c.avatar, fmt.Sprintf("http://127.0.0.1:%d", av))
		waitHTTP(t, c.platform[i]+"/healthz")
	}
	for i := range l.workers {
		w := &proc{name: fmt.Sprint("worker", i), args: []string{bin, "worker"}, env: append(append(clone(common),
			fmt.Sprintf("KILN_WORKER_ADDR=127.0.0.1:%d", freePort(t)),
			"KILN_DATA_DIR="+filepath.Join(dir, fmt.Sprint("worker", i))), l.workerEnv...)}
		w.start(t)
		t.Cleanup(w.kill)
		c.workers = append(c.workers, w)
	}
	t.Cleanup(func() {
		if t.Failed() {
			for _, p := range append(append(clone(c.apis), c.workers...), c.redis) {
				t.Logf("--- %s log (tail):\n%s", p.name, tail(p.output(), 3000))
			}
		}
	})
	return c
}

// key makes an API key of account through api number i, with scopes and
// a plan ("" for the default).
func (c *cluster) key(t *testing.T, i int, account, plan string, scopes ...string) string {
	t.Helper()
	req, _ := json.Marshal(map[string]any{"account": account, "name": "chaos", "scopes": scopes, "plan": plan})
	if plan == "" {
		req, _ = json.Marshal(map[string]any{"account": account, "name": "chaos", "scopes": scopes})
	}
	st, body := call(t, "POST", c.platform[i]+"/admin/api-keys", c.admin, func() (io.Reader, string) {
		return bytes.NewReader(req), "application/json"
	})
	var created struct{ Data struct{ Key string } }
	if st != 201 || json.Unmarshal(body, &created) != nil || created.Data.Key == "" {
		t.Fatalf("create key of %s: %d %s", account, st, body)
	}
	return created.Data.Key
}

// need skips without the servers, except in CI, where .ci/run starts them.
func need(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs five processes for minutes")
	}
	_, err := exec.LookPath("redis-server")
	if err != nil || os.Getenv("KILN_TEST_S3_ENDPOINT") == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("CI is set but redis-server or KILN_TEST_S3_ENDPOINT is missing: .ci/run provides both")
		}
		t.Skip("needs redis-server and a MinIO (KILN_TEST_S3_ENDPOINT)")
	}
}

func freePort(t *testing.T) int {
	t.Helper()
	return testenv.FreePort(t)
}

// proc is one child process that can be killed and started again; its
// output (stdout and stderr, across restarts) is kept.
type proc struct {
	name string
	args []string
	env  []string
	mu   sync.Mutex
	cmd  *exec.Cmd
	log  logBuffer
}

// logBuffer is a buffer written by a child while the test reads it.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (p *proc) output() string {
	p.log.mu.Lock()
	defer p.log.mu.Unlock()
	return p.log.b.String()
}

func (p *proc) start(t *testing.T) {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	cmd := exec.Command(p.args[0], p.args[1:]...)
	cmd.Env = append(os.Environ(), p.env...)
	cmd.Stdout, cmd.Stderr = &p.log, &p.log
	if err := cmd.Start(); err != nil {
		t.Fatalf("%s: %v", p.name, err)
	}
	p.cmd = cmd
}

// signal sends sig to the running process (SIGSTOP freezes it, SIGCONT
// thaws it).
func (p *proc) signal(t *testing.T, sig syscall.Signal) {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil {
		t.Fatalf("%s is not running", p.name)
	}
	if err := p.cmd.Process.Signal(sig); err != nil {
		t.Fatalf("%s: %v", p.name, err)
	}
}

func (p *proc) kill() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd != nil {
		p.cmd.Process.Signal(syscall.SIGCONT) // a frozen process dies too
		p.cmd.Process.Signal(syscall.SIGKILL)
		p.cmd.Wait()
		p.cmd = nil
	}
}

func waitHTTP(t *testing.T, url string) {
	t.Helper()
	for end := time.Now().Add(60 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if res, err := http.Get(url); err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return
			}
		}
		if time.Now().After(end) {
			t.Fatalf("%s never answered 200", url)
		}
	}
}

func build(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "kiln")
	out, err := exec.Command("go", "build", "-o", bin, "../../cmd/kiln").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// call sends one request and retries it while the cluster answers 503 or
// cannot be reached (Redis restarting), as a client would.
func call(t *testing.T, method, url, key string, body func() (io.Reader, string)) (int, []byte) {
	t.Helper()
	end := time.Now().Add(deadline)
	for {
		var r io.Reader
		ct := ""
		if body != nil {
			r, ct = body()
		}
		req, err := http.NewRequest(method, url, r)
		if err != nil {
			t.Fatal(err)
		}
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		if ct != "" {
			req.Header.Set("Content-Type", ct)
		}
		res, err := http.DefaultClient.Do(req)
		if err == nil {
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != http.StatusServiceUnavailable {
				return res.StatusCode, b
			}
		}
		if time.Now().After(end) {
			t.Fatalf("%s %s: still unavailable after %v (%v)", method, url, deadline, err)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

func form(fields map[string]string) func() (io.Reader, string) {
	return func() (io.Reader, string) {
		var b bytes.Buffer
		w := multipart.NewWriter(&b)
		for k, v := range fields {
			w.WriteField(k, v)
		}
		w.Close()
		return &b, w.FormDataContentType()
	}
}

func clone[T any](s []T) []T { return append([]T(nil), s...) }

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}
