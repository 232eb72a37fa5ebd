package avatar

import (
	"math"
	"slices"

	"github.com/kilnhq/kiln/assets/avatar/paint"
)

// The short cut, sculpted. MakeHuman's short hair is a cap of cards that
// hangs a straight fringe over the forehead: drawn solid it read as a
// bowl cut, a helmet (issue 22's panel, default-male). The leader's
// masculine hair is a modern cut: sides and back short and close to the
// head, volume on top swept up and back off the forehead, a clean
// hairline that shows the forehead. sculptedHair builds that cut from
// the head itself, as the beard is built: the scalp's triangles, clipped
// along a smooth hairline, pushed out along their normals by a thickness
// that grows from the tapered sides to the top, with a rim from the
// outer edge down to the skin so the hairline shows the hair's
// thickness, not a paper edge. The locks are painted (paint.SweptHair)
// and raised a little in the geometry.

// sculpted is whether a hair style is built by sculptedHair instead of
// from MakeHuman's proxy: the short cut, and curly hair, whose proxy's
// cards (lying every way under an alpha cut-out) read as see-through,
// cross-hatched cards (issue 22's panel, random-18). Curly hair is the
// same shell, thicker all over and raised in curls (curlsUp).
// The buzz cut is the same shell again, a few millimetres thin: from
// MakeHuman's buzz cards, lifted and rimmed as the other cards are
// (thickenHair), it stood a centimetre off the head with a hard edge
// over the forehead and the judges read it as "a flat helmet" (issue
// 22's panel, p15, random-07).
func sculpted(style string) bool { return style == "short" || style == "curly" || style == "buzz" }

// Thickness of the sculpted cut (metres): hairSideEdge at the hairline
// over the ears and at the nape, hairSide a few centimetres in, hairTop
// on the crown and hairQuiff over the front of the top, where the hair
// is swept up; hairFrontEdge where the hair meets the forehead.
const (
	hairSideEdge  = 0.0035
	hairSide      = 0.008
	hairTop       = 0.02
	hairQuiff     = 0.03
	hairFrontEdge = 0.007
	// hairSkinGap is how far over the skin the rim's foot lies.
	hairSkinGap = 0.0006
)

// hairlineAt is the height of the hairline over the eyes (metres) at
// azimuth a round the head (0 in front, π at the back, radians): high
// on the forehead, a corner at the temples, sideburns in front of the
// ears, a line over the ears, down to the nape.
func hairlineAt(a float64) float64 {
	return hairlineFrom(a, [][2]float64{
		{0, 0.058}, {0.45, 0.062}, {0.75, 0.052}, {0.95, 0.036}, {1.08, 0.0},
		{1.22, -0.008}, {1.32, 0.024}, {1.85, 0.024}, {2.05, 0.0}, {2.45, -0.045}, {math.Pi, -0.055},
	})
}

// shortHairlineAt is hairlineAt for the short cut: an arch over the
// forehead that rounds down into the temples (TestShortCutFrontArch).
// hairlineAt's front rose from the middle toward the corners (5.8 to
// 6.2 cm) and then dropped: in a portrait the hair framed the forehead
// in a rectangle, "boxy hair with a hard hairline", "a cap with hard
// edges" (issue 22's panel, p16). Curly hair and the buzz cut keep
// hairlineAt.
func shortHairlineAt(a float64) float64 {
	return hairlineFrom(a, [][2]float64{
		{0, 0.060}, {0.45, 0.054}, {0.75, 0.040}, {0.95, 0.024}, {1.08, 0.0},
		{1.22, -0.008}, {1.32, 0.024}, {1.85, 0.024}, {2.05, 0.0}, {2.45, -0.045}, {math.Pi, -0.055},
	})
}

// hairlineFrom is the height of the hairline at azimuth a through the
// points pts (azimuth, height), eased between them.
func hairlineFrom(a float64, pts [][2]float64) float64 {
	a = math.Abs(a)
	for i := 1; i < len(pts); i++ {
		if a <= pts[i][0] {
			t := (a - pts[i-1][0]) / (pts[i][0] - pts[i-1][0])
			t = t * t * (3 - 2*t)
			return pts[i-1][1] + t*(pts[i][1]-pts[i-1][1])
		}
	}
	return pts[len(pts)-1][1]
}

