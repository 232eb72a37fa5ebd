package worker

import (
	"context"
	"fmt"
	"strings"

	"github.com/hibiken/asynq"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/internal/mail"
	"github.com/kilnhq/kiln/jobs"
)

// Mailer sends one e-mail.
type Mailer interface {
	Send(ctx context.Context, m mail.Message) error
}

// Enqueuer puts follow-up jobs on the queue.
type Enqueuer interface {
	Enqueue(ctx context.Context, job jobs.Tasker) error
}

// mailAfterUpload queues the notification of mail_after_upload once
// processing of o has ended in state. Queueing is best effort: the object
// is done whatever happens to its mail, so an error is logged, not
// returned.
func (w *Worker) mailAfterUpload(ctx context.Context, o *kiln.Object, state kiln.ObjectState) {
	if o.MailAfterUpload == "" {
		return
	}
	if w.Mail == nil || w.Jobs == nil {
		w.Log.Info("mail is disabled (KILN_SMTP_URL is not set): no mail after upload", "object_id", o.ID)
		return
	}
	job := jobs.MailObjectProcessed{ObjectID: o.ID, State: state}
	if err := w.Jobs.Enqueue(context.WithoutCancel(ctx), job); err != nil {
		w.Log.Error("mail after upload not queued", "object_id", o.ID, "err", err)
	}
}

// MailObjectProcessed sends the mail_after_upload notification. A
// refusal by the server (unknown recipient) is final; anything else
// (server down, busy) is retried with backoff.
func (w *Worker) MailObjectProcessed(ctx context.Context, t *asynq.Task) error {
	const op = "worker.MailObjectProcessed"
	var p jobs.MailObjectProcessed
	if err := jobs.Decode(t, &p); err != nil {
		return err
	}
	if !kiln.ValidID(p.ObjectID) {
		return jobs.Permanent(fmt.Errorf("%s: invalid object id %q", op, p.ObjectID))
	}
	if w.Mail == nil {
		w.Log.Info("mail is disabled (KILN_SMTP_URL is not set): mail skipped", "object_id", p.ObjectID)
		return nil
	}
	o, err := w.Objects.Object(ctx, p.ObjectID)
	if err != nil {
		return kiln.E(op, err)
	}
	if o.MailAfterUpload == "" {
		return nil
	}
	err = w.Mail.Send(ctx, ObjectMail(o, p.State, w.PublicURL))
	if err != nil && mail.Permanent(err) {
		return jobs.Permanent(kiln.E(op, err))
	}
	if err != nil {
		return kiln.E(op, kiln.KindUnavailable, err)
	}
	w.Log.Info("mail after upload sent", "object_id", o.ID, "state", p.State)
	return nil
}

// stateWords says a state the way the subject line reads it.
var stateWords = map[kiln.ObjectState]string{
	kiln.StateReady:                  "is ready",
	kiln.StateFailed:                 "could not be processed",
	kiln.StateAwaitingReconstruction: "is uploaded and awaits reconstruction",
}

// ObjectMail is the notification that processing of o ended in state,
// with links under base, the platform service's public URL.
func ObjectMail(o *kiln.Object, state kiln.ObjectState, base string) mail.Message {
	words := stateWords[state]
	if words == "" {
		words = "is " + string(state)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Your upload %q %s.\n\n", o.Name, words)
	fmt.Fprintf(&b, "Object:  %s\n", o.ID)
	fmt.Fprintf(&b, "Type:    %s (.%s)\n", o.Type, o.Extension)
	fmt.Fprintf(&b, "State:   %s\n", state)
	if state == kiln.StateFailed && o.Error != "" {
		fmt.Fprintf(&b, "Error:   %s\n", o.Error)
	}
	obj := base + "/resources/objects/" + o.ID
	b.WriteString("\nLinks (they need an API key with product:read):\n")
	fmt.Fprintf(&b, "  Object record:  %s\n", obj)
	if state == kiln.StateReady && len(o.LODs) > 0 {
		fmt.Fprintf(&b, "  Model (GLB):    %s/model.glb\n", obj)
	}
	if o.Uploaded {
		fmt.Fprintf(&b, "  Uploaded file:  %s/source\n", obj)
	}
	if o.PreviewType != "" {
		fmt.Fprintf(&b, "  Preview image:  %s/preview\n", obj)
	}
	b.WriteString("\nYou receive this mail because the upload named this address in mail_after_upload.\n")
	return mail.Message{
		To:      o.MailAfterUpload,
		Subject: fmt.Sprintf("Kiln: %q %s", o.Name, words),
		Body:    b.String(),
	}
}
