package app

import (
	"bufio"
	"bytes"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/internal/gltfcheck"
)

// The addresses docker-compose.yml publishes on the host.
const (
	composePlatform = "http://127.0.0.1:8080"
	composeAvatar   = "http://127.0.0.1:8081"
)

// composeServices are the services of docker-compose.yml, each with a
// healthcheck.
var composeServices = []string{"redis", "minio", "mailpit", "api", "worker"}

// TestComposeStack runs the real docker-compose.yml as a user does and
// checks the stack from the host, through its published ports: every
// healthcheck turns healthy; an avatar is registered and downloaded; an
// object goes through the presigned MinIO URL, is processed and
// downloaded; the worker's Blender renders a product; asynqmon answers
// behind its login; and after `down` and `up` the data is still there.
//
// It needs a container engine, so it runs only where KILN_TEST_COMPOSE
// names the project directory (a checkout with its .env) and the images
// are built: .ci/compose/run does both with podman.
func TestComposeStack(t *testing.T) {
	dir := os.Getenv("KILN_TEST_COMPOSE")
	if dir == "" {
		t.Skip("KILN_TEST_COMPOSE is not set: .ci/compose/run builds the images and sets it")
	}
	compose := func(args ...string) string {
		t.Helper()
		out, err := composeRun(dir, args...)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	// step names what the test is doing, repeated after the services'
	// logs when it fails: CI shows only the end of the output, and the
	// logs push the failure's own message out of it.
	step := "compose up"
	t.Cleanup(func() {
		if t.Failed() {
			out, err := composeRun(dir, "logs", "--tail", "60")
			if err != nil {
				out = err.Error()
			}
			t.Logf("docker-compose logs:\n%s", out)
			t.Logf("TestComposeStack failed at step %q (its message is above the logs)", step)
		}
		_, _ = composeRun(dir, "down", "--volumes")
	})
	up := func() {
		start := time.Now()
		compose("up", "-d")
		waitHealthy(t, dir)
		t.Logf("compose up: every service healthy after %.0f s", time.Since(start).Seconds())
	}

	up()
	step = "API keys"
	r := &Running{PlatformURL: composePlatform, AvatarURL: composeAvatar, AdminKey: envValue(t, filepath.Join(dir, ".env"), "KILN_ADMIN_KEY")}
	k := newRenderKeys(t, r)
	avatarKey := newKey(t, r, "acme", kiln.ScopeAvatarWrite)

	step = "an avatar, registered and downloaded"
	res := do(t, "POST", composeAvatar+"/avatar", avatarKey, strings.NewReader(`{}`), map[string]string{"Content-Type": "application/json"})
	want(t, "POST /avatar", res, http.StatusOK, "")
	var av avatarResult
	res.json(t, &av)
	model := composeDownload(t, composeAvatar+"/model/"+av.Data.ModelID+".glb")
	gltfcheck.RequireValid(t, model)

	step = "an object through the presigned URL, processed by the worker"
	obj := readyObject(t, r, k.key)
	glb := do(t, "GET", composePlatform+"/resources/objects/"+obj+"/model.glb", k.key, nil, nil)
	want(t, "object GLB", glb, http.StatusOK, "")
	gltfcheck.RequireValid(t, glb.Body)
	step = "a product rendering by the worker's Blender"
	v := newViewer(t, r, k.key, map[string]any{"type": "product", "name": "Cube", "objectId": obj})
	req := requestRendering(t, r, k.key, v.Token, map[string]any{
		"render_settings": map[string]any{"resolution": []int{64, 48}, "samples": 4},
		"template_id":     "studio-white", "format_key": "web",
	})
	want(t, "POST rendering", req, http.StatusOK, "")
	var rendering renderingJSON
	req.json(t, &rendering)
	if done := waitRendering(t, r, k.key, v.Token, rendering.ID); done.State != "done" {
		t.Fatalf("rendering ended %+v", done)
	} else if img := download(t, k.key, done.URL, "image/jpeg"); img.Bounds().Dx() != 64 {
		t.Fatalf("rendering is %v, want 64x48", img.Bounds())
	}

	step = "the queue monitor, behind the admin login"
	if res := do(t, "GET", composePlatform+"/monitoring/", "", nil, nil); res.Status != http.StatusUnauthorized {
		t.Fatalf("asynqmon without a login: %d", res.Status)
	}
	if res := do(t, "GET", composePlatform+"/monitoring/api/queues", "", nil, basic("admin", r.AdminKey)); res.Status != http.StatusOK || !bytes.Contains(res.Body, []byte("queues")) {
		t.Fatalf("asynqmon with the admin login: %d %.200s", res.Status, res.Body)
	}

	step = "down and up again: Redis's AOF and MinIO's volume keep everything"
	compose("down")
	up()
	if again := composeDownload(t, composeAvatar+"/model/"+av.Data.ModelID+".glb"); !bytes.Equal(again, model) {
		t.Fatalf("avatar model after down/up: %d bytes, was %d", len(again), len(model))
	}
	if res := do(t, "GET", composePlatform+"/resources/objects/"+obj+"/model.glb", k.key, nil, nil); res.Status != http.StatusOK || !bytes.Equal(res.Body, glb.Body) {
		t.Fatalf("object GLB after down/up: %d, %d bytes (was %d)", res.Status, len(res.Body), len(glb.Body))
	}
}

// waitHealthy waits until `docker-compose ps` says every service is up
// and healthy. A `ps` that fails is asked again until the deadline, as
// a `ps` that says "starting" is: while containers start, one transient
// error of podman's Docker API would fail the test for nothing (one
// suspect for a CI run that failed 18 s into the first up, its message
// lost; the step log now names where such a failure happens).
func waitHealthy(t *testing.T, dir string) {
	t.Helper()
	var ps string
	deadline := time.Now().Add(5 * time.Minute)
	for time.Now().Before(deadline) {
		out, err := composeRun(dir, "ps")
		if err != nil {
			ps = err.Error()
			time.Sleep(3 * time.Second)
			continue
		}
		ps = out
		healthy := 0
		for _, s := range composeServices {
			for _, line := range strings.Split(ps, "\n") {
				if strings.Contains(line, "_"+s+"_") && strings.Contains(line, "(healthy)") {
					healthy++
					break
				}
			}
		}
		if healthy == len(composeServices) {
			return
		}
		time.Sleep(3 * time.Second)
	}
	t.Fatalf("services not healthy after 5 minutes:\n%s", ps)
}

// composeRun runs docker-compose with args in the project directory dir.
func composeRun(dir string, args ...string) (string, error) {
	cmd := exec.Command("docker-compose", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("docker-compose %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out), nil
}

// composeDownload GETs url until the build behind it is ready (a 503
// variant_pending answers while the worker builds).
func composeDownload(t *testing.T, url string) []byte {
	t.Helper()
	var res response
	eventually(t, 3*time.Minute, url, func() bool {
		res = do(t, "GET", url, "", nil, nil)
		return res.Status != http.StatusServiceUnavailable
	})
	if res.Status != http.StatusOK || res.Header.Get("Content-Type") != "model/gltf-binary" {
		t.Fatalf("GET %s: %d %.300s", url, res.Status, res.Body)
	}
	return res.Body
}

// envValue reads one variable from a compose .env file.
func envValue(t *testing.T, path, name string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), name+"="); ok {
			return v
		}
	}
	t.Fatalf("%s has no %s", path, name)
	return ""
}
