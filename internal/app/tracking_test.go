package app

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/internal/config"
	"github.com/kilnhq/kiln/internal/testenv"
)

// startAPI runs the API alone (no worker) with a configuration that
// change may adjust.
func startAPIWith(t *testing.T, change func(*config.Config)) *Running {
	t.Helper()
	cfg := testenv.Config(t, 1)
	if change != nil {
		change(cfg)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	r, err := Start(context.Background(), cfg, log, Roles{API: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Stop)
	return r
}

// testClock is the API's clock in a test: it stays where the test puts it.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

func pinClock(r *Running, at time.Time) *testClock {
	c := &testClock{now: at}
	r.SetClock(c.Now)
	return c
}

func storeViewer(t *testing.T, r *Running, account string) string {
	t.Helper()
	v := &kiln.Viewer{Token: kiln.NewID("vw"), Account: account, Kind: kiln.ViewerProduct, Name: "Chair", Public: true, CreatedAt: time.Now().UTC()}
	if err := r.DB.CreateViewer(context.Background(), v); err != nil {
		t.Fatal(err)
	}
	return v.Token
}

func track(t *testing.T, r *Running, token, session, key, agent string) response {
	t.Helper()
	body, h := jsonBody(t, map[string]any{"sessionId": session, "event": map[string]any{"key": key, "payload": map[string]any{"path": "/"}}})
	h["User-Agent"] = agent
	return do(t, "POST", r.PlatformURL+"/viewers/"+token+"/tracking-event", "", body, h)
}

func statsKey(t *testing.T, r *Running, account string, plan kiln.Plan) string {
	t.Helper()
	body, h := jsonBody(t, map[string]any{"account": account, "name": "stats", "scopes": []string{kiln.ScopeViewerStatsRead}, "plan": plan})
	res := do(t, "POST", r.PlatformURL+"/admin/api-keys", r.AdminKey, body, h)
	if res.Status != http.StatusCreated {
		t.Fatalf("create key: %d %s", res.Status, res.Body)
	}
	var out struct {
		Data struct {
			Key string `json:"key"`
		} `json:"data"`
	}
	res.json(t, &out)
	return out.Data.Key
}

func TestTrackingEventBadInput(t *testing.T) {
	r := startAPIWith(t, nil)
	pinClock(r, time.Date(2026, 11, 15, 12, 0, 0, 0, time.UTC))
	token := storeViewer(t, r, "acme")
	big := strings.Repeat("x", 4100)
	for _, tc := range []struct {
		name, token, ctype, body string
		status                   int
		code                     string
	}{
		{"saved", token, "application/json", `{"sessionId":"s1","event":{"key":"view","payload":{"path":"/"}}}`, 204, ""},
		{"no payload", token, "application/json", `{"sessionId":"s1","event":{"key":"click"}}`, 204, ""},
		{"null payload", token, "application/json", `{"sessionId":"s1","event":{"key":"click","payload":null}}`, 204, ""},
		{"beacon text/plain", token, "text/plain;charset=UTF-8", `{"sessionId":"s1","event":{"key":"view"}}`, 204, ""},
		{"content type", token, "application/xml", `{"sessionId":"s1","event":{"key":"view"}}`, 400, "invalid_content_type"},
		{"not json", token, "application/json", `{"sessionId":`, 400, "invalid_json"},
		{"empty body", token, "application/json", ``, 400, "invalid_json"},
		{"unknown field", token, "application/json", `{"sessionId":"s1","event":{"key":"view"},"at":1}`, 400, "invalid_json"},
		{"unknown event field", token, "application/json", `{"sessionId":"s1","event":{"key":"view","ts":1}}`, 400, "invalid_json"},
		{"trailing data", token, "application/json", `{"sessionId":"s1","event":{"key":"view"}} {}`, 400, "invalid_json"},
		{"array body", token, "application/json", `[]`, 400, "invalid_json"},
		{"session id number", token, "application/json", `{"sessionId":5,"event":{"key":"view"}}`, 400, "invalid_json"},
		{"no session id", token, "application/json", `{"event":{"key":"view"}}`, 400, "missing_session_id"},
		{"empty session id", token, "application/json", `{"sessionId":"","event":{"key":"view"}}`, 400, "invalid_session_id"},
		{"long session id", token, "application/json", `{"sessionId":"` + strings.Repeat("s", 129) + `","event":{"key":"view"}}`, 400, "invalid_session_id"},
		{"session id with space", token, "application/json", `{"sessionId":"a b","event":{"key":"view"}}`, 400, "invalid_session_id"},
		{"no event", token, "application/json", `{"sessionId":"s1"}`, 400, "missing_event"},
		{"event not object", token, "application/json", `{"sessionId":"s1","event":"view"}`, 400, "invalid_json"},
		{"no key", token, "application/json", `{"sessionId":"s1","event":{}}`, 400, "missing_event_key"},
		{"empty key", token, "application/json", `{"sessionId":"s1","event":{"key":""}}`, 400, "invalid_event_key"},
		{"long key", token, "application/json", `{"sessionId":"s1","event":{"key":"` + strings.Repeat("k", 65) + `"}}`, 400, "invalid_event_key"},
		{"key with space", token, "application/json", `{"sessionId":"s1","event":{"key":"a b"}}`, 400, "invalid_event_key"},
		{"payload array", token, "application/json", `{"sessionId":"s1","event":{"key":"view","payload":[1]}}`, 400, "invalid_event_payload"},
		{"payload string", token, "application/json", `{"sessionId":"s1","event":{"key":"view","payload":"x"}}`, 400, "invalid_event_payload"},
		{"payload over 4 KB", token, "application/json", `{"sessionId":"s1","event":{"key":"view","payload":{"x":"` + big + `"}}}`, 400, "event_payload_too_large"},
		{"body over 16 KB", token, "application/json", `{"sessionId":"s1","event":{"key":"view","payload":{"x":"` + strings.Repeat(big, 4) + `"}}}`, 413, "body_too_large"},
		{"bad token", "bad.token", "application/json", `{"sessionId":"s1","event":{"key":"view"}}`, 400, "invalid_id"},
		{"unknown viewer", "vw_nosuch", "application/json", `{"sessionId":"s1","event":{"key":"view"}}`, 404, "viewer_not_found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := do(t, "POST", r.PlatformURL+"/viewers/"+tc.token+"/tracking-event", "", strings.NewReader(tc.body),
				map[string]string{"Content-Type": tc.ctype})
			if res.Status != tc.status {
				t.Fatalf("%d %s, want %d", res.Status, res.Body, tc.status)
			}
			if tc.code == "" {
				if len(res.Body) != 0 {
					t.Errorf("204 with a body: %q", res.Body)
				}
				return
			}
			if got := res.errorCode(t); got != tc.code {
				t.Errorf("code %s, want %s (%s)", got, tc.code, res.Body)
			}
		})
	}
	// Only the four good events were counted.
	key := statsKey(t, r, "acme", kiln.PlanFree)
	var v viewsAnswer
	do(t, "GET", r.PlatformURL+"/viewers/"+token+"/views?backto=1%20day", key, nil, nil).json(t, &v)
	if v.Totals.Events != 4 || v.Totals.Views != 2 || v.Totals.Visitors != 1 {
		t.Errorf("totals after the table: %+v", v.Totals)
	}
}

