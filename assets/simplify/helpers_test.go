package simplify_test

import (
	"os"
	"testing"

	"github.com/kilnhq/kiln/assets/simplify"
	"github.com/kilnhq/kiln/assets/simplify/simplifytest"
)

// bunny loads the Stanford bunny from the shared test data, or skips.
func bunny(tb testing.TB) simplify.Mesh {
	tb.Helper()
	path, err := simplifytest.BunnyPath()
	if err != nil {
		tb.Skip(err)
	}
	if _, err := os.Stat(path); err != nil {
		tb.Skipf("no bunny: %v", err)
	}
	idx, pos, err := simplifytest.LoadOBJ(path)
	if err != nil {
		tb.Fatal(err)
	}
	return simplify.Mesh{Indices: idx, Positions: pos}
}
