package animation

import (
	"fmt"
	"math"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
)

// The cloth test skins an avatar on the CPU under every built-in clip and
// measures what a viewer sees go wrong with clothes: edges of a garment
// pulled much longer than they are at rest (tops tearing into wings when
// an arm goes up) and body vertices that come out through a garment.

// stretchLimit is the edge stretch that counts as torn: past 1.5 times
// its rest length an edge shows as a visible spike or wing.
const stretchLimit = 1.5

// pokeTolerance is how far outside a garment's surface a body vertex may
// be before it counts as showing through (under a millimetre the depth
// buffer hides it).
const pokeTolerance = 0.001

// clothFrames is how many instants of each clip are sampled, evenly from
// the first key to the last.
const clothFrames = 16

// garments are the meshes the test measures, by the leader's names.
var garments = []string{"Wolf3D_Outfit_Top", "Wolf3D_Outfit_Bottom", "Wolf3D_Outfit_Footwear"}

// clothFigure is one garment under one clip.
type clothFigure struct {
	Edges     int     // edges of the garment
	Stretched float64 // share of the edges stretched past stretchLimit in at least one sampled frame
	Covered   int     // body vertices under the garment at rest
	Poked     int     // of those, how many come out through it in at least one sampled frame
}

// skinned is a mesh posed by linear blend skinning (the file's inverse
// bind matrices, the nodes' world matrices at the instant), every
// primitive's vertices in order.
func skinned(s *scene.Scene, w []mat, node int) [][]vec {
	n := s.Nodes[node]
	sk := s.Skins[*n.Skin]
	joint := make([]mat, len(sk.Joints))
	for j, nd := range sk.Joints {
		ibm := mat{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}
		if sk.InverseBindMatrices != nil {
			for k := range ibm {
				ibm[k] = float64(sk.InverseBindMatrices[j][k])
			}
		}
		joint[j] = w[nd].mul(ibm)
	}
	var out [][]vec
	for _, p := range s.Meshes[*n.Mesh].Primitives {
		ps := make([]vec, len(p.Positions))
		for v, pos := range p.Positions {
			if len(p.Joints) == 0 {
				ps[v] = w[node].point(pos)
				continue
			}
			for k := 0; k < 4; k++ {
				if wt := float64(p.Weights[0][v][k]); wt != 0 {
					ps[v] = ps[v].add(joint[p.Joints[0][v][k]].point(pos).scale(wt))
				}
			}
		}
		out = append(out, ps)
	}
	return out
}

// meshNode is the skinned node of the named mesh, or -1.
func meshNode(s *scene.Scene, name string) int {
	for i, n := range s.Nodes {
		if n.Mesh != nil && n.Skin != nil && s.Meshes[*n.Mesh].Name == name {
			return i
		}
	}
	return -1
}

// cloth is a garment flattened to one vertex list (primitives
// concatenated), its triangles, unique edges, and which edges bound it.
type cloth struct {
	node     int
	tris     [][3]int
	edges    [][2]int
	boundary map[[2]int]bool
	rim      map[int]bool // vertices on the boundary
	flip     []bool       // triangles wound against their vertex normals
}

func flatten(ps [][]vec) []vec {
	var out []vec
	for _, p := range ps {
		out = append(out, p...)
	}
	return out
}

