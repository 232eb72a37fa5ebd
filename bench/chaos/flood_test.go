package chaos

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
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
	// The workers log each task's start with how long it waited
	// (waited_ms) and its end with how long it ran.
	c := startCluster(t, layout{apis: 1, workers: 2, workerEnv: []string{"KILN_LOG_LEVEL=info"}})
	platform, avatars := c.platform[0], c.avatar[0]
	keyOf := func(account string) string {
		return c.key(t, 0, account, "", "product:read", "product:write", "avatar:write")
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
	var quietIDs []string       // the quiet account's avatars and objects
	time.Sleep(5 * time.Second) // the flood's backlog first
	for round := 0; time.Now().Before(end); round++ {
		began := time.Now()
		st, id := postAvatar(quiet)
		if st != 200 {
			t.Fatalf("quiet POST /avatar: %d", st)
		}
		quietIDs = append(quietIDs, id)
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
		quietIDs = append(quietIDs, prep[0].ObjectID)
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

	// Where the quiet account's time went, from the workers' logs: the
	// wait for a slot (enqueue to start) against the build (start to
	// end), and the flood's jobs, queued before it, that it overtook.
	var tasks []testenv.TaskRun
	for _, w := range c.workers {
		w.kill()
		tasks = append(tasks, testenv.TaskRuns(w.output())...)
	}
	var waits, builds []time.Duration
	for _, q := range tasks {
		if q.Of(quietIDs) {
			waits, builds = append(waits, q.Waited), append(builds, q.Ran)
		}
	}
	overtook, behind := testenv.Overtaken(tasks, quietIDs)
	t.Logf("quiet account's %d jobs: waited for a slot %v (longest %v); ran %v (longest %v)", len(waits), rounded(waits), longest(waits), rounded(builds), longest(builds))
	t.Logf("flood jobs queued before a quiet job and not yet started: %d started after it, %d before it", overtook, behind)
	if len(waits) < 2*len(avatarWaits) {
		t.Errorf("the workers logged %d of the quiet account's %d jobs", len(waits), 2*len(avatarWaits))
	}
	// Without fair queues the quiet job waits behind the flood's whole
	// backlog: it would overtake none of it.
	if overtook <= behind {
		t.Errorf("the quiet jobs started before %d flood jobs queued earlier and after %d: they waited behind the flood", overtook, behind)
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
