package redis

import (
	"os"
	"testing"
	"time"
)

// TestLockRenewed: a lock with a short ttl stays held past it while its
// holder lives, and is free at once after unlock.
func TestLockRenewed(t *testing.T) {
	if os.Getenv("KILN_TEST_REDIS_URL") == "" {
		// miniredis ages TTLs only when told to, so expiry needs a real
		// Redis; CI sets KILN_TEST_REDIS_URL.
		t.Skip("KILN_TEST_REDIS_URL is unset")
	}
	db := open(t)
	const ttl = 300 * time.Millisecond
	unlock, ok, err := db.Lock(t.Context(), "model:x", ttl)
	if err != nil || !ok {
		t.Fatalf("Lock: %v, %v", ok, err)
	}
	time.Sleep(4 * ttl)
	if _, ok, err := db.Lock(t.Context(), "model:x", ttl); err != nil || ok {
		t.Fatalf("a second Lock %v after the first (ttl %v) took it: %v, %v; the holder's renewal failed", 4*ttl, ttl, ok, err)
	}
	unlock()
	unlock() // twice is harmless
	u2, ok, err := db.Lock(t.Context(), "model:x", ttl)
	if err != nil || !ok {
		t.Fatalf("Lock after unlock: %v, %v", ok, err)
	}
	u2()
}