func TestTrackingRateLimit(t *testing.T) {
	r := startAPIWith(t, func(c *config.Config) { c.TrackingRate, c.TrackingBurst = 1, 3 })
	clock := pinClock(r, time.Date(2026, 11, 15, 12, 0, 0, 0, time.UTC))
	token, other := storeViewer(t, r, "acme"), storeViewer(t, r, "acme")
	for i := 0; i < 3; i++ {
		if res := track(t, r, token, "s1", "view", "ua"); res.Status != 204 {
			t.Fatalf("event %d within the burst: %d %s", i, res.Status, res.Body)
		}
	}
	res := track(t, r, token, "s1", "view", "ua")
	if res.Status != 429 || res.errorCode(t) != "rate_limited" || res.Header.Get("Retry-After") != "1" {
		t.Fatalf("past the burst: %d %s Retry-After %q", res.Status, res.Body, res.Header.Get("Retry-After"))
	}
	// Each viewer has its own bucket, and the address is what is limited,
	// not the user agent.
	if res := track(t, r, other, "s1", "view", "ua"); res.Status != 204 {
		t.Errorf("another viewer: %d %s", res.Status, res.Body)
	}
	if res := track(t, r, token, "s1", "view", "another agent"); res.Status != 429 {
		t.Errorf("same address, another agent: %d, want 429", res.Status)
	}
	// No proxy is trusted by default: a forged X-Forwarded-For is not
	// another client.
	body, h := jsonBody(t, map[string]any{"sessionId": "s1", "event": map[string]any{"key": "view"}})
	h["X-Forwarded-For"] = "203.0.113.9"
	if res := do(t, "POST", r.PlatformURL+"/viewers/"+token+"/tracking-event", "", body, h); res.Status != 429 {
		t.Errorf("forged X-Forwarded-For: %d, want 429", res.Status)
	}
	// One second refills one token.
	clock.Set(clock.Now().Add(time.Second))
	if res := track(t, r, token, "s1", "view", "ua"); res.Status != 204 {
		t.Errorf("after a second: %d %s", res.Status, res.Body)
	}
	if res := track(t, r, token, "s1", "view", "ua"); res.Status != 429 {
		t.Errorf("second event after a second: %d, want 429", res.Status)
	}
	key := statsKey(t, r, "acme", kiln.PlanFree)
	var v viewsAnswer
	do(t, "GET", r.PlatformURL+"/viewers/"+token+"/views?backto=1%20day", key, nil, nil).json(t, &v)
	if v.Totals.Views != 4 {
		t.Errorf("refused events were counted: %d views, want 4", v.Totals.Views)
	}
}

