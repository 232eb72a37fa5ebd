package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestKeysCLI manages keys on the embedded store with no server running:
// the CLI opens the saved state and saves it again.
func TestKeysCLI(t *testing.T) {
	t.Setenv("KILN_DATA_DIR", t.TempDir())
	os.Unsetenv("KILN_REDIS_URL")
	cli := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := run(append([]string{"keys"}, args...), &out, &errb)
		return code, out.String(), errb.String()
	}
	code, out, errs := cli("create", "--account", "acme", "--scopes", "product:read, user:read", "--plan", "premium", "--name", "ci")
	if code != 0 {
		t.Fatalf("create: %d %s", code, errs)
	}
	var created struct {
		ID, Key, Account, Plan string
		Scopes                 []string
	}
	if err := json.Unmarshal([]byte(out), &created); err != nil || created.Key == "" || created.Account != "acme" ||
		created.Plan != "premium" || len(created.Scopes) != 2 {
		t.Fatalf("create printed %s", out)
	}
	code, out, _ = cli("list")
	if code != 0 || !strings.Contains(out, created.ID) || strings.Contains(out, created.Key) {
		t.Fatalf("list (after a restart of the store): %d %s", code, out)
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"create", "--account", "acme", "--scopes", "root"}, 2, `scope "root" is unknown`},
		{[]string{"create", "--scopes", "user:read"}, 2, "account must be"},
		{[]string{"create", "--account", "acme", "--scopes", "user:read", "--plan", "gold"}, 2, "plan"},
		{[]string{"revoke"}, 2, "usage"},
		{[]string{"revoke", "key_nope"}, 1, "no API key with id key_nope"},
		{[]string{"frobnicate"}, 2, "usage"},
	} {
		code, _, errs := cli(tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d %q, want %d with %q", tc.args, code, errs, tc.code, tc.want)
		}
	}
	if code, out, errs := cli("revoke", created.ID); code != 0 || !strings.Contains(out, created.ID) {
		t.Fatalf("revoke: %d %s %s", code, out, errs)
	}
	if _, out, _ := cli("list"); strings.Contains(out, created.ID) {
		t.Fatalf("revoked key still listed: %s", out)
	}
}