// scalpFrame is where the sculpted cut is drawn from: the eyes' height,
// and a vertical axis through the middle of the skull.
type scalpFrame struct {
	eye, x, z float64
	curly     bool
	buzz      bool
	// sweep is the point the short cut's locks sweep back from
	// (paint.SweepCentre of the shell before its locks are raised).
	sweep [3]float64
	// curls is the point curly hair's curls are laid out round
	// (paint.CurlCentre of the hairline's points on the skin).
	curls [3]float64
	// earX is how far out from the middle an ear begins.
	earX float64
}

func newScalpFrame(joints map[string][3]float32, style string) scalpFrame {
	h := joints["Head"]
	return scalpFrame{
		curly: style == "curly",
		buzz:  style == "buzz",
		eye:   float64(joints["LeftEye"][1]+joints["RightEye"][1]) / 2,
		x:     float64(h[0]),
		z:     float64(h[2]),
		earX:  0.5 * math.Abs(float64(joints["LeftEye"][0]-joints["RightEye"][0])) * 2.45,
	}
}

// inside is how far p lies inside the hairline (metres, up the head;
// negative outside): the level the scalp is clipped along.
func (f scalpFrame) inside(p vec3) float64 {
	a := math.Atan2(p[0]-f.x, p[2]-f.z)
	line := hairlineAt
	if !f.curly && !f.buzz {
		line = shortHairlineAt
	}
	in := p[1] - f.eye - line(a)
	// Never on the ears: they stand out past the skull.
	if x := math.Abs(p[0] - f.x); x > f.earX && p[1] < f.eye+0.03 {
		in = math.Min(in, (f.earX-x)*2)
	}
	return in
}

// thickness is how far the hair stands off the skin at p, whose skin
// normal is n, in lies inside the hairline (inside).
func (f scalpFrame) thickness(p, n vec3, in float64) float64 {
	a := math.Abs(math.Atan2(p[0]-f.x, p[2]-f.z))
	front := smoothstep(1.0, 0.35, a)
	side := hairSideEdge + (hairSide-hairSideEdge)*smoothstep(0, 0.03, in)
	// The top: the more the skin faces up, and over the front the
	// farther from the forehead's hairline.
	top := hairTop + (hairQuiff-hairTop)*front*smoothstep(-0.04, 0.06, p[2]-f.z)
	up := math.Max(smoothstep(0.05, 0.65, n[1]), front*smoothstep(0, 0.03, in))
	t := side + (top-side)*up
	// At the forehead the hair starts thick (swept up off it).
	edge := hairFrontEdge * front * (1 - smoothstep(0, 0.03, in))
	if f.curly {
		// Curls: a close, even mass, a little fuller on top, rising
		// from the hairline within two centimetres; close on the
		// sideburns, which show under a hat's brim (thick there, they
		// stood out from under it as tufts).
		full := smoothstep(0, 0.02, in) * smoothstep(f.eye+0.005, f.eye+0.035, p[1])
		return hairCurlEdge + (hairCurl-hairCurlEdge)*full + 0.006*smoothstep(0.3, 0.9, n[1])
	}
	if f.buzz {
		// Cropped close: thinner than the short cut's sides, and
		// thinning to nothing over its last 2 cm, so the hairline is
		// a fade on the skin, not a shell's edge.
		return hairBuzzEdge + (hairBuzz-hairBuzzEdge)*smoothstep(0, 0.02, in)
	}
	return math.Max(t, edge+side*(1-front))
}

// The buzz cut's thickness (metres): hairBuzz inside the hairline,
// hairBuzzEdge at it (the rim's foot lies hairSkinGap over the skin, so
// the edge stands a tenth of a millimetre off it).
const (
	hairBuzz     = 0.003
	hairBuzzEdge = 0.0007
)

// Curly hair's thickness (metres): hairCurlEdge at the hairline,
// hairCurl inside it (the curls, up to hairCurlRise, come on top, along
// their direction from their centre: paint.CurlAt). The rise is more
// than the 1 cm of the curls' pyramids: curlsUp's smoothing takes some
// of each dome's height, and the curls must still stand out
// (TestCurlyHairLumpy, at least 1 mm: 1.33 -> 1.06); the shell under
// them is 2 mm thinner, so the hair stands only a little farther off
// the scalp (TestHairStandsOffScalp, median 23.4 -> 26.3 mm).
const (
	hairCurlEdge = 0.005
	hairCurl     = 0.014
	hairCurlRise = 0.023
)

