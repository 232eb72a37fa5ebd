package avatar

import (
	"math"
	"slices"
	"testing"

	"github.com/kilnhq/kiln/assets/xform"
)

// TestRigidOffsets: each piece's offsets become those of one rigid
// motion: exact when they already were, and keeping every distance
// within the piece when they were not.
func TestRigidOffsets(t *testing.T) {
	box := [][3]float32{{0, 0, 0}, {0.02, 0, 0}, {0, 0.02, 0}, {0, 0, 0.02}, {0.02, 0.02, 0.01}}
	move := func(ps [][3]float32, axis [3]float64, deg float64, shift [3]float64) [][3]float32 {
		r := xform.AxisAngle(axis, deg*math.Pi/180)
		out := make([][3]float32, len(ps))
		for i, p := range ps {
			q := r.Point(xform.F64(p))
			for a := 0; a < 3; a++ {
				out[i][a] = float32(q[a]+shift[a]) - p[a]
			}
		}
		return out
	}
	two := append(slices.Clone(box), box...)
	for i := len(box); i < len(two); i++ {
		two[i][1] += 0.1
	}
	cases := []struct {
		name  string
		pos   [][3]float32
		d     [][3]float32
		piece []int
		exact bool
	}{
		{"still", box, make([][3]float32, len(box)), []int{0, 0, 0, 0, 0}, true},
		{"jaw turned 20 degrees and moved", box, move(box, [3]float64{1, 0, 0}, 20, [3]float64{0, -0.01, 0.005}), []int{0, 0, 0, 0, 0}, true},
		{"half moved, half not", box, [][3]float32{{0, -0.02, 0}, {0, -0.02, 0}, {0, 0, 0}, {0, 0, 0}, {0, -0.01, 0}}, []int{0, 0, 0, 0, 0}, false},
		{"two pieces, two motions", two, append(move(box, [3]float64{0, 0, 1}, -15, [3]float64{}), make([][3]float32, len(box))...), []int{0, 0, 0, 0, 0, 1, 1, 1, 1, 1}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := rigidOffsets(c.pos, c.d, c.piece, slices.Max(c.piece)+1)
			for i := range c.pos {
				if c.exact {
					for a := 0; a < 3; a++ {
						if math.Abs(float64(got[i][a]-c.d[i][a])) > 1e-5 {
							t.Fatalf("vertex %d: offset %v, want %v", i, got[i], c.d[i])
						}
					}
				}
				for j := range c.pos {
					if c.piece[i] != c.piece[j] {
						continue
					}
					before := dist3(c.pos[i], c.pos[j])
					after := dist3(add3f(c.pos[i], got[i]), add3f(c.pos[j], got[j]))
					if math.Abs(after-before) > 1e-5 {
						t.Fatalf("vertices %d and %d: %.5f m apart, %.5f m after", i, j, before, after)
					}
				}
			}
		})
	}
}

// TestTeethOpenAsSolids: under jawOpen every edge of the teeth keeps its
// length (no stretched stripes across the open mouth), some piece (the
// lower arch) drops by a centimetre or more and some (the upper arch)
// hardly moves.
func TestTeethOpenAsSolids(t *testing.T) {
	s, err := Generate(Default(Masculine))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range s.Meshes {
		if m.Name != "Wolf3D_Teeth" {
			continue
		}
		k := slices.Index(m.TargetNames(), "jawOpen")
		if k < 0 {
			t.Fatal("no jawOpen on the teeth")
		}
		// One primitive, as the leader's: the teeth are the vertices
		// of an ivory colour (shaded toward the back), the (soft) gums
		// and tongue are red.
		p := m.Primitives[0]
		d := p.Targets[k].Positions
		teeth := func(v uint32) bool { c := p.Colors[0][v]; return c[1] > 0.6*c[0] }
		var tris [][3]uint32
		for i := 0; i+2 < len(p.Indices); i += 3 {
			if teeth(p.Indices[i]) {
				tris = append(tris, [3]uint32{p.Indices[i], p.Indices[i+1], p.Indices[i+2]})
			}
		}
		worst := 0.0
		for _, tr := range tris {
			for e := 0; e < 3; e++ {
				a, b := tr[e], tr[(e+1)%3]
				before := dist3(p.Positions[a], p.Positions[b])
				after := dist3(add3f(p.Positions[a], d[a]), add3f(p.Positions[b], d[b]))
				worst = math.Max(worst, math.Abs(after-before))
			}
		}
		if worst > 2e-4 {
			t.Errorf("an edge of the teeth changes length by %.2f mm under jawOpen", 1000*worst)
		}
		piece, n := pieces(p.Positions, tris)
		moved := make([]float64, n)
		for i, o := range d {
			moved[piece[i]] = math.Max(moved[piece[i]], math.Sqrt(float64(o[0]*o[0]+o[1]*o[1]+o[2]*o[2])))
		}
		if lo, hi := slices.Min(moved), slices.Max(moved); hi < 0.01 || lo > 0.002 {
			t.Errorf("the teeth's %d pieces move %.1f to %.1f mm under jawOpen, want one still and one dropping a centimetre or more", n, 1000*lo, 1000*hi)
		}
		t.Logf("%d pieces; worst edge change %.3f mm; largest move %.1f mm", n, 1000*worst, 1000*slices.Max(moved))
		return
	}
	t.Fatal("no Wolf3D_Teeth")
}

func dist3(a, b [3]float32) float64 {
	d := sub3(a, b)
	return math.Sqrt(d[0]*d[0] + d[1]*d[1] + d[2]*d[2])
}

func add3f(a, b [3]float32) [3]float32 { return [3]float32{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }
