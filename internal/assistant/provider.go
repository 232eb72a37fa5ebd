package assistant

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/kilnhq/kiln"
)

// Provider asks an OpenAI-compatible chat completions endpoint, giving it
// the persona, the retrieved documents as context, and the conversation.
type Provider struct {
	cfg    Config
	client *http.Client
}

type message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type completionRequest struct {
	Model    string    `json:"model"`
	Messages []message `json:"messages"`
}

type completionResponse struct {
	Choices []struct {
		Message message `json:"message"`
	} `json:"choices"`
}

// Ask posts the conversation to {URL}/chat/completions. Any failure of
// the provider is ai_unavailable: the client can do nothing about it but
// retry later.
func (p *Provider) Ask(ctx context.Context, req Request) (Reply, error) {
	hits := retrieve(req)
	per := personas[req.Type]
	var sys strings.Builder
	fmt.Fprintf(&sys, "You are %s, %s of Kiln, an open 3D asset service. Answer briefly. Use the context when it helps; say so when you do not know.\n", per.name, per.role)
	if len(hits) > 0 {
		sys.WriteString("\nContext:\n")
		for _, h := range hits {
			fmt.Fprintf(&sys, "\n[%s] %s: %s\n", h.doc.Kind, h.doc.Title, h.doc.Text)
		}
	}
	msgs := []message{{Role: "system", Content: sys.String()}}
	for _, t := range req.History {
		msgs = append(msgs, message{Role: t.Role, Content: t.Content})
	}
	msgs = append(msgs, message{Role: "user", Content: req.Prompt})
	answer, err := p.complete(ctx, completionRequest{Model: p.cfg.Model, Messages: msgs})
	if err != nil {
		return Reply{}, &kiln.Error{Op: "assistant.Provider.Ask", Kind: kiln.KindInternal, Code: "ai_unavailable",
			Message: "the AI provider did not answer; try again later", Err: err}
	}
	return Reply{Answer: answer, Source: SourceProvider, References: refs(hits)}, nil
}

func (p *Provider) complete(ctx context.Context, body completionRequest) (string, error) {
	b, err := json.Marshal(body)
	if err != nil {
		return "", err
	}
	url := strings.TrimRight(p.cfg.URL, "/") + "/chat/completions"
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(b))
	if err != nil {
		return "", err
	}
	hreq.Header.Set("Content-Type", "application/json")
	if p.cfg.Key != "" {
		hreq.Header.Set("Authorization", "Bearer "+p.cfg.Key)
	}
	res, err := p.client.Do(hreq)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil {
		return "", err
	}
	if res.StatusCode/100 != 2 {
		return "", fmt.Errorf("POST %s: %s: %.200s", url, res.Status, raw)
	}
	var out completionResponse
	if err := json.Unmarshal(raw, &out); err != nil {
		return "", fmt.Errorf("POST %s: the answer is not chat completions JSON: %w", url, err)
	}
	if len(out.Choices) == 0 || strings.TrimSpace(out.Choices[0].Message.Content) == "" {
		return "", fmt.Errorf("POST %s: the answer has no message", url)
	}
	return out.Choices[0].Message.Content, nil
}
