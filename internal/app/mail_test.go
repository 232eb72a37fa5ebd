package app

import (
	"image/color"
	"strings"
	"testing"
	"time"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/internal/fixture"
	"github.com/kilnhq/kiln/internal/mail/mailtest"
)

// TestMailAfterUpload runs uploads against a real SMTP server: each way
// processing ends sends one mail to mail_after_upload with the object's
// name, state, error and links.
func TestMailAfterUpload(t *testing.T) {
	smtp := mailtest.Start(t)
	r := startWithMail(t, smtp.URL())
	key := newKey(t, r, "acme", kiln.ScopeProductRead, kiln.ScopeProductWrite)
	for _, tc := range []struct {
		name, typ, ext, to string
		data               []byte
		subject            string
		body               []string
	}{
		{"Chair", "mesh", "glb", "ana@example.com", fixture.CubeGLB(), `"Chair" is ready`,
			[]string{"State:   ready", "/model.glb", "https://kiln.example.com/resources/objects/"}},
		{"Broken", "raw_model", "glb", "Bo <bo@example.com>", []byte("glTF but not really"), `"Broken" could not be processed`,
			[]string{"State:   failed", "Error:   not a valid GLB"}},
		{"Photos", "images", "zip", "cy@example.com", zipOf(t, map[string][]byte{"1.png": picture(t, "png", 8, 8, color.NRGBA{})}), `"Photos" is uploaded and awaits reconstruction`,
			[]string{"State:   awaiting_reconstruction", "/source"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := len(smtp.Messages())
			o := uploadObject(t, r, key, map[string]string{"name": tc.name, "type": tc.typ, "extension": tc.ext, "mail_after_upload": tc.to}, nil, tc.data)
			var m mailtest.Received
			eventually(t, 30*time.Second, "the mail about "+tc.name, func() bool {
				msgs := smtp.Messages()
				if len(msgs) > before {
					m = msgs[len(msgs)-1]
					return true
				}
				return false
			})
			addr := tc.to
			if i := strings.Index(addr, "<"); i >= 0 {
				addr = strings.Trim(addr[i:], "<>")
			}
			if len(m.To) != 1 || m.To[0] != addr || m.From != "kiln@example.com" {
				t.Errorf("envelope from %s to %v, want to %s", m.From, m.To, addr)
			}
			if s := m.Message.Header.Get("Subject"); !strings.Contains(s, tc.subject) {
				t.Errorf("subject %q, want %q", s, tc.subject)
			}
			for _, want := range append(tc.body, o.ObjectID) {
				if !strings.Contains(m.Text, want) {
					t.Errorf("body lacks %q:\n%s", want, m.Text)
				}
			}
		})
	}
	time.Sleep(500 * time.Millisecond)
	if n := len(smtp.Messages()); n != 3 {
		t.Errorf("%d mails, want one per upload (3)", n)
	}
}
