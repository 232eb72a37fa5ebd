package app

import (
	"strings"
	"testing"

	"github.com/kilnhq/kiln"
)

// specRoutes is the scope table of spec section 4.2, copied from the spec
// rather than from the router, so the two are checked against each other.
var specRoutes = []struct{ method, path, scope string }{
	{"GET", "/api-key-authorized", "user:read"},
	{"POST", "/resources/objects/prepare-upload", "product:write"},
	{"POST", "/resources/objects/x1/finish-upload", "product:write"},
	{"POST", "/resources/objects/sprite", "product:write"},
	{"GET", "/resources/objects/x1", "product:read"},
	{"POST", "/resources/objects/x1/like", ""},
	{"DELETE", "/resources/objects/x1/like", ""},
	{"GET", "/resources/furniture/custom-catalog", "product:read"},
	{"GET", "/console/objects/x1/details", "product:service"},
	{"DELETE", "/resources/spaces/x1", "space:write"},
	{"GET", "/viewers/x1/analytics/views", "viewer.stats:read"},
	{"GET", "/viewers/x1/visitor-tracking-summary", "viewer.stats:read"},
	{"GET", "/viewers/x1/annotations", "viewer:read"},
	{"DELETE", "/viewers/x1/objects", "viewer:write"},
	{"POST", "/viewers/x1/renderings", "renderings:write"},
	{"GET", "/viewers/x1/renderings", "renderings:read"},
	{"GET", "/renderings/custom-setups", "rendering:read"},
}

// publicRoutes need no credential.
var publicRoutes = []struct{ method, path string }{
	{"POST", "/viewers/x1/tracking-event"},
	{"GET", "/viewers/public"},
	{"GET", "/magic/conversational-ai/partner.quantum"},
}

func TestAuthEveryPlatformRoute(t *testing.T) {
	r := start(t)
	// A valid key whose only scope no platform route asks for.
	avatarOnly := newKey(t, r, "acme", kiln.ScopeAvatarWrite)
	for _, rt := range specRoutes {
		t.Run(rt.method+" "+rt.path, func(t *testing.T) {
			url := r.PlatformURL + rt.path
			for _, tc := range []struct {
				name, key string
				status    int
				code      string
			}{
				{"no key", "", 401, "unauthorized"},
				{"unknown key", "kiln_not-a-real-key", 401, "unauthorized"},
			} {
				res := do(t, rt.method, url, tc.key, nil, nil)
				if res.Status != tc.status || res.errorCode(t) != tc.code {
					t.Errorf("%s: %d %s, want %d %s", tc.name, res.Status, res.Body, tc.status, tc.code)
				}
				if res.Header.Get("WWW-Authenticate") == "" {
					t.Errorf("%s: 401 without WWW-Authenticate", tc.name)
				}
			}
			res := do(t, rt.method, url, avatarOnly, nil, nil)
			if rt.scope == "" {
				if res.Status == 401 || res.Status == 403 {
					t.Errorf("key without scopes on a route that needs none: %d %s", res.Status, res.Body)
				}
			} else if res.Status != 403 || res.errorCode(t) != "missing_scope" || !strings.Contains(string(res.Body), rt.scope) {
				t.Errorf("key lacking %s: %d %s, want 403 missing_scope naming it", rt.scope, res.Status, res.Body)
			}
			if rt.scope != "" {
				granted := newKey(t, r, "acme", rt.scope)
				if res := do(t, rt.method, url, granted, nil, nil); res.Status == 401 || res.Status == 403 {
					t.Errorf("key with %s: %d %s", rt.scope, res.Status, res.Body)
				}
			}
		})
	}
	for _, rt := range publicRoutes {
		if res := do(t, rt.method, r.PlatformURL+rt.path, "", nil, nil); res.Status == 401 || res.Status == 403 {
			t.Errorf("public %s %s: %d", rt.method, rt.path, res.Status)
		}
	}
}

