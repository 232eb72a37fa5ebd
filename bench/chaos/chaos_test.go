// Package chaos runs Kiln as a team deploys it, two `kiln api` and three
// `kiln worker` processes on a real redis-server and a real MinIO, sends
// uploads, avatar variants and previews, kills workers with SIGKILL and
// restarts Redis under the load, and checks that every object and
// variant ends valid, once. It reports how long the work of a killed
// worker took to finish elsewhere (the recovery time). TestFlood adds an
// account that floods POST /avatar beside a quiet one, TestFrozenRedis a
// redis-server stopped with SIGSTOP under tracking events; all share the
// set-up of cluster_test.go.
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
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kilnhq/kiln/internal/fixture"
	"github.com/kilnhq/kiln/internal/gltfcheck"
)

const (
	uploads = 24
	avatars = 6
	// deadline bounds the whole run after the load is sent: asynq finds
	// a dead worker's task 60 to 120 s after the crash.
	deadline = 200 * time.Second
)

func TestChaos(t *testing.T) {
	need(t)
	// Redis with every write on disk before it answers, so a SIGKILL of
	// Redis itself loses nothing acknowledged.
	c := startCluster(t, layout{apis: 2, workers: 3, durable: true})
	apis, avatarURLs, workers := c.platform, c.avatar, c.workers

	// Through the second api with the shared admin key.
	key := c.key(t, 1, "acme", "", "product:read", "product:write", "avatar:write")
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
	c.redis.kill()
	time.Sleep(2 * time.Second)
	c.redis.start(t)
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
	checkQueues(t, apis[0], c.admin)
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
