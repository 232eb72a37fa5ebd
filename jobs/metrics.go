package jobs

import (
	"github.com/hibiken/asynq"
	"github.com/prometheus/client_golang/prometheus"
)

// QueueCollector reports the size of every queue by task state at each
// scrape, read from Redis through Asynq's inspector.
type QueueCollector struct {
	inspector *asynq.Inspector
	tasks     *prometheus.Desc
}

// NewQueueCollector makes a collector over the Redis of inspector.
func NewQueueCollector(inspector *asynq.Inspector) *QueueCollector {
	return &QueueCollector{
		inspector: inspector,
		tasks: prometheus.NewDesc("kiln_queue_tasks",
			"Tasks in a queue, by queue and state.", []string{"queue", "state"}, nil),
	}
}

// Describe implements prometheus.Collector.
func (q *QueueCollector) Describe(ch chan<- *prometheus.Desc) { ch <- q.tasks }

// Collect implements prometheus.Collector. Queues that never held a task
// are not known to Redis yet; they are reported as empty.
func (q *QueueCollector) Collect(ch chan<- prometheus.Metric) {
	for name := range QueuePriorities {
		info, err := q.inspector.GetQueueInfo(name)
		var counts = map[string]int{}
		if err == nil {
			counts = map[string]int{
				"pending": info.Pending, "active": info.Active, "scheduled": info.Scheduled,
				"retry": info.Retry, "archived": info.Archived, "completed": info.Completed,
			}
		}
		for _, state := range []string{"pending", "active", "scheduled", "retry", "archived", "completed"} {
			ch <- prometheus.MustNewConstMetric(q.tasks, prometheus.GaugeValue, float64(counts[state]), name, state)
		}
	}
}
