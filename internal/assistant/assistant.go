// Package assistant answers the chat endpoint: through an OpenAI-compatible
// chat completions provider when one is configured, otherwise through a
// built-in assistant that retrieves answers from Kiln's own documentation
// and the caller's objects and viewers. Both search the same documents, so
// a provider's answer is grounded in the same references.
package assistant

import (
	"context"
	"net/http"
	"slices"
	"time"

	"github.com/kilnhq/kiln"
)

// The assistant types of the spec, in its scope.bot form.
const (
	Quantum = "partner.quantum"
	Lobby   = "partner.lobby"
)

// Sources of a reply.
const (
	SourceBuiltIn  = "built-in"
	SourceProvider = "provider"
)

// persona is what each type is for: its name, what it introduces itself
// as, and the document kinds it favours when scores are close.
type persona struct {
	name, role string
	favours    []string
}

var personas = map[string]persona{
	Quantum: {"Quantum", "the product assistant for 3D objects, uploads, optimisation and the catalog", []string{KindObject}},
	Lobby:   {"Lobby", "the guide to viewers, spaces, visitors and analytics", []string{KindViewer}},
}

// Known reports whether typ is an assistant of the spec.
func Known(typ string) bool {
	_, ok := personas[typ]
	return ok
}

// Document kinds the assistant searches.
const (
	KindHelp   = "help"
	KindObject = "object"
	KindViewer = "viewer"
)

// Doc is one searchable document.
type Doc struct {
	Kind, ID, Title, Text string
}

// Ref names a document an answer drew on.
type Ref struct {
	Kind  string `json:"kind"`
	ID    string `json:"id,omitempty"`
	Title string `json:"title"`
}

// Request is one question with its conversation so far.
type Request struct {
	Type    string
	Prompt  string
	History []kiln.ChatTurn
	// Docs are the caller's own documents (objects, viewers); the help
	// text is always searched.
	Docs []Doc
}

// Reply is the answer and where it came from.
type Reply struct {
	Answer     string
	Source     string
	References []Ref
}

// Assistant answers a request.
type Assistant interface {
	Ask(ctx context.Context, req Request) (Reply, error)
}

// Config chooses the provider; an empty URL means the built-in assistant.
type Config struct {
	URL, Model, Key string
	// Timeout bounds one provider call; zero means 60 seconds.
	Timeout time.Duration
}

// New returns the provider of cfg, or the built-in assistant.
func New(cfg Config) Assistant {
	if cfg.URL == "" {
		return BuiltIn{}
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = time.Minute
	}
	return &Provider{cfg: cfg, client: &http.Client{Timeout: cfg.Timeout}}
}

// maxRefs bounds how many documents an answer cites.
const maxRefs = 3

// retrieve finds the documents that answer req best: the prompt's words,
// plus half the weight of the previous question's, so that a follow-up
// such as "and how long is it kept?" stays on topic.
func retrieve(req Request) []scored {
	q := map[string]float64{}
	for i := len(req.History) - 1; i >= 0; i-- {
		if req.History[i].Role == "user" {
			for _, t := range tokens(req.History[i].Content) {
				q[t] = 0.5
			}
			break
		}
	}
	for _, t := range tokens(req.Prompt) {
		q[t] = 1
	}
	docs := append(slices.Clip(helpDocs), req.Docs...)
	hits := bm25(docs, q)
	p := personas[req.Type]
	for i := range hits {
		if slices.Contains(p.favours, hits[i].doc.Kind) {
			hits[i].score *= 1.2
		}
	}
	slices.SortStableFunc(hits, func(a, b scored) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return 0
	})
	var out []scored
	for _, h := range hits {
		if len(out) == maxRefs || h.score < hits[0].score*0.4 {
			break
		}
		out = append(out, h)
	}
	return out
}

func refs(hits []scored) []Ref {
	out := make([]Ref, 0, len(hits))
	for _, h := range hits {
		out = append(out, Ref{Kind: h.doc.Kind, ID: h.doc.ID, Title: h.doc.Title})
	}
	return out
}
