package avatar

import (
	"image"
	"math"
	"slices"
	"sort"
	"testing"
)

// stripedTop is a top's cloth as a viewer has it, for measuring its
// print: the bind-pose mesh, the piece (UV island, corners that repeat a
// position and UV joined) of each triangle, whether each piece reaches
// below the chest, the base colour texture, and the wearer's chest
// height (where printOf starts the stripes) and left shoulder joint.
type stripedTop struct {
	pos    []vec3
	uv     [][2]float32
	tris   [][3]uint32
	piece  []int
	low    map[int]bool
	img    image.Image
	chest  float64
	armX   float64
	lo, hi float64 // the darker and lighter of ink and cloth, luma
}

func newStripedTop(t *testing.T, cfg Config) stripedTop {
	t.Helper()
	s, err := Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	body, err := standingBody(cfg)
	if err != nil {
		t.Fatal(err)
	}
	j := body.Joints()
	c := stripedTop{chest: float64(j["Spine2"][1]) + 0.03, armX: float64(j["LeftArm"][0]), low: map[int]bool{}}
	c.pos, c.tris = meshPositions(s, "Wolf3D_Outfit_Top")
	c.uv = meshNamed(s, "Wolf3D_Outfit_Top").Primitives[0].TexCoords[0]
	c.img = baseColorImage(t, s, "Wolf3D_Outfit_Top")
	// Pieces: corners joined by triangles and by a shared position and UV.
	root := make([]int, len(c.pos))
	for i := range root {
		root[i] = i
	}
	find := func(v int) int {
		for root[v] != v {
			root[v] = root[root[v]]
			v = root[v]
		}
		return v
	}
	type point struct {
		p  vec3
		uv [2]float32
	}
	first := map[point]int{}
	for v := range c.pos {
		k := point{c.pos[v], c.uv[v]}
		if w, ok := first[k]; ok {
			root[find(v)] = find(w)
		} else {
			first[k] = v
		}
	}
	for _, tr := range c.tris {
		root[find(int(tr[1]))] = find(int(tr[0]))
		root[find(int(tr[2]))] = find(int(tr[0]))
	}
	c.piece = make([]int, len(c.tris))
	for i, tr := range c.tris {
		c.piece[i] = find(int(tr[0]))
		for _, v := range tr {
			if c.pos[v][1] < c.chest {
				c.low[c.piece[i]] = true
			}
		}
	}
	// Ink and cloth: the 5th and 95th percentiles of the texels' luma
	// over the front of the chest.
	var l []float64
	for x := -0.1; x <= 0.1; x += 0.005 {
		for y := c.chest - 0.1; y < c.chest; y += 0.001 {
			if v, ok := c.front(x, y); ok {
				l = append(l, v)
			}
		}
	}
	if len(l) == 0 {
		t.Fatal("no top in front of the chest")
	}
	slices.Sort(l)
	c.lo, c.hi = l[len(l)/20], l[len(l)*19/20]
	if c.hi-c.lo < 0.2 {
		t.Fatalf("ink and cloth differ by %.2f in luma: no stripes to measure", c.hi-c.lo)
	}
	return c
}

// luma is the base colour's luma at uv, sampled bilinearly as a viewer
// does.
func (c stripedTop) luma(uv [2]float64) float64 {
	b := c.img.Bounds()
	w, h := b.Dx(), b.Dy()
	fx, fy := uv[0]*float64(w)-0.5, uv[1]*float64(h)-0.5
	x0, y0 := int(math.Floor(fx)), int(math.Floor(fy))
	tx, ty := fx-float64(x0), fy-float64(y0)
	at := func(x, y int) float64 {
		x, y = min(max(x, 0), w-1), min(max(y, 0), h-1)
		r, g, bl, _ := c.img.At(b.Min.X+x, b.Min.Y+y).RGBA()
		return (0.2126*float64(r) + 0.7152*float64(g) + 0.0722*float64(bl)) / 65535
	}
	return (at(x0, y0)*(1-tx)+at(x0+1, y0)*tx)*(1-ty) + (at(x0, y0+1)*(1-tx)+at(x0+1, y0+1)*tx)*ty
}

