package main

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/kilnhq/kiln/assets/scene/scenetest"
	"github.com/kilnhq/kiln/internal/fixture"
	"github.com/kilnhq/kiln/internal/gltfcheck"
	"github.com/kilnhq/kiln/internal/testenv"
)

// buildKiln compiles the binary once per test run.
var buildKiln = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "kiln-bin")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "kiln")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		return "", &exec.ExitError{Stderr: out}
	}
	return bin, nil
})

func freeAddr(t *testing.T) string {
	return fmt.Sprintf("127.0.0.1:%d", testenv.FreePort(t))
}

// proc is a running kiln serve.
type proc struct {
	cmd    *exec.Cmd
	lines  chan string
	stderr *bytes.Buffer
}

func startServe(t *testing.T, env []string) *proc {
	t.Helper()
	bin, err := buildKiln()
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	cmd := exec.Command(bin, "serve")
	// No creator warm-up: it builds avatars at start (a test of it turns
	// it on by its own env).
	cmd.Env = append(append(os.Environ(), "KILN_CREATOR_WARM=false"), env...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &proc{cmd: cmd, lines: make(chan string, 100), stderr: new(bytes.Buffer)}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
	}()
	return p
}

// banner reads the start-up lines up to the queue monitor line, and the
// admin key line when one follows.
func (p *proc) banner(t *testing.T) []string {
	t.Helper()
	var got []string
	timeout := time.After(60 * time.Second)
	for {
		select {
		case l, ok := <-p.lines:
			if !ok {
				t.Fatalf("kiln serve exited; stderr:\n%s", p.stderr)
			}
			got = append(got, l)
			if strings.HasPrefix(l, "Queue monitor:") {
				select {
				case l, ok := <-p.lines:
					if ok {
						got = append(got, l)
					}
				case <-time.After(500 * time.Millisecond):
				}
				return got
			}
		case <-timeout:
			t.Fatalf("no start-up banner; got %q; stderr:\n%s", got, p.stderr)
		}
	}
}

func (p *proc) stop(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("kiln serve exited with %v; stderr:\n%s", err, p.stderr)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("kiln serve did not stop within 60 s of SIGTERM")
	}
}

type client struct {
	t    *testing.T
	base string
}

func (c client) do(method, path, auth string, body io.Reader, ct string) (int, []byte) {
	c.t.Helper()
	url := path
	if strings.HasPrefix(path, "/") {
		url = c.base + path
	}
	req, _ := http.NewRequest(method, url, body)
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, b
}

// upload runs prepare, PUT and finish, and returns the object id.
func (c client) upload(key string, data []byte) string {
	c.t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	w.WriteField("name", "cube")
	w.WriteField("type", "raw_model")
	w.WriteField("extension", "glb")
	w.Close()
	st, body := c.do("POST", "/resources/objects/prepare-upload", "Bearer "+key, &b, w.FormDataContentType())
	var prep []struct {
		ObjectID string               `json:"objectId"`
		Upload   struct{ URL string } `json:"upload"`
	}
	if st != 200 || json.Unmarshal(body, &prep) != nil || len(prep) != 1 {
		c.t.Fatalf("prepare: %d %s", st, body)
	}
	if st, body := c.do("PUT", prep[0].Upload.URL, "", bytes.NewReader(data), ""); st != 200 {
		c.t.Fatalf("PUT: %d %s", st, body)
	}
	b.Reset()
	w = multipart.NewWriter(&b)
	w.WriteField("success", "true")
	w.Close()
	if st, body := c.do("POST", "/resources/objects/"+prep[0].ObjectID+"/finish-upload", "Bearer "+key, &b, w.FormDataContentType()); st != 200 {
		c.t.Fatalf("finish: %d %s", st, body)
	}
	return prep[0].ObjectID
}

func (c client) state(key, id string) string {
	c.t.Helper()
	st, body := c.do("GET", "/resources/objects/"+id, "Bearer "+key, nil, "")
	var out []struct{ State string }
	if st != 200 || json.Unmarshal(body, &out) != nil || len(out) != 1 {
		c.t.Fatalf("GET object: %d %s", st, body)
	}
	return out[0].State
}

