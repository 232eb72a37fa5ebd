package api

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
)

// testServer builds the handlers with every optional route switched on
// (the queue monitor), so the routers serve all they can.
func testServer() *Server {
	return New(Config{Registry: prometheus.NewRegistry(), Monitor: http.NotFoundHandler()})
}

var ginParam = regexp.MustCompile(`[:*]([A-Za-z0-9_]+)`)

// served lists "METHOD /path" of an engine's routes in OpenAPI's path
// syntax (`:id` and `*any` become `{id}` and `{any}`).
func served(t *testing.T, h http.Handler) map[string]bool {
	t.Helper()
	e, ok := h.(*gin.Engine)
	if !ok {
		t.Fatalf("handler is %T, not a *gin.Engine", h)
	}
	out := map[string]bool{}
	for _, r := range e.Routes() {
		p := ginParam.ReplaceAllString(r.Path, "{$1}")
		// Gin's Any registers every method for the queue monitor; the
		// document describes its GET (the UI) and leaves asynqmon's own API
		// to asynqmon, so the other methods are not compared.
		if p == "/monitoring/{any}" && r.Method != http.MethodGet {
			continue
		}
		out[r.Method+" "+p] = true
	}
	return out
}

// documented lists "METHOD /path" of every operation of a document.
func documented(t *testing.T, raw []byte) map[string]bool {
	t.Helper()
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for p, item := range doc.Paths {
		for m := range item {
			switch m {
			case "parameters", "summary", "description", "servers":
				continue
			}
			out[strings.ToUpper(m)+" "+p] = true
		}
	}
	return out
}

func missing(a, b map[string]bool) []string {
	var out []string
	for k := range a {
		if !b[k] {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

func TestOpenAPIDocumentsEveryRoute(t *testing.T) {
	s := testServer()
	for _, tc := range []struct {
		listener string
		handler  http.Handler
	}{
		{"platform", s.Platform()},
		{"avatar", s.Avatar()},
	} {
		t.Run(tc.listener, func(t *testing.T) {
			raw, err := openapiFiles.ReadFile("openapi/" + tc.listener + ".json")
			if err != nil {
				t.Fatal(err)
			}
			routes, doc := served(t, tc.handler), documented(t, raw)
			if len(routes) < 5 {
				t.Fatalf("only %d routes served: %v", len(routes), routes)
			}
			if m := missing(routes, doc); len(m) > 0 {
				t.Errorf("served but not in openapi/%s.json:\n  %s", tc.listener, strings.Join(m, "\n  "))
			}
			if m := missing(doc, routes); len(m) > 0 {
				t.Errorf("in openapi/%s.json but not served:\n  %s", tc.listener, strings.Join(m, "\n  "))
			}
		})
	}
}

func TestOpenAPIServed(t *testing.T) {
	s := testServer()
	for _, tc := range []struct {
		listener string
		handler  http.Handler
		title    string
		op       string // a path the page must show
	}{
		{"platform", s.Platform(), "Kiln platform service", "/viewers/{viewerToken}/tracking-event"},
		{"avatar", s.Avatar(), "Kiln avatar service", "/animations/{gender}/{file}"},
	} {
		t.Run(tc.listener, func(t *testing.T) {
			srv := httptest.NewServer(tc.handler)
			defer srv.Close()

			status, ct, body := get(t, srv.URL+"/openapi.json")
			if status != http.StatusOK || !strings.HasPrefix(ct, "application/json") {
				t.Fatalf("/openapi.json: %d %s", status, ct)
			}
			var doc struct {
				OpenAPI string `json:"openapi"`
				Info    struct {
					Title string `json:"title"`
				} `json:"info"`
			}
			if err := json.Unmarshal(body, &doc); err != nil {
				t.Fatal(err)
			}
			if !regexp.MustCompile(`^3\.1\.\d+$`).MatchString(doc.OpenAPI) || doc.Info.Title != tc.title {
				t.Errorf("/openapi.json: openapi %q, title %q", doc.OpenAPI, doc.Info.Title)
			}

			status, ct, body = get(t, srv.URL+"/docs")
			if status != http.StatusOK || !strings.HasPrefix(ct, "text/html") {
				t.Fatalf("/docs: %d %s", status, ct)
			}
			page := string(body)
			for _, want := range []string{"<!doctype html>", tc.title, tc.op, `href="openapi.json"`} {
				if !strings.Contains(page, want) {
					t.Errorf("/docs lacks %q", want)
				}
			}
			if strings.Contains(page, "<script") {
				t.Error("/docs has a script; it is rendered on the server")
			}
		})
	}
}

func get(t *testing.T, url string) (int, string, []byte) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, res.Header.Get("Content-Type"), body
}

func TestInlineCode(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain", "plain"},
		{"a `b` c", "a <code>b</code> c"},
		{"`<script>` & co", "<code>&lt;script&gt;</code> &amp; co"},
		{"one ` left", "one ` left"},
		{"`x` and `y", "<code>x</code> and `y"},
	} {
		if got := string(inlineCode(tc.in)); got != tc.want {
			t.Errorf("inlineCode(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestOpenAPIScopes keeps the document's auth in step with the scope
// table: public rows need no credential, the others the bearer key with
// the row's scope named in the description.
func TestOpenAPIScopes(t *testing.T) {
	raw, err := openapiFiles.ReadFile("openapi/platform.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	for _, rt := range testServer().platformTable() {
		path := ginParam.ReplaceAllString(rt.path, "{$1}")
		opRaw, ok := doc.Paths[path][strings.ToLower(rt.method)]
		if !ok {
			t.Errorf("%s %s: not documented", rt.method, path)
			continue
		}
		var op struct {
			Description string              `json:"description"`
			Security    *[]map[string][]any `json:"security"`
		}
		if err := json.Unmarshal(opRaw, &op); err != nil {
			t.Fatal(err)
		}
		anonymous, bearer := false, op.Security == nil // nil inherits the document's apiKey
		if op.Security != nil {
			anonymous = len(*op.Security) == 0
			for _, req := range *op.Security {
				_, key := req["apiKey"]
				anonymous = anonymous || len(req) == 0
				bearer = bearer || key
			}
		}
		switch rt.scope {
		case Public:
			if !anonymous {
				t.Errorf("%s %s is public but documented with a credential", rt.method, path)
			}
		case KeyOnly:
			if !bearer || anonymous || !strings.Contains(op.Description, "Any valid key") {
				t.Errorf("%s %s needs any key: security %v, description %q", rt.method, path, op.Security, op.Description)
			}
		default:
			if !bearer || anonymous || !strings.Contains(op.Description, "Scope `"+rt.scope+"`") {
				t.Errorf("%s %s needs %s: security %v, description %q", rt.method, path, rt.scope, op.Security, op.Description)
			}
		}
	}
}