// hairLockRise is how far a lock's crest stands over the grooves beside
// it and over the root of the lock behind its tip, on the top of the
// sculpted cut (metres). At 7.5 mm the locks were paint on a smooth
// dome: issue 22's panel (p15) read the short cut as "a slab", its
// front view's outline one smooth curve (TestShortCutOutlineBroken).
// At 16 mm the crossing locks' crests pitted the light in dark dots.
const hairLockRise = 0.012

// lockRise is how much a lock raises the hair at p (for curly hair, how
// high its curls may stand there: curlsUp raises them): the tousle's chunky
// locks (paint.Tousle), swept from the forehead back over the top and
// lying a little every way, each tier's tip over the next one's root, as
// the leader's cut has; none on the short sides. The painter shades the
// same locks.
func (f scalpFrame) lockRise(p, n vec3, in float64) float64 {
	if f.buzz {
		return 0
	}
	if f.curly {
		return hairCurlRise * smoothstep(0, 0.015, in) * smoothstep(f.eye+0.005, f.eye+0.035, p[1])
	}
	// Over the front the locks rise from 2 cm inside the hairline
	// (4 cm before), so the front of the quiff breaks up too.
	top := smoothstep(0.35, 0.8, n[1]) + smoothstep(1.0, 0.35, math.Abs(math.Atan2(p[0]-f.x, p[2]-f.z)))*smoothstep(0.0, 0.02, in)
	if top <= 0 {
		return 0
	}
	top = math.Min(1, top)
	return hairLockRise * top * paint.Tousle(p, f.sweep).Rise
}

// curlsUp is where curly hair's shell puts each of p's skin points:
// out by the hair's thickness, then raised by its curl (curlDome of
// paint.CurlAt's Middle, up to lockRise) along the curl's direction from
// its centre, so the painter finds the same curl on the raised surface.
// The raise is smoothed over the shell's neighbouring vertices
// (curlSmoothPasses, welded across UV seams): sampled at vertices 5 mm
// apart, a curl's crease fell between them and the outline stepped in a
// saw-tooth of flat faces.
func (f scalpFrame) curlsUp(p *part) []vec3 {
	base := make([]vec3, len(p.pos))
	dir := make([]vec3, len(p.pos))
	rise := make([]float64, len(p.pos))
	for i := range p.pos {
		q, n := v3(p.pos[i]), v3(p.nrm[i])
		in := f.inside(q)
		base[i] = q.add(n.scale(f.thickness(q, n, in)))
		c := paint.CurlAt(base[i], f.curls)
		dir[i] = vec3(c.Dir)
		rise[i] = f.lockRise(q, n, in) * curlDome(c.Middle)
	}
	smoothOverShell(p, rise, curlSmoothPasses)
	out := make([]vec3, len(p.pos))
	for i := range out {
		out[i] = base[i].add(dir[i].scale(rise[i]))
	}
	return out
}

// curlSmoothPasses is how many times curlsUp averages each vertex's
// raise with its neighbours'.
const curlSmoothPasses = 2

// smoothOverShell replaces each of v's values (one per vertex of p) by
// the mean of its own and its neighbours' mean, passes times; vertices
// at one position (a UV seam's two sides) are one.
func smoothOverShell(p *part, v []float64, passes int) {
	node, n := weldIDs(p.pos)
	nbr := make([][]int32, n)
	for _, t := range p.tris {
		for k := range 3 {
			a, b := node[t[k]], node[t[(k+1)%3]]
			if a != b {
				nbr[a] = append(nbr[a], b)
				nbr[b] = append(nbr[b], a)
			}
		}
	}
	val := make([]float64, n)
	for i, x := range v {
		val[node[i]] = x
	}
	for range passes {
		next := make([]float64, len(val))
		for a, ns := range nbr {
			if len(ns) == 0 {
				next[a] = val[a]
				continue
			}
			m := 0.0
			for _, b := range ns {
				m += val[b]
			}
			next[a] = (val[a] + m/float64(len(ns))) / 2
		}
		val = next
	}
	for i := range v {
		v[i] = val[node[i]]
	}
}

// curlDome is how high a curl stands (0..1) at m of the way from its
// crease to its middle (paint.Curl's Middle): a dome, 1 - (1 - m)²,
// rounded over its whole width, so that each of the shell's vertices
// turns the surface a little (curlsUp rounds the crease's foot).
//
// It was smoothstep(0, 1, Rise²), Rise a quarter circle over the curls'
// distances' difference, which on the head stays under a third over
// most of a curl: each curl rose almost linearly out of its crease and
// was a pyramid of flat faces meeting at folds of 30-60° (issue 22's
// panel, p21: "a lumpy, faceted polygon mass", "cracked tiles";
// TestCurlsAreRound).
func curlDome(m float64) float64 {
	return 1 - (1-m)*(1-m)
}

// openVertices is the set of vertices (below n) on the open edges of
// tris: edges of one triangle.
func openVertices(tris [][3]uint32, n int) map[uint32]bool {
	count := map[[2]uint32]int{}
	for _, t := range tris {
		for k := 0; k < 3; k++ {
			a, b := t[k], t[(k+1)%3]
			count[[2]uint32{min(a, b), max(a, b)}]++
		}
	}
	out := map[uint32]bool{}
	for e, c := range count {
		if c == 1 && int(e[0]) < n && int(e[1]) < n {
			out[e[0]], out[e[1]] = true, true
		}
	}
	return out
}

// subdivide splits each of p's triangles into four at its edges'
// middles (shared by the two triangles of an edge); the new vertices
// take the mean position, normal and UV, and the first end's skin.
func subdivide(p *part) {
	mid := map[[2]uint32]uint32{}
	at := func(a, b uint32) uint32 {
		k := [2]uint32{min(a, b), max(a, b)}
		if v, ok := mid[k]; ok {
			return v
		}
		a, b = k[0], k[1]
		v := uint32(len(p.pos))
		mid[k] = v
		p.pos = append(p.pos, v3(p.pos[a]).add(v3(p.pos[b])).scale(0.5).f32())
		p.nrm = append(p.nrm, v3(p.nrm[a]).add(v3(p.nrm[b])).norm().f32())
		p.uv = append(p.uv, [2]float32{(p.uv[a][0] + p.uv[b][0]) / 2, (p.uv[a][1] + p.uv[b][1]) / 2})
		p.inf = append(p.inf, p.inf[a])
		p.base = append(p.base, p.base[a])
		return v
	}
	tris := make([][3]uint32, 0, 4*len(p.tris))
	for _, t := range p.tris {
		ab, bc, ca := at(t[0], t[1]), at(t[1], t[2]), at(t[2], t[0])
		tris = append(tris, [3]uint32{t[0], ab, ca}, [3]uint32{ab, t[1], bc}, [3]uint32{ca, bc, t[2]}, [3]uint32{ab, bc, ca})
	}
	p.tris = tris
}

