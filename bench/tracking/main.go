// Command tracking prepares and measures the visitor analytics benchmark
// of bench/tracking/run.sh against a running Kiln and its Redis:
//
//	tracking viewer -redis URL             make a viewer of the admin account, print its token
//	tracking summary -redis URL -url URL -key KEY
//	                                       load 1,000,000 events in 100,000 sessions over 30 days
//	                                       into a fresh viewer, then time the summary and views requests
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/storage/redis"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: tracking viewer|summary [flags]")
		os.Exit(2)
	}
	fs := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	redisURL := fs.String("redis", "redis://127.0.0.1:6391", "Redis of the Kiln under test")
	base := fs.String("url", "http://127.0.0.1:18080", "platform service")
	key := fs.String("key", "", "admin key")
	sessions := fs.Int("sessions", 100_000, "sessions to load")
	perSession := fs.Int("events", 10, "events a session")
	runs := fs.Int("runs", 20, "timed requests")
	fs.Parse(os.Args[2:])
	ctx := context.Background()
	rdb, err := redis.Open(ctx, *redisURL)
	if err != nil {
		fatal(err)
	}
	db := redis.New(rdb)
	token := kiln.NewID("vw")
	err = db.CreateViewer(ctx, &kiln.Viewer{Token: token, Account: "admin", Kind: kiln.ViewerProduct, Name: "bench", CreatedAt: time.Now().UTC()})
	if err != nil {
		fatal(err)
	}
	switch os.Args[1] {
	case "viewer":
		fmt.Println(token)
	case "summary":
		load(ctx, db, token, *sessions, *perSession)
		for _, q := range []string{"visitor-tracking-summary", "visitor-tracking-summary?start=" + fmt.Sprint(time.Now().AddDate(0, 0, -30).Unix()), "views?backto=30%20days", "views?backto=1%20year&scale=week"} {
			timeGET(*base+"/viewers/"+token+"/"+q, *key, *runs)
		}
	default:
		fatal(fmt.Errorf("unknown command %q", os.Args[1]))
	}
}

// load records sessions of perSession events a minute apart, starting at
// random times over the last 30 days, from 40,000 visitors, through the
// same script the API runs.
func load(ctx context.Context, db *redis.DB, token string, sessions, perSession int) {
	start := time.Now()
	var next atomic.Int64
	var wg sync.WaitGroup
	now := time.Now().Add(-time.Hour)
	for w := 0; w < 16; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 7))
			for {
				i := next.Add(1) - 1
				if i >= int64(sessions) {
					return
				}
				first := now.Add(-time.Duration(rng.Int64N(int64(30 * 24 * time.Hour))))
				for e := 0; e < perSession; e++ {
					at := first.Add(time.Duration(e) * time.Minute)
					ev := &kiln.TrackedEvent{Viewer: token, SessionID: fmt.Sprintf("s%d", i),
						Visitor: fmt.Sprintf("v%d-%s", i%40_000, at.Format(time.DateOnly)), Client: "bench",
						View: e%2 == 0, At: at}
					if _, err := db.RecordEvent(ctx, ev, "view", kiln.RateLimit{}); err != nil {
						fatal(err)
					}
				}
			}
		}()
	}
	wg.Wait()
	d := time.Since(start)
	n := sessions * perSession
	fmt.Printf("loaded %d events in %d sessions in %v (%.0f events/s through the record script)\n", n, sessions, d.Round(time.Millisecond), float64(n)/d.Seconds())
}

func timeGET(url, key string, runs int) {
	var ds []time.Duration
	var body []byte
	for i := 0; i < runs; i++ {
		req, _ := http.NewRequest("GET", url, nil)
		req.Header.Set("Authorization", "Bearer "+key)
		t := time.Now()
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			fatal(err)
		}
		body, err = io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil || res.StatusCode != 200 {
			fatal(fmt.Errorf("GET %s: %d %s %v", url, res.StatusCode, body, err))
		}
		ds = append(ds, time.Since(t))
	}
	slices.Sort(ds)
	if len(body) > 300 {
		body = append(body[:300], "…"...)
	}
	fmt.Printf("GET %s\n  %d runs: min %v, median %v, max %v\n  %s\n", url, runs,
		ds[0].Round(time.Millisecond/10), ds[len(ds)/2].Round(time.Millisecond/10), ds[len(ds)-1].Round(time.Millisecond/10), body)
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "tracking:", err)
	os.Exit(1)
}
