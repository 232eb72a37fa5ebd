package app

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/kilnhq/kiln/internal/testenv"
)

// start runs a whole Kiln (API and worker) for one test.
func start(t *testing.T) *Running {
	t.Helper()
	cfg := testenv.Config(t, 1)
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	r, err := Start(context.Background(), cfg, log, Roles{API: true, Worker: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Stop)
	t.Logf("kiln on %s", testenv.Real())
	return r
}

type response struct {
	Status int
	Header http.Header
	Body   []byte
}

func (r response) json(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("body %q: %v", r.Body, err)
	}
}

// errorCode returns the code of a DESIGN.md error body, failing the test
// when the body has another shape.
func (r response) errorCode(t *testing.T) string {
	t.Helper()
	var e struct {
		Status string `json:"status"`
		Error  struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	r.json(t, &e)
	if e.Status != "error" || e.Error.Code == "" || e.Error.Message == "" {
		t.Fatalf("not an error body: %s", r.Body)
	}
	return e.Error.Code
}

func do(t *testing.T, method, url, key string, body io.Reader, header map[string]string) response {
	t.Helper()
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return response{res.StatusCode, res.Header, b}
}

func form(t *testing.T, fields map[string]string) (io.Reader, map[string]string) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for k, v := range fields {
		if err := w.WriteField(k, v); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	return &b, map[string]string{"Content-Type": w.FormDataContentType()}
}

func jsonBody(t *testing.T, v any) (io.Reader, map[string]string) {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.NewReader(b), map[string]string{"Content-Type": "application/json"}
}

// newKey makes an API key through the admin API.
func newKey(t *testing.T, r *Running, account string, scopes ...string) string {
	t.Helper()
	body, h := jsonBody(t, map[string]any{"account": account, "name": "test", "scopes": scopes, "plan": "free"})
	res := do(t, "POST", r.PlatformURL+"/admin/api-keys", r.AdminKey, body, h)
	if res.Status != http.StatusCreated {
		t.Fatalf("create key: %d %s", res.Status, res.Body)
	}
	var out struct {
		Status string `json:"status"`
		Data   struct {
			ID  string `json:"id"`
			Key string `json:"key"`
		} `json:"data"`
	}
	res.json(t, &out)
	if out.Status != "ok" || out.Data.Key == "" || out.Data.ID == "" {
		t.Fatalf("create key: %s", res.Body)
	}
	return out.Data.Key
}

// eventually polls f until it reports true or the deadline passes.
func eventually(t *testing.T, d time.Duration, what string, f func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !f() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", d, what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// basic is the header of an HTTP Basic login (the queue monitor's).
func basic(user, pass string) map[string]string {
	return map[string]string{"Authorization": "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+pass))}
}