// sculptedHair builds the sculpted cut on head (see above). The part has
// the head's skin weights, is not moved by face shapes, and is drawn
// opaque.
func sculptedHair(head *part, joints map[string][3]float32, style string) *part {
	f := newScalpFrame(joints, style)
	lvl := make([]float64, len(head.pos))
	for i, p := range head.pos {
		lvl[i] = f.inside(v3(p))
	}
	p := &part{minKeep: 1}
	// Skin points: head vertices inside, and points on the edges the
	// hairline crosses (shared by the two triangles of an edge).
	type key [2]uint32
	at := map[key]uint32{}
	vert := func(a, b uint32) uint32 {
		if lvl[a] < 0 || (lvl[b] >= 0 && b < a) {
			a, b = b, a
		}
		// a is inside; b == a for a vertex.
		k := key{a, b}
		if v, ok := at[k]; ok {
			return v
		}
		v := uint32(len(p.pos))
		at[k] = v
		pa, na := v3(head.pos[a]), v3(head.nrm[a])
		ua := head.uv[a]
		if a != b {
			t := lvl[a] / (lvl[a] - lvl[b])
			pa = pa.add(v3(head.pos[b]).sub(pa).scale(t))
			na = na.add(v3(head.nrm[b]).sub(na).scale(t)).norm()
			ub := head.uv[b]
			ua = [2]float32{ua[0] + float32(t)*(ub[0]-ua[0]), ua[1] + float32(t)*(ub[1]-ua[1])}
		}
		p.pos = append(p.pos, pa.f32())
		p.nrm = append(p.nrm, na.f32())
		p.uv = append(p.uv, ua)
		p.inf = append(p.inf, head.inf[a])
		p.base = append(p.base, head.base[a])
		return v
	}
	for _, t := range head.tris {
		var in []int
		for k := 0; k < 3; k++ {
			if lvl[t[k]] >= 0 {
				in = append(in, k)
			}
		}
		switch len(in) {
		case 3:
			p.tris = append(p.tris, [3]uint32{vert(t[0], t[0]), vert(t[1], t[1]), vert(t[2], t[2])})
		case 2:
			// The corner outside is cut off: a quad of two triangles.
			o := 3 - in[0] - in[1]
			a, b, c := t[(o+1)%3], t[(o+2)%3], t[o]
			pa, pb := vert(a, a), vert(b, b)
			pbc, pca := vert(b, c), vert(c, a)
			p.tris = append(p.tris, [3]uint32{pa, pb, pbc}, [3]uint32{pa, pbc, pca})
		case 1:
			k := in[0]
			a, b, c := t[k], t[(k+1)%3], t[(k+2)%3]
			p.tris = append(p.tris, [3]uint32{vert(a, a), vert(a, b), vert(a, c)})
		}
	}
	if len(p.tris) == 0 {
		return nil
	}
	// The head's vertices are about a centimetre apart: halved, the
	// locks raised in the shell (lockRise) have room to show.
	subdivide(p)
	// The skin points, kept for the rim's foot, then pushed out: first
	// by the hair's thickness, which fixes the centre the short cut's
	// locks sweep from (read off the shell and the rim's feet as the
	// painter reads it off the finished mesh), then by the locks.
	n0 := len(p.pos)
	skin := make([]vec3, n0)
	shell := make([][3]float32, 0, n0)
	for i := range p.pos {
		q, n := v3(p.pos[i]), v3(p.nrm[i])
		skin[i] = q.add(n.scale(hairSkinGap))
		shell = append(shell, q.add(n.scale(f.thickness(q, n, f.inside(q)))).f32())
	}
	for i := range openVertices(p.tris, n0) {
		shell = append(shell, skin[i].f32())
	}
	f.sweep = paint.SweepCentre(shell)
	f.curls = paint.CurlCentre(shell[n0:])
	var curls []vec3
	if f.curly {
		curls = f.curlsUp(p)
	}
	for i := range p.pos {
		q, n := v3(p.pos[i]), v3(p.nrm[i])
		in := f.inside(q)
		var o vec3
		if f.curly {
			o = curls[i]
		} else {
			o = q.add(n.scale(f.thickness(q, n, in) + f.lockRise(q, n, in)))
		}
		// Off the head's middle plane by a fifth of a millimetre: a
		// ray from the hat's centre to a point in that plane runs along
		// the hat's own middle edges and can slip between their two
		// triangles, leaving the hair there uncut under the hat
		// (pressHair).
		if math.Abs(o[0]-f.x) < 2e-4 {
			o[0] = f.x + 2e-4
		}
		p.pos[i] = o.f32()
	}
	spreadUV(p)
	if f.buzz {
		// A buzz cut lies on the skin and takes its light as the
		// skin does: the skin's normals, not the shell's (smoothed,
		// and turned out at the hairline to round a lock's end, they
		// drew a light line along the forehead's hairline).
		addRim(p, skin, false)
		return p
	}
	shellNormals(p)
	addRim(p, skin, true)
	smoothHairNormals(p)
	return p
}

// shellNormals gives p's vertices the normals of its surface as
// displaced (area-weighted, welded by position across UV seams), so
// the locks and curls raised in it catch the light.
func shellNormals(p *part) {
	q := weldKey
	acc := map[[3]int32]vec3{}
	for _, t := range p.tris {
		a, b, c := v3(p.pos[t[0]]), v3(p.pos[t[1]]), v3(p.pos[t[2]])
		n := b.sub(a).cross(c.sub(a))
		for _, v := range t {
			k := q(p.pos[v])
			acc[k] = acc[k].add(n)
		}
	}
	for i, v := range p.pos {
		if n := acc[q(v)]; n.len() > 1e-12 {
			p.nrm[i] = n.norm().f32()
		}
	}
}

// spreadUV stretches a part's UVs, cut from the head's layout, over the
// whole texture, so the hair's texture spends its texels on the hair.
func spreadUV(p *part) {
	lo, hi := [2]float32{1e9, 1e9}, [2]float32{-1e9, -1e9}
	for _, u := range p.uv {
		for k := 0; k < 2; k++ {
			lo[k], hi[k] = min(lo[k], u[k]), max(hi[k], u[k])
		}
	}
	for i, u := range p.uv {
		for k := 0; k < 2; k++ {
			if hi[k] > lo[k] {
				p.uv[i][k] = 0.01 + 0.98*(u[k]-lo[k])/(hi[k]-lo[k])
			}
		}
	}
}

