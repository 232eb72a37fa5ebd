package simplify

import (
	"errors"
	"testing"

	"github.com/kilnhq/kiln/assets/simplify/simplifytest"
)

// TestDoneStops closes Options.Done before and during a run: Simplify
// answers ErrStopped instead of a result, and runs to the end without it.
func TestDoneStops(t *testing.T) {
	g := simplifytest.Terrain(200)
	m := Mesh{Indices: g.Indices, Positions: g.Positions}
	closed := make(chan struct{})
	close(closed)
	if _, err := Simplify(m, Options{TargetRatio: 0.25, Done: closed}); !errors.Is(err, ErrStopped) {
		t.Fatalf("with Done closed: %v, want ErrStopped", err)
	}
	res, err := Simplify(m, Options{TargetRatio: 0.25, Done: make(chan struct{})})
	if err != nil || len(res.Indices)/3 > len(m.Indices)/3/4+len(m.Indices)/3/20 {
		t.Fatalf("with Done open: %d of %d triangles, %v", len(res.Indices)/3, len(m.Indices)/3, err)
	}
}
