package assistant

import (
	"context"
	"fmt"
	"strings"
)

// BuiltIn answers without any model: it quotes the documents that match
// the question best and says what it is, so no one mistakes it for a
// language model.
type BuiltIn struct{}

// Ask answers from the best matching documents.
func (BuiltIn) Ask(_ context.Context, req Request) (Reply, error) {
	p := personas[req.Type]
	var b strings.Builder
	fmt.Fprintf(&b, "I am %s, Kiln's built-in assistant (%s). No AI provider is configured, so I answer from Kiln's documentation and your account's objects and viewers.\n", p.name, p.role)
	hits := retrieve(req)
	if len(hits) == 0 {
		b.WriteString("\nI found nothing about that. Ask me about uploading objects, levels of detail, avatars, viewers, visitor tracking, analytics, renderings or API keys.")
		return Reply{Answer: b.String(), Source: SourceBuiltIn, References: []Ref{}}, nil
	}
	b.WriteString("\nHere is what I found:\n")
	for _, h := range hits {
		fmt.Fprintf(&b, "\n- %s: %s", h.doc.Title, excerpt(h.doc.Text, 400))
	}
	return Reply{Answer: b.String(), Source: SourceBuiltIn, References: refs(hits)}, nil
}

// excerpt cuts text at the last sentence end within n bytes.
func excerpt(text string, n int) string {
	if len(text) <= n {
		return text
	}
	cut := text[:n]
	if i := strings.LastIndex(cut, ". "); i > 0 {
		return cut[:i+1]
	}
	return strings.TrimSpace(cut) + "…"
}
