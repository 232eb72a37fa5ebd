package bufpool

import (
	"testing"
	"time"
)

func TestSizedReuse(t *testing.T) {
	Drop()
	var p Sized[float64]
	s := p.Get(1000)
	for i := range s {
		s[i] = float64(i) + 1
	}
	p.Put(s)
	if got := Held(); got != 8000 {
		t.Fatalf("held %d bytes after a put of 1000 float64, want 8000", got)
	}
	tests := []struct {
		name string
		n    int
		same bool
	}{
		{"same length reuses", 1000, true},
		{"other length allocates", 999, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := p.Get(tc.n)
			if len(g) != tc.n {
				t.Fatalf("len %d, want %d", len(g), tc.n)
			}
			if (&g[0] == &s[0]) != tc.same {
				t.Fatalf("reused the buffer given back: %v, want %v", &g[0] == &s[0], tc.same)
			}
			for i, v := range g {
				if v != 0 {
					t.Fatalf("element %d is %v, want 0", i, v)
				}
			}
		})
	}
}

func TestLimitAndDrop(t *testing.T) {
	Drop()
	var p Sized[byte]
	p.Put(make([]byte, Limit-10))
	p.Put(make([]byte, 20)) // over the bound: left to the collector
	if got := Held(); got != Limit-10 {
		t.Fatalf("held %d, want %d", got, Limit-10)
	}
	var b Bytes
	b.Put(make([]byte, 5, 10))
	if got := Held(); got != Limit {
		t.Fatalf("held %d, want %d", got, Limit)
	}
	if g := b.Get(); len(g) != 0 || cap(g) != 10 {
		t.Fatalf("Bytes.Get: len %d cap %d, want 0 and 10", len(g), cap(g))
	}
	Drop()
	if got := Held(); got != 0 {
		t.Fatalf("held %d after Drop, want 0", got)
	}
	if g := p.Get(Limit - 10); len(g) != Limit-10 {
		t.Fatalf("len %d", len(g))
	}
	if g := b.Get(); g != nil {
		t.Fatalf("Bytes.Get after Drop: cap %d, want none", cap(g))
	}
}

// TestDropWhenIdle: the pools let go of their buffers by themselves once
// unused for idleDrop, and not while in use.
func TestDropWhenIdle(t *testing.T) {
	Drop()
	defer func(d time.Duration) { idleDrop = d }(idleDrop)
	idleDrop = 100 * time.Millisecond
	var p Sized[int32]
	start := time.Now()
	p.Put(make([]int32, 100))
	// Used every 20 ms for 300 ms: still held.
	for time.Since(start) < 300*time.Millisecond {
		time.Sleep(20 * time.Millisecond)
		p.Put(p.Get(100))
	}
	if got := Held(); got != 400 {
		t.Fatalf("held %d bytes while in use, want 400", got)
	}
	deadline := time.Now().Add(5 * time.Second)
	for Held() != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("still held %d bytes 5 s after the last use (idleDrop %v)", Held(), idleDrop)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