func newCloth(s *scene.Scene, node int) *cloth {
	c := &cloth{node: node, boundary: map[[2]int]bool{}, rim: map[int]bool{}}
	count := map[[2]int]int{}
	base := 0
	for _, p := range s.Meshes[*s.Nodes[node].Mesh].Primitives {
		for _, t := range triangleList(p) {
			tri := [3]int{base + t[0], base + t[1], base + t[2]}
			c.tris = append(c.tris, tri)
			// Winding against the authored normals: the test's "outside"
			// is where the normals point, as a renderer lights it.
			a, b, cc := v32(p.Positions[t[0]]), v32(p.Positions[t[1]]), v32(p.Positions[t[2]])
			fn := b.sub(a).cross(cc.sub(a))
			var vn vec
			if len(p.Normals) > 0 {
				for _, k := range t {
					vn = vn.add(v32(p.Normals[k]))
				}
			}
			c.flip = append(c.flip, fn.dot(vn) < 0)
			for k := 0; k < 3; k++ {
				e := edgeKey(tri[k], tri[(k+1)%3])
				count[e]++
			}
		}
		base += len(p.Positions)
	}
	for e, n := range count {
		c.edges = append(c.edges, e)
		if n == 1 {
			c.boundary[e] = true
			c.rim[e[0]], c.rim[e[1]] = true, true
		}
	}
	sort.Slice(c.edges, func(i, j int) bool {
		return c.edges[i][0] < c.edges[j][0] || c.edges[i][0] == c.edges[j][0] && c.edges[i][1] < c.edges[j][1]
	})
	return c
}

func v32(a [3]float32) vec { return vec{float64(a[0]), float64(a[1]), float64(a[2])} }

func edgeKey(a, b int) [2]int {
	if a > b {
		a, b = b, a
	}
	return [2]int{a, b}
}

func triangleList(p *scene.Primitive) [][3]int {
	var out [][3]int
	if p.Indices == nil {
		for i := 0; i+2 < len(p.Positions); i += 3 {
			out = append(out, [3]int{i, i + 1, i + 2})
		}
		return out
	}
	for i := 0; i+2 < len(p.Indices); i += 3 {
		out = append(out, [3]int{int(p.Indices[i]), int(p.Indices[i+1]), int(p.Indices[i+2])})
	}
	return out
}

// closest is the point of triangle abc nearest to p, with its barycentric
// weights (Ericson, Real-Time Collision Detection, 5.1.5).
func closest(p, a, b, c vec) (vec, [3]float64) {
	ab, ac, ap := b.sub(a), c.sub(a), p.sub(a)
	d1, d2 := ab.dot(ap), ac.dot(ap)
	if d1 <= 0 && d2 <= 0 {
		return a, [3]float64{1, 0, 0}
	}
	bp := p.sub(b)
	d3, d4 := ab.dot(bp), ac.dot(bp)
	if d3 >= 0 && d4 <= d3 {
		return b, [3]float64{0, 1, 0}
	}
	vc := d1*d4 - d3*d2
	if vc <= 0 && d1 >= 0 && d3 <= 0 {
		v := d1 / (d1 - d3)
		return a.add(ab.scale(v)), [3]float64{1 - v, v, 0}
	}
	cp := p.sub(c)
	d5, d6 := ab.dot(cp), ac.dot(cp)
	if d6 >= 0 && d5 <= d6 {
		return c, [3]float64{0, 0, 1}
	}
	vb := d5*d2 - d1*d6
	if vb <= 0 && d2 >= 0 && d6 <= 0 {
		w := d2 / (d2 - d6)
		return a.add(ac.scale(w)), [3]float64{1 - w, 0, w}
	}
	va := d3*d6 - d5*d4
	if va <= 0 && d4-d3 >= 0 && d5-d6 >= 0 {
		w := (d4 - d3) / ((d4 - d3) + (d5 - d6))
		return b.add(c.sub(b).scale(w)), [3]float64{0, 1 - w, w}
	}
	den := 1 / (va + vb + vc)
	v, w := vb*den, vc*den
	return a.add(ab.scale(v)).add(ac.scale(w)), [3]float64{1 - v - w, v, w}
}

// clothContact is where a point lies against the garment near it.
type clothContact struct {
	tri    int     // the nearest candidate triangle
	signed float64 // along its outward normal
	dist   float64 // to it
	border bool    // the nearest point is on the garment's open border (a hem or a cuff, past which the body is simply uncovered)
}

