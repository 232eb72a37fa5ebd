package redis

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"

	"github.com/kilnhq/kiln"
)

// open returns a store on the real Redis of KILN_TEST_REDIS_URL (database
// 2, flushed), or on an in-process miniredis, the embedded default.
func open(t *testing.T) *DB {
	t.Helper()
	rdb, err := Open(context.Background(), testURL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rdb.Close() })
	if err := rdb.FlushDB(context.Background()).Err(); err != nil {
		t.Fatal(err)
	}
	return New(rdb)
}

// testURL is the Redis open connects to.
func testURL(t *testing.T) string {
	t.Helper()
	if url := os.Getenv("KILN_TEST_REDIS_URL"); url != "" {
		return strings.TrimRight(url, "/") + "/2"
	}
	return "redis://" + miniredis.RunT(t).Addr()
}

func TestKeys(t *testing.T) {
	ctx := context.Background()
	db := open(t)
	var secrets []string
	for i, account := range []string{"acme", "acme", "globex"} {
		k, secret, err := kiln.NewAPIKey(account, fmt.Sprint("k", i), []string{kiln.ScopeUserRead}, kiln.PlanPremium)
		if err != nil {
			t.Fatal(err)
		}
		k.CreatedAt = k.CreatedAt.Add(time.Duration(i) * time.Second)
		if err := db.CreateKey(ctx, k, kiln.HashSecret(secret)); err != nil {
			t.Fatal(err)
		}
		secrets = append(secrets, secret)
	}
	k, err := db.KeyBySecretHash(ctx, kiln.HashSecret(secrets[2]))
	if err != nil || k.Account != "globex" || k.Plan != kiln.PlanPremium || !k.HasScope(kiln.ScopeUserRead) || k.HasScope(kiln.ScopeProductRead) {
		t.Fatalf("lookup: %+v %v", k, err)
	}
	if _, err := db.KeyBySecretHash(ctx, kiln.HashSecret("kiln_unknown")); kiln.KindOf(err) != kiln.KindNotFound {
		t.Fatalf("unknown secret: %v", err)
	}
	keys, err := db.ListKeys(ctx)
	if err != nil || len(keys) != 3 || keys[0].Name != "k0" || keys[2].Name != "k2" {
		t.Fatalf("list: %v %v", keys, err)
	}
	if err := db.RevokeKey(ctx, keys[0].ID); err != nil {
		t.Fatal(err)
	}
	if _, err := db.KeyBySecretHash(ctx, kiln.HashSecret(secrets[0])); kiln.KindOf(err) != kiln.KindNotFound {
		t.Fatalf("revoked key still authenticates: %v", err)
	}
	if err := db.RevokeKey(ctx, keys[0].ID); kiln.KindOf(err) != kiln.KindNotFound {
		t.Fatalf("revoke twice: %v", err)
	}
	if keys, _ := db.ListKeys(ctx); len(keys) != 2 {
		t.Fatalf("after revoke: %d keys", len(keys))
	}
}

// TestUpdateObjectLosesNothing has many writers change one record at once:
// every change must land.
func TestUpdateObjectLosesNothing(t *testing.T) {
	ctx := context.Background()
	db := open(t)
	o := &kiln.Object{ID: "obj_1", Account: "acme", Name: "x", State: kiln.StateUploading, CreatedAt: time.Now()}
	if err := db.CreateObject(ctx, o); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 10 {
				if _, err := db.UpdateObject(ctx, "obj_1", func(o *kiln.Object) error {
					o.FileCount++
					return nil
				}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	got, err := db.Object(ctx, "obj_1")
	if err != nil || got.FileCount != 80 {
		t.Fatalf("file count %d, want 80 (%v)", got.FileCount, err)
	}
	if _, err := db.UpdateObject(ctx, "obj_missing", func(*kiln.Object) error { return nil }); kiln.KindOf(err) != kiln.KindNotFound {
		t.Fatalf("missing: %v", err)
	}
	stop := kiln.Errorf(kiln.KindConflict, "stop", "no")
	if _, err := db.UpdateObject(ctx, "obj_1", func(o *kiln.Object) error { o.Name = "changed"; return stop }); err != stop {
		t.Fatalf("fn error: %v", err)
	}
	if got, _ := db.Object(ctx, "obj_1"); got.Name != "x" {
		t.Fatal("an aborted update was written")
	}
}

func TestUploadLockAndSecret(t *testing.T) {
	ctx := context.Background()
	db := open(t)
	unlock, ok, err := db.Lock(ctx, "upload:obj_1", time.Minute)
	if err != nil || !ok {
		t.Fatalf("first lock: %v %v", ok, err)
	}
	if _, ok, _ := db.Lock(ctx, "upload:obj_1", time.Minute); ok {
		t.Fatal("second lock granted while held")
	}
	unlock()
	if _, ok, _ := db.Lock(ctx, "upload:obj_1", time.Minute); !ok {
		t.Fatal("lock not released")
	}
	a, err := db.UploadSecret(ctx, "first")
	if err != nil || a != "first" {
		t.Fatalf("secret: %q %v", a, err)
	}
	if b, _ := db.UploadSecret(ctx, "second"); b != "first" {
		t.Fatalf("secret changed to %q", b)
	}
}
