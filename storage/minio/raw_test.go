package minio

import (
	"io"
	"net"
	"testing"
	"time"
)

// TestRawPoolClosesStale: connections that idled past rawIdleTimeout at
// the bottom of the pool are closed by the next put (the server sees
// them end), not left open behind the newer ones that get hands out.
func TestRawPoolClosesStale(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	ended := make(chan int, 3)
	go func() {
		for i := 0; ; i++ {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func(i int, c net.Conn) {
				defer c.Close()
				io.Copy(io.Discard, c) // until the client closes
				ended <- i
			}(i, c)
		}
	}()
	p := newRawPool(ln.Addr().String())
	var conns []*rawConn
	for range 3 {
		rc, reused, err := p.get(t.Context())
		if err != nil || reused {
			t.Fatalf("get: reused %v, %v", reused, err)
		}
		conns = append(conns, rc)
	}
	p.put(conns[0])
	p.put(conns[1])
	p.mu.Lock()
	for _, rc := range p.idle {
		rc.idle = rc.idle.Add(-2 * rawIdleTimeout)
	}
	p.mu.Unlock()
	p.put(conns[2])
	p.mu.Lock()
	left := len(p.idle)
	p.mu.Unlock()
	if left != 1 {
		t.Errorf("%d connections in the pool after two went stale, want 1", left)
	}
	for range 2 {
		select {
		case <-ended:
		case <-time.After(5 * time.Second):
			t.Fatal("a stale connection was not closed")
		}
	}
	select {
	case i := <-ended:
		t.Errorf("connection %d, the fresh one, was closed", i)
	case <-time.After(100 * time.Millisecond):
	}
	rc, reused, err := p.get(t.Context())
	if err != nil || !reused || rc != conns[2] {
		t.Errorf("get after: reused %v (the fresh connection: %v), %v", reused, rc == conns[2], err)
	}
	rc.c.Close()
}
