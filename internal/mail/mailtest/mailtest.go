// Package mailtest runs a real SMTP server (github.com/emersion/go-smtp)
// inside a test, so mail is tested over the wire against a server that
// speaks the protocol, parses the envelope and reads the DATA.
package mailtest

import (
	"bytes"
	"errors"
	"io"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"strings"
	"sync"
	"testing"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// User and Password are the credentials the server accepts.
const (
	User     = "kiln"
	Password = "mail-secret"
)

// Received is one delivered message.
type Received struct {
	From    string
	To      []string
	Message *mail.Message
	Body    string // the raw body, still transfer-encoded
	Text    string // the body decoded (quoted-printable), with LF line ends
}

// Server is a running SMTP server that keeps what it receives.
type Server struct {
	Addr string

	mu       sync.Mutex
	received []Received
	failNext int
	attempts int
}

// Start runs a server on a free loopback port until the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	s := &Server{}
	srv := smtp.NewServer(smtp.BackendFunc(func(*smtp.Conn) (smtp.Session, error) {
		return &session{srv: s}, nil
	}))
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.Addr = ln.Addr().String()
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return s
}

// URL is the KILN_SMTP_URL of the server, with its credentials.
func (s *Server) URL() string { return "smtp://" + User + ":" + Password + "@" + s.Addr }

// FailNext makes the next n deliveries fail with a temporary error (451)
// at DATA, as a busy server does.
func (s *Server) FailNext(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failNext = n
}

// Messages returns what was delivered so far.
func (s *Server) Messages() []Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Received(nil), s.received...)
}

// Attempts counts the DATA commands, failed ones included.
func (s *Server) Attempts() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.attempts
}

type session struct {
	srv    *Server
	authed bool
	from   string
	to     []string
}

func (s *session) AuthMechanisms() []string { return []string{sasl.Plain} }

func (s *session) Auth(string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(identity, user, pass string) error {
		if user != User || pass != Password {
			return errors.New("invalid credentials")
		}
		s.authed = true
		return nil
	}), nil
}

func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	if !s.authed {
		return smtp.ErrAuthRequired
	}
	s.from = from
	return nil
}

func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	if to == "nobody@invalid.example" {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "no such user"}
	}
	s.to = append(s.to, to)
	return nil
}

func (s *session) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	s.srv.mu.Lock()
	defer s.srv.mu.Unlock()
	s.srv.attempts++
	if s.srv.failNext > 0 {
		s.srv.failNext--
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try again later"}
	}
	m, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return &smtp.SMTPError{Code: 554, EnhancedCode: smtp.EnhancedCode{5, 6, 0}, Message: "malformed message: " + err.Error()}
	}
	body, _ := io.ReadAll(m.Body)
	text := body
	if m.Header.Get("Content-Transfer-Encoding") == "quoted-printable" {
		if text, err = io.ReadAll(quotedprintable.NewReader(bytes.NewReader(body))); err != nil {
			return &smtp.SMTPError{Code: 554, EnhancedCode: smtp.EnhancedCode{5, 6, 0}, Message: "bad quoted-printable: " + err.Error()}
		}
	}
	s.srv.received = append(s.srv.received, Received{
		From: s.from, To: s.to, Message: m, Body: string(body),
		Text: strings.ReplaceAll(string(text), "\r\n", "\n"),
	})
	return nil
}

func (s *session) Reset() { s.from, s.to = "", nil }

func (s *session) Logout() error { return nil }