// front is the luma of the top's frontmost point at x, y (a ray from
// the front), and whether there is one.
func (c stripedTop) front(x, y float64) (float64, bool) {
	best, z := [2]float64{}, math.Inf(-1)
	for _, tr := range c.tris {
		a, b, d := c.pos[tr[0]], c.pos[tr[1]], c.pos[tr[2]]
		area := (b[0]-a[0])*(d[1]-a[1]) - (d[0]-a[0])*(b[1]-a[1])
		if math.Abs(area) < 1e-12 {
			continue
		}
		w1 := ((x-a[0])*(d[1]-a[1]) - (d[0]-a[0])*(y-a[1])) / area
		w2 := ((b[0]-a[0])*(y-a[1]) - (x-a[0])*(b[1]-a[1])) / area
		w0 := 1 - w1 - w2
		if w0 < 0 || w1 < 0 || w2 < 0 {
			continue
		}
		if pz := w0*a[2] + w1*b[2] + w2*d[2]; pz > z {
			z = pz
			for k := range 2 {
				best[k] = w0*float64(c.uv[tr[0]][k]) + w1*float64(c.uv[tr[1]][k]) + w2*float64(c.uv[tr[2]][k])
			}
		}
	}
	if math.IsInf(z, -1) {
		return 0, false
	}
	return c.luma(best), true
}

// hardSteps is the share of the stripes' edges that step from ink to
// cloth in one texel, a stair step as a viewer magnifies the texture:
// of the pairs of neighbouring texels (across or down) inside the
// pieces that reach below the chest (a texel's four neighbours inside
// too) whose lumas lie either side of halfway between ink and cloth,
// the share where one is within a tenth of the contrast of the ink and
// the other of the cloth, no texel between them.
func (c stripedTop) hardSteps() float64 {
	b := c.img.Bounds()
	w, h := b.Dx(), b.Dy()
	in := make([]bool, w*h)
	for i, tr := range c.tris {
		if !c.low[c.piece[i]] {
			continue
		}
		var px, py [3]float64
		for k, v := range tr {
			px[k], py[k] = float64(c.uv[v][0])*float64(w)-0.5, float64(c.uv[v][1])*float64(h)-0.5
		}
		area := (px[1]-px[0])*(py[2]-py[0]) - (px[2]-px[0])*(py[1]-py[0])
		if math.Abs(area) < 1e-12 {
			continue
		}
		for y := max(0, int(slices.Min(py[:]))); y <= min(h-1, int(slices.Max(py[:]))+1); y++ {
			for x := max(0, int(slices.Min(px[:]))); x <= min(w-1, int(slices.Max(px[:]))+1); x++ {
				fx, fy := float64(x), float64(y)
				w0 := ((px[1]-fx)*(py[2]-fy) - (px[2]-fx)*(py[1]-fy)) / area
				w1 := ((px[2]-fx)*(py[0]-fy) - (px[0]-fx)*(py[2]-fy)) / area
				if w0 >= 0 && w1 >= 0 && w0+w1 <= 1 {
					in[y*w+x] = true
				}
			}
		}
	}
	inside := func(x, y int) bool {
		return x > 0 && y > 0 && x+1 < w && y+1 < h && in[y*w+x] && in[y*w+x-1] && in[y*w+x+1] && in[(y-1)*w+x] && in[(y+1)*w+x]
	}
	luma := func(x, y int) float64 {
		r, g, bl, _ := c.img.At(b.Min.X+x, b.Min.Y+y).RGBA()
		return (0.2126*float64(r) + 0.7152*float64(g) + 0.0722*float64(bl)) / 65535
	}
	mid, tenth := (c.lo+c.hi)/2, (c.hi-c.lo)/10
	edges, hard := 0, 0
	for y := 1; y+1 < h; y++ {
		for x := 1; x+1 < w; x++ {
			if !inside(x, y) {
				continue
			}
			a := luma(x, y)
			for _, n := range [][2]int{{x + 1, y}, {x, y + 1}} {
				if !inside(n[0], n[1]) {
					continue
				}
				d := luma(n[0], n[1])
				if (a-mid)*(d-mid) >= 0 {
					continue
				}
				edges++
				if lo, hi := math.Min(a, d), math.Max(a, d); lo < c.lo+tenth && hi > c.hi-tenth {
					hard++
				}
			}
		}
	}
	if edges == 0 {
		return 1
	}
	return float64(hard) / float64(edges)
}

// sectionSample is a point on the top where the plane of a section cuts
// it: its place, its luma, and its piece.
type sectionSample struct {
	y, z, luma float64
	piece      int
}

