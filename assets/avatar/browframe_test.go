package avatar

import (
	"image"
	"math"
	"slices"
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
)

// TestBrowsFrameTheEyes measures each brow as a viewer in front of the
// face sees it, from its mesh and its painted alpha, in eye-distances
// (the eyes' centres apart): how thick it is over its inner half (the
// head of the brow), how thick its tail, and how high its lower edge is
// above the eye's centre. The p14 panel saw ours as thin, faint lines
// far above the eyes, a blank face, beside the leader's thick brows
// close over the eye, thick at the head and tapering out (issue 22).
// MakeHuman's strip widened 2.1 times at the head and 1.4 at the tail
// was 0.101-0.113 eye-distances thick at the head, its tail 0.67-0.72
// of that: a long even arch. The lower edge is held where it was
// (0.20-0.29 over the eye's centre; in room close-ups
// bench/avatar-look/browshape puts ours at 0.22-0.23 and the leader's at
// 0.22), neither sunk onto the lid nor lifted away from it.
func TestBrowsFrameTheEyes(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
	}{
		{"default-male", Default(Masculine)},
		{"default-female", Default(Feminine)},
		{"random-4", Random(4)},
		{"random-13", Random(13)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Generate(tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			alpha := baseColorImage(t, s, "Wolf3D_Eyebrows")
			for _, eye := range []string{"EyeLeft", "EyeRight"} {
				b := measureBrow(t, s, alpha, eye)
				t.Logf("%s: head %.3f, tail %.3f thick, lower edge %.3f above the eye (eye-distances)", eye, b.head, b.tail, b.above)
				if b.head < 0.12 {
					t.Errorf("%s: the brow's head is %.3f eye-distances thick, want at least 0.12 (a thin line, not a brow)", eye, b.head)
				}
				if b.head > 0.2 {
					t.Errorf("%s: the brow's head is %.3f eye-distances thick, want at most 0.2 (a block)", eye, b.head)
				}
				if b.tail > 0.6*b.head {
					t.Errorf("%s: the brow's tail is %.3f eye-distances thick, its head %.3f: want at most 0.6 of it, tapering out", eye, b.tail, b.head)
				}
				if b.above > 0.32 {
					t.Errorf("%s: the brow's lower edge is %.3f eye-distances above the eye's centre, want at most 0.32 (far above the eye)", eye, b.above)
				}
				if b.above < 0.15 {
					t.Errorf("%s: the brow's lower edge is %.3f eye-distances above the eye's centre, want at least 0.15 (on the lid)", eye, b.above)
				}
			}
		})
	}
}

// browLook is one brow's measures, in eye-distances.
type browLook struct{ head, tail, above float64 }

// measureBrow measures the brow over the eye mesh named eye: the
// opaque points of the brow's triangles on that side of the face (5×5
// points a triangle, kept where the painted alpha is opaque) binned in
// 2 mm columns across x; a column's thickness is its points' spread in
// y; the head is the median over the inner half of the columns, the
// tail over the outer fifth; above is the lowest opaque point within
// 3 mm of the eye's centre in x, over the eye's centre.
func measureBrow(t *testing.T, s *scene.Scene, alpha image.Image, eye string) browLook {
	t.Helper()
	el, er, ipd := sceneEyes(t, s)
	e := el
	if eye == "EyeRight" {
		e = er
	}
	side := math.Copysign(1, e[0])
	b := alpha.Bounds()
	p := meshOf(t, s, "Wolf3D_Eyebrows")
	uv := p.TexCoords[0]
	var pts [][2]float64
	for i := 0; i+2 < len(p.Indices); i += 3 {
		v := [3]uint32{p.Indices[i], p.Indices[i+1], p.Indices[i+2]}
		if float64(p.Positions[v[0]][0]+p.Positions[v[1]][0]+p.Positions[v[2]][0])*side < 0 {
			continue
		}
		for j := 0; j <= 4; j++ {
			for k := 0; k <= 4-j; k++ {
				w := [3]float64{0, (float64(j) + 0.33) / 5.5, (float64(k) + 0.33) / 5.5}
				w[0] = 1 - w[1] - w[2]
				var u, vv, x, y float64
				for c := range 3 {
					u += w[c] * float64(uv[v[c]][0])
					vv += w[c] * float64(uv[v[c]][1])
					x += w[c] * float64(p.Positions[v[c]][0])
					y += w[c] * float64(p.Positions[v[c]][1])
				}
				tx := b.Min.X + min(b.Dx()-1, max(0, int(u*float64(b.Dx()))))
				ty := b.Min.Y + min(b.Dy()-1, max(0, int(vv*float64(b.Dy()))))
				if _, _, _, al := alpha.At(tx, ty).RGBA(); al >= 0x8000 {
					pts = append(pts, [2]float64{x, y})
				}
			}
		}
	}
	if len(pts) == 0 {
		t.Fatalf("%s: no opaque brow", eye)
	}
	// Columns by distance from the face's middle: 0 the brow's inner end.
	const col = 0.002
	inner, outer := math.Inf(1), math.Inf(-1)
	for _, q := range pts {
		inner, outer = math.Min(inner, math.Abs(q[0])), math.Max(outer, math.Abs(q[0]))
	}
	n := int((outer-inner)/col) + 1
	lo, hi := make([]float64, n), make([]float64, n)
	for i := range n {
		lo[i], hi[i] = math.Inf(1), math.Inf(-1)
	}
	low := math.Inf(1)
	for _, q := range pts {
		i := min(n-1, int((math.Abs(q[0])-inner)/col))
		lo[i], hi[i] = math.Min(lo[i], q[1]), math.Max(hi[i], q[1])
		if math.Abs(q[0]-e[0]) < 0.003 {
			low = math.Min(low, q[1])
		}
	}
	thick := func(from, to int) float64 {
		var v []float64
		for i := from; i < to; i++ {
			if hi[i] > lo[i] {
				v = append(v, hi[i]-lo[i])
			}
		}
		if len(v) == 0 {
			return 0
		}
		slices.Sort(v)
		return v[len(v)/2] / ipd
	}
	return browLook{head: thick(0, n/2), tail: thick(n-n/5, n), above: (low - e[1]) / ipd}
}