// tieDist is how much nearer (metres) one candidate triangle must be
// than another for side to take the first alone: within it they share the
// nearest point, an edge or corner between them.
const tieDist = 1e-6

// side is where p lies against the candidate triangles of the garment.
// Where the nearest point is an edge or a corner that several candidates
// share, p is on the side their normals together say (the pseudonormal,
// Bærentzen and Aanæs 2005), not the side of whichever came first: the
// first can be a sliver a millimetre or two wide whose own normal swings
// as the cloth moves (the masculine blouse's V, skin 10 mm under the edge
// the whole clip counted out 4 mm by its sliver under gesture_shrug), or
// one face of a crest that the point is beyond (the collar's back, skin
// 12 mm inside one face and 4.5 mm outside the other, counted by whichever
// was first by a tenth of a micrometre).
func (c *cloth) side(p vec, pos []vec, cands []int) clothContact {
	best, bd := -1, math.Inf(1)
	var bq vec
	var bw [3]float64
	dist := make([]float64, len(cands))
	for i, t := range cands {
		tri := c.tris[t]
		q, w := closest(p, pos[tri[0]], pos[tri[1]], pos[tri[2]])
		dist[i] = p.sub(q).length()
		if dist[i] < bd {
			best, bd, bq, bw = t, dist[i], q, w
		}
	}
	var n vec
	for i, t := range cands {
		if dist[i] <= bd+tieDist {
			n = n.add(c.normal(t, pos))
		}
	}
	if n.length() < 1e-9 {
		n = c.normal(best, pos)
	}
	tri := c.tris[best]
	onBorder := false
	for k := 0; k < 3; k++ {
		if bw[k] == 0 && c.boundary[edgeKey(tri[(k+1)%3], tri[(k+2)%3])] {
			onBorder = true
		}
		if bw[k] == 1 && c.rim[tri[k]] {
			onBorder = true
		}
	}
	return clothContact{tri: best, signed: p.sub(bq).dot(n.unit()), dist: bd, border: onBorder}
}

// overlaid tells whether cloth of the candidates still lies straight
// over p: p at least pokeTolerance and at most coverRadius under a
// triangle it projects inside of. Where the cloth folds (the back of a
// tank's armhole as the arm swings back, the front of the shorts at
// the hip as the thigh lifts), a triangle tucked under the fold comes
// nearer to the skin than the cloth over it, and skin outside the
// tucked triangle but 7 to 15 mm under the cloth it was under at rest
// counted as out through the garment. On a smooth sheet skin outside
// its nearest triangle is under no other it projects inside of.
func (c *cloth) overlaid(p vec, pos []vec, cands []int) bool {
	for _, t := range cands {
		tri := c.tris[t]
		q, w := closest(p, pos[tri[0]], pos[tri[1]], pos[tri[2]])
		if w[0] <= 0 || w[1] <= 0 || w[2] <= 0 {
			continue
		}
		if d := -p.sub(q).dot(c.normal(t, pos)); d >= pokeTolerance && d <= coverRadius {
			return true
		}
	}
	return false
}

// normal is triangle t's outward normal.
func (c *cloth) normal(t int, pos []vec) vec {
	tri := c.tris[t]
	a, b, cc := pos[tri[0]], pos[tri[1]], pos[tri[2]]
	n := b.sub(a).cross(cc.sub(a)).unit()
	if c.flip[t] {
		n = n.scale(-1)
	}
	return n
}

// coverRadius is how far a body vertex may be from a garment at rest and
// still count as under it; coverSearch bounds the triangles kept as
// candidates for the frames (a garment slides over the body by less).
const (
	coverRadius = 0.03
	coverSearch = 0.06
)

