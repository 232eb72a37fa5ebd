package mail

import (
	"context"
	"mime"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/kilnhq/kiln/internal/mail/mailtest"
)

func TestSend(t *testing.T) {
	srv := mailtest.Start(t)
	s, err := New(srv.URL(), "Kiln <kiln@example.com>")
	if err != nil {
		t.Fatal(err)
	}
	body := "Object “Stuhl” is ready.\n" + strings.Repeat("a long line ", 20) + "\n.\nafter a lone dot\n"
	err = s.Send(context.Background(), Message{
		To:      "Ana <ana@example.com>",
		Subject: "Kiln: “Stuhl”\r\nBcc: evil@example.com is ready",
		Body:    body,
	})
	if err != nil {
		t.Fatal(err)
	}
	msgs := srv.Messages()
	if len(msgs) != 1 {
		t.Fatalf("%d messages, want 1", len(msgs))
	}
	m := msgs[0]
	if m.From != "kiln@example.com" || len(m.To) != 1 || m.To[0] != "ana@example.com" {
		t.Errorf("envelope from %q to %v", m.From, m.To)
	}
	subject, err := new(mime.WordDecoder).DecodeHeader(m.Message.Header.Get("Subject"))
	if err != nil || subject != "Kiln: “Stuhl” Bcc: evil@example.com is ready" {
		t.Errorf("subject %q (%v)", subject, err)
	}
	if m.Message.Header.Get("Bcc") != "" {
		t.Error("a line break in the subject made a header")
	}
	if ct := m.Message.Header.Get("Content-Type"); ct != "text/plain; charset=utf-8" {
		t.Errorf("content type %q", ct)
	}
	if m.Text != body {
		t.Errorf("body %q, want %q", m.Text, body)
	}
	if strings.Contains(m.Body, "“") {
		t.Errorf("raw body %q is not quoted-printable", m.Body)
	}
}

func TestSendErrors(t *testing.T) {
	srv := mailtest.Start(t)
	good, err := New(srv.URL(), "kiln@example.com")
	if err != nil {
		t.Fatal(err)
	}
	wrongPass, err := New("smtp://kiln:nope@"+srv.Addr, "kiln@example.com")
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	down, err := New("smtp://"+closed, "kiln@example.com")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		s         *Sender
		to        string
		failNext  int
		permanent bool
	}{
		{"unknown recipient", good, "nobody@invalid.example", 0, true},
		{"malformed recipient", good, "not an address", 0, true},
		{"busy server", good, "ana@example.com", 1, false},
		// go-smtp answers a failed AUTH with 454, a temporary code.
		{"wrong password", wrongPass, "ana@example.com", 0, false},
		{"server down", down, "ana@example.com", 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv.FailNext(tc.failNext)
			err := tc.s.Send(context.Background(), Message{To: tc.to, Subject: "s", Body: "b"})
			if err == nil || Permanent(err) != tc.permanent {
				t.Fatalf("got %v (permanent %v), want an error with permanent %v", err, Permanent(err), tc.permanent)
			}
		})
	}
}

// TestSendStopsWithContext checks that a server that never answers does
// not hold the sender past its context.
func TestSendStopsWithContext(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err == nil {
			defer c.Close()
			time.Sleep(5 * time.Second) // accept, then say nothing
		}
	}()
	s, err := New("smtp://"+ln.Addr().String(), "kiln@example.com")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	err = s.Send(ctx, Message{To: "ana@example.com", Subject: "s", Body: "b"})
	if err == nil || time.Since(start) > 2*time.Second {
		t.Fatalf("Send returned %v after %v, want an error within the context's 200ms", err, time.Since(start))
	}
}

func TestNew(t *testing.T) {
	for _, tc := range []struct {
		url, from, addr string
		ok              bool
	}{
		{"smtp://mailpit:1025", "kiln@localhost", "mailpit:1025", true},
		{"smtp://u:p@mail.example.com", "Kiln <kiln@example.com>", "mail.example.com:25", true},
		{"smtps://u:p@mail.example.com", "kiln@example.com", "mail.example.com:465", true},
		{"http://mail.example.com", "kiln@example.com", "", false},
		{"smtp://", "kiln@example.com", "", false},
		{"smtp://mail.example.com", "not an address", "", false},
	} {
		s, err := New(tc.url, tc.from)
		if (err == nil) != tc.ok || (tc.ok && s.Addr() != tc.addr) {
			t.Errorf("New(%q, %q) = %v, %v; want ok %v addr %s", tc.url, tc.from, s, err, tc.ok, tc.addr)
		}
		if err != nil && strings.Contains(err.Error(), ":p@") {
			t.Errorf("error shows the password: %v", err)
		}
	}
}
