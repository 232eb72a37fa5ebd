// Package chaos runs Kiln as a team deploys it, two `kiln api` and three
// `kiln worker` processes on a real redis-server and a real MinIO, sends
// uploads, avatar variants and previews, kills workers with SIGKILL and
// restarts Redis under the load, and checks that every object and
// variant ends valid, once. It reports how long the work of a killed
// worker took to finish elsewhere (the recovery time).
//
//	go test ./bench/chaos -v    (KILN_TEST_S3_* name the MinIO, as in CI)
package chaos

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/kilnhq/kiln/internal/fixture"
	"github.com/kilnhq/kiln/internal/gltfcheck"
	"github.com/kilnhq/kiln/internal/testenv"
)

const (
	uploads = 24
	avatars = 6
	// deadline bounds the whole run after the load is sent: asynq finds
	// a dead worker's task 60 to 120 s after the crash.
	deadline = 200 * time.Second
)

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
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// proc is one child process that can be killed and started again.
type proc struct {
	name string
	args []string
	env  []string
	mu   sync.Mutex
	cmd  *exec.Cmd
	log  *bytes.Buffer
}

func (p *proc) start(t *testing.T) {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	cmd := exec.Command(p.args[0], p.args[1:]...)
	cmd.Env = append(os.Environ(), p.env...)
	if p.log == nil {
		p.log = new(bytes.Buffer)
	}
	cmd.Stdout, cmd.Stderr = p.log, p.log
	if err := cmd.Start(); err != nil {
		t.Fatalf("%s: %v", p.name, err)
	}
	p.cmd = cmd
}

