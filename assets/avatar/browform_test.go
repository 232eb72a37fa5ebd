package avatar

import (
	"image"
	"math"
	"slices"
	"testing"

	"github.com/kilnhq/kiln/assets/avatar/paint"
	"github.com/kilnhq/kiln/assets/scene"
)

// TestBrowsShapedAndStroked measures each brow's form as a viewer in
// front of the face sees it (its mesh drawn from the front with its
// painted colour and alpha, browFront), beside the leader's brows in the
// lead's close-ups of the eyes (issue 22): theirs are thick at the head
// and taper to a thin tail, arch highest about two thirds out, and show
// hair strokes, darker on a lighter fill; ours were a flat even band of
// one colour, nearly straight. Measured:
//
//   - taper: the brow's median thickness over the first quarter of its
//     length (from the head) over that over its last quarter;
//   - peak: where along the brow (0 head, 1 tail) its upper edge rises
//     highest above the straight line from its head to its tail, and
//     arch, how high, in eye-distances;
//   - strokes: the spread of the painted luma inside the brow (its 85th
//     percentile less its 15th, over its median), away from its edges,
//     where a flat band is 0;
//   - the strokes' direction (the luma's structure tensor inside the
//     brow, degrees from level, up and out 0 to 90) over its head (0.03
//     to 0.25 of the way out) and its middle (0.4 to 0.8): the leader's
//     rise up and out at the head and lie along the brow further out.
//
// The brows of Hair's strands before: strokes 0.10-0.16, the strokes'
// direction anywhere (2° to 86° at the head, 119° to 180° in the
// middle); taper 2.75-3.75, arch 0.145-0.201 at 0.50-0.61. Now strokes
// 0.47-0.70 at 52°-79° at the head, within 4° of level in the middle;
// taper 3.8-5.9, arch 0.137-0.185 at 0.54-0.64.
func TestBrowsShapedAndStroked(t *testing.T) {
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
			base := baseColorImage(t, s, "Wolf3D_Eyebrows")
			_, _, ipd := sceneEyes(t, s)
			for _, side := range []float64{1, -1} {
				f := browFront(t, s, base, side, ipd)
				t.Logf("side %+.0f: taper %.2f, arch %.3f at %.2f, strokes %.2f, at %.0f° at the head and %.0f° in the middle", side, f.taper, f.arch, f.peak, f.strokes, f.headAngle, f.midAngle)
				if f.taper < 1.8 {
					t.Errorf("side %+.0f: the brow's head is %.2f times as thick as its tail, want at least 1.8 (an even band)", side, f.taper)
				}
				if f.peak < 0.45 || f.peak > 0.8 {
					t.Errorf("side %+.0f: the brow is highest %.2f of the way out, want 0.45 to 0.8 (the leader's about two thirds)", side, f.peak)
				}
				if f.arch < 0.03 {
					t.Errorf("side %+.0f: the brow's upper edge rises %.3f eye-distances over the line from head to tail, want at least 0.03 (straight)", side, f.arch)
				}
				if f.strokes < 0.35 {
					t.Errorf("side %+.0f: the brow's luma spreads %.2f of its median inside it, want at least 0.35 (a flat band, no strokes)", side, f.strokes)
				}
				if f.headAngle < 35 || f.headAngle > 85 {
					t.Errorf("side %+.0f: the strokes at the brow's head lie at %.0f°, want 35° to 85° (up and out)", side, f.headAngle)
				}
				if d := math.Min(f.midAngle, 180-f.midAngle); d > 25 {
					t.Errorf("side %+.0f: the strokes along the brow's middle lie at %.0f°, want within 25° of level (along the brow)", side, f.midAngle)
				}
			}
		})
	}
}

// browShape is one brow's form seen from the front.
type browShape struct{ taper, arch, peak, strokes, headAngle, midAngle float64 }

// browCell is the front view's grid, metres.
const browCell = 0.0002

