package worker

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/internal/fixture"
	"github.com/kilnhq/kiln/internal/mail"
	"github.com/kilnhq/kiln/internal/mail/mailtest"
	"github.com/kilnhq/kiln/jobs"
)

// queued records what the worker queues; the queue's own de-duplication
// by task id is Asynq's and is exercised by the integration tests.
type queued struct {
	mu   sync.Mutex
	jobs []jobs.Tasker
}

func (q *queued) Enqueue(_ context.Context, j jobs.Tasker) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.jobs = append(q.jobs, j)
	return nil
}

// TestMailAfterProcessing checks that each way processing ends queues one
// mail job with a task id per object and state, and that without SMTP
// nothing is queued and processing still succeeds.
func TestMailAfterProcessing(t *testing.T) {
	srv := mailtest.Start(t)
	sender, err := mail.New(srv.URL(), "kiln@example.com")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, typ, ext string
		data           []byte
		smtp           bool
		want           kiln.ObjectState
	}{
		{"model", "mesh", "glb", fixture.CubeGLB(), true, kiln.StateReady},
		{"corrupt model", "raw_model", "glb", []byte("glTF nonsense"), true, kiln.StateFailed},
		{"image series", "images", "zip", []byte("PK\x03\x04 photos"), true, kiln.StateAwaitingReconstruction},
		{"openconfiguration", "openconfiguration", "oc", []byte(`{"oc":1}`), true, kiln.StateReady},
		{"mail disabled", "mesh", "glb", fixture.CubeGLB(), false, kiln.StateReady},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, db, blobs := newWorker(t)
			q := &queued{}
			w.Jobs = q
			if tc.smtp {
				w.Mail = sender
			}
			o := uploaded(t, db, blobs, tc.ext, tc.data)
			if _, err := db.UpdateObject(context.Background(), o.ID, func(o *kiln.Object) error {
				o.Type, o.MailAfterUpload = tc.typ, "ana@example.com"
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			for range 2 { // a task that runs twice queues the same mail
				err := w.ProcessObject(context.Background(), task(t, o.ID))
				if (err != nil) != (tc.want == kiln.StateFailed) {
					t.Fatalf("ProcessObject: %v", err)
				}
			}
			got, _ := db.Object(context.Background(), o.ID)
			if got.State != tc.want {
				t.Fatalf("state %s (%s), want %s", got.State, got.Error, tc.want)
			}
			if !tc.smtp {
				if len(q.jobs) != 0 {
					t.Fatalf("mail disabled, yet %d jobs queued", len(q.jobs))
				}
				return
			}
			if len(q.jobs) == 0 {
				t.Fatal("no mail job queued")
			}
			want := jobs.TypeMailObjectProcessed + ":" + o.ID + ":" + string(tc.want)
			for _, j := range q.jobs {
				m, ok := j.(jobs.MailObjectProcessed)
				if !ok || m.TaskID() != want {
					t.Errorf("queued %#v, want task id %s", j, want)
				}
			}
		})
	}
}

// TestMailJob sends through a real SMTP server: a busy server makes the
// job retry, an unknown recipient archives it.
func TestMailJob(t *testing.T) {
	srv := mailtest.Start(t)
	sender, err := mail.New(srv.URL(), "Kiln <kiln@example.com>")
	if err != nil {
		t.Fatal(err)
	}
	w, db, blobs := newWorker(t)
	w.Mail, w.PublicURL = sender, "https://kiln.example.com"
	ctx := context.Background()
	o := uploaded(t, db, blobs, "glb", []byte("not a model"))
	if _, err := db.UpdateObject(ctx, o.ID, func(o *kiln.Object) error {
		o.Name, o.MailAfterUpload, o.State, o.Error = "Stuhl", "ana@example.com", kiln.StateFailed, "not a valid GLB"
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	tk, err := jobs.MailObjectProcessed{ObjectID: o.ID, State: kiln.StateFailed}.Task()
	if err != nil {
		t.Fatal(err)
	}
	srv.FailNext(1)
	if err := w.MailObjectProcessed(ctx, tk); err == nil || jobs.IsPermanent(err) {
		t.Fatalf("busy server: %v, want an error to retry", err)
	}
	if err := w.MailObjectProcessed(ctx, tk); err != nil {
		t.Fatalf("retry: %v", err)
	}
	msgs := srv.Messages()
	if len(msgs) != 1 || msgs[0].To[0] != "ana@example.com" {
		t.Fatalf("messages %+v, want one to ana@example.com", msgs)
	}
	if s := msgs[0].Message.Header.Get("Subject"); !strings.Contains(s, "Stuhl") || !strings.Contains(s, "could not be processed") {
		t.Errorf("subject %q", s)
	}
	if b := msgs[0].Text; !strings.Contains(b, "not a valid GLB") || !strings.Contains(b, "https://kiln.example.com/resources/objects/"+o.ID) {
		t.Errorf("body %q lacks the error or the link", b)
	}

	if _, err := db.UpdateObject(ctx, o.ID, func(o *kiln.Object) error {
		o.MailAfterUpload = "nobody@invalid.example"
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := w.MailObjectProcessed(ctx, tk); !jobs.IsPermanent(err) {
		t.Fatalf("unknown recipient: %v, want a permanent error", err)
	}
}
