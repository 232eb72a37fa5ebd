package app

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hibiken/asynq"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/internal/fixture"
	"github.com/kilnhq/kiln/internal/testenv"
)

// TestFairUnderFlood: one account floods POST /avatar and uploads on two
// worker slots; another account's first avatar and first upload are
// ready while most of the flood is still unbuilt (without fair queues
// they wait behind all of it), and the flood meets 429 rate_limited
// with Retry-After instead of queuing without end. From the worker's
// log: the flood never ran more than one job at a time (one slot of two
// stays free for another account), and the quiet account's first job
// started before the flood's jobs queued ahead of it, without waiting
// for one of the flood's builds to end.
func TestFairUnderFlood(t *testing.T) {
	cfg := testenv.Config(t, 1)
	cfg.Concurrency = 2
	cfg.AvatarCreateRate, cfg.AvatarCreateBurst = 5, 40
	var logs bytes.Buffer
	var logMu sync.Mutex
	log := slog.New(slog.NewJSONHandler(lockedWriter{&logMu, &logs}, &slog.HandlerOptions{Level: slog.LevelInfo}))
	r, err := Start(context.Background(), cfg, log, Roles{API: true, Worker: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Stop)
	// The worker's slots count from its first heartbeat, a moment after
	// it starts.
	insp := asynq.NewInspector(r.RedisOpt)
	defer insp.Close()
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if s, err := insp.Servers(); err == nil && len(s) > 0 {
			break
		}
		if time.Now().After(end) {
			t.Fatal("the worker never showed in asynq's servers")
		}
	}
	scopes := []string{kiln.ScopeAvatarWrite, kiln.ScopeProductRead, kiln.ScopeProductWrite}
	flood := newKey(t, r, "flood", scopes...)
	quiet := newKey(t, r, "quiet", scopes...)
	json := map[string]string{"Content-Type": "application/json"}

	var (
		mu        sync.Mutex
		floodIDs  []string
		limited   int
		badAnswer string
		wg        sync.WaitGroup
	)
	stop := time.Now().Add(3 * time.Second)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(stop) {
				res := do(t, "POST", r.AvatarURL+"/avatar", flood, strings.NewReader(`{}`), json)
				mu.Lock()
				switch {
				case res.Status == http.StatusOK:
					var out avatarResult
					res.json(t, &out)
					floodIDs = append(floodIDs, out.Data.ModelID)
				case res.Status == http.StatusTooManyRequests && res.errorCode(t) == "rate_limited":
					if n, err := strconv.Atoi(res.Header.Get("Retry-After")); err != nil || n < 1 {
						badAnswer = "Retry-After " + res.Header.Get("Retry-After")
					}
					limited++
				default:
					badAnswer = strconv.Itoa(res.Status) + " " + string(res.Body)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if badAnswer != "" {
		t.Fatalf("flood answered %s", badAnswer)
	}
	if limited == 0 || len(floodIDs) < 40 {
		t.Fatalf("flood: %d avatars, %d answers 429; want at least the burst of 40 and some 429s", len(floodIDs), limited)
	}
	cube := fixture.CubeGLB()
	uploadCube := func(key string) string {
		p := prepare(t, r, key, map[string]string{"name": "Cube", "type": "raw_model", "extension": "glb",
			"file_size": strconv.Itoa(len(cube)), "file_count": "1"})
		if res := upload(t, p, cube); res.Status != http.StatusOK {
			t.Fatalf("PUT upload: %d %s", res.Status, res.Body)
		}
		if res := finish(t, r, key, p.ObjectID, map[string]string{"success": "true", "optimize": "true"}); res.Status != http.StatusOK {
			t.Fatalf("finish-upload: %d %s", res.Status, res.Body)
		}
		return p.ObjectID
	}
	for range 10 {
		uploadCube(flood)
	}

	// The quiet account's first avatar and first upload, side by side;
	// each counts the flood avatars still unbuilt when it is ready.
	unbuilt := func() int {
		n := 0
		for _, fid := range floodIDs {
			if res := do(t, "HEAD", r.AvatarURL+"/model/"+fid+".glb", "", nil, nil); res.Status == http.StatusNotFound {
				n++
			}
		}
		return n
	}
	began := time.Now()
	var avatarWait time.Duration
	var avatarUnbuilt int
	quietAvatar := make(chan string, 1)
	wg.Add(1)
	go func() {
		defer wg.Done()
		id := postAvatar(t, r, quiet, `{}`)
		quietAvatar <- id
		for {
			res := do(t, "GET", r.AvatarURL+"/model/"+id+".glb", "", nil, nil)
			if res.Status == http.StatusOK {
				break
			}
			if res.Status != http.StatusServiceUnavailable || time.Since(began) > 5*time.Minute {
				t.Errorf("quiet avatar: %d %s", res.Status, res.Body)
				return
			}
		}
		avatarWait = time.Since(began)
		avatarUnbuilt = unbuilt()
	}()
	obj := uploadCube(quiet)
	var o objectJSON
	for o.State != "ready" && o.State != "failed" && time.Since(began) < 5*time.Minute {
		time.Sleep(100 * time.Millisecond)
		_, o = getObject(t, r, quiet, obj)
	}
	uploadWait := time.Since(began)
	uploadUnbuilt := unbuilt()
	wg.Wait()
	if o.State != "ready" {
		t.Fatalf("quiet upload is %s after %v: %s", o.State, uploadWait, o.Error)
	}
	t.Logf("flood: %d avatars accepted, %d answered 429, 10 uploads; quiet avatar ready after %v with %d flood avatars unbuilt; quiet upload ready after %v with %d unbuilt",
		len(floodIDs), limited, avatarWait.Round(time.Millisecond), avatarUnbuilt, uploadWait.Round(time.Millisecond), uploadUnbuilt)
	for what, n := range map[string]int{"avatar": avatarUnbuilt, "upload": uploadUnbuilt} {
		if n < len(floodIDs)/2 {
			t.Errorf("the quiet %s was ready only when %d of the %d flood avatars were built: it waited behind the flood", what, len(floodIDs)-n, len(floodIDs))
		}
	}

	quietIDs := []string{<-quietAvatar, obj}
	runs := func() (tasks, floodRuns, quietRuns []testenv.TaskRun) {
		logMu.Lock()
		tasks = testenv.TaskRuns(logs.String())
		logMu.Unlock()
		for _, q := range tasks {
			if q.Of(quietIDs) {
				quietRuns = append(quietRuns, q)
			} else {
				floodRuns = append(floodRuns, q)
			}
		}
		return tasks, floodRuns, quietRuns
	}
	// The log holds only the jobs that ended, so the worker stops once a
	// flood job that started after the quiet account's jobs has ended
	// too: otherwise, when the flood's one running build outlasts both,
	// the log shows no flood job the quiet ones could have overtaken.
	for end := time.Now().Add(2 * time.Minute); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		_, floodRuns, quietRuns := runs()
		if len(quietRuns) == 2 && slices.ContainsFunc(floodRuns, func(f testenv.TaskRun) bool {
			return f.Started.After(quietRuns[0].Started) && f.Started.After(quietRuns[1].Started)
		}) {
			break
		}
	}
	r.Stop()
	tasks, floodRuns, quietRuns := runs()
	if len(quietRuns) != 2 || len(floodRuns) == 0 {
		t.Fatalf("the worker's log has %d of the quiet account's 2 jobs and %d of the flood's", len(quietRuns), len(floodRuns))
	}
	// The flood's jobs at once, from their starts and ends.
	most, shortest := 0, time.Hour
	for _, a := range floodRuns {
		n := 0
		for _, b := range floodRuns {
			if !b.Started.After(a.Started) && b.Ended().After(a.Started) {
				n++
			}
		}
		most, shortest = max(most, n), min(shortest, a.Ran)
	}
	if most > 1 {
		t.Errorf("the flood ran %d jobs at once on 2 slots; one slot is another account's", most)
	}
	first := quietRuns[0]
	for _, q := range quietRuns {
		t.Logf("quiet job %s: waited %v for a slot, ran %v", q.ID, q.Waited, q.Ran)
		if q.Enqueued().Before(first.Enqueued()) {
			first = q
		}
	}
	// The account's first job overtook the flood's backlog and found the
	// free slot: it did not wait for a flood job to end (a poll of the
	// queue is 50 ms; a build, seconds). Its second job may wait for the
	// first: an account's share of 2 slots is one.
	overtook, behind := testenv.Overtaken(tasks, []string{first.ID})
	t.Logf("flood: %d jobs, at most %d at once, the shortest ran %v; the quiet account's first job overtook %d flood jobs queued ahead of it and fell behind %d",
		len(floodRuns), most, shortest, overtook, behind)
	if overtook <= behind {
		t.Errorf("the quiet account's first job started before %d of the flood's jobs queued ahead of it and after %d: it waited behind the flood", overtook, behind)
	}
	if first.Waited >= shortest {
		t.Errorf("the quiet account's first job waited %v for a slot, longer than any flood job ran (%v)", first.Waited, shortest)
	}
}

// TestAvatarBacklogFull: POST /avatar queues the avatar's build, so an
// account whose backlog is full gets the 429 too_many_queued_jobs with
// Retry-After of every enqueuer, and nothing of the refused avatar stays
// recorded. No worker runs, so nothing leaves the backlog: one build
// admitted and two held fill it.
func TestAvatarBacklogFull(t *testing.T) {
	cfg := testenv.Config(t, 1)
	cfg.FairRunning, cfg.FairHeld = 1, 2
	cfg.AvatarCreateRate = 0
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	r, err := Start(context.Background(), cfg, log, Roles{API: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Stop)
	key := newKey(t, r, "flood", kiln.ScopeAvatarWrite)
	var ids []string
	for range 3 {
		ids = append(ids, postAvatar(t, r, key, `{}`))
	}
	for range 2 {
		res := do(t, "POST", r.AvatarURL+"/avatar", key, strings.NewReader(`{}`), map[string]string{"Content-Type": "application/json"})
		if n, err := strconv.Atoi(res.Header.Get("Retry-After")); res.Status != http.StatusTooManyRequests || res.errorCode(t) != "too_many_queued_jobs" || err != nil || n < 1 {
			t.Fatalf("POST /avatar over a full backlog: %d Retry-After %q %s, want 429 too_many_queued_jobs", res.Status, res.Header.Get("Retry-After"), res.Body)
		}
	}
	var stored []string
	iter := r.Redis.Scan(t.Context(), 0, "*kiln*:avatar:av_*", 1000).Iterator()
	for iter.Next(t.Context()) { // the records, not asynq's tasks that name them
		if id := iter.Val()[strings.LastIndex(iter.Val(), ":avatar:")+len(":avatar:"):]; !strings.Contains(id, ":") {
			stored = append(stored, id)
		}
	}
	if err := iter.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(stored)
	slices.Sort(ids)
	if !slices.Equal(stored, ids) {
		t.Errorf("avatar records %v, want only the 3 accepted %v", stored, ids)
	}
}

// TestStaticRateLimited: one client address fetching the pages' static
// files in a loop meets 429 rate_limited with Retry-After after its
// burst, on the platform's /static and the creator's files alike (one
// bucket per address), while a first page's few files are served.
func TestStaticRateLimited(t *testing.T) {
	r := startAPIWith(t, nil)
	for _, u := range []string{r.PlatformURL + "/static/viewer.css", r.AvatarURL + "/creator/static/creator.css"} {
		if res := do(t, "GET", u, "", nil, nil); res.Status != http.StatusOK {
			t.Fatalf("GET %s: %d %s", u, res.Status, res.Body)
		}
	}
	served, limited := 2, 0
	var last response
	for i := 0; i < 400 && limited < 5; i++ {
		last = do(t, "GET", r.PlatformURL+"/static/viewer.css", "", nil, nil)
		switch {
		case last.Status == http.StatusOK:
			served++
		case last.Status == http.StatusTooManyRequests && last.errorCode(t) == "rate_limited":
			if n, err := strconv.Atoi(last.Header.Get("Retry-After")); err != nil || n < 1 {
				t.Fatalf("429 with Retry-After %q", last.Header.Get("Retry-After"))
			}
			limited++
		default:
			t.Fatalf("GET /static/viewer.css: %d %s", last.Status, last.Body)
		}
	}
	t.Logf("%d files served before %d answers 429", served, limited)
	if limited == 0 || served < 100 {
		t.Fatalf("%d served and %d limited; want the burst of 100 served, then 429s", served, limited)
	}
	// The same address's bucket on the avatar listener's creator files.
	if res := do(t, "GET", r.AvatarURL+"/creator/static/creator.css", "", nil, nil); res.Status != http.StatusTooManyRequests {
		t.Errorf("the creator's file right after: %d, want 429 from the same bucket", res.Status)
	}
}
