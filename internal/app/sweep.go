package app

import (
	"context"

	"github.com/hibiken/asynq"

	"github.com/kilnhq/kiln/internal/mail"
	"github.com/kilnhq/kiln/jobs"
	"github.com/kilnhq/kiln/worker"
)

// startSweeper runs the worker's sweep of archived tasks (objects and
// renderings whose worker died on every attempt end failed, not
// processing for ever) until the returned stop is called. The sweep has
// its own Worker value: it needs the stores and the mail queue, not the
// handlers' metrics.
func (a *App) startSweeper() (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	insp := asynq.NewInspector(a.RedisOpt)
	jc := jobs.NewClient(a.RedisOpt)
	w := &worker.Worker{Blobs: a.Blobs, Objects: a.DB, Avatars: a.DB, Renderings: a.DB,
		Log: a.Log.With("component", "sweeper"), Jobs: jc, PublicURL: a.Config.PublicPlatformURL}
	if a.Config.SMTPURL != "" {
		// Only whether mail is on matters here: the sweep queues the
		// mail of a failed object, the mail job sends it.
		w.Mail, _ = mail.New(a.Config.SMTPURL, a.Config.MailFrom)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		w.RunSweeper(ctx, insp, worker.SweepInterval)
	}()
	return func() {
		cancel()
		<-done
		_ = insp.Close()
		_ = jc.Close()
	}
}
