package api

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
)

// TestCORS asks both listeners what a browser asks: preflights and plain
// requests from an origin, under "*" and under a list. Routes that need
// no store (health, the OpenAPI document, an unknown path) stand for all,
// since the middleware runs before routing decides.
func TestCORS(t *testing.T) {
	const shop, evil = "https://shop.example", "https://evil.example"
	for _, tc := range []struct {
		name      string
		origins   []string
		method    string
		path      string
		header    map[string]string
		status    int
		allow     string // Access-Control-Allow-Origin, "" for none
		creds     bool   // Access-Control-Allow-Credentials: true
		preflight bool   // expect the preflight headers
		code      string // error code of the body
	}{
		{"no origin", nil, "GET", "/healthz", nil, 200, "", false, false, ""},
		{"any origin, GET", nil, "GET", "/openapi.json", map[string]string{"Origin": evil}, 200, "*", false, false, ""},
		{"an error keeps CORS", nil, "GET", "/nowhere", map[string]string{"Origin": evil}, 404, "*", false, false, "route_not_found"},
		{"any origin, preflight", []string{"*"}, "OPTIONS", "/avatar", map[string]string{"Origin": evil, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization,content-type"}, 204, "*", false, true, ""},
		{"listed origin, preflight", []string{shop}, "OPTIONS", "/avatar", map[string]string{"Origin": shop, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization"}, 204, shop, true, true, ""},
		{"listed origin, any case", []string{shop}, "GET", "/healthz", map[string]string{"Origin": "https://SHOP.example"}, 200, "https://SHOP.example", true, false, ""},
		{"unlisted origin, preflight", []string{shop}, "OPTIONS", "/avatar", map[string]string{"Origin": evil, "Access-Control-Request-Method": "POST"}, 403, "", false, false, "origin_not_allowed"},
		{"unlisted origin, GET", []string{shop}, "GET", "/healthz", map[string]string{"Origin": evil}, 200, "", false, false, ""},
		{"listed and any", []string{"*", shop}, "GET", "/healthz", map[string]string{"Origin": evil}, 200, "*", false, false, ""},
		{"OPTIONS that is no preflight", nil, "OPTIONS", "/healthz", map[string]string{"Origin": evil}, 405, "*", false, false, "method_not_allowed"},
	} {
		s := New(Config{Registry: prometheus.NewRegistry(), CORSOrigins: tc.origins})
		for listener, h := range map[string]http.Handler{"platform": s.Platform(), "avatar": s.Avatar()} {
			t.Run(tc.name+"/"+listener, func(t *testing.T) {
				req := httptest.NewRequest(tc.method, tc.path, nil)
				for k, v := range tc.header {
					req.Header.Set(k, v)
				}
				w := httptest.NewRecorder()
				h.ServeHTTP(w, req)
				res := w.Result()
				if res.StatusCode != tc.status {
					t.Fatalf("status %d, want %d: %s", res.StatusCode, tc.status, w.Body)
				}
				if got := res.Header.Get("Access-Control-Allow-Origin"); got != tc.allow {
					t.Errorf("Access-Control-Allow-Origin %q, want %q", got, tc.allow)
				}
				if got := res.Header.Get("Access-Control-Allow-Credentials") == "true"; got != tc.creds {
					t.Errorf("Access-Control-Allow-Credentials %v, want %v", got, tc.creds)
				}
				if len(tc.origins) > 0 && tc.origins[len(tc.origins)-1] == shop && !slices.Contains(res.Header.Values("Vary"), "Origin") {
					t.Errorf("Vary %q lacks Origin although the answer depends on it", res.Header.Values("Vary"))
				}
				methods, headers := res.Header.Get("Access-Control-Allow-Methods"), res.Header.Get("Access-Control-Allow-Headers")
				if tc.preflight {
					if !strings.Contains(methods, "POST") || !strings.Contains(methods, "HEAD") ||
						!strings.Contains(headers, "Authorization") || !strings.Contains(headers, "Content-Type") ||
						res.Header.Get("Access-Control-Max-Age") != "7200" || w.Body.Len() != 0 {
						t.Errorf("preflight answer: %v, body %q", res.Header, w.Body)
					}
				} else if methods != "" {
					t.Errorf("Access-Control-Allow-Methods %q on a request that is no preflight", methods)
				}
				exposed := res.Header.Get("Access-Control-Expose-Headers")
				if tc.allow != "" && !tc.preflight {
					for _, name := range []string{"ETag", "Content-Length", "Content-Disposition", "Retry-After", "X-Request-Id"} {
						if !strings.Contains(exposed, name) {
							t.Errorf("Access-Control-Expose-Headers %q lacks %s", exposed, name)
						}
					}
				} else if exposed != "" {
					t.Errorf("Access-Control-Expose-Headers %q without an allowed origin", exposed)
				}
				if tc.code != "" {
					var body errorBody
					if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || body.Error.Code != tc.code {
						t.Errorf("body %s, want error %s", w.Body, tc.code)
					}
				}
			})
		}
	}
}
