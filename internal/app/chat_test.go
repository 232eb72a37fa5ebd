package app

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/internal/config"
)

type chatAnswer struct {
	ConvID     string `json:"conv_id"`
	Type       string `json:"type"`
	Answer     string `json:"answer"`
	Source     string `json:"source"`
	References []struct {
		Kind  string `json:"kind"`
		ID    string `json:"id"`
		Title string `json:"title"`
	} `json:"references"`
}

func ask(t *testing.T, r *Running, typ, key string, q url.Values) (response, chatAnswer) {
	t.Helper()
	res := do(t, "GET", r.PlatformURL+"/magic/conversational-ai/"+typ+"?"+q.Encode(), key, nil, nil)
	var a chatAnswer
	if res.Status == 200 {
		res.json(t, &a)
	}
	return res, a
}

func (a chatAnswer) refers(kind, id string) bool {
	for _, r := range a.References {
		if r.Kind == kind && (id == "" || r.ID == id) {
			return true
		}
	}
	return false
}

func TestChatBuiltIn(t *testing.T) {
	r := startAPIWith(t, nil)
	ctx := context.Background()
	obj := &kiln.Object{ID: kiln.NewID("obj"), Account: "acme", Name: "Walnut Armchair", Description: "A mid-century lounge chair in oiled walnut.",
		Type: "raw_model", Extension: "glb", State: kiln.StateReady, CreatedAt: time.Now().UTC(), UpdatedAt: time.Now().UTC()}
	if err := r.DB.CreateObject(ctx, obj); err != nil {
		t.Fatal(err)
	}
	viewer := storeViewer(t, r, "acme")
	acme := newKey(t, r, "acme", kiln.ScopeUserRead)
	globex := newKey(t, r, "globex", kiln.ScopeUserRead)

	// Anonymous: the help text answers, and the assistant says what it is.
	res, a := ask(t, r, "partner.quantum", "", url.Values{"prompt": {"How do I upload a 3D model?"}})
	if res.Status != 200 {
		t.Fatalf("%d %s", res.Status, res.Body)
	}
	if a.Source != "built-in" || a.Type != "partner.quantum" || !strings.HasPrefix(a.ConvID, "conv_") ||
		!strings.Contains(a.Answer, "built-in assistant") || !strings.Contains(a.Answer, "prepare-upload") {
		t.Errorf("anonymous upload question: %s", res.Body)
	}
	if len(a.References) == 0 || a.References[0].Title != "Uploading a 3D object" {
		t.Errorf("first reference: %+v", a.References)
	}

	// The conversation keeps both turns under its id, and a follow-up
	// without its own topic words stays on the topic.
	conv := a.ConvID
	res, b := ask(t, r, "partner.quantum", "", url.Values{"prompt": {"and the plan it needs?"}, "conv_id": {conv}})
	if res.Status != 200 || b.ConvID != conv {
		t.Fatalf("follow-up: %d %s", res.Status, res.Body)
	}
	hist, err := r.DB.ChatHistory(ctx, "~anonymous", "partner.quantum", conv)
	if err != nil || len(hist) != 4 || hist[0].Role != "user" || hist[0].Content != "How do I upload a 3D model?" || hist[3].Role != "assistant" {
		t.Errorf("history: %v %+v", err, hist)
	}

	// With the account's key, its objects and viewers are searched too;
	// anonymous callers and other accounts do not see them.
	q := url.Values{"prompt": {"walnut chair"}}
	if _, a := ask(t, r, "partner.quantum", acme, q); !a.refers("object", obj.ID) || !strings.Contains(a.Answer, "Walnut Armchair") {
		t.Errorf("acme asking for its chair: %+v", a)
	}
	for name, key := range map[string]string{"anonymous": "", "globex": globex} {
		if res, a := ask(t, r, "partner.quantum", key, q); res.Status != 200 || a.refers("object", "") || strings.Contains(a.Answer, "Walnut") {
			t.Errorf("%s sees acme's chair: %s", name, res.Body)
		}
	}
	if _, a := ask(t, r, "partner.lobby", acme, url.Values{"prompt": {"product viewer " + viewer}}); !a.refers("viewer", viewer) || !strings.Contains(a.Answer, "Lobby") {
		t.Errorf("lobby asked about the viewer: %+v", a)
	}
	// Conversations are per account: acme cannot read the anonymous one.
	if _, a := ask(t, r, "partner.quantum", acme, url.Values{"prompt": {"hello"}, "conv_id": {conv}}); a.ConvID != conv {
		t.Errorf("conv_id not echoed: %+v", a)
	}
	if hist, _ := r.DB.ChatHistory(ctx, "~anonymous", "partner.quantum", conv); len(hist) != 4 {
		t.Errorf("acme's turn landed in the anonymous conversation: %d turns", len(hist))
	}

	// Nothing found: it says so and cites nothing.
	if _, a := ask(t, r, "partner.lobby", "", url.Values{"prompt": {"zzyzx quux"}}); len(a.References) != 0 || !strings.Contains(a.Answer, "found nothing") {
		t.Errorf("unmatched prompt: %+v", a)
	}

	// Only the last 20 turns (40 messages) are kept, for 24 hours.
	long := "conv_long"
	for i := 0; i < 22; i++ {
		if res, _ := ask(t, r, "partner.lobby", acme, url.Values{"prompt": {"viewer number " + string(rune('a'+i))}, "conv_id": {long}}); res.Status != 200 {
			t.Fatalf("turn %d: %d %s", i, res.Status, res.Body)
		}
	}
	hist, _ = r.DB.ChatHistory(ctx, "acme", "partner.lobby", long)
	if len(hist) != 40 || hist[0].Content != "viewer number c" {
		t.Errorf("kept %d messages, first %+v", len(hist), hist[0])
	}
	if ttl := r.Redis.TTL(ctx, "kiln:chat:acme:partner.lobby:"+long).Val(); ttl <= 23*time.Hour || ttl > 24*time.Hour {
		t.Errorf("conversation TTL %v", ttl)
	}
}