// TestTrackingKeepsNoAddress looks at every analytics key and value for
// the client's address and user agent, and at the salt's expiry.
func TestTrackingKeepsNoAddress(t *testing.T) {
	r := startAPIWith(t, nil)
	day := time.Date(2026, 11, 15, 12, 0, 0, 0, time.UTC)
	pinClock(r, day)
	token := storeViewer(t, r, "acme")
	agent := "Mozilla/5.0 (X11; Linux x86_64) KilnTestAgent/7"
	if res := track(t, r, token, "sess-private", "view", agent); res.Status != 204 {
		t.Fatalf("%d %s", res.Status, res.Body)
	}
	ctx := context.Background()
	keys, err := r.Redis.Keys(ctx, "kiln:*").Result()
	if err != nil {
		t.Fatal(err)
	}
	var dump strings.Builder
	for _, k := range keys {
		if !strings.HasPrefix(k, "kiln:stats:") && !strings.HasPrefix(k, "kiln:tracking:") {
			continue
		}
		dump.WriteString(k + "\n")
		switch typ := r.Redis.Type(ctx, k).Val(); typ {
		case "string":
			dump.WriteString(r.Redis.Get(ctx, k).Val())
		case "hash":
			fmt.Fprint(&dump, r.Redis.HGetAll(ctx, k).Val())
		case "set":
			fmt.Fprint(&dump, r.Redis.SMembers(ctx, k).Val())
		case "zset":
			fmt.Fprint(&dump, r.Redis.ZRange(ctx, k, 0, -1).Val())
		default:
			t.Errorf("key %s of type %s", k, typ)
		}
		dump.WriteString("\n")
	}
	s := dump.String()
	if !strings.Contains(s, "sess-private") {
		t.Fatalf("the dump misses the session; keys: %v", keys)
	}
	for _, secret := range []string{"127.0.0.1", "KilnTestAgent", "Mozilla"} {
		if strings.Contains(s, secret) {
			t.Errorf("Redis holds %q:\n%s", secret, s)
		}
	}
	ttl := r.Redis.TTL(ctx, "kiln:tracking:salt:2026-11-15").Val()
	if ttl <= 47*time.Hour || ttl > 48*time.Hour {
		t.Errorf("salt TTL %v, want just under 48h", ttl)
	}
}

type viewsAnswer struct {
	ViewerToken string `json:"viewerToken"`
	Scale       string `json:"scale"`
	Backto      string `json:"backto"`
	From        string `json:"from"`
	To          string `json:"to"`
	Periods     []struct {
		Start    string `json:"start"`
		End      string `json:"end"`
		Views    int64  `json:"views"`
		Events   int64  `json:"events"`
		Visitors int64  `json:"visitors"`
	} `json:"periods"`
	Totals struct {
		Views    int64 `json:"views"`
		Events   int64 `json:"events"`
		Visitors int64 `json:"visitors"`
	} `json:"totals"`
}

