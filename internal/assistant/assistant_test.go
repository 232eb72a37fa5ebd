package assistant

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/kilnhq/kiln"
)

func TestTokens(t *testing.T) {
	got := tokens("How do I upload the Viewers' analytics? LOD-2, glass")
	want := []string{"upload", "viewer", "analytic", "lod", "glass"}
	if !slices.Equal(got, want) {
		t.Errorf("tokens: %q, want %q", got, want)
	}
}

func TestHelpParsed(t *testing.T) {
	if len(helpDocs) < 10 {
		t.Fatalf("%d help sections", len(helpDocs))
	}
	for _, d := range helpDocs {
		if d.Title == "" || d.Text == "" || strings.Contains(d.Title, "\n") {
			t.Errorf("section %+v", d)
		}
	}
}

func TestRetrieve(t *testing.T) {
	for _, tc := range []struct {
		name    string
		req     Request
		first   string
		matches bool
	}{
		{"direct", Request{Type: Quantum, Prompt: "How are levels of detail built?"}, "Levels of detail and optimisation", true},
		{"plan", Request{Type: Lobby, Prompt: "Which plan does the visitor summary need?"}, "Visitor tracking summary and the Pro plan", true},
		{"follow-up keeps the topic", Request{Type: Quantum, Prompt: "and then?",
			History: []kiln.ChatTurn{{Role: "user", Content: "How do I upload a model?"}, {Role: "assistant", Content: "…"}}}, "Uploading a 3D object", true},
		{"own object first", Request{Type: Quantum, Prompt: "the oak table",
			Docs: []Doc{{Kind: KindObject, ID: "obj_1", Title: "Your object Oak Table", Text: "A dining table in oak."}}}, "Your object Oak Table", true},
		{"nothing", Request{Type: Lobby, Prompt: "zzyzx"}, "", false},
	} {
		hits := retrieve(tc.req)
		if (len(hits) > 0) != tc.matches || tc.matches && hits[0].doc.Title != tc.first {
			t.Errorf("%s: %+v", tc.name, hits)
		}
		if len(hits) > maxRefs {
			t.Errorf("%s: %d hits", tc.name, len(hits))
		}
	}
}

func TestBuiltInSaysWhatItIs(t *testing.T) {
	r, err := BuiltIn{}.Ask(context.Background(), Request{Type: Lobby, Prompt: "How do I track visitors?"})
	if err != nil || r.Source != SourceBuiltIn || !strings.HasPrefix(r.Answer, "I am Lobby, Kiln's built-in assistant") || len(r.References) == 0 {
		t.Errorf("%v %+v", err, r)
	}
}

func TestExcerpt(t *testing.T) {
	if got := excerpt("One. Two three. Four", 12); got != "One." {
		t.Errorf("%q", got)
	}
	if got := excerpt("abcdefghij", 4); got != "abcd…" {
		t.Errorf("%q", got)
	}
	if got := excerpt("short", 40); got != "short" {
		t.Errorf("%q", got)
	}
}
