package bufpool

import "testing"

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
