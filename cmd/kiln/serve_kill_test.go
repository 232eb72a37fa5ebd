package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"syscall"
	"testing"

	"github.com/kilnhq/kiln/internal/fixture"
)

// TestServeSIGKILLKeepsAcknowledgedWrites mints keys and processes an
// object on kiln serve's embedded Redis, kills it with SIGKILL (no
// shutdown, no last snapshot) right after the last answer, and starts it
// again: every minted key still authorizes and the object is still ready.
func TestServeSIGKILLKeepsAcknowledgedWrites(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	const admin = "serve-kill-admin-key-0123456789"
	env := []string{
		"KILN_DATA_DIR=" + t.TempDir(), "KILN_AVATAR_ADDR=" + freeAddr(t),
		"KILN_REDIS_URL=", "KILN_S3_ENDPOINT=", "KILN_ADMIN_KEY=" + admin, "KILN_LOG_LEVEL=warn",
	}
	platform := freeAddr(t)
	env = append(env, "KILN_PLATFORM_ADDR="+platform)
	c := client{t, "http://" + platform}

	p := startServe(t, env)
	p.banner(t)
	var keys []string
	for i := range 40 {
		st, body := c.do("POST", "/admin/api-keys", "Bearer "+admin,
			strings.NewReader(fmt.Sprintf(`{"account":"acct%d","scopes":["user:read","product:read","product:write"]}`, i%3)), "application/json")
		var created struct{ Data struct{ Key string } }
		if st != 201 || json.Unmarshal(body, &created) != nil || created.Data.Key == "" {
			t.Fatalf("create key %d: %d %s", i, st, body)
		}
		keys = append(keys, created.Data.Key)
	}
	id := c.upload(keys[0], fixture.CubeGLB())
	c.waitState(keys[0], id, "ready")
	// The last acknowledged write is a key minted just before the kill.
	st, body := c.do("POST", "/admin/api-keys", "Bearer "+admin, strings.NewReader(`{"account":"last","scopes":["user:read"]}`), "application/json")
	var last struct{ Data struct{ Key string } }
	if st != 201 || json.Unmarshal(body, &last) != nil {
		t.Fatalf("last key: %d %s", st, body)
	}
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	p.cmd.Wait()

	p = startServe(t, env)
	p.banner(t)
	for i, k := range append(keys, last.Data.Key) {
		if st, body := c.do("GET", "/api-key-authorized", "Bearer "+k, nil, ""); st != 200 {
			t.Errorf("key %d of %d acknowledged before the SIGKILL: %d %s", i+1, len(keys)+1, st, body)
		}
	}
	if got := c.state(keys[0], id); got != "ready" {
		t.Errorf("object ready before the SIGKILL is %q after", got)
	}
	if st, body := c.do("GET", "/resources/objects/"+id+"/model.glb", "Bearer "+keys[0], nil, ""); st != 200 || !strings.HasPrefix(string(body), "glTF") {
		t.Errorf("its GLB after the SIGKILL: %d, %d bytes", st, len(body))
	}
}
