package avatar

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/kilnhq/kiln/assets/avatar/human"
	"github.com/kilnhq/kiln/assets/lod"
	"github.com/kilnhq/kiln/assets/scene"
)

// teethPieces are the connected pieces (vertices welded by position) of
// the teeth primitive: each one's triangle count and box.
type toothPiece struct {
	tris   int
	lo, hi [3]float32
}

func teethPieces(t *testing.T, s *scene.Scene) []toothPiece {
	t.Helper()
	for _, m := range s.Meshes {
		if m.Name != "Wolf3D_Teeth" {
			continue
		}
		if len(m.Primitives) != 1 {
			t.Fatalf("Wolf3D_Teeth has %d primitives, want 1", len(m.Primitives))
		}
		p := m.Primitives[0]
		var tris [][3]uint32
		for i := 0; i+2 < len(p.Indices); i += 3 {
			tris = append(tris, [3]uint32{p.Indices[i], p.Indices[i+1], p.Indices[i+2]})
		}
		piece, n := pieces(p.Positions, tris)
		out := make([]toothPiece, n)
		for i := range out {
			out[i].lo, out[i].hi = [3]float32{9, 9, 9}, [3]float32{-9, -9, -9}
		}
		for _, tr := range tris {
			out[piece[tr[0]]].tris++
		}
		for i, v := range p.Positions {
			o := &out[piece[i]]
			for k := range 3 {
				o.lo[k], o.hi[k] = min(o.lo[k], v[k]), max(o.hi[k], v[k])
			}
		}
		slices.SortFunc(out, func(a, b toothPiece) int {
			for k := range 3 {
				if c := a.lo[k] + a.hi[k] - b.lo[k] - b.hi[k]; c != 0 {
					return int(math.Copysign(1, float64(c)))
				}
			}
			return 0
		})
		return out
	}
	t.Fatal("no Wolf3D_Teeth")
	return nil
}