func (c client) waitState(key, id, want string) {
	c.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for c.state(key, id) != want {
		if time.Now().After(deadline) {
			c.t.Fatalf("object %s never became %s", id, want)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestServeKeepsStateAcrossRestart runs kiln serve on the embedded
// defaults, stops it with SIGTERM, and starts it again: the key, the ready
// object and a queued job are all still there.
func TestServeKeepsStateAcrossRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	dataDir := t.TempDir()
	platform := freeAddr(t)
	env := []string{
		"KILN_DATA_DIR=" + dataDir, "KILN_PLATFORM_ADDR=" + platform, "KILN_AVATAR_ADDR=" + freeAddr(t),
		"KILN_REDIS_URL=", "KILN_S3_ENDPOINT=", "KILN_ADMIN_KEY=", "KILN_LOG_LEVEL=warn",
	}
	c := client{t, "http://" + platform}

	p := startServe(t, env)
	banner := p.banner(t)
	var admin string
	for _, l := range banner {
		if _, key, ok := strings.Cut(l, "): "); ok && strings.HasPrefix(l, "Admin key") {
			admin = key
		}
	}
	if admin == "" {
		t.Fatalf("first start printed no admin key: %q", banner)
	}
	monitor := "Basic " + base64.StdEncoding.EncodeToString([]byte("admin:"+admin))

	st, body := c.do("POST", "/admin/api-keys", "Bearer "+admin,
		strings.NewReader(`{"account":"acme","scopes":["product:read","product:write"]}`), "application/json")
	var created struct{ Data struct{ Key string } }
	if st != 201 || json.Unmarshal(body, &created) != nil || created.Data.Key == "" {
		t.Fatalf("create key: %d %s", st, body)
	}
	key := created.Data.Key
	ready := c.upload(key, fixture.CubeGLB())
	c.waitState(key, ready, "ready")
	_, glbBefore := c.do("GET", "/resources/objects/"+ready+"/model.glb", "Bearer "+key, nil, "")

	// Pause the queue so the next job stays queued across the restart.
	if st, body := c.do("POST", "/monitoring/api/queues/default:pause", monitor, nil, ""); st != 204 && st != 200 {
		t.Fatalf("pause queue: %d %s", st, body)
	}
	queued := c.upload(key, fixture.CubeGLB())
	time.Sleep(500 * time.Millisecond)
	if s := c.state(key, queued); s != "processing" {
		t.Fatalf("queued object is %s", s)
	}
	p.stop(t)

	// Every start shows the key kiln serve keeps, until the operator sets one.
	p = startServe(t, env)
	if again := p.banner(t); !slices.ContainsFunc(again, func(l string) bool {
		return strings.HasPrefix(l, "Admin key (kept in ") && strings.HasSuffix(l, "): "+admin)
	}) {
		t.Fatalf("second start did not show the admin key again: %q", again)
	}
	if st, body := c.do("GET", "/resources/objects/"+ready, "Bearer "+key, nil, ""); st != 200 || !strings.Contains(string(body), `"state":"ready"`) {
		t.Fatalf("after restart, object: %d %s", st, body)
	}
	if st, glb := c.do("GET", "/resources/objects/"+ready+"/model.glb", "Bearer "+key, nil, ""); st != 200 || !bytes.Equal(glb, glbBefore) {
		t.Fatalf("after restart, GLB: %d, %d bytes (was %d)", st, len(glb), len(glbBefore))
	}
	st, body = c.do("GET", "/monitoring/api/queues/default", monitor, nil, "")
	var q struct {
		Current struct {
			Paused  bool `json:"paused"`
			Pending int  `json:"pending"`
		} `json:"current"`
	}
	if st != 200 || json.Unmarshal(body, &q) != nil || !q.Current.Paused || q.Current.Pending != 1 {
		t.Fatalf("after restart, queue: %d %s", st, body)
	}
	if st, body := c.do("POST", "/monitoring/api/queues/default:resume", monitor, nil, ""); st != 204 && st != 200 {
		t.Fatalf("resume: %d %s", st, body)
	}
	c.waitState(key, queued, "ready")
	p.stop(t)
}

func TestConfigErrorsStopAtStart(t *testing.T) {
	bin, err := buildKiln()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ env, want string }{
		{"KILN_PLATFORM_ADDR=nonsense", "KILN_PLATFORM_ADDR: must be host:port"},
		{"KILN_REDIS_URL=http://x", "KILN_REDIS_URL: scheme must be one of redis, rediss"},
		{"KILN_S3_SECURE=maybe", "KILN_S3_SECURE: must be true or false"},
		{"KILN_S3_ENDPOINT=minio:9000", "KILN_S3_ACCESS_KEY: must be set"},
		{"KILN_ADMIN_KEY=short", "KILN_ADMIN_KEY: must be at least 16 characters"},
	} {
		cmd := exec.Command(bin, "serve")
		cmd.Env = append(os.Environ(), "KILN_DATA_DIR="+t.TempDir(), tc.env)
		out, err := cmd.CombinedOutput()
		ee, ok := err.(*exec.ExitError)
		if !ok || ee.ExitCode() != 2 {
			t.Errorf("%s: exit %v, want 2", tc.env, err)
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if len(lines) != 1 || !strings.Contains(lines[0], tc.want) {
			t.Errorf("%s: printed %q, want one line with %q", tc.env, out, tc.want)
		}
	}
}

// TestServePortClash starts kiln serve on a port another program holds:
// it stops with the variable that moves the listener, and the next start
// on a free port still shows the admin key the failed one made.
func TestServePortClash(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin, err := buildKiln()
	if err != nil {
		t.Fatal(err)
	}
	held, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	dataDir := t.TempDir()
	env := []string{"KILN_DATA_DIR=" + dataDir, "KILN_REDIS_URL=", "KILN_S3_ENDPOINT=", "KILN_ADMIN_KEY=", "KILN_LOG_LEVEL=warn",
		"KILN_PLATFORM_ADDR=" + freeAddr(t), "KILN_WORKER_ADDR=" + freeAddr(t)}

	cmd := exec.Command(bin, "serve")
	cmd.Env = append(append(os.Environ(), env...), "KILN_AVATAR_ADDR="+held.Addr().String())
	out, err := cmd.CombinedOutput()
	if _, ok := err.(*exec.ExitError); !ok {
		t.Fatalf("kiln serve on a held port: %v\n%s", err, out)
	}
	for _, want := range []string{"avatar listener on " + held.Addr().String(), "address already in use", "set KILN_AVATAR_ADDR to move it"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("clash message %q does not say %q", out, want)
		}
	}

	p := startServe(t, append(env, "KILN_AVATAR_ADDR="+freeAddr(t)))
	kept, err := os.ReadFile(filepath.Join(dataDir, "admin.key"))
	if err != nil {
		t.Fatal(err)
	}
	if banner := p.banner(t); !slices.ContainsFunc(banner, func(l string) bool {
		return strings.HasPrefix(l, "Admin key (kept in ") && strings.HasSuffix(l, "): "+strings.TrimSpace(string(kept)))
	}) {
		t.Fatalf("start after the clash does not show the key kept in %s: %q", dataDir, banner)
	}
	p.stop(t)
}

func TestInspect(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "cube.glb")
	bad := filepath.Join(dir, "bad.glb")
	os.WriteFile(good, fixture.CubeGLB(), 0o644)
	os.WriteFile(bad, []byte("not a model"), 0o644)
	var out, errb bytes.Buffer
	if code := run([]string{"inspect", good}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var stats map[string]int
	if err := json.Unmarshal(out.Bytes(), &stats); err != nil || stats["triangles"] != 12 || stats["vertices"] != 24 || stats["meshes"] != 1 || stats["materials"] != 1 {
		t.Fatalf("stats %s: %v", out.String(), err)
	}
	out.Reset()
	errb.Reset()
	if code := run([]string{"inspect", bad}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "not a valid GLB") || strings.Count(errb.String(), "\n") != 1 {
		t.Fatalf("bad file: exit %d, stderr %q", code, errb.String())
	}
}

func TestOptimize(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "cube.glb")
	os.WriteFile(in, fixture.CubeGLB(), 0o644)
	textured := filepath.Join(dir, "textured.glb")
	os.WriteFile(textured, scenetest.Skinned(), 0o644)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{in, filepath.Join(dir, "l1.glb"), "--lod", "1"}, 0, `"lod": 1`},
		{[]string{"--lod=2", in, filepath.Join(dir, "l2.glb")}, 0, `"lod": 2`},
		{[]string{in, filepath.Join(dir, "bad.glb"), "--lod", "3"}, 2, "--lod must be 0, 1 or 2"},
		{[]string{textured, filepath.Join(dir, "webp.glb"), "--texture-format", "webp"}, 0, `"mimeAfter": "image/webp"`},
		{[]string{"--texture-format=compat", textured, filepath.Join(dir, "compat.glb")}, 0, `"mimeAfter": "image/jpeg"`},
		{[]string{textured, filepath.Join(dir, "bad.glb"), "--texture-format", "gif"}, 2, "--texture-format must be webp, png or compat"},
		{[]string{textured, filepath.Join(dir, "meshopt.glb"), "--meshopt"}, 0, `"triangles"`},
		{[]string{in}, 2, "usage"},
		{[]string{filepath.Join(dir, "missing.glb"), filepath.Join(dir, "m.glb")}, 1, "no such file"},
	} {
		var out, errb bytes.Buffer
		code := run(append([]string{"optimize"}, tc.args...), &out, &errb)
		got := out.String() + errb.String()
		if code != tc.code || !strings.Contains(got, tc.want) {
			t.Errorf("%v: exit %d %q, want %d with %q", tc.args, code, got, tc.code, tc.want)
		}
		if code != 0 && strings.Count(errb.String(), "\n") != 1 {
			t.Errorf("%v: not one line: %q", tc.args, errb.String())
		}
	}
	glb, err := os.ReadFile(filepath.Join(dir, "l2.glb"))
	if err != nil || !bytes.HasPrefix(glb, []byte("glTF")) {
		t.Fatalf("output: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "bad.glb")); !os.IsNotExist(err) {
		t.Fatal("a failed optimize left an output file")
	}
	gltfcheck.RequireValid(t, glb)
	glb, err = os.ReadFile(filepath.Join(dir, "meshopt.glb"))
	if err != nil || !bytes.Contains(glb, []byte(`"extensionsRequired":["EXT_meshopt_compression","KHR_mesh_quantization"]`)) {
		t.Fatalf("--meshopt output does not require EXT_meshopt_compression and KHR_mesh_quantization (%v)", err)
	}
	gltfcheck.RequireValid(t, glb)
	glb, err = os.ReadFile(filepath.Join(dir, "webp.glb"))
	if err != nil || !bytes.Contains(glb, []byte(`"extensionsRequired":["EXT_texture_webp"]`)) {
		t.Fatalf("webp output does not require EXT_texture_webp (%v)", err)
	}
	gltfcheck.RequireValid(t, glb)
}

func TestAvatarCLI(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	os.WriteFile(good, []byte(`{"version":"1","body":{"type":"feminine"}}`), 0o644)
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"version":"1","outfit":{"top":{"style":"cape"}}}`), 0o644)
	out := filepath.Join(dir, "a.glb")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"avatar", good, out}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var st struct{ Joints, Triangles int }
	if err := json.Unmarshal(stdout.Bytes(), &st); err != nil || st.Joints != 67 || st.Triangles == 0 || st.Triangles > 30000 {
		t.Fatalf("stats %s: %v", stdout.String(), err)
	}
	glb, _ := os.ReadFile(out)
	gltfcheck.RequireValid(t, glb)
	stderr.Reset()
	if code := run([]string{"avatar", bad, filepath.Join(dir, "b.glb")}, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "outfit.top.style") {
		t.Fatalf("bad config: exit %d %q", code, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "b.glb")); !os.IsNotExist(err) {
		t.Fatal("a failed build left a file")
	}
}