// addRim closes the part's open edges (its hairline) with a strip from
// the outer edge down to skin, each vertex's foot on the skin: the
// hair's edge shows its thickness and meets the skin without a gap.
// round turns the edge's normals out of it, so it reads as the rounded
// end of a lock; otherwise the rim keeps the normals of the edge. Edges
// are counted by position (weldKey): the head's two halves meet along
// its middle with vertices of their own, and counted by index that
// seam was open and got a rim on each side, about 120 triangles inside
// the hair that no one sees.
func addRim(p *part, skin []vec3, round bool) {
	count := map[[2][3]int32]int{}
	edge := func(a, b uint32) [2][3]int32 {
		ka, kb := weldKey(p.pos[a]), weldKey(p.pos[b])
		if slices.Compare(ka[:], kb[:]) > 0 {
			ka, kb = kb, ka
		}
		return [2][3]int32{ka, kb}
	}
	for _, t := range p.tris {
		for k := 0; k < 3; k++ {
			count[edge(t[k], t[(k+1)%3])]++
		}
	}
	foot := map[uint32]uint32{}
	n0 := uint32(len(p.pos))
	var rimN []vec3
	footOf := func(i uint32) uint32 {
		if r, ok := foot[i]; ok {
			return r
		}
		r := uint32(len(p.pos))
		foot[i] = r
		p.pos = append(p.pos, skin[i].f32())
		p.nrm = append(p.nrm, p.nrm[i])
		p.uv = append(p.uv, p.uv[i])
		p.inf = append(p.inf, p.inf[i])
		p.base = append(p.base, p.base[i])
		rimN = append(rimN, vec3{})
		return r
	}
	tris := len(p.tris)
	for ti := 0; ti < tris; ti++ {
		t := p.tris[ti]
		c := v3(p.pos[t[0]]).add(v3(p.pos[t[1]])).add(v3(p.pos[t[2]])).scale(1.0 / 3)
		for k := 0; k < 3; k++ {
			i, j := t[k], t[(k+1)%3]
			if count[edge(i, j)] != 1 {
				continue
			}
			pi, pj := v3(p.pos[i]), v3(p.pos[j])
			m := rimOut(pi, pj, c)
			fi, fj := footOf(i), footOf(j)
			p.tris = append(p.tris, [3]uint32{j, i, fi}, [3]uint32{j, fi, fj})
			rimN[fi-n0] = rimN[fi-n0].add(m)
			rimN[fj-n0] = rimN[fj-n0].add(m)
		}
	}
	for i, r := range foot {
		if n := rimN[r-n0]; round && n.len() > 1e-9 {
			// The foot faces halfway out of the edge, the edge's top a
			// third of the way, so the edge reads as a rounded lock's
			// end, not a crease.
			p.nrm[r] = n.norm().add(v3(p.nrm[r])).norm().f32()
			p.nrm[i] = n.norm().scale(0.5).add(v3(p.nrm[i])).norm().f32()
		}
	}
}

// hairPainter is the painter of a hair style.
func hairPainter(style string) func(paint.Surface, paint.RGB, uint64, int) paint.Maps {
	switch {
	case style == "curly":
		return paint.CurlyHair
	case sculpted(style):
		return paint.SweptHair
	case style == "long" || style == "ponytail":
		return paint.HangingHair
	}
	return paint.ScalpHair
}

// hairTexels is the size of a hair style's texture. The locks' grooves
// and strands are a texel or two wide, and at 512 texels a portrait saw
// them broad and smudged. At 1024, as the leader's hair maps are, blind
// A/Bs (session 55, two judges each, room portrait and rig quarter)
// preferred the long, ponytail, short and curly hair 26 of 32 times
// ("finer, more defined strands"), and the bob 24 of 24 once its grain
// was sized for the texture (paint's lockGrain.sizedFor). The buzz cut,
// whose hairs are painted over skin by its own painter, stays at 512:
// at 1024 its portraits and quarter views changed by 6 to 680 pixels
// of 262,144 (five buzz avatars, room and rig), nothing to pay for. The
// cost, on an idle machine: default-female's cold build 1.16 s to
// 1.58 s, 150 MB more peak memory and 0.8 MB more GLB.
func hairTexels(style string) int {
	if style == "buzz" {
		return 512
	}
	return 1024
}
