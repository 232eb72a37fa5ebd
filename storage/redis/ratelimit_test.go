package redis

import (
	"bufio"
	"bytes"
	"context"
	"net"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kilnhq/kiln"
)

// TestAllow drains buckets call by call: each answer is what a client of
// the limit would see, allowed or how long to wait.
func TestAllow(t *testing.T) {
	ctx := context.Background()
	db := open(t)
	for _, tc := range []struct {
		name  string
		limit kiln.RateLimit
		calls int
		// allowed is how many of calls pass; the others must wait about
		// maxWait at most (one token at limit.Rate).
		allowed int
		maxWait time.Duration
	}{
		{"zero limit allows all", kiln.RateLimit{}, 50, 50, 0},
		{"burst then wait", kiln.RateLimit{Rate: 1, Burst: 3}, 5, 3, time.Second},
		{"burst 0 is 1", kiln.RateLimit{Rate: 2}, 3, 1, 500 * time.Millisecond},
		{"slow rate", kiln.RateLimit{Rate: 0.1, Burst: 2}, 4, 2, 10 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			key := "test:" + tc.name
			allowed := 0
			for i := 0; i < tc.calls; i++ {
				wait, err := db.Allow(ctx, key, tc.limit)
				if err != nil {
					t.Fatal(err)
				}
				if wait == 0 {
					allowed++
					continue
				}
				if wait < 0 || wait > tc.maxWait {
					t.Errorf("call %d: wait %v, want in (0, %v]", i, wait, tc.maxWait)
				}
			}
			if allowed != tc.allowed {
				t.Errorf("%d of %d calls allowed, want %d", allowed, tc.calls, tc.allowed)
			}
			// Another key has its own bucket.
			if wait, err := db.Allow(ctx, key+":other", tc.limit); err != nil || wait != 0 {
				t.Errorf("other key: wait %v, %v", wait, err)
			}
		})
	}
	t.Run("refills", func(t *testing.T) {
		limit := kiln.RateLimit{Rate: 20, Burst: 1}
		if wait, err := db.Allow(ctx, "test:refill", limit); err != nil || wait != 0 {
			t.Fatalf("first: %v %v", wait, err)
		}
		wait, err := db.Allow(ctx, "test:refill", limit)
		if err != nil || wait == 0 {
			t.Fatalf("second at once: %v %v", wait, err)
		}
		time.Sleep(wait)
		if wait, err := db.Allow(ctx, "test:refill", limit); err != nil || wait != 0 {
			t.Fatalf("after the wait it answered: %v %v", wait, err)
		}
	})
}

// TestAllowCountsOnceUnderRetries cuts the connection after Redis ran the
// script but before its answer reaches the client, as a read timeout
// does: go-redis sends the script again, and the bucket must lose one
// token, not two.
func TestAllowCountsOnceUnderRetries(t *testing.T) {
	ctx := context.Background()
	u, err := url.Parse(testURL(t))
	if err != nil {
		t.Fatal(err)
	}
	rdb, err := Open(ctx, u.String())
	if err != nil {
		t.Fatal(err)
	}
	defer rdb.Close()
	db := New(rdb)
	var drop atomic.Int32
	u.Host = dropProxy(t, u.Host, &drop)
	rdb, err = Open(ctx, u.String())
	if err != nil {
		t.Fatal(err)
	}
	defer rdb.Close()
	flaky := New(rdb)
	limit := kiln.RateLimit{Rate: 0.01, Burst: 2}
	// Load the script first, so the cut reply is the one of the script.
	if _, err := flaky.Allow(ctx, "test:warm", limit); err != nil {
		t.Fatal(err)
	}
	drop.Store(1)
	if wait, err := flaky.Allow(ctx, "test:retried", limit); err != nil || wait != 0 {
		t.Fatalf("retried call: wait %v, err %v", wait, err)
	}
	if drop.Load() != 0 {
		t.Fatal("no reply was cut: the test proves nothing")
	}
	// One token is left if the retry counted once.
	if wait, err := db.Allow(ctx, "test:retried", limit); err != nil || wait != 0 {
		t.Fatalf("second call: wait %v, err %v (the retry took a second token)", wait, err)
	}
	if wait, err := db.Allow(ctx, "test:retried", limit); err != nil || wait == 0 {
		t.Fatalf("third call: wait %v, err %v (the bucket should be empty)", wait, err)
	}
}

// dropProxy forwards TCP to addr; while *drop is 1, the first reply to a
// command that runs a script is read from Redis and thrown away, and the
// client's connection closed, and *drop goes back to 0.
func dropProxy(t *testing.T, addr string, drop *atomic.Int32) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s, err := net.Dial("tcp", addr)
			if err != nil {
				c.Close()
				continue
			}
			var script atomic.Bool
			go func() {
				r := bufio.NewReader(c)
				buf := make([]byte, 64<<10)
				for {
					n, err := r.Read(buf)
					if n > 0 {
						if bytes.Contains(bytes.ToUpper(buf[:n]), []byte("EVAL")) {
							script.Store(true)
						}
						if _, err := s.Write(buf[:n]); err != nil {
							break
						}
					}
					if err != nil {
						break
					}
				}
				s.Close()
			}()
			go func() {
				buf := make([]byte, 64<<10)
				for {
					n, err := s.Read(buf)
					if n > 0 && script.Swap(false) && drop.CompareAndSwap(1, 0) {
						c.Close()
						s.Close()
						return
					}
					if n > 0 {
						if _, err := c.Write(buf[:n]); err != nil {
							break
						}
					}
					if err != nil {
						break
					}
				}
				c.Close()
			}()
		}
	}()
	return ln.Addr().String()
}