func TestChatErrors(t *testing.T) {
	r := startAPIWith(t, nil)
	for _, tc := range []struct {
		name, path, key string
		status          int
		code            string
	}{
		{"unknown type", "/magic/conversational-ai/partner.nope?prompt=hi", "", 404, "unknown_assistant"},
		{"no prompt", "/magic/conversational-ai/partner.quantum", "", 400, "missing_prompt"},
		{"blank prompt", "/magic/conversational-ai/partner.quantum?prompt=%20%20", "", 400, "missing_prompt"},
		{"long prompt", "/magic/conversational-ai/partner.quantum?prompt=" + strings.Repeat("a", 4001), "", 400, "prompt_too_long"},
		{"not UTF-8", "/magic/conversational-ai/partner.quantum?prompt=%ff%fe", "", 400, "invalid_prompt"},
		{"bad conv_id", "/magic/conversational-ai/partner.lobby?prompt=hi&conv_id=a%20b", "", 400, "invalid_id"},
		{"empty conv_id", "/magic/conversational-ai/partner.lobby?prompt=hi&conv_id=", "", 400, "invalid_id"},
		{"unknown key", "/magic/conversational-ai/partner.lobby?prompt=hi", "kiln_nope", 401, "unauthorized"},
		{"max prompt", "/magic/conversational-ai/partner.quantum?prompt=" + strings.Repeat("a", 4000), "", 200, ""},
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
}

// completions is an OpenAI-compatible chat completions server: a real HTTP
// peer that records what Kiln sends and answers like the API does.
type completions struct {
	mu       sync.Mutex
	requests []completionRequest
	status   int    // answer with this status when set
	body     string // answer with this body when set
}

type completionRequest struct {
	Model    string `json:"model"`
	Messages []struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"messages"`
	auth string
}

func (c *completions) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != "POST" || r.URL.Path != "/v1/chat/completions" || r.Header.Get("Content-Type") != "application/json" {
		http.Error(w, `{"error":{"message":"not found"}}`, 404)
		return
	}
	var req completionRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, `{"error":{"message":"bad json"}}`, 400)
		return
	}
	req.auth = r.Header.Get("Authorization")
	c.mu.Lock()
	c.requests = append(c.requests, req)
	status, body := c.status, c.body
	n := len(c.requests)
	c.mu.Unlock()
	if status != 0 {
		w.WriteHeader(status)
		w.Write([]byte(body))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"id": "chatcmpl-1", "object": "chat.completion", "model": req.Model,
		"choices": []map[string]any{{"index": 0, "finish_reason": "stop",
			"message": map[string]string{"role": "assistant", "content": "answer " + string(rune('0'+n))}}},
	})
}

func (c *completions) set(status int, body string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.status, c.body = status, body
}

func (c *completions) last() completionRequest {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.requests[len(c.requests)-1]
}

func TestChatProvider(t *testing.T) {
	peer := &completions{}
	srv := httptest.NewServer(peer)
	t.Cleanup(srv.Close)
	r := startAPIWith(t, func(c *config.Config) {
		c.AI = config.AI{URL: srv.URL + "/v1", Model: "test-model", Key: "sk-test"}
	})

	res, a := ask(t, r, "partner.quantum", "", url.Values{"prompt": {"How do levels of detail work?"}})
	if res.Status != 200 || a.Source != "provider" || a.Answer != "answer 1" || !a.refers("help", "") {
		t.Fatalf("first question: %d %s", res.Status, res.Body)
	}
	req := peer.last()
	if req.Model != "test-model" || req.auth != "Bearer sk-test" || len(req.Messages) != 2 ||
		req.Messages[0].Role != "system" || !strings.Contains(req.Messages[0].Content, "Quantum") ||
		!strings.Contains(req.Messages[0].Content, "Levels of detail") ||
		req.Messages[1].Role != "user" || req.Messages[1].Content != "How do levels of detail work?" {
		t.Errorf("first request: %+v", req)
	}

	// The second turn carries the first as history.
	res, b := ask(t, r, "partner.quantum", "", url.Values{"prompt": {"And lod 2?"}, "conv_id": {a.ConvID}})
	if res.Status != 200 || b.Answer != "answer 2" || b.ConvID != a.ConvID {
		t.Fatalf("second question: %d %s", res.Status, res.Body)
	}
	req = peer.last()
	roles := []string{}
	for _, m := range req.Messages {
		roles = append(roles, m.Role)
	}
	if strings.Join(roles, ",") != "system,user,assistant,user" || req.Messages[1].Content != "How do levels of detail work?" ||
		req.Messages[2].Content != "answer 1" || req.Messages[3].Content != "And lod 2?" {
		t.Errorf("second request: %+v", req.Messages)
	}

	// A provider that fails is ai_unavailable, and the failed turn is not
	// kept.
	for _, tc := range []struct {
		name   string
		status int
		body   string
	}{
		{"server error", 502, `{"error":{"message":"upstream down"}}`},
		{"not JSON", 200, `<html>gateway</html>`},
		{"no choices", 200, `{"choices":[]}`},
	} {
		peer.set(tc.status, tc.body)
		res, _ := ask(t, r, "partner.quantum", "", url.Values{"prompt": {"again?"}, "conv_id": {a.ConvID}})
		if res.Status != 500 || res.errorCode(t) != "ai_unavailable" || strings.Contains(string(res.Body), "upstream") {
			t.Errorf("%s: %d %s, want 500 ai_unavailable", tc.name, res.Status, res.Body)
		}
	}
	if hist, _ := r.DB.ChatHistory(context.Background(), "~anonymous", "partner.quantum", a.ConvID); len(hist) != 4 {
		t.Errorf("history after failures: %d messages, want 4", len(hist))
	}
}

func TestChatProviderUnreachable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String() + "/v1"
	ln.Close()
	r := startAPIWith(t, func(c *config.Config) { c.AI = config.AI{URL: closed, Model: "m"} })
	res, _ := ask(t, r, "partner.lobby", "", url.Values{"prompt": {"hello"}})
	if res.Status != 500 || res.errorCode(t) != "ai_unavailable" {
		t.Errorf("closed port: %d %s", res.Status, res.Body)
	}
}
