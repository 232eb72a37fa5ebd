package redis

import (
	"sync"
	"testing"
)

// TestSharedAdminKey starts eight "api processes" at once on one Redis:
// exactly one creates the key, and all of them end with that same key.
func TestSharedAdminKey(t *testing.T) {
	db := open(t)
	const n = 8
	keys := make([]string, n)
	created := make([]bool, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			var err error
			keys[i], created[i], err = db.SharedAdminKey(t.Context(), "fresh-key-of-process-"+string(rune('a'+i)))
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	creators := 0
	for i := range n {
		if created[i] {
			creators++
			if keys[i] != "fresh-key-of-process-"+string(rune('a'+i)) {
				t.Errorf("process %d created the key but returned %q", i, keys[i])
			}
		}
		if keys[i] != keys[0] {
			t.Errorf("process %d has key %q, process 0 has %q", i, keys[i], keys[0])
		}
	}
	if creators != 1 {
		t.Errorf("%d processes created the key, want 1", creators)
	}
	if k, c, err := db.SharedAdminKey(t.Context(), "a later start"); err != nil || c || k != keys[0] {
		t.Errorf("a later start: %q, created=%v, %v; want %q", k, c, err, keys[0])
	}
}
