package jobs

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/kilnhq/kiln"
)

// TestWork: a handler's work context ends a grace before asynq's (30 s,
// or half a short timeout), and the failure of a job that ran out
// of it names the time the work was given, as a client reads it.
func TestWork(t *testing.T) {
	for _, tc := range []struct {
		timeout time.Duration
		early   time.Duration // before asynq's deadline
		says    string
	}{
		{ObjectTime + grace, grace, "the 10 minutes an upload may take"},
		{VariantTime + grace, grace, "the 5 minutes an upload may take"},
		{2*time.Minute + grace, grace, "the 2 minutes an upload may take"},
		{4 * time.Second, 2 * time.Second, "the 2 seconds an upload may take"},
	} {
		t.Run(fmt.Sprint(tc.timeout), func(t *testing.T) {
			outer, cancel := context.WithTimeout(context.Background(), tc.timeout)
			defer cancel()
			ctx, cancelWork := Work(outer)
			defer cancelWork()
			od, _ := outer.Deadline()
			wd, _ := ctx.Deadline()
			if d := od.Sub(wd); d < tc.early-50*time.Millisecond || d > tc.early+50*time.Millisecond {
				t.Errorf("work ends %v before asynq's deadline, want %v", d, tc.early)
			}
			err := OutOfTime(ctx, "an upload")
			if code, msg := kiln.CodeOf(err); code != "processing_timed_out" || !strings.Contains(msg, tc.says) || kiln.KindOf(err) != kiln.KindUnprocessable || !CannotSucceed(err) {
				t.Errorf("%s %q (%v), want an unprocessable failure saying %q", code, msg, kiln.KindOf(err), tc.says)
			}
		})
	}
	ctx, cancel := Work(context.Background())
	defer cancel()
	if _, ok := ctx.Deadline(); ok {
		t.Error("a task without a deadline got one")
	}
}

// TestLate tells a job's own deadline from a store's timeout and from a
// shutdown (cancel), which a retry may fix.
func TestLate(t *testing.T) {
	past, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	live := context.Background()
	stopped, stop := context.WithCancel(live)
	stop()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		err  error
		want bool
	}{
		{"past its deadline", past, fmt.Errorf("obj.Read: stopped before line 4096: %w", context.DeadlineExceeded), true},
		{"a store's own timeout", live, fmt.Errorf("s3: %w", context.DeadlineExceeded), false},
		{"shut down", stopped, fmt.Errorf("obj.Read: %w", context.Canceled), false},
		{"another error past the deadline", past, kiln.Errorf(kiln.KindUnprocessable, "invalid_model", "bad"), false},
	} {
		if got := Late(tc.ctx, tc.err); got != tc.want {
			t.Errorf("%s: Late = %v, want %v", tc.name, got, tc.want)
		}
	}
}