// shoulderRuns are the stripes (ink or cloth between two edges) over
// the shoulder, each as long as it runs along the cloth, mm: on the
// section of the top by the plane x = 0.6 of the way out from the
// middle to the left shoulder joint, in the pieces that reach below the
// chest, above the chest, going round from the front over the shoulder
// to the back; a stripe cut off by the section's ends or a piece's seam
// does not count.
func (c stripedTop) shoulderRuns() []float64 {
	xs := 0.6 * c.armX
	var pts []sectionSample
	for i, tr := range c.tris {
		if !c.low[c.piece[i]] {
			continue
		}
		var ends [][2]int
		for k := range 3 {
			a, b := tr[k], tr[(k+1)%3]
			if (c.pos[a][0]-xs)*(c.pos[b][0]-xs) < 0 {
				ends = append(ends, [2]int{int(a), int(b)})
			}
		}
		if len(ends) != 2 {
			continue
		}
		var p [2]vec3
		var uv [2][2]float64
		for e, ab := range ends {
			a, b := c.pos[ab[0]], c.pos[ab[1]]
			f := (xs - a[0]) / (b[0] - a[0])
			for k := range 3 {
				p[e][k] = a[k] + f*(b[k]-a[k])
			}
			for k := range 2 {
				uv[e][k] = float64(c.uv[ab[0]][k]) + f*float64(c.uv[ab[1]][k]-c.uv[ab[0]][k])
			}
		}
		l := math.Hypot(p[1][1]-p[0][1], p[1][2]-p[0][2])
		for s := 0.0; s <= l; s += 0.0005 {
			f := s / l
			y, z := p[0][1]+f*(p[1][1]-p[0][1]), p[0][2]+f*(p[1][2]-p[0][2])
			if y < c.chest {
				continue
			}
			luma := c.luma([2]float64{uv[0][0] + f*(uv[1][0]-uv[0][0]), uv[0][1] + f*(uv[1][1]-uv[0][1])})
			pts = append(pts, sectionSample{y, z, luma, c.piece[i]})
		}
	}
	if len(pts) == 0 {
		return nil
	}
	// Round the section from the front (z up) over the top to the back,
	// by the angle about a point under the shoulder's middle.
	var cz float64
	for _, q := range pts {
		cz += q.z / float64(len(pts))
	}
	cy := c.chest - 0.1
	sort.Slice(pts, func(i, j int) bool {
		return math.Atan2(pts[i].y-cy, pts[i].z-cz) < math.Atan2(pts[j].y-cy, pts[j].z-cz)
	})
	mid := (c.lo + c.hi) / 2
	var runs []float64
	start, along := -1.0, 0.0 // where the current stripe began, mm round
	for i := 1; i < len(pts); i++ {
		a, b := pts[i-1], pts[i]
		if a.piece != b.piece {
			start = -1 // a seam: the stripe on either side is cut off
			along += 1000 * math.Hypot(b.y-a.y, b.z-a.z)
			continue
		}
		along += 1000 * math.Hypot(b.y-a.y, b.z-a.z)
		if (a.luma-mid)*(b.luma-mid) < 0 {
			if start >= 0 {
				runs = append(runs, along-start)
			}
			start = along
		}
	}
	return runs
}

// TestStripesAlongCloth: a Breton top's stripes are knitted courses, so
// they keep their width along the cloth over the shoulders, and their
// edges are as clean as the texture holds. Issue 22's p21 judges:
// random-15's tee had "jagged stripe edges", the stripes "smeared over
// the shoulders". Level planes cut the sloping shoulder in bands up to
// 2.6 times the chest's 17.5 mm (measured along the cloth round a
// section over the shoulder), and edges a tenth of a texel soft stepped
// from ink to cloth in one texel (hardSteps: 39-40% of the edges on a
// blouse and a shirt). Every whole stripe over the shoulder must run 12
// to 23 mm along the cloth, and at most a fifth of the edges' texels
// step at once.
func TestStripesAlongCloth(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 5 avatars")
	}
	striped := func(cfg Config, style, color string) Config {
		cfg.Outfit.Top = Garment{Style: style, Color: color, Print: Print{ID: "stripes"}}
		return cfg
	}
	for _, c := range []namedConfig{
		{"random-15", Random(15)},
		{"male-navy-tee", striped(Default(Masculine), "tshirt", "navy")},
		{"female-white-tee", striped(Default(Feminine), "tshirt", "white")},
		{"female-red-blouse", striped(Default(Feminine), "blouse", "red")},
		{"male-grey-shirt", striped(Default(Masculine), "shirt", "grey")},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.cfg.Outfit.Top.Print.ID != "stripes" {
				t.Fatalf("%s's top has no stripes", c.name)
			}
			top := newStripedTop(t, c.cfg)
			hard := top.hardSteps()
			runs := top.shoulderRuns()
			t.Logf("%s: %.0f%% of the edges' texels step from ink to cloth at once; stripes over the shoulder %.1f mm along the cloth", c.name, 100*hard, runs)
			if hard > 0.2 {
				t.Errorf("%.0f%% of the edges' texels step from ink to cloth at once, want 20%% at most", 100*hard)
			}
			if len(runs) < 2 {
				t.Fatalf("%d whole stripes over the shoulder, want 2 or more", len(runs))
			}
			if lo, hi := slices.Min(runs), slices.Max(runs); lo < 12 || hi > 23 {
				t.Errorf("stripes over the shoulder run %.1f to %.1f mm along the cloth, want 12 to 23", lo, hi)
			}
		})
	}
}
