// Package mail sends Kiln's plain-text notifications over SMTP with the
// standard library's net/smtp: one connection per message, which suits
// the few mails an upload makes and needs no pool to keep healthy.
package mail

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/smtp"
	"net/textproto"
	"net/url"
	"strings"
	"time"

	"github.com/kilnhq/kiln"
)

// Message is one plain-text mail.
type Message struct {
	To      string
	Subject string
	Body    string
}

// Sender sends messages through one SMTP server.
type Sender struct {
	addr     string // host:port
	host     string
	implicit bool // smtps: TLS from the first byte
	user     string
	pass     string
	from     *mail.Address
}

// timeout bounds a whole send when the context has no deadline, so a
// server that stops answering cannot hold a worker slot forever.
const timeout = time.Minute

// New makes a Sender for an smtp://user:pass@host:port URL (STARTTLS when
// the server offers it; port 25 by default) or smtps:// (implicit TLS,
// port 465), sending as from (an RFC 5322 address, "Kiln <kiln@host>").
func New(rawURL, from string) (*Sender, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Hostname() == "" || (u.Scheme != "smtp" && u.Scheme != "smtps") {
		return nil, fmt.Errorf("SMTP URL must look like smtp://user:pass@host:port or smtps://…, got %q", redact(rawURL))
	}
	f, err := mail.ParseAddress(from)
	if err != nil {
		return nil, fmt.Errorf("sender address %q: %w", from, err)
	}
	s := &Sender{host: u.Hostname(), implicit: u.Scheme == "smtps", from: f}
	port := u.Port()
	if port == "" {
		port = map[bool]string{false: "25", true: "465"}[s.implicit]
	}
	s.addr = net.JoinHostPort(s.host, port)
	if u.User != nil {
		s.user = u.User.Username()
		s.pass, _ = u.User.Password()
	}
	return s, nil
}

func redact(raw string) string {
	if u, err := url.Parse(raw); err == nil {
		return u.Redacted()
	}
	return "…"
}

// Addr is the server's host:port, for logs.
func (s *Sender) Addr() string { return s.addr }

// Send delivers m. An error the server gave with a 5xx code is permanent
// (see Permanent): sending again will not help.
func (s *Sender) Send(ctx context.Context, m Message) (err error) {
	to, err := mail.ParseAddress(m.To)
	if err != nil {
		return kiln.Errorf(kiln.KindInvalid, "invalid_recipient", "recipient %q: %v", m.To, err)
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", s.addr)
	if err != nil {
		return fmt.Errorf("smtp %s: %w", s.addr, err)
	}
	// net/smtp takes no context: the deadline and a close on cancel stop
	// every read and write it makes.
	deadline, _ := ctx.Deadline()
	_ = conn.SetDeadline(deadline)
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	if s.implicit {
		conn = tls.Client(conn, &tls.Config{ServerName: s.host})
	}
	c, err := smtp.NewClient(conn, s.host)
	if err != nil {
		conn.Close()
		return fmt.Errorf("smtp %s: %w", s.addr, err)
	}
	defer c.Close()
	if !s.implicit {
		if ok, _ := c.Extension("STARTTLS"); ok {
			if err := c.StartTLS(&tls.Config{ServerName: s.host}); err != nil {
				return fmt.Errorf("smtp %s: STARTTLS: %w", s.addr, err)
			}
		}
	}
	if s.user != "" {
		// PlainAuth sends the password only over TLS or to localhost.
		if err := c.Auth(smtp.PlainAuth("", s.user, s.pass, s.host)); err != nil {
			return fmt.Errorf("smtp %s: AUTH: %w", s.addr, err)
		}
	}
	if err := c.Mail(s.from.Address); err != nil {
		return fmt.Errorf("smtp %s: MAIL FROM: %w", s.addr, err)
	}
	if err := c.Rcpt(to.Address); err != nil {
		return fmt.Errorf("smtp %s: RCPT TO %s: %w", s.addr, to.Address, err)
	}
	w, err := c.Data()
	if err != nil {
		return fmt.Errorf("smtp %s: DATA: %w", s.addr, err)
	}
	if _, err := w.Write(s.compose(to, m)); err != nil {
		return fmt.Errorf("smtp %s: DATA: %w", s.addr, err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("smtp %s: message not accepted: %w", s.addr, err)
	}
	return c.Quit()
}

// compose writes the message: UTF-8 text, quoted-printable so that long
// lines and non-ASCII names survive every relay.
func (s *Sender) compose(to *mail.Address, m Message) []byte {
	var b bytes.Buffer
	header := func(k, v string) { fmt.Fprintf(&b, "%s: %s\r\n", k, v) }
	header("From", s.from.String())
	header("To", to.String())
	header("Subject", mime.QEncoding.Encode("utf-8", oneLine(m.Subject)))
	header("Date", time.Now().Format(time.RFC1123Z))
	header("Message-ID", "<"+kiln.NewID("mail")+"@"+s.domain()+">")
	header("MIME-Version", "1.0")
	header("Content-Type", "text/plain; charset=utf-8")
	header("Content-Transfer-Encoding", "quoted-printable")
	b.WriteString("\r\n")
	qp := quotedprintable.NewWriter(&b)
	qp.Write([]byte(m.Body))
	qp.Close()
	return b.Bytes()
}

// oneLine keeps a header value on its line: a CR or LF in an object name
// must not start a header of its own.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

func (s *Sender) domain() string {
	if i := strings.LastIndex(s.from.Address, "@"); i >= 0 {
		return s.from.Address[i+1:]
	}
	return "kiln"
}

// Permanent reports whether err is a rejection that retrying cannot fix:
// the server answered with a 5xx code (unknown recipient, refused sender)
// or the recipient address is malformed.
func Permanent(err error) bool {
	var te *textproto.Error
	if errors.As(err, &te) {
		return te.Code >= 500
	}
	return kiln.KindOf(err) == kiln.KindInvalid
}
