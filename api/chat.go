package api

import (
	"context"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/internal/assistant"
)

// ChatStore keeps conversations and gives the assistant an account's data.
type ChatStore interface {
	ChatHistory(ctx context.Context, account, typ, conv string) ([]kiln.ChatTurn, error)
	AppendChat(ctx context.Context, account, typ, conv string, keep int, ttl time.Duration, turns ...kiln.ChatTurn) error
	ChatCorpus(ctx context.Context, account string, limit int) ([]*kiln.Object, []*kiln.Viewer, error)
}

// Limits of the chat endpoint. The spec leaves them open.
const (
	maxPrompt = 4000 // characters
	// chatKeep is the number of messages a conversation keeps: the last
	// 20 turns of a prompt and its answer.
	chatKeep = 40
	chatTTL  = 24 * time.Hour
	// corpusLimit bounds how many of an account's newest objects and
	// viewers the assistant searches.
	corpusLimit = 200
	// anonymous holds the conversations of callers without a key.
	anonymous = "~anonymous" // no account id has a ~
)

// chat answers GET /magic/conversational-ai/{type}. It needs no key, but a
// key that is sent must be valid: then the conversation belongs to its
// account and the assistant searches the account's objects and viewers.
func (s *Server) chat(c *gin.Context) {
	typ := c.Param("type")
	if !assistant.Known(typ) {
		fail(c, kiln.Errorf(kiln.KindNotFound, "unknown_assistant", "no assistant %q; use %s or %s", typ, assistant.Quantum, assistant.Lobby))
		return
	}
	prompt := strings.TrimSpace(c.Query("prompt"))
	switch {
	case prompt == "":
		fail(c, invalidf("missing_prompt", "prompt is required: the question to ask"))
		return
	case !utf8.ValidString(prompt):
		fail(c, invalidf("invalid_prompt", "prompt must be UTF-8 text"))
		return
	case utf8.RuneCountInString(prompt) > maxPrompt:
		fail(c, invalidf("prompt_too_long", "prompt is %d characters; at most %d are allowed", utf8.RuneCountInString(prompt), maxPrompt))
		return
	}
	conv, given := c.GetQuery("conv_id")
	if given {
		if err := kiln.CheckID("conv_id", conv); err != nil {
			fail(c, err)
			return
		}
	} else {
		conv = kiln.NewID("conv")
	}
	account := anonymous
	if c.GetHeader("Authorization") != "" {
		k, err := s.authenticate(c)
		if err != nil {
			fail(c, err)
			return
		}
		account = k.Account
	}
	ctx := c.Request.Context()
	history, err := s.Chat.ChatHistory(ctx, account, typ, conv)
	if err != nil {
		fail(c, err)
		return
	}
	var docs []assistant.Doc
	if account != anonymous {
		objects, viewers, err := s.Chat.ChatCorpus(ctx, account, corpusLimit)
		if err != nil {
			fail(c, err)
			return
		}
		docs = corpus(objects, viewers)
	}
	reply, err := s.Assistant.Ask(ctx, assistant.Request{Type: typ, Prompt: prompt, History: history, Docs: docs})
	if err != nil {
		fail(c, err)
		return
	}
	if err := s.Chat.AppendChat(ctx, account, typ, conv, chatKeep, chatTTL,
		kiln.ChatTurn{Role: "user", Content: prompt}, kiln.ChatTurn{Role: "assistant", Content: reply.Answer}); err != nil {
		fail(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{
		"conv_id":    conv,
		"type":       typ,
		"answer":     reply.Answer,
		"source":     reply.Source,
		"references": reply.References,
	})
}

// corpus turns an account's records into documents the assistant reads.
func corpus(objects []*kiln.Object, viewers []*kiln.Viewer) []assistant.Doc {
	docs := make([]assistant.Doc, 0, len(objects)+len(viewers))
	for _, o := range objects {
		text := strings.TrimSpace(o.Description)
		if text == "" {
			text = "(no description)"
		}
		docs = append(docs, assistant.Doc{
			Kind: assistant.KindObject, ID: o.ID,
			Title: "Your object " + o.Name,
			Text:  text + " Type " + o.Type + ", ." + o.Extension + " file, state " + string(o.State) + ", id " + o.ID + ".",
		})
	}
	for _, v := range viewers {
		vis := "private"
		if v.Public {
			vis = "public"
		}
		name := v.Name
		if name == "" {
			name = v.Token
		}
		docs = append(docs, assistant.Doc{
			Kind: assistant.KindViewer, ID: v.Token,
			Title: "Your " + v.Kind + " viewer " + name,
			Text:  "A " + vis + " " + v.Kind + " viewer with token " + v.Token + ", created " + v.CreatedAt.UTC().Format(time.DateOnly) + ".",
		})
	}
	return docs
}