type summaryAnswer struct {
	ViewerToken            string  `json:"viewerToken"`
	Start                  *int64  `json:"start"`
	End                    *int64  `json:"end"`
	UniqueVisitors         int64   `json:"uniqueVisitors"`
	SessionCount           int64   `json:"sessionCount"`
	AverageSessionDuration float64 `json:"averageSessionDuration"`
	TotalSessionDuration   int64   `json:"totalSessionDuration"`
}

func utcAt(s string) time.Time {
	t, err := time.Parse("2006-01-02 15:04:05", s)
	if err != nil {
		panic(err)
	}
	return t
}

// TestAnalyticsKnownStream replays a stream of events at chosen times and
// checks every number against the sums worked out by hand below.
//
// Visitors are told apart by user agent (the address is 127.0.0.1 for
// all); a visitor hash holds the UTC day's salt, so A on 11-10 and A on
// 11-12 are two visitors. Sessions of viewer V:
//
//	#  session  visitor  first                last                 seconds
//	1  a1       A@11-10  2026-11-10 10:00:00  2026-11-10 10:40:00  2400 (view, click 10:10, view after exactly 30 min: same session)
//	2  a1       A@11-10  2026-11-10 11:10:01  2026-11-10 11:10:01     0 (30 min 1 s of silence: a new session)
//	3  b1       B@11-10  2026-11-10 12:00:00  2026-11-10 12:05:00   300
//	4  a2       A@11-12  2026-11-12 09:00:00  2026-11-12 09:20:00  1200
//	5  c1       C@11-12  2026-11-12 23:50:00  2026-11-13 00:10:00  1200 (crosses midnight: one session)
//	6  b2       B@11-15  2026-11-15 08:00:00  2026-11-15 08:00:00     0
//
// Days of V (views are events with key "view"):
//
//	11-10: views 5 (a1 ×2, a1' ×1, b1 ×2), events 6 (+ click), visitors 2 (A, B)
//	11-12: views 3 (a2 ×2, c1 ×1), events 3, visitors 2 (A, C)
//	11-13: views 0, events 1 (c1's scroll after midnight), visitors 1 (C, hashed with 11-13's salt)
//	11-15: views 1, events 1, visitors 1 (B)
//	total: views 9, events 11, visitors 6 (distinct day hashes: A10 B10 A12 C12 C13 B15)
//
// Viewer W gets one view from A on 11-10 that V must not count.
func TestAnalyticsKnownStream(t *testing.T) {
	r := startAPIWith(t, nil)
	clock := pinClock(r, utcAt("2026-11-10 10:00:00"))
	v, w := storeViewer(t, r, "acme"), storeViewer(t, r, "acme")
	const A, B, C = "agent-A", "agent-B", "agent-C"
	for _, e := range []struct {
		when, viewer, session, key, agent string
	}{
		{"2026-11-10 10:00:00", v, "a1", "view", A},
		{"2026-11-10 10:05:00", w, "a1", "view", A},
		{"2026-11-10 10:10:00", v, "a1", "click", A},
		{"2026-11-10 10:40:00", v, "a1", "view", A},
		{"2026-11-10 11:10:01", v, "a1", "view", A},
		{"2026-11-10 12:00:00", v, "b1", "view", B},
		{"2026-11-10 12:05:00", v, "b1", "view", B},
		{"2026-11-12 09:00:00", v, "a2", "view", A},
		{"2026-11-12 09:20:00", v, "a2", "view", A},
		{"2026-11-12 23:50:00", v, "c1", "view", C},
		{"2026-11-13 00:10:00", v, "c1", "scroll", C},
		{"2026-11-15 08:00:00", v, "b2", "view", B},
	} {
		clock.Set(utcAt(e.when))
		if res := track(t, r, e.viewer, e.session, e.key, e.agent); res.Status != 204 {
			t.Fatalf("%+v: %d %s", e, res.Status, res.Body)
		}
	}
	clock.Set(utcAt("2026-11-15 12:00:00"))
	pro := statsKey(t, r, "acme", kiln.PlanPremium)

	t.Run("views", func(t *testing.T) {
		type period struct {
			start, end              string
			views, events, visitors int64
		}
		for _, tc := range []struct {
			query, from string
			periods     []period
			total       [3]int64
		}{
			{"backto=7%20days", "2026-11-09", []period{
				{"2026-11-09", "2026-11-09", 0, 0, 0},
				{"2026-11-10", "2026-11-10", 5, 6, 2},
				{"2026-11-11", "2026-11-11", 0, 0, 0},
				{"2026-11-12", "2026-11-12", 3, 3, 2},
				{"2026-11-13", "2026-11-13", 0, 1, 1},
				{"2026-11-14", "2026-11-14", 0, 0, 0},
				{"2026-11-15", "2026-11-15", 1, 1, 1},
			}, [3]int64{9, 11, 6}},
			// 2 weeks back from Sunday 11-15 starts on Monday 11-02.
			{"backto=2%20weeks&scale=week", "2026-11-02", []period{
				{"2026-11-02", "2026-11-08", 0, 0, 0},
				{"2026-11-09", "2026-11-15", 9, 11, 6},
			}, [3]int64{9, 11, 6}},
			// 30 days back is Saturday 10-17, in the week of Monday 10-12.
			{"backto=30+days&scale=week", "2026-10-12", []period{
				{"2026-10-12", "2026-10-18", 0, 0, 0},
				{"2026-10-19", "2026-10-25", 0, 0, 0},
				{"2026-10-26", "2026-11-01", 0, 0, 0},
				{"2026-11-02", "2026-11-08", 0, 0, 0},
				{"2026-11-09", "2026-11-15", 9, 11, 6},
			}, [3]int64{9, 11, 6}},
			// 3 months back is 08-16, in August.
			{"backto=3%20months&scale=month", "2026-08-01", []period{
				{"2026-08-01", "2026-08-31", 0, 0, 0},
				{"2026-09-01", "2026-09-30", 0, 0, 0},
				{"2026-10-01", "2026-10-31", 0, 0, 0},
				{"2026-11-01", "2026-11-15", 9, 11, 6},
			}, [3]int64{9, 11, 6}},
			// Only the last three days: 11-13 to 11-15.
			{"backto=3%20days", "2026-11-13", []period{
				{"2026-11-13", "2026-11-13", 0, 1, 1},
				{"2026-11-14", "2026-11-14", 0, 0, 0},
				{"2026-11-15", "2026-11-15", 1, 1, 1},
			}, [3]int64{1, 2, 2}},
		} {
			res := do(t, "GET", r.PlatformURL+"/viewers/"+v+"/views?"+tc.query, pro, nil, nil)
			if res.Status != 200 {
				t.Fatalf("%s: %d %s", tc.query, res.Status, res.Body)
			}
			var got viewsAnswer
			res.json(t, &got)
			if got.ViewerToken != v || got.From != tc.from || got.To != "2026-11-15" || len(got.Periods) != len(tc.periods) {
				t.Fatalf("%s: %s", tc.query, res.Body)
			}
			for i, p := range tc.periods {
				g := got.Periods[i]
				if g.Start != p.start || g.End != p.end || g.Views != p.views || g.Events != p.events || g.Visitors != p.visitors {
					t.Errorf("%s: period %d is %+v, want %+v", tc.query, i, g, p)
				}
			}
			if tot := got.Totals; [3]int64{tot.Views, tot.Events, tot.Visitors} != tc.total {
				t.Errorf("%s: totals %+v, want %v", tc.query, tot, tc.total)
			}
		}
		// Defaults: 30 days by day, every day present.
		var def viewsAnswer
		do(t, "GET", r.PlatformURL+"/viewers/"+v+"/views", pro, nil, nil).json(t, &def)
		if def.Scale != "day" || def.Backto != "30 days" || def.From != "2026-10-17" || len(def.Periods) != 30 || def.Totals.Views != 9 {
			t.Errorf("defaults: scale %s backto %s from %s, %d periods, %d views", def.Scale, def.Backto, def.From, len(def.Periods), def.Totals.Views)
		}
		// W saw only its own view.
		var wv viewsAnswer
		do(t, "GET", r.PlatformURL+"/viewers/"+w+"/views?backto=7%20days", pro, nil, nil).json(t, &wv)
		if wv.Totals.Views != 1 || wv.Totals.Visitors != 1 {
			t.Errorf("viewer W: %+v", wv.Totals)
		}
	})

	t.Run("summary", func(t *testing.T) {
		u := func(s string) string { return strconv.FormatInt(utcAt(s).Unix(), 10) }
		for _, tc := range []struct {
			name, query                  string
			visitors, sessions, duration int64
			avg                          float64
		}{
			// All six sessions; visitors A10 B10 A12 C12 B15; 5100 s / 6.
			{"no bounds", "", 5, 6, 5100, 850},
			// Sessions 1 and 2 overlap 10:30 to 11:59:59; b1 starts at 12:00.
			{"a morning", "start=" + u("2026-11-10 10:30:00") + "&end=" + u("2026-11-10 11:59:59"), 1, 2, 2400, 1200},
			// Both bounds are inclusive: session 1 ends at 10:40:00.
			{"one second", "start=" + u("2026-11-10 10:40:00") + "&end=" + u("2026-11-10 10:40:00"), 1, 1, 2400, 2400},
			// A moment inside session 5, which has no event then.
			{"inside a session", "start=" + u("2026-11-13 00:05:00") + "&end=" + u("2026-11-13 00:05:00"), 1, 1, 1200, 1200},
			// Only start: sessions 4, 5, 6 (A12, C12, B15): 2400 s / 3.
			{"from 11-11", "start=" + u("2026-11-11 00:00:00"), 3, 3, 2400, 800},
			// Only end: sessions 1, 2, 3: visitors A10 and B10, 2700 s / 3.
			{"until 11-11", "end=" + u("2026-11-11 00:00:00"), 2, 3, 2700, 900},
			// After session 6's only event.
			{"nothing", "start=" + u("2026-11-15 08:00:01"), 0, 0, 0, 0},
			{"start equals end, empty", "start=0&end=0", 0, 0, 0, 0},
		} {
			res := do(t, "GET", r.PlatformURL+"/viewers/"+v+"/visitor-tracking-summary?"+tc.query, pro, nil, nil)
			if res.Status != 200 {
				t.Fatalf("%s: %d %s", tc.name, res.Status, res.Body)
			}
			var got summaryAnswer
			res.json(t, &got)
			if got.UniqueVisitors != tc.visitors || got.SessionCount != tc.sessions ||
				got.TotalSessionDuration != tc.duration || got.AverageSessionDuration != tc.avg || got.ViewerToken != v {
				t.Errorf("%s: %s, want visitors %d sessions %d seconds %d average %v", tc.name, res.Body, tc.visitors, tc.sessions, tc.duration, tc.avg)
			}
		}
	})
}

