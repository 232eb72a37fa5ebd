package app

import (
	"net/http"
	"os"
	"testing"

	"github.com/kilnhq/kiln/internal/testenv"
)

// TestOneAdminKeyForTwoAPIs starts two api processes on one Redis without
// KILN_ADMIN_KEY: the first makes the key (and would print it), the second
// takes the same one, and each accepts a key the other minted.
func TestOneAdminKeyForTwoAPIs(t *testing.T) {
	if os.Getenv("KILN_TEST_REDIS_URL") == "" {
		t.Skip("needs a shared Redis (KILN_TEST_REDIS_URL); the embedded one belongs to one process")
	}
	cfg := testenv.Config(t, 1)
	cfg.AdminKey = ""
	a := startWith(t, cfg)
	cfg2 := *cfg
	cfg2.DataDir = t.TempDir()
	b := startWith(t, &cfg2)
	if !a.AdminKeyCreated || b.AdminKeyCreated || a.AdminKey == "" || a.AdminKey != b.AdminKey {
		t.Fatalf("first api: key %q (created %v); second: %q (created %v); want one key, made once", a.AdminKey, a.AdminKeyCreated, b.AdminKey, b.AdminKeyCreated)
	}
	key := newKey(t, a, "acme", "user:read")
	if res := do(t, "GET", b.PlatformURL+"/api-key-authorized", key, nil, nil); res.Status != http.StatusOK {
		t.Errorf("a key minted through the first api, on the second: %d %s", res.Status, res.Body)
	}
	if res := do(t, "GET", b.PlatformURL+"/admin/api-keys", a.AdminKey, nil, nil); res.Status != http.StatusOK {
		t.Errorf("the admin key on the second api: %d %s", res.Status, res.Body)
	}
}