// browFront draws the brow on one side (side +1 or -1 in x) from the
// front onto a grid of browCell, the nearest triangle's texel per cell
// where the alpha is opaque, and measures it by columns across x.
func browFront(t *testing.T, s *scene.Scene, base image.Image, side, ipd float64) browShape {
	t.Helper()
	p := meshOf(t, s, "Wolf3D_Eyebrows")
	uv := p.TexCoords[0]
	b := base.Bounds()
	type cell struct {
		z, luma float64
	}
	cells := map[[2]int]cell{}
	for i := 0; i+2 < len(p.Indices); i += 3 {
		v := [3]uint32{p.Indices[i], p.Indices[i+1], p.Indices[i+2]}
		var q [3][3]float64
		for c := range 3 {
			for a := range 3 {
				q[c][a] = float64(p.Positions[v[c]][a])
			}
			q[c][0] *= side // the brow's outward x positive
		}
		if q[0][0]+q[1][0]+q[2][0] < 0 {
			continue
		}
		det := (q[1][0]-q[0][0])*(q[2][1]-q[0][1]) - (q[2][0]-q[0][0])*(q[1][1]-q[0][1])
		if math.Abs(det) < 1e-14 {
			continue
		}
		x0, x1 := min(q[0][0], q[1][0], q[2][0]), max(q[0][0], q[1][0], q[2][0])
		y0, y1 := min(q[0][1], q[1][1], q[2][1]), max(q[0][1], q[1][1], q[2][1])
		for cx := int(math.Floor(x0 / browCell)); float64(cx)*browCell <= x1; cx++ {
			for cy := int(math.Floor(y0 / browCell)); float64(cy)*browCell <= y1; cy++ {
				x, y := (float64(cx)+0.5)*browCell, (float64(cy)+0.5)*browCell
				w1 := ((x-q[0][0])*(q[2][1]-q[0][1]) - (q[2][0]-q[0][0])*(y-q[0][1])) / det
				w2 := ((q[1][0]-q[0][0])*(y-q[0][1]) - (x-q[0][0])*(q[1][1]-q[0][1])) / det
				w0 := 1 - w1 - w2
				if w0 < 0 || w1 < 0 || w2 < 0 {
					continue
				}
				w := [3]float64{w0, w1, w2}
				var u, vv, z float64
				for c := range 3 {
					u += w[c] * float64(uv[v[c]][0])
					vv += w[c] * float64(uv[v[c]][1])
					z += w[c] * q[c][2]
				}
				k := [2]int{cx, cy}
				if old, ok := cells[k]; ok && old.z >= z {
					continue
				}
				tx := b.Min.X + min(b.Dx()-1, max(0, int(u*float64(b.Dx()))))
				ty := b.Min.Y + min(b.Dy()-1, max(0, int(vv*float64(b.Dy()))))
				r, g, bb, al := base.At(tx, ty).RGBA()
				l := -1.0 // clear
				if al >= 0x8000 {
					l = paint.Luma(paint.RGB{float64(r) / float64(al), float64(g) / float64(al), float64(bb) / float64(al)})
				}
				cells[k] = cell{z, l}
			}
		}
	}
	// Columns: the opaque cells' lowest and highest row.
	cols := map[int][2]int{}
	for k, c := range cells {
		if c.luma < 0 {
			continue
		}
		e, ok := cols[k[0]]
		if !ok {
			e = [2]int{k[1], k[1]}
		}
		cols[k[0]] = [2]int{min(e[0], k[1]), max(e[1], k[1])}
	}
	var xs []int
	for x := range cols {
		xs = append(xs, x)
	}
	if len(xs) < 20 {
		t.Fatalf("side %+.0f: %d columns of brow", side, len(xs))
	}
	slices.Sort(xs)
	inner, outer := xs[0], xs[len(xs)-1]
	along := func(x int) float64 { return float64(x-inner) / float64(outer-inner) }
	over := func(a, b float64, f func(x int) float64) float64 {
		var v []float64
		for _, x := range xs {
			if s := along(x); s >= a && s <= b {
				v = append(v, f(x))
			}
		}
		slices.Sort(v)
		return v[len(v)/2]
	}
	thick := func(x int) float64 { return float64(cols[x][1]-cols[x][0]+1) * browCell }
	top := func(x int) float64 { return float64(cols[x][1]) * browCell }
	var f browShape
	f.taper = over(0, 0.25, thick) / over(0.75, 1, thick)
	ya, yb := over(0, 0.1, top), over(0.9, 1, top)
	for _, x := range xs {
		if a := (top(x) - (ya + (yb-ya)*along(x))) / ipd; a > f.arch {
			f.arch, f.peak = a, along(x)
		}
	}
	// Inside: cells opaque with their neighbours 0.6 mm round opaque
	// too; the luma's spread over the brow's middle 80 %.
	inside := func(k [2]int) bool {
		for _, o := range [5][2]int{{0, 0}, {3, 0}, {-3, 0}, {0, 3}, {0, -3}} {
			if n, ok := cells[[2]int{k[0] + o[0], k[1] + o[1]}]; !ok || n.luma < 0 {
				return false
			}
		}
		return true
	}
	var lumas []float64
	for k, c := range cells {
		if s := along(k[0]); s >= 0.1 && s <= 0.9 && inside(k) {
			lumas = append(lumas, c.luma)
		}
	}
	if len(lumas) == 0 {
		t.Fatalf("side %+.0f: no brow inside its edges", side)
	}
	slices.Sort(lumas)
	pc := func(q float64) float64 { return lumas[int(q*float64(len(lumas)-1))] }
	f.strokes = (pc(0.85) - pc(0.15)) / pc(0.5)
	// The strokes' direction: the luma's gradients (across the strokes)
	// over the head's inside cells and over the middle's, their
	// structure tensor's main axis turned a right angle, in degrees from
	// level, up and out between 0 and 90.
	lum := func(cx, cy int) float64 { return cells[[2]int{cx, cy}].luma }
	strokeAngle := func(a, b float64) float64 {
		var jxx, jxy, jyy float64
		for k := range cells {
			if s := along(k[0]); s < a || s > b || !inside(k) {
				continue
			}
			gx, gy := lum(k[0]+1, k[1])-lum(k[0]-1, k[1]), lum(k[0], k[1]+1)-lum(k[0], k[1]-1)
			jxx, jxy, jyy = jxx+gx*gx, jxy+gx*gy, jyy+gy*gy
		}
		g := 0.5 * math.Atan2(2*jxy, jxx-jyy) // the gradients' main axis
		return math.Mod(g*180/math.Pi+90+360, 180)
	}
	f.headAngle, f.midAngle = strokeAngle(0.03, 0.25), strokeAngle(0.4, 0.8)
	return f
}