// measureCloth attaches every built-in clip of the gender to s and
// measures each garment present under each clip: the figures by clip
// name, then garment name.
func measureCloth(t *testing.T, s *scene.Scene, gender string) map[string]map[string]clothFigure {
	t.Helper()
	if err := Attach(s, gender, Names()); err != nil {
		t.Fatal(err)
	}
	pl := newPlayer(t, s)
	rest := pl.matrices(nil, 0)
	body := meshNode(s, "Wolf3D_Body")
	var bodyRest []vec
	if body >= 0 {
		bodyRest = flatten(skinned(s, rest, body))
	}
	type worn struct {
		name    string
		c       *cloth
		rest    []vec
		restLen []float64
		covered []int   // body vertices under the garment
		cands   [][]int // their candidate triangles
	}
	var ws []*worn
	for _, g := range garments {
		node := meshNode(s, g)
		if node < 0 {
			continue
		}
		w := &worn{name: g, c: newCloth(s, node)}
		w.rest = flatten(skinned(s, rest, node))
		for _, e := range w.c.edges {
			w.restLen = append(w.restLen, w.rest[e[1]].sub(w.rest[e[0]]).length())
		}
		grid := newTriGrid(w.c.tris, w.rest, coverSearch)
		for v, p := range bodyRest {
			cands := grid.near(p, coverSearch, w.c.tris, w.rest)
			if len(cands) == 0 {
				continue
			}
			// Under the garment: inside it and near it. The normal's
			// component alone would count skin a hand's width beside a
			// sleeve, level with its surface, as under it.
			at := w.c.side(p, w.rest, cands)
			if at.signed < 0 && at.dist < coverRadius && !at.border {
				w.covered = append(w.covered, v)
				w.cands = append(w.cands, w.c.layer(at.tri, w.rest, cands))
			}
		}
		ws = append(ws, w)
	}
	out := map[string]map[string]clothFigure{}
	for _, a := range s.Animations {
		if !Valid(gender, a.Name) {
			continue
		}
		out[a.Name] = map[string]clothFigure{}
		for _, w := range ws {
			torn := make([]bool, len(w.c.edges))
			poked := make([]bool, len(w.covered))
			for f := 0; f < clothFrames; f++ {
				mats := pl.matrices(a, duration(a)*float64(f)/(clothFrames-1))
				pos := flatten(skinned(s, mats, w.c.node))
				for i, e := range w.c.edges {
					if w.restLen[i] > 1e-6 && pos[e[1]].sub(pos[e[0]]).length() > stretchLimit*w.restLen[i] {
						torn[i] = true
					}
				}
				if len(w.covered) == 0 {
					continue
				}
				bp := flatten(skinned(s, mats, body))
				for i, v := range w.covered {
					if at := w.c.side(bp[v], pos, w.cands[i]); at.signed > pokeTolerance && !at.border && !w.c.overlaid(bp[v], pos, w.cands[i]) {
						poked[i] = true
					}
				}
			}
			fig := clothFigure{Edges: len(torn), Covered: len(poked)}
			fig.Stretched = float64(count(torn)) / float64(max(1, len(torn)))
			fig.Poked = count(poked)
			out[a.Name][w.name] = fig
		}
	}
	return out
}

// layer keeps the candidates that face the way the covering triangle
// does at rest: the cloth a body vertex is under, not the inside of a
// shoe's collar or the far side of a sleeve, which face the body and
// which a vertex inside the garment is always outside of.
func (c *cloth) layer(cover int, rest []vec, cands []int) []int {
	n := c.normal(cover, rest)
	var out []int
	for _, t := range cands {
		if c.normal(t, rest).dot(n) > 0 {
			out = append(out, t)
		}
	}
	return out
}

func count(b []bool) int {
	n := 0
	for _, x := range b {
		if x {
			n++
		}
	}
	return n
}

// triGrid buckets triangles by the cells their bounding boxes touch, so
// that the candidates near a point are found without a scan of every
// triangle.
type triGrid struct {
	cell  float64
	cells map[[3]int][]int
}