// Every tooth stays a tooth at every lod: MakeHuman's 32 teeth, the gums
// and the tongue are 34 pieces at lod 0, and at lods 1 and 2 the same
// pieces are there, none below 8 triangles, each tooth keeping at least
// three fifths of its width, height and depth (a shard does not; at lod 2 most keep 70 to 80 %, the thin lower incisors 63 % of their depth).
func TestTeethAtEveryLod(t *testing.T) {
	s, err := Generate(Default(Feminine))
	if err != nil {
		t.Fatal(err)
	}
	var levels [][]toothPiece
	err = lod.Chain(context.Background(), s, lod.Max, func(l lod.Level, s *scene.Scene) error {
		levels = append(levels, teethPieces(t, s))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	base := levels[0]
	if len(base) != 34 {
		t.Fatalf("lod 0: %d pieces in Wolf3D_Teeth, want 34 (32 teeth, gums, tongue)", len(base))
	}
	total := 0
	for _, p := range base {
		total += p.tris
	}
	if total > 3000 {
		t.Errorf("lod 0: teeth and tongue have %d triangles, want at most 3000", total)
	}
	for l, got := range levels[1:] {
		if len(got) != len(base) {
			t.Errorf("lod %d: %d pieces, want %d", l+1, len(got), len(base))
			continue
		}
		for i, p := range got {
			if p.tris < 8 {
				t.Errorf("lod %d: piece %d has %d triangles", l+1, i, p.tris)
			}
			for k := range 3 {
				was, is := base[i].hi[k]-base[i].lo[k], p.hi[k]-p.lo[k]
				if is < 0.6*was {
					t.Errorf("lod %d: piece %d is %.1f mm along axis %d, was %.1f mm", l+1, i, is*1000, k, was*1000)
				}
			}
		}
	}
}

// The lips close over the teeth at rest and part with the jaw: seen from
// in front (a camera 60 cm away, level with the mouth and from 10 cm
// above and below), no vertex of the teeth is in sight at rest (MakeHuman's
// lips left a slit that showed 24 to 56 of them as a white line), and
// with jawOpen the front teeth are (at least 10 vertices: the lower row
// under the upper lip).
func TestLipsCoverTeethAtRest(t *testing.T) {
	for _, name := range []string{"default-male", "default-female", "random-1", "random-2"} {
		cfg := cases()[name]
		t.Run(name, func(t *testing.T) {
			s, err := Generate(cfg)
			if err != nil {
				t.Fatal(err)
			}
			rest := visibleTeeth(t, s, "")
			open := visibleTeeth(t, s, "jawOpen")
			t.Logf("teeth vertices in sight: %d at rest, %d with jawOpen", rest, open)
			if rest > 0 {
				t.Errorf("at rest %d teeth vertices show between the lips, want 0", rest)
			}
			if open < 10 {
				t.Errorf("with jawOpen %d teeth vertices show, want at least 10", open)
			}
		})
	}
}

// visibleTeeth counts the teeth's (not the gums' or the tongue's)
// vertices that a camera in front of the face sees past the head, under
// a face shape ("" for the rest face).
func visibleTeeth(t *testing.T, s *scene.Scene, shape string) int {
	t.Helper()
	posed := func(name string) (*scene.Primitive, [][3]float32) {
		for _, m := range s.Meshes {
			if m.Name != name {
				continue
			}
			p := m.Primitives[0]
			pos := slices.Clone(p.Positions)
			if shape != "" {
				names, _ := m.Extras.(map[string]any)["targetNames"].([]any)
				for i, n := range names {
					if n == shape {
						for v, d := range p.Targets[i].Positions {
							pos[v] = [3]float32{pos[v][0] + d[0], pos[v][1] + d[1], pos[v][2] + d[2]}
						}
					}
				}
			}
			return p, pos
		}
		t.Fatalf("no %s", name)
		return nil, nil
	}
	tp, teeth := posed("Wolf3D_Teeth")
	hp, head := posed("Wolf3D_Head")
	lo, hi := bounds(teeth)
	var tris [][3][3]float64
	for i := 0; i+2 < len(hp.Indices); i += 3 {
		a, b, c := head[hp.Indices[i]], head[hp.Indices[i+1]], head[hp.Indices[i+2]]
		if max(a[1], b[1], c[1]) < lo[1]-0.03 || min(a[1], b[1], c[1]) > hi[1]+0.03 || max(a[2], b[2], c[2]) < lo[2] {
			continue
		}
		tris = append(tris, [3][3]float64{f64(a), f64(b), f64(c)})
	}
	centre := [3]float64{0, float64(lo[1]+hi[1]) / 2, float64(hi[2]) + 0.6}
	seen := 0
	for v, p := range teeth {
		c := tp.Colors[0][v]
		if c[1] < 0.6*c[0] { // the gums and the tongue are red
			continue
		}
		if p[2] < (lo[2]+hi[2])/2 {
			continue
		}
		o := f64(p)
		for _, dy := range []float64{0, 0.1, -0.1} {
			to := [3]float64{centre[0] - o[0], centre[1] + dy - o[1], centre[2] - o[2]}
			l := math.Sqrt(to[0]*to[0] + to[1]*to[1] + to[2]*to[2])
			d := [3]float64{to[0] / l, to[1] / l, to[2] / l}
			if !anyRayHits(o, d, tris, l) {
				seen++
				break
			}
		}
	}
	return seen
}

// The inside of the mouth is painted dark: the mask finds a bag of at
// least a hundred vertices of the head, all of them behind the front of
// the lips, and none of the face's front (the lips' outer side, the
// chin) is in it.
func TestMouthMask(t *testing.T) {
	m := mouthMask()
	body, err := standingBody(Default(Masculine).resolve())
	if err != nil {
		t.Fatal(err)
	}
	_, hi := teethBox(t, body)
	deep := 0
	for v, w := range m {
		if w == 0 {
			continue
		}
		if w > 0.9 {
			deep++
		}
		if p := body.Pos[v]; p[2] > hi[2]+0.003 {
			t.Errorf("vertex %d at %v is in the mouth (%.2f) but before the teeth (z %.3f)", v, p, w, hi[2])
		}
	}
	if deep < 100 {
		t.Errorf("%d vertices deep in the mouth, want at least 100", deep)
	}
}

// teethBox is the box of the default teeth fitted to body.
func teethBox(t *testing.T, body *human.Body) (lo, hi [3]float32) {
	t.Helper()
	teeth, err := body.Fit("teeth/default")
	if err != nil {
		t.Fatal(err)
	}
	return bounds(teeth.Pos)
}

// anyRayHits is the search through every triangle that the mouth's
// grids stand in for: whether the ray o + s·d (0 < s < reach) crosses
// one of tris.
func anyRayHits(o, d [3]float64, tris [][3][3]float64, reach float64) bool {
	for _, tr := range tris {
		if rayHits(o, d, tr, reach) {
			return true
		}
	}
	return false
}
