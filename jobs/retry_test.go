package jobs

import (
	"testing"
	"time"

	"github.com/hibiken/asynq"
)

// TestRetryDelayAfterCrash: a task whose worker died runs again within a
// second the first time, backs off when it keeps killing workers, and
// never waits longer than asynq's default would.
func TestRetryDelayAfterCrash(t *testing.T) {
	task := asynq.NewTask("t", nil)
	if d := RetryDelay(0, asynq.ErrLeaseExpired, task); d != time.Second {
		t.Errorf("first retry after a crash waits %v, want 1s", d)
	}
	prev := time.Duration(0)
	for n := range 8 {
		d := RetryDelay(n, asynq.ErrLeaseExpired, task)
		if d < prev {
			t.Errorf("retry %d waits %v, less than retry %d's %v", n, d, n-1, prev)
		}
		prev = d
	}
	if prev < 30*time.Second {
		t.Errorf("the 8th retry after crashes waits only %v: a task that kills every worker must back off", prev)
	}
}