func newTriGrid(tris [][3]int, pos []vec, cell float64) *triGrid {
	g := &triGrid{cell: cell, cells: map[[3]int][]int{}}
	for t, tri := range tris {
		lo, hi := pos[tri[0]], pos[tri[0]]
		for _, k := range tri[1:] {
			for c := 0; c < 3; c++ {
				lo[c], hi[c] = math.Min(lo[c], pos[k][c]), math.Max(hi[c], pos[k][c])
			}
		}
		a, b := g.key(lo), g.key(hi)
		for x := a[0]; x <= b[0]; x++ {
			for y := a[1]; y <= b[1]; y++ {
				for z := a[2]; z <= b[2]; z++ {
					k := [3]int{x, y, z}
					g.cells[k] = append(g.cells[k], t)
				}
			}
		}
	}
	return g
}

func (g *triGrid) key(p vec) [3]int {
	return [3]int{int(math.Floor(p[0] / g.cell)), int(math.Floor(p[1] / g.cell)), int(math.Floor(p[2] / g.cell))}
}

// near lists the triangles within r of p.
func (g *triGrid) near(p vec, r float64, tris [][3]int, pos []vec) []int {
	k := g.key(p)
	seen := map[int]bool{}
	var out []int
	for x := k[0] - 1; x <= k[0]+1; x++ {
		for y := k[1] - 1; y <= k[1]+1; y++ {
			for z := k[2] - 1; z <= k[2]+1; z++ {
				for _, t := range g.cells[[3]int{x, y, z}] {
					if seen[t] {
						continue
					}
					seen[t] = true
					tri := tris[t]
					if q, _ := closest(p, pos[tri[0]], pos[tri[1]], pos[tri[2]]); p.sub(q).length() <= r {
						out = append(out, t)
					}
				}
			}
		}
	}
	return out
}

// clothTable formats figures as the lines the test logs: one per clip
// and garment.
func clothTable(figs map[string]map[string]clothFigure) string {
	var b strings.Builder
	for _, clip := range Names() {
		for _, g := range garments {
			f, ok := figs[clip][g]
			if !ok {
				continue
			}
			fmt.Fprintf(&b, "%-22s %-24s stretched %5.2f%% of %5d edges, poked %d of %d covered body vertices\n",
				clip, g, 100*f.Stretched, f.Edges, f.Poked, f.Covered)
		}
	}
	return b.String()
}

// leaderFiles are the market leader's avatars the bar is measured on.
var leaderFiles = []string{"rpm-avatar-casual.glb", "rpm-avatar-office.glb"}

// leaderCloth measures the leader's avatars (nil when ../shared is
// absent).
func leaderCloth(t *testing.T) []map[string]map[string]clothFigure {
	t.Helper()
	var out []map[string]map[string]clothFigure
	for _, file := range leaderFiles {
		b, err := os.ReadFile("/work/shared/testdata/" + file)
		if err != nil {
			return nil
		}
		s, err := scene.Read(b, scene.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, measureCloth(t, s, "masculine"))
	}
	return out
}

// TestClothLeader measures the leader's avatars: the figures are the bar
// Kiln's garments are held to, and the leader's own avatars keep their
// body under their clothes under Kiln's clips.
func TestClothLeader(t *testing.T) {
	figs := leaderCloth(t)
	if figs == nil {
		t.Skip("no Ready Player Me avatars in /work/shared/testdata")
	}
	for i, f := range figs {
		t.Logf("%s:\n%s", leaderFiles[i], clothTable(f))
	}
	// The floor under Kiln's clips, for comparison (logged): the leader's
	// shoes are skinned their own way.
	for _, file := range leaderFiles {
		b, err := os.ReadFile("/work/shared/testdata/" + file)
		if err != nil {
			t.Fatal(err)
		}
		s, err := scene.Read(b, scene.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s:\n%s", file, floorTable(measureFloor(t, s, "masculine")))
	}
}
