package embedded

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// BenchmarkStall20k fills the embedded Redis with 20,000 records like
// Kiln's (JSON strings and hashes) and measures the longest a client's GET
// waits while the log is compacted (what runs every 10 s in production),
// and while Save dumps the live data under its lock (what ran every 10 s
// before the write-ahead log, and still runs once at Close):
//
//	go test ./storage/embedded -run '^$' -bench Stall20k -benchtime 3x
func BenchmarkStall20k(b *testing.B) {
	ctx := context.Background()
	s, err := Start(ctx, b.TempDir(), slog.New(slog.DiscardHandler))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	c := redis.NewClient(&redis.Options{Addr: s.Addr(), PoolSize: 4})
	defer c.Close()
	record := `{"id":"obj_%d","account":"acme","name":"` + strings.Repeat("x", 400) + `"}`
	p := c.Pipeline()
	for i := range 20000 {
		if i%2 == 0 {
			p.Set(ctx, fmt.Sprintf("kiln:object:obj_%d", i), fmt.Sprintf(record, i), 0)
		} else {
			p.HSet(ctx, fmt.Sprintf("asynq:{default}:t:%d", i), "msg", fmt.Sprintf(record, i), "state", "completed")
		}
		if i%500 == 499 {
			if _, err := p.Exec(ctx); err != nil {
				b.Fatal(err)
			}
		}
	}
	// worst runs GETs through the proxy while work runs, and returns the
	// longest one.
	worst := func(work func() error) time.Duration {
		var stop atomic.Bool
		done := make(chan time.Duration)
		go func() {
			var longest time.Duration
			for !stop.Load() {
				t0 := time.Now()
				if err := c.Get(ctx, "kiln:object:obj_0").Err(); err != nil {
					b.Error(err)
				}
				longest = max(longest, time.Since(t0))
			}
			done <- longest
		}()
		time.Sleep(20 * time.Millisecond)
		if err := work(); err != nil {
			b.Error(err)
		}
		time.Sleep(20 * time.Millisecond)
		stop.Store(true)
		return <-done
	}
	var compact, save time.Duration
	for i := 0; i < b.N; i++ {
		// Each round leaves a segment to fold: one write per record.
		if err := c.Set(ctx, "round", i, 0).Err(); err != nil {
			b.Fatal(err)
		}
		compact = max(compact, worst(func() error { return s.compact(ctx) }))
		if err := c.Set(ctx, "round", -i, 0).Err(); err != nil {
			b.Fatal(err)
		}
		save = max(save, worst(s.Save))
	}
	b.ReportMetric(float64(compact.Microseconds())/1000, "compact-max-stall-ms")
	b.ReportMetric(float64(save.Microseconds())/1000, "save-max-stall-ms")
}
