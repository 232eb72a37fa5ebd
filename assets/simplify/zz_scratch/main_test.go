package sc

import (
	"testing"
	"time"

	"github.com/kilnhq/kiln/assets/simplify"
	"github.com/kilnhq/kiln/assets/simplify/simplifytest"
)

func TestScratch(t *testing.T) {
	idx, pos, err := simplifytest.LoadOBJ("/work/shared/testdata/bunny.obj")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []float32{0.5, 0.25} {
		st := time.Now()
		res, err := simplify.Simplify(simplify.Mesh{Indices: idx, Positions: pos}, simplify.Options{TargetRatio: r, MaxError: 1e-2})
		d := time.Since(st)
		t.Logf("ratio %v: %d -> %d tris, err %.3g, %v, %.2f Mtri/s", r, len(idx)/3, len(res.Indices)/3, res.Error, d, float64(len(idx)/3)/d.Seconds()/1e6)
		_ = err
	}
}
