package app

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/internal/fixture"
)

// TestPendingUploadsLimit prepares uploads until the account's limit:
// the next prepare-upload is a 429 naming the limit, another account is
// not affected, and finishing an upload makes room again.
func TestPendingUploadsLimit(t *testing.T) {
	r := start(t)
	key := newKey(t, r, "acme", kiln.ScopeProductRead, kiln.ScopeProductWrite)
	other := newKey(t, r, "globex", kiln.ScopeProductRead, kiln.ScopeProductWrite)
	cube := fixture.CubeGLB()
	fields := map[string]string{"name": "Cube", "type": "raw_model", "extension": "glb",
		"file_size": strconv.Itoa(len(cube)), "file_count": "1"}

	first := prepare(t, r, key, fields)
	for range kiln.MaxPendingUploads - 1 {
		prepare(t, r, key, fields)
	}
	body, h := form(t, fields)
	res := do(t, "POST", r.PlatformURL+"/resources/objects/prepare-upload", key, body, h)
	if res.Status != http.StatusTooManyRequests || res.errorCode(t) != "too_many_pending_uploads" || res.Header.Get("Retry-After") == "" {
		t.Fatalf("prepare-upload past the limit: %d %s", res.Status, res.Body)
	}
	prepare(t, r, other, fields)

	if res := upload(t, first, cube); res.Status != http.StatusOK {
		t.Fatalf("PUT upload: %d %s", res.Status, res.Body)
	}
	if res := finish(t, r, key, first.ObjectID, map[string]string{"success": "true"}); res.Status != http.StatusOK {
		t.Fatalf("finish-upload: %d %s", res.Status, res.Body)
	}
	prepare(t, r, key, fields)
}
