package testenv

import (
	"encoding/json"
	"strings"
	"time"
)

// TaskRun is one task a worker ran, as its JSON log tells it: when its
// working attempt started, how long it had waited since its enqueue
// (waited_ms), and how long it ran.
type TaskRun struct {
	ID      string
	Started time.Time
	Waited  time.Duration
	Ran     time.Duration
}

// Enqueued is when the task was enqueued.
func (r TaskRun) Enqueued() time.Time { return r.Started.Add(-r.Waited) }

// Ended is when the task ended.
func (r TaskRun) Ended() time.Time { return r.Started.Add(r.Ran) }

// Of reports whether the task works on one of ids (its id names them).
func (r TaskRun) Of(ids []string) bool {
	for _, id := range ids {
		if strings.Contains(r.ID, id) {
			return true
		}
	}
	return false
}

// TaskRuns reads a worker's JSON log: each "task started" line with
// waited_ms, paired with the "task done" of the same task id that follows
// it (a task that only found its model busy logs no end).
func TaskRuns(log string) []TaskRun {
	started := map[string]TaskRun{}
	var out []TaskRun
	for line := range strings.Lines(log) {
		var l struct {
			Time     time.Time
			Msg      string
			TaskID   string `json:"task_id"`
			WaitedMS *int64 `json:"waited_ms"`
			Duration int64  `json:"duration_ms"`
		}
		if json.Unmarshal([]byte(line), &l) != nil || l.TaskID == "" {
			continue
		}
		switch l.Msg {
		case "task started":
			if l.WaitedMS != nil {
				started[l.TaskID] = TaskRun{ID: l.TaskID, Started: l.Time, Waited: time.Duration(*l.WaitedMS) * time.Millisecond}
			}
		case "task done":
			if r, ok := started[l.TaskID]; ok {
				r.Ran = time.Duration(l.Duration) * time.Millisecond
				out = append(out, r)
				delete(started, l.TaskID)
			}
		}
	}
	return out
}

// Overtaken counts, for the tasks of quiet (those Of(quiet)), the other
// tasks enqueued before one of them and not started when it was
// enqueued: after it started (it overtook them) and before it started.
func Overtaken(tasks []TaskRun, quiet []string) (after, before int) {
	for _, q := range tasks {
		if !q.Of(quiet) {
			continue
		}
		for _, f := range tasks {
			if f.Of(quiet) || !f.Enqueued().Before(q.Enqueued()) || f.Started.Before(q.Enqueued()) {
				continue
			}
			if f.Started.After(q.Started) {
				after++
			} else {
				before++
			}
		}
	}
	return after, before
}
