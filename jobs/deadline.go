package jobs

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/kilnhq/kiln"
)

// The time a job's work may take. A task's asynq timeout is this plus
// grace: asynq records a task whose context ends as failed with
// "context deadline exceeded", and retries it, without waiting for its
// handler; the handler's own deadline (Work) comes first, so the
// handler is the one that says why it stopped, and that it cannot
// succeed.
const (
	ObjectTime  = 10 * time.Minute
	VariantTime = 5 * time.Minute
	grace       = 30 * time.Second
)

// budgetKey holds, in a task's work context, the time its work was given.
type budgetKey struct{}

// Work is the context a task's handler runs under: it ends a grace
// before asynq's deadline (half the time left, at most 30 s), so
// that a handler stopped by it still has time to record why: a busy
// machine takes a fraction of a second to notice. Without a deadline
// ctx is returned as it is.
func Work(ctx context.Context) (context.Context, context.CancelFunc) {
	deadline, ok := ctx.Deadline()
	if !ok {
		return context.WithCancel(ctx)
	}
	left := time.Until(deadline)
	budget := left - min(grace, left/2)
	ctx = context.WithValue(ctx, budgetKey{}, budget)
	return context.WithDeadline(ctx, deadline.Add(budget-left))
}

// Late reports whether err is the end of ctx's time: the job's reading
// or building ran past its deadline, not into a store that was down.
func Late(ctx context.Context, err error) bool {
	return errors.Is(err, context.DeadlineExceeded) && errors.Is(ctx.Err(), context.DeadlineExceeded)
}

// OutOfTime is the failure of a job whose reading or building was Late:
// for good, since the same input would take as long again, with a
// reason a client reads ("took longer than the 10 minutes an upload may
// take").
func OutOfTime(ctx context.Context, what string) error {
	took := "the time"
	if budget, ok := ctx.Value(budgetKey{}).(time.Duration); ok {
		took = "the " + span(budget)
	}
	return kiln.Errorf(kiln.KindUnprocessable, "processing_timed_out",
		"processing took longer than %s %s may take; reduce or split the model", took, what)
}

// span says d in whole minutes from two minutes on, in seconds below.
func span(d time.Duration) string {
	switch d = d.Round(time.Second); {
	case d >= 2*time.Minute:
		return fmt.Sprintf("%d minutes", d.Round(time.Minute)/time.Minute)
	case d == time.Second:
		return "second"
	}
	return fmt.Sprintf("%d seconds", d/time.Second)
}