func TestAPIKeyAuthorized(t *testing.T) {
	r := start(t)
	key := newKey(t, r, "acme", kiln.ScopeUserRead, kiln.ScopeProductRead)
	for _, tc := range []struct {
		scopes string
		status int
		code   string
	}{
		{"", 200, ""},
		{"user:read", 200, ""},
		{"user:read,product:read", 200, ""},
		{"user:read, product:write", 403, "missing_scope"},
		{"no:such", 400, "invalid_scopes"},
	} {
		res := do(t, "GET", r.PlatformURL+"/api-key-authorized?scopes="+strings.ReplaceAll(tc.scopes, " ", "%20"), key, nil, nil)
		if res.Status != tc.status {
			t.Errorf("scopes %q: %d %s, want %d", tc.scopes, res.Status, res.Body, tc.status)
			continue
		}
		if tc.code != "" {
			if got := res.errorCode(t); got != tc.code {
				t.Errorf("scopes %q: code %s, want %s", tc.scopes, got, tc.code)
			}
			continue
		}
		var out struct {
			Authorized bool     `json:"authorized"`
			Account    string   `json:"account"`
			Plan       string   `json:"plan"`
			Scopes     []string `json:"scopes"`
		}
		res.json(t, &out)
		if !out.Authorized || out.Account != "acme" || out.Plan != "free" || len(out.Scopes) != 2 {
			t.Errorf("scopes %q: %s", tc.scopes, res.Body)
		}
	}
}

func TestAdminKeys(t *testing.T) {
	r := start(t)
	user := newKey(t, r, "acme", kiln.ScopeUserRead)
	bad := []struct {
		name string
		body string
		key  string
		want int
		code string
	}{
		{"no key", `{}`, "", 401, "unauthorized"},
		{"not admin", `{"account":"a","scopes":["user:read"]}`, user, 403, "admin_only"},
		{"unknown field", `{"account":"a","scopes":["user:read"],"extra":1}`, r.AdminKey, 400, "invalid_json"},
		{"bad account", `{"account":"a b","scopes":["user:read"]}`, r.AdminKey, 400, "invalid_id"},
		{"bad plan", `{"account":"a","scopes":["user:read"],"plan":"gold"}`, r.AdminKey, 400, "invalid_plan"},
		{"no scopes", `{"account":"a","scopes":[]}`, r.AdminKey, 400, "invalid_scopes"},
		{"unknown scope", `{"account":"a","scopes":["root"]}`, r.AdminKey, 400, "invalid_scopes"},
		{"not json", `account=a`, r.AdminKey, 400, "invalid_json"},
	}
	for _, tc := range bad {
		res := do(t, "POST", r.PlatformURL+"/admin/api-keys", tc.key, strings.NewReader(tc.body), map[string]string{"Content-Type": "application/json"})
		if res.Status != tc.want || res.errorCode(t) != tc.code {
			t.Errorf("%s: %d %s, want %d %s", tc.name, res.Status, res.Body, tc.want, tc.code)
		}
	}

	res := do(t, "GET", r.PlatformURL+"/admin/api-keys", r.AdminKey, nil, nil)
	var list struct {
		Data []struct {
			ID      string `json:"id"`
			Account string `json:"account"`
			Key     string `json:"key"`
		} `json:"data"`
	}
	res.json(t, &list)
	if res.Status != 200 || len(list.Data) != 1 || list.Data[0].Account != "acme" || list.Data[0].Key != "" {
		t.Fatalf("list: %d %s", res.Status, res.Body)
	}
	if strings.Contains(string(res.Body), user) {
		t.Fatal("the key list shows a secret")
	}
	if res := do(t, "DELETE", r.PlatformURL+"/admin/api-keys/"+list.Data[0].ID, r.AdminKey, nil, nil); res.Status != 200 {
		t.Fatalf("revoke: %d %s", res.Status, res.Body)
	}
	if res := do(t, "GET", r.PlatformURL+"/api-key-authorized", user, nil, nil); res.Status != 401 {
		t.Fatalf("revoked key: %d, want 401", res.Status)
	}
	if res := do(t, "DELETE", r.PlatformURL+"/admin/api-keys/"+list.Data[0].ID, r.AdminKey, nil, nil); res.Status != 404 {
		t.Fatalf("revoke twice: %d, want 404", res.Status)
	}
}