func (p *proc) kill() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd != nil {
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

func TestChaos(t *testing.T) {
	need(t)
	bin := build(t)
	dir := t.TempDir()

	// Redis with every write on disk before it answers, so a SIGKILL of
	// Redis itself loses nothing acknowledged.
	redisPort := freePort(t)
	redisSrv := &proc{name: "redis", args: []string{"redis-server", "--port", fmt.Sprint(redisPort), "--bind", "127.0.0.1",
		"--dir", dir, "--appendonly", "yes", "--appendfsync", "always", "--save", ""}}
	redisSrv.start(t)
	t.Cleanup(redisSrv.kill)
	time.Sleep(300 * time.Millisecond)

	const admin = "chaos-admin-key-0123456789"
	common := []string{
		fmt.Sprintf("KILN_REDIS_URL=redis://127.0.0.1:%d/0", redisPort),
		"KILN_S3_ENDPOINT=" + os.Getenv("KILN_TEST_S3_ENDPOINT"),
		"KILN_S3_ACCESS_KEY=" + os.Getenv("KILN_TEST_S3_ACCESS_KEY"),
		"KILN_S3_SECRET_KEY=" + os.Getenv("KILN_TEST_S3_SECRET_KEY"),
		"KILN_S3_BUCKET=" + testenv.Bucket(t), "KILN_ADMIN_KEY=" + admin,
		"KILN_LOG_LEVEL=warn", "KILN_WORKER_CONCURRENCY=2", "KILN_SHUTDOWN_TIMEOUT=2s",
	}
	var apis []string // platform base URL, avatar base URL, per api
	var avatarURLs []string
	for i := range 2 {
		pl, av := freePort(t), freePort(t)
		p := &proc{name: fmt.Sprintf("api%d", i), args: []string{bin, "api"}, env: append(slices(common),
			fmt.Sprintf("KILN_PLATFORM_ADDR=127.0.0.1:%d", pl), fmt.Sprintf("KILN_AVATAR_ADDR=127.0.0.1:%d", av),
			"KILN_DATA_DIR="+filepath.Join(dir, fmt.Sprint("api", i)))}
		p.start(t)
		t.Cleanup(p.kill)
		apis = append(apis, fmt.Sprintf("http://127.0.0.1:%d", pl))
		avatarURLs = append(avatarURLs, fmt.Sprintf("http://127.0.0.1:%d", av))
		waitHTTP(t, apis[i]+"/healthz")
	}
	var workers []*proc
	for i := range 3 {
		w := &proc{name: fmt.Sprintf("worker%d", i), args: []string{bin, "worker"}, env: append(slices(common),
			fmt.Sprintf("KILN_WORKER_ADDR=127.0.0.1:%d", freePort(t)),
			"KILN_DATA_DIR="+filepath.Join(dir, fmt.Sprint("worker", i)))}
		w.start(t)
		t.Cleanup(w.kill)
		workers = append(workers, w)
	}
	t.Cleanup(func() {
		if t.Failed() {
			for _, p := range append(workers, redisSrv) {
				t.Logf("--- %s log (tail):\n%s", p.name, tail(p.log.String(), 3000))
			}
		}
	})

	st, body := call(t, "POST", apis[1]+"/admin/api-keys", admin, func() (io.Reader, string) {
		return strings.NewReader(`{"account":"acme","name":"chaos","scopes":["product:read","product:write","avatar:write"]}`), "application/json"
	})
	var created struct{ Data struct{ Key string } }
	if st != 201 || json.Unmarshal(body, &created) != nil || created.Data.Key == "" {
		t.Fatalf("create key through the second api with the shared admin key: %d %s", st, body)
	}
	key := created.Data.Key
	cube := fixture.CubeGLB()

	// The load: uploads through both apis, avatars with a variant and a
	// preview each, all at once.
	start := time.Now()
	ids := make([]string, uploads)
	var wg sync.WaitGroup
	for i := range uploads {
		wg.Go(func() {
			base := apis[i%2]
			st, b := call(t, "POST", base+"/resources/objects/prepare-upload", key, form(map[string]string{
				"name": fmt.Sprint("cube ", i), "type": "raw_model", "extension": "glb",
				"file_size": fmt.Sprint(len(cube)), "file_count": "1"}))
			var out []struct {
				ObjectID string `json:"objectId"`
				Upload   struct{ URL string }
			}
			if st != 200 || json.Unmarshal(b, &out) != nil || len(out) != 1 {
				t.Errorf("prepare-upload %d: %d %s", i, st, b)
				return
			}
			ids[i] = out[0].ObjectID
			if st, b := call(t, "PUT", out[0].Upload.URL, "", func() (io.Reader, string) { return bytes.NewReader(cube), "" }); st != 200 {
				t.Errorf("upload %d: %d %s", i, st, b)
				return
			}
			if st, b := call(t, "POST", apis[(i+1)%2]+"/resources/objects/"+ids[i]+"/finish-upload", key, form(map[string]string{"success": "true"})); st != 200 {
				t.Errorf("finish %d: %d %s", i, st, b)
			}
		})
	}
	variants := make([][]byte, avatars)
	previews := make([][]byte, avatars)
	avatarIDs := make([]string, avatars)
	for i := range avatars {
		wg.Go(func() {
			base := avatarURLs[i%2]
			st, b := call(t, "POST", base+"/avatar", key, func() (io.Reader, string) {
				return strings.NewReader(fmt.Sprintf(`{"version":"1","body":{"type":"%s","height":%.2f}}`, []string{"feminine", "masculine"}[i%2], 1.60+0.04*float64(i))), "application/json"
			})
			var out struct{ Data struct{ ModelID string } }
			if st != 200 || json.Unmarshal(b, &out) != nil || out.Data.ModelID == "" {
				t.Errorf("avatar %d: %d %s", i, st, b)
				return
			}
			avatarIDs[i] = out.Data.ModelID
			variants[i] = download(t, avatarURLs[(i+1)%2]+"/model/"+out.Data.ModelID+".glb?lod=1&textureAtlasSize=256")
			previews[i] = download(t, base+"/preview/"+out.Data.ModelID+".png")
		})
	}

	// The chaos, while the load runs: two workers killed, Redis killed
	// and started again on its AOF, the workers back.
	time.Sleep(1500 * time.Millisecond)
	killed := time.Now()
	workers[0].kill()
	time.Sleep(1000 * time.Millisecond)
	workers[1].kill()
	time.Sleep(1000 * time.Millisecond)
	redisSrv.kill()
	time.Sleep(2 * time.Second)
	redisSrv.start(t)
	time.Sleep(1000 * time.Millisecond)
	workers[0].start(t)
	workers[1].start(t)
	t.Logf("chaos done %v after the load started", time.Since(start).Round(time.Millisecond))

	wg.Wait()
	// Every object ends ready, with a valid GLB.
	glbs := map[[32]byte][]byte{}
	end := time.Now().Add(deadline)
	for i, id := range ids {
		if id == "" {
			continue
		}
		var o struct {
			State string
			Error string
			Files map[string]string
		}
		for {
			st, b := call(t, "GET", apis[i%2]+"/resources/objects/"+id, key, nil)
			var out []json.RawMessage
			if st != 200 || json.Unmarshal(b, &out) != nil || len(out) != 1 || json.Unmarshal(out[0], &o) != nil {
				t.Fatalf("object %s: %d %s", id, st, b)
			}
			if o.State == "ready" || o.State == "failed" || time.Now().After(end) {
				break
			}
			time.Sleep(250 * time.Millisecond)
		}
		if o.State != "ready" {
			t.Errorf("object %d (%s) ended %q (%s), want ready", i, id, o.State, o.Error)
			continue
		}
		st, b := call(t, "GET", o.Files["glb"], key, nil)
		if st != 200 {
			t.Errorf("object %s GLB: %d", id, st)
			continue
		}
		glbs[sha256.Sum256(b)] = b
	}
	recovered := time.Since(killed)
	for i, v := range variants {
		if len(v) > 0 {
			glbs[sha256.Sum256(v)] = v
		} else if avatarIDs[i] != "" {
			t.Errorf("avatar %s: no variant", avatarIDs[i])
		}
		if !bytes.HasPrefix(previews[i], []byte("\x89PNG\r\n\x1a\n")) && avatarIDs[i] != "" {
			t.Errorf("avatar %s: the preview is not a PNG (%d bytes)", avatarIDs[i], len(previews[i]))
		}
	}
	for _, b := range glbs {
		if !bytes.HasPrefix(b, []byte("glTF")) {
			t.Errorf("a download of %d bytes is not a GLB", len(b))
			continue
		}
		if r := gltfcheck.Validate(t, b); !r.Skipped && r.NumErrors > 0 {
			t.Errorf("validator: %d errors: %v", r.NumErrors, r.Errors)
		}
	}

	// Exactly once: one object per upload, one variant per avatar, nothing
	// left in a queue, nothing archived or waiting for a retry.
	checkQueues(t, apis[0], admin)
	t.Logf("%d uploads, %d avatars (variant + preview) through 2 apis and 3 workers; 2 workers SIGKILLed, Redis killed and restarted: every object and variant ready %v after the first kill (%d distinct GLBs validated); the killed workers' tasks recovered and the queues empty %v after it",
		uploads, avatars, recovered.Round(time.Second), len(glbs), time.Since(killed).Round(time.Second))
}

// download GETs url until it answers 200 (a variant or a preview may
// answer 503 while it is being built or Redis is down).
func download(t *testing.T, url string) []byte {
	t.Helper()
	st, b := call(t, "GET", url, "", nil)
	if st != 200 {
		t.Errorf("GET %s: %d %.200s", url, st, b)
		return nil
	}
	return b
}

// checkQueues reads asynq's queue counts through the monitor's API until
// every queue is empty: the tasks a killed worker held stay active until
// asynq sees their lease expired (30 s) and a recoverer runs (every
// minute), then run again, and find their work done. Nothing may end
// archived or waiting for a retry.
func checkQueues(t *testing.T, base, admin string) {
	t.Helper()
	req, _ := http.NewRequest("GET", base+"/monitoring/api/queues", nil)
	req.SetBasicAuth("admin", admin)
	end := time.Now().Add(deadline)
	for {
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var out struct {
			Queues []struct {
				Queue                                       string
				Pending, Active, Scheduled, Retry, Archived int
			} `json:"queues"`
		}
		err = json.NewDecoder(bufio.NewReader(res.Body)).Decode(&out)
		res.Body.Close()
		if err != nil {
			t.Fatalf("queues: %v", err)
		}
		busy := ""
		for _, q := range out.Queues {
			if q.Archived > 0 {
				t.Errorf("queue %s: %d archived", q.Queue, q.Archived)
				return
			}
			if q.Pending+q.Active+q.Scheduled+q.Retry > 0 {
				busy += fmt.Sprintf(" %s(%d pending, %d active, %d scheduled, %d to retry)", q.Queue, q.Pending, q.Active, q.Scheduled, q.Retry)
			}
		}
		if busy == "" {
			return
		}
		if time.Now().After(end) {
			t.Errorf("queues still busy at the end:%s", busy)
			return
		}
		time.Sleep(500 * time.Millisecond)
	}
}

func slices(s []string) []string { return append([]string(nil), s...) }

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}
