package chaos

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kilnhq/kiln/internal/fixture"
	"github.com/kilnhq/kiln/internal/testenv"
)

// TestFlood runs one `kiln api` and two `kiln worker` (two slots each)
// on a real redis-server and MinIO while a flooding client posts avatars
// as fast as eight threads can (issue 25: one thread made 605 in 75 s
// and starved everyone), and a quiet account, every few seconds, makes
// an avatar and downloads it, and uploads a cube and waits for it. It
// reports the quiet account's waits (the longest is the figure) and what
// the flood got: its avatars, and its 429s.
//
//	go test ./bench/chaos -run TestFlood -v
func TestFlood(t *testing.T) {
	need(t)
	bin := build(t)
	dir := t.TempDir()
	redisPort := freePort(t)
	redisSrv := &proc{name: "redis", args: []string{"redis-server", "--port", fmt.Sprint(redisPort), "--bind", "127.0.0.1",
		"--dir", dir, "--save", "", "--appendonly", "no"}}
	redisSrv.start(t)
	t.Cleanup(redisSrv.kill)
	time.Sleep(300 * time.Millisecond)

	const admin = "flood-admin-key-0123456789"
	common := []string{
		fmt.Sprintf("KILN_REDIS_URL=redis://127.0.0.1:%d/0", redisPort),
		"KILN_S3_ENDPOINT=" + os.Getenv("KILN_TEST_S3_ENDPOINT"),
		"KILN_S3_ACCESS_KEY=" + os.Getenv("KILN_TEST_S3_ACCESS_KEY"),
		"KILN_S3_SECRET_KEY=" + os.Getenv("KILN_TEST_S3_SECRET_KEY"),
		"KILN_S3_BUCKET=" + testenv.Bucket(t), "KILN_ADMIN_KEY=" + admin,
		"KILN_LOG_LEVEL=warn", "KILN_WORKER_CONCURRENCY=2", "KILN_SHUTDOWN_TIMEOUT=2s",
	}
	pl, av := freePort(t), freePort(t)
	api := &proc{name: "api", args: []string{bin, "api"}, env: append(slices(common),
		fmt.Sprintf("KILN_PLATFORM_ADDR=127.0.0.1:%d", pl), fmt.Sprintf("KILN_AVATAR_ADDR=127.0.0.1:%d", av),
		"KILN_DATA_DIR="+filepath.Join(dir, "api"))}
	api.start(t)
	t.Cleanup(api.kill)
	platform, avatars := fmt.Sprintf("http://127.0.0.1:%d", pl), fmt.Sprintf("http://127.0.0.1:%d", av)
	waitHTTP(t, platform+"/healthz")
	for i := range 2 {
		w := &proc{name: fmt.Sprint("worker", i), args: []string{bin, "worker"}, env: append(slices(common),
			fmt.Sprintf("KILN_WORKER_ADDR=127.0.0.1:%d", freePort(t)),
			"KILN_DATA_DIR="+filepath.Join(dir, fmt.Sprint("worker", i)))}
		w.start(t)
		t.Cleanup(w.kill)
	}
	keyOf := func(account string) string {
		st, body := call(t, "POST", platform+"/admin/api-keys", admin, func() (io.Reader, string) {
			return strings.NewReader(`{"account":"` + account + `","name":"flood","scopes":["product:read","product:write","avatar:write"]}`), "application/json"
		})
		var created struct{ Data struct{ Key string } }
		if st != 201 || json.Unmarshal(body, &created) != nil || created.Data.Key == "" {
			t.Fatalf("create key: %d %s", st, body)
		}
		return created.Data.Key
	}
	flood, quiet := keyOf("flood"), keyOf("quiet")
	postAvatar := func(key string) (int, string) {
		st, b := call(t, "POST", avatars+"/avatar", key, func() (io.Reader, string) { return strings.NewReader(`{}`), "application/json" })
		var out struct{ Data struct{ ModelID string } }
		json.Unmarshal(b, &out)
		return st, out.Data.ModelID
	}

	const floodFor = 60 * time.Second
	var made, limited, other atomic.Int64
	end := time.Now().Add(floodFor)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for time.Now().Before(end) {
				switch st, _ := postAvatar(flood); st {
				case 200:
					made.Add(1)
				case 429:
					limited.Add(1)
				default:
					other.Add(1)
				}
			}
		})
	}

	cube := fixture.CubeGLB()
	var avatarWaits, uploadWaits []time.Duration
	time.Sleep(5 * time.Second) // the flood's backlog first
	for round := 0; time.Now().Before(end); round++ {
		began := time.Now()
		st, id := postAvatar(quiet)
		if st != 200 {
			t.Fatalf("quiet POST /avatar: %d", st)
		}
		// call retries the 503 variant_pending a download answers after
		// two minutes.
		if st, b := call(t, "GET", avatars+"/model/"+id+".glb", "", nil); st != 200 {
			t.Fatalf("quiet avatar %s: %d %s", id, st, b)
		}
		avatarWaits = append(avatarWaits, time.Since(began))

		began = time.Now()
		st, b := call(t, "POST", platform+"/resources/objects/prepare-upload", quiet, form(map[string]string{
			"name": fmt.Sprint("cube ", round), "type": "raw_model", "extension": "glb",
			"file_size": fmt.Sprint(len(cube)), "file_count": "1"}))
		var prep []struct {
			ObjectID string `json:"objectId"`
			Upload   struct{ URL string }
		}
		if st != 200 || json.Unmarshal(b, &prep) != nil || len(prep) != 1 {
			t.Fatalf("prepare-upload: %d %s", st, b)
		}
		if st, b := call(t, "PUT", prep[0].Upload.URL, "", func() (io.Reader, string) { return bytes.NewReader(cube), "" }); st != 200 {
			t.Fatalf("PUT: %d %s", st, b)
		}
		obj := platform + "/resources/objects/" + prep[0].ObjectID
		if st, b := call(t, "POST", obj+"/finish-upload", quiet, form(map[string]string{"success": "true"})); st != 200 {
			t.Fatalf("finish-upload: %d %s", st, b)
		}
		for state := ""; state != "ready"; time.Sleep(100 * time.Millisecond) {
			st, b := call(t, "GET", obj, quiet, nil)
			var o []struct{ State, Error string }
			if st != 200 || json.Unmarshal(b, &o) != nil || len(o) != 1 || o[0].State == "failed" {
				t.Fatalf("quiet upload: %d %s", st, b)
			}
			state = o[0].State
		}
		uploadWaits = append(uploadWaits, time.Since(began))
		time.Sleep(3 * time.Second)
	}
	wg.Wait()
	t.Logf("flood for %v from 8 threads: %d avatars made, %d answered 429, %d other answers", floodFor, made.Load(), limited.Load(), other.Load())
	t.Logf("quiet account, %d rounds: first avatar downloaded after %v (longest), each %v; first upload ready after %v (longest), each %v",
		len(avatarWaits), longest(avatarWaits), rounded(avatarWaits), longest(uploadWaits), rounded(uploadWaits))
	if limited.Load() == 0 || other.Load() != 0 {
		t.Errorf("the flood got %d 429s and %d other answers; want some 429s and nothing else", limited.Load(), other.Load())
	}
}

func longest(ds []time.Duration) time.Duration {
	var m time.Duration
	for _, d := range ds {
		m = max(m, d)
	}
	return m.Round(10 * time.Millisecond)
}

func rounded(ds []time.Duration) []time.Duration {
	out := make([]time.Duration, len(ds))
	for i, d := range ds {
		out[i] = d.Round(10 * time.Millisecond)
	}
	return out
}