// TestAnalyticsErrors covers spec section 7 for the analytics endpoints.
func TestAnalyticsErrors(t *testing.T) {
	r := startAPIWith(t, nil)
	pinClock(r, utcAt("2026-11-15 12:00:00"))
	mine, theirs := storeViewer(t, r, "acme"), storeViewer(t, r, "globex")
	pro := statsKey(t, r, "acme", kiln.PlanPremium)
	ent := statsKey(t, r, "acme", kiln.PlanEnterprise)
	free := statsKey(t, r, "acme", kiln.PlanFree)
	noScope := newKey(t, r, "acme", kiln.ScopeViewerRead)
	summary := func(token, q string) string {
		return "/viewers/" + token + "/visitor-tracking-summary" + q
	}
	for _, tc := range []struct {
		name, path, key string
		status          int
		code            string
	}{
		{"summary pro", summary(mine, "?start=1&end=2"), pro, 200, ""},
		{"summary enterprise", summary(mine, ""), ent, 200, ""},
		{"summary admin", summary(mine, ""), r.AdminKey, 200, ""},
		{"summary start not a number", summary(mine, "?start=yesterday"), pro, 400, "invalid_start"},
		{"summary end not a number", summary(mine, "?end=1.5"), pro, 400, "invalid_end"},
		{"summary start after end", summary(mine, "?start=10&end=9"), pro, 400, "invalid_range"},
		{"summary no key", summary(mine, ""), "", 401, "unauthorized"},
		{"summary unknown key", summary(mine, ""), "kiln_nope", 401, "unauthorized"},
		{"summary free plan", summary(mine, ""), free, 403, "plan_required"},
		{"summary no scope", summary(mine, ""), noScope, 403, "missing_scope"},
		{"summary unknown viewer", summary("vw_nosuch", ""), pro, 404, "viewer_not_found"},
		{"summary another account's viewer", summary(theirs, ""), pro, 404, "viewer_not_found"},
		{"summary bad token", summary("a.b", ""), pro, 400, "invalid_id"},
		{"views free plan", "/viewers/" + mine + "/views", free, 200, ""},
		{"views no key", "/viewers/" + mine + "/views", "", 401, "unauthorized"},
		{"views no scope", "/viewers/" + mine + "/views", noScope, 403, "missing_scope"},
		{"views unknown viewer", "/viewers/vw_nosuch/views", pro, 404, "viewer_not_found"},
		{"views another account's viewer", "/viewers/" + theirs + "/views", pro, 404, "viewer_not_found"},
		{"views bad backto", "/viewers/" + mine + "/views?backto=30%20parsecs", pro, 400, "invalid_backto"},
		{"views backto zero", "/viewers/" + mine + "/views?backto=0%20days", pro, 400, "invalid_backto"},
		{"views backto no unit", "/viewers/" + mine + "/views?backto=30", pro, 400, "invalid_backto"},
		{"views backto too far", "/viewers/" + mine + "/views?backto=3%20years", pro, 400, "invalid_backto"},
		{"views two years", "/viewers/" + mine + "/views?backto=2%20years&scale=month", pro, 200, ""},
		{"views bad scale", "/viewers/" + mine + "/views?scale=year", pro, 400, "invalid_scale"},
		{"deprecated no key", "/viewers/" + mine + "/analytics/views", "", 401, "unauthorized"},
		{"deprecated bad scale", "/viewers/" + mine + "/analytics/views?scale=hour", pro, 400, "invalid_scale"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := do(t, "GET", r.PlatformURL+tc.path, tc.key, nil, nil)
			if res.Status != tc.status {
				t.Fatalf("%d %s, want %d", res.Status, res.Body, tc.status)
			}
			if tc.code != "" {
				if got := res.errorCode(t); got != tc.code {
					t.Errorf("code %s, want %s", got, tc.code)
				}
			}
		})
	}

	t.Run("deprecated path", func(t *testing.T) {
		res := do(t, "GET", r.PlatformURL+"/viewers/"+mine+"/analytics/views?backto=12%20weeks&scale=week", pro, nil, nil)
		want := do(t, "GET", r.PlatformURL+"/viewers/"+mine+"/views?backto=12%20weeks&scale=week", pro, nil, nil)
		if res.Status != 200 || string(res.Body) != string(want.Body) {
			t.Fatalf("%d %s, want the body of /views: %s", res.Status, res.Body, want.Body)
		}
		if res.Header.Get("Deprecation") != "true" || res.Header.Get("Link") != "</viewers/"+mine+"/views>; rel=\"successor-version\"" {
			t.Errorf("headers: Deprecation %q Link %q", res.Header.Get("Deprecation"), res.Header.Get("Link"))
		}
		if want.Header.Get("Deprecation") != "" {
			t.Errorf("/views says it is deprecated")
		}
		var v viewsAnswer
		res.json(t, &v)
		if len(v.Periods) != 12 || v.Periods[0].Start != "2026-08-24" {
			t.Errorf("12 weeks: %d periods from %s", len(v.Periods), v.From)
		}
	})

	// A record Kiln cannot read is an internal error: 500, with no detail
	// in the body.
	t.Run("internal error", func(t *testing.T) {
		ctx := context.Background()
		if err := r.Redis.Set(ctx, "kiln:stats:"+mine+":sessions", "not a sorted set", 0).Err(); err != nil {
			t.Fatal(err)
		}
		if err := r.Redis.Set(ctx, "kiln:stats:"+mine+":day:2026-11-15", "not a hash", 0).Err(); err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{summary(mine, ""), "/viewers/" + mine + "/analytics/views", "/viewers/" + mine + "/views"} {
			res := do(t, "GET", r.PlatformURL+p, pro, nil, nil)
			if res.Status != 500 || res.errorCode(t) != "internal" || strings.Contains(string(res.Body), "WRONGTYPE") {
				t.Errorf("%s: %d %s, want 500 internal without detail", p, res.Status, res.Body)
			}
		}
	})
}
