package redis

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/kilnhq/kiln"
)

// TestCatalogConcurrentAdds checks the WATCH transaction: additions made
// at the same time all land.
func TestCatalogConcurrentAdds(t *testing.T) {
	ctx := context.Background()
	db := open(t)
	if got, err := db.Catalog(ctx, "acme"); err != nil || got == nil || len(got) != 0 {
		t.Fatalf("catalog of a new account: %v %v, want empty", got, err)
	}
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			_, err := db.UpdateCatalog(ctx, "acme", func(cur []kiln.CatalogEntry) ([]kiln.CatalogEntry, error) {
				return append(cur, kiln.CatalogEntry{ObjectID: fmt.Sprint("obj_", i)}), nil
			})
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	got, err := db.Catalog(ctx, "acme")
	if err != nil || len(got) != 20 {
		t.Fatalf("%d entries (%v), want 20", len(got), err)
	}
	if other, _ := db.Catalog(ctx, "globex"); len(other) != 0 {
		t.Errorf("another account sees %v", other)
	}
}

func TestLikesPerAccount(t *testing.T) {
	ctx := context.Background()
	db := open(t)
	for _, step := range []struct {
		account string
		like    bool
		want    int64
	}{
		{"acme", true, 1}, {"acme", true, 1}, {"globex", true, 2}, {"acme", false, 1}, {"acme", false, 1},
	} {
		n, err := db.SetLike(ctx, "obj_1", step.account, step.like)
		if err != nil || n != step.want {
			t.Fatalf("%+v: %d %v", step, n, err)
		}
	}
	if n, mine, err := db.Likes(ctx, "obj_1", "globex"); n != 1 || !mine || err != nil {
		t.Errorf("Likes: %d %v %v", n, mine, err)
	}
	if n, mine, _ := db.Likes(ctx, "obj_1", "acme"); n != 1 || mine {
		t.Errorf("Likes for acme: %d %v", n, mine)
	}
}
