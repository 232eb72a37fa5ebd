package obj

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/kilnhq/kiln"
)

// gridOBJ is a side×side grid of quads in one material, written as an
// exporter would: large enough that reading it takes a noticeable time.
func gridOBJ(side int) []byte {
	var b strings.Builder
	b.WriteString("mtllib grid.mtl\no Grid\n")
	for y := 0; y <= side; y++ {
		for x := 0; x <= side; x++ {
			fmt.Fprintf(&b, "v %d.25 %d.5 0.125\n", x, y)
		}
	}
	b.WriteString("usemtl Clay\n")
	for y := range side {
		for x := range side {
			i := y*(side+1) + x + 1
			fmt.Fprintf(&b, "f %d %d %d %d\n", i, i+1, i+side+2, i+side+1)
		}
	}
	return []byte(b.String())
}

// TestReadContextStops reads a generated OBJ of 320,000 triangles: with a
// live context all of it; with a context cancelled before, past its
// deadline, or cancelled while the MTL is fetched (after the lines are
// parsed, before the faces are indexed), it returns an error wrapping
// the context's, which is not the file's fault (not Unprocessable).
func TestReadContextStops(t *testing.T) {
	const side = 400
	data := gridOBJ(side)
	live := func() (context.Context, context.CancelFunc) { return context.WithCancel(context.Background()) }
	cancelled := func() (context.Context, context.CancelFunc) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		return ctx, cancel
	}
	expired := func() (context.Context, context.CancelFunc) {
		return context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	}
	for _, tc := range []struct {
		name        string
		ctx         func() (context.Context, context.CancelFunc)
		cancelOnMTL bool
		want        error
	}{
		{"live", live, false, nil},
		{"cancelled", cancelled, false, context.Canceled},
		{"past deadline", expired, false, context.DeadlineExceeded},
		{"cancelled while fetching the MTL", live, true, context.Canceled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := tc.ctx()
			defer cancel()
			files := func(name string) ([]byte, error) {
				if name != "grid.mtl" {
					return nil, errors.New("no such file")
				}
				if tc.cancelOnMTL {
					cancel()
				}
				return []byte("newmtl Clay\nKd 0.7 0.5 0.4\n"), nil
			}
			start := time.Now()
			s, err := ReadContext(ctx, data, files)
			t.Logf("%d bytes: %v in %v", len(data), err, time.Since(start))
			if tc.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				if st := s.Stats(); st.Triangles != 2*side*side || st.Vertices != (side+1)*(side+1) {
					t.Fatalf("read %+v, want %d triangles on %d vertices", st, 2*side*side, (side+1)*(side+1))
				}
				return
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("err %v, want one wrapping %v", err, tc.want)
			}
			if kiln.KindOf(err) == kiln.KindUnprocessable {
				t.Fatalf("err %v is Unprocessable: a stopped read would fail the file for good", err)
			}
		})
	}
}