func TestMonitoringAndOps(t *testing.T) {
	r := start(t)
	for _, tc := range []struct {
		name   string
		header map[string]string
		want   int
	}{
		{"no auth", nil, 401},
		{"wrong password", basic("admin", "nope"), 401},
		{"wrong user", basic("root", r.AdminKey), 401},
		{"admin", basic("admin", r.AdminKey), 200},
	} {
		res := do(t, "GET", r.PlatformURL+"/monitoring/", "", nil, tc.header)
		if res.Status != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, res.Status, tc.want)
		}
		if tc.want == 401 && !strings.HasPrefix(res.Header.Get("WWW-Authenticate"), "Basic") {
			t.Errorf("%s: no Basic challenge", tc.name)
		}
		if tc.want == 200 && !strings.Contains(string(res.Body), "<html") {
			t.Errorf("%s: monitoring page is not HTML", tc.name)
		}
	}
	res := do(t, "GET", r.PlatformURL+"/monitoring/api/queues", "", nil, basic("admin", r.AdminKey))
	if res.Status != 200 || !strings.Contains(string(res.Body), "queues") {
		t.Errorf("asynqmon API: %d %s", res.Status, res.Body)
	}

	for _, base := range []string{r.PlatformURL, r.AvatarURL} {
		for _, path := range []string{"/healthz", "/readyz"} {
			if res := do(t, "GET", base+path, "", nil, nil); res.Status != 200 || !strings.Contains(string(res.Body), `"ok"`) {
				t.Errorf("%s%s: %d %s", base, path, res.Status, res.Body)
			}
		}
	}
	res = do(t, "GET", r.PlatformURL+"/metrics", "", nil, nil)
	for _, m := range []string{"kiln_http_requests_total", "kiln_http_request_duration_seconds", `kiln_queue_tasks{queue="default",state="pending"}`, "go_goroutines"} {
		if !strings.Contains(string(res.Body), m) {
			t.Errorf("/metrics lacks %s", m)
		}
	}
	res = do(t, "GET", r.PlatformURL+"/no/such/route", "", nil, nil)
	if res.Status != 404 || res.errorCode(t) != "route_not_found" || res.Header.Get("X-Request-Id") == "" {
		t.Errorf("unknown route: %d %s", res.Status, res.Body)
	}
	res = do(t, "PATCH", r.PlatformURL+"/healthz", "", nil, nil)
	if res.Status != 405 || res.errorCode(t) != "method_not_allowed" {
		t.Errorf("wrong method: %d %s", res.Status, res.Body)
	}
}

// TestReadyzNamesWhatFailed closes the Redis connection under a running
// Kiln: /readyz must answer 503 naming redis, /healthz stays 200.
func TestReadyzNamesWhatFailed(t *testing.T) {
	r := start(t)
	r.Redis.Close()
	res := do(t, "GET", r.PlatformURL+"/readyz", "", nil, nil)
	if res.Status != 503 || res.errorCode(t) != "not_ready" || !strings.Contains(string(res.Body), "redis") {
		t.Fatalf("readyz: %d %s", res.Status, res.Body)
	}
	var body struct {
		Checks map[string]string `json:"checks"`
	}
	res.json(t, &body)
	if body.Checks["storage"] != "ok" || body.Checks["redis"] == "ok" {
		t.Fatalf("checks: %v", body.Checks)
	}
	if res := do(t, "GET", r.PlatformURL+"/healthz", "", nil, nil); res.Status != 200 {
		t.Fatalf("healthz: %d", res.Status)
	}
}
