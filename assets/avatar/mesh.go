package avatar

import (
	"math"
	"sort"
)

// part is one mesh under construction: positions in the bind (rest)
// pose, texture coordinates, skin weights and triangles. Normals are
// computed at the end from the welded surface, so that UV seams and
// separately built pieces that share positions shade smoothly.
type part struct {
	pos []vec3
	uv  [][2]float32
	jw  []weights
	idx []uint32
	// bones are the candidates for this part's skin weights.
	bones []int
}

// weights is up to four joints and weights that sum to 1.
type weights struct {
	j [4]uint16
	w [4]float32
}

// ring is one cross-section of a swept tube: a centre, two axes spanning
// its plane, the half-width along u, and the half-depths along +v and
// -v, so that a chest can bulge forward more than the back.
type ring struct {
	c      vec3
	u, v   vec3
	ru     float64
	rf, rb float64
}

// tube sweeps rings into a surface of sides quads around; exp > 2 gives
// squarer (superelliptic) sections. caps close the ends with a fan to a
// pole pushed out by the given length (0 leaves an end open). vScale is
// the length of one texture repeat along the tube.
func (p *part) tube(rings []ring, sides int, exp float64, capStart, capEnd float64, uScale, vScale float64) {
	base := uint32(len(p.pos))
	along := 0.0
	for i, r := range rings {
		if i > 0 {
			along += r.c.sub(rings[i-1].c).len()
		}
		for k := 0; k <= sides; k++ {
			th := 2 * math.Pi * float64(k) / float64(sides)
			cs, sn := math.Cos(th), math.Sin(th)
			x := spow(cs, 2/exp) * r.ru
			dv := r.rf
			if sn < 0 {
				dv = r.rb
			}
			y := spow(sn, 2/exp) * dv
			p.add(r.c.add(r.u.scale(x)).add(r.v.scale(y)), float32(float64(k)/float64(sides)*uScale), float32(along/vScale))
		}
	}
	n := uint32(sides + 1)
	for i := 0; i < len(rings)-1; i++ {
		mid := rings[i].c.add(rings[i+1].c).scale(0.5)
		for k := uint32(0); k < uint32(sides); k++ {
			a := base + uint32(i)*n + k
			b := a + n
			out := p.pos[a].add(p.pos[b+1]).scale(0.5).sub(mid)
			p.tri(a, a+1, b, out)
			p.tri(a+1, b+1, b, out)
		}
	}
	// The ends' axis: from the neighbouring ring's centre, so caps bulge
	// outward whichever way the rings run.
	cap := func(i, nb int, push float64) {
		r := rings[i]
		axis := r.u.cross(r.v).norm()
		if axis.dot(r.c.sub(rings[nb].c)) < 0 {
			axis = axis.scale(-1)
		}
		c := uint32(len(p.pos))
		p.add(r.c.add(axis.scale(push)), 0.5, float32(along/vScale))
		for k := uint32(0); k < uint32(sides); k++ {
			a := base + uint32(i)*n + k
			p.tri(c, a, a+1, axis)
		}
	}
	if capStart != 0 && len(rings) > 1 {
		cap(0, 1, capStart)
	}
	if capEnd != 0 && len(rings) > 1 {
		cap(len(rings)-1, len(rings)-2, capEnd)
	}
}

// tri adds a triangle wound so that its normal agrees with out, which
// spares every shape from getting its winding right by hand.
func (p *part) tri(a, b, c uint32, out vec3) {
	n := p.pos[b].sub(p.pos[a]).cross(p.pos[c].sub(p.pos[a]))
	if n.len() < 1e-12 {
		return // a sliver at a pole or a closed tip: nothing to draw
	}
	if n.dot(out) < 0 {
		b, c = c, b
	}
	p.idx = append(p.idx, a, b, c)
}

// spow is a sign-preserving power, the superellipse's building block.
func spow(x, e float64) float64 {
	if x < 0 {
		return -math.Pow(-x, e)
	}
	return math.Pow(x, e)
}

func (p *part) add(v vec3, u, w float32) {
	p.pos = append(p.pos, v)
	p.uv = append(p.uv, [2]float32{u, w})
}

// grid adds a (cols+1)×(rows+1) vertex grid from f, quads between
// neighbours, the usual parametric surface, facing away from the point
// inside gives for each quad.
func (p *part) grid(cols, rows int, f func(i, j int) (vec3, [2]float32), inside func(vec3) vec3) {
	base := uint32(len(p.pos))
	for j := 0; j <= rows; j++ {
		for i := 0; i <= cols; i++ {
			v, uv := f(i, j)
			p.add(v, uv[0], uv[1])
		}
	}
	n := uint32(cols + 1)
	for j := uint32(0); j < uint32(rows); j++ {
		for i := uint32(0); i < uint32(cols); i++ {
			a := base + j*n + i
			c := p.pos[a].add(p.pos[a+n+1]).scale(0.5)
			out := c.sub(inside(c))
			p.tri(a, a+n, a+1, out)
			p.tri(a+1, a+n, a+n+1, out)
		}
	}
}

// normals are area-weighted face normals summed over every vertex at the
// same position (to 0.01 mm), so that seams do not show as creases.
func (p *part) normals() [][3]float32 {
	type key [3]int64
	k := func(v vec3) key {
		return key{int64(math.Round(v[0] * 1e5)), int64(math.Round(v[1] * 1e5)), int64(math.Round(v[2] * 1e5))}
	}
	acc := map[key]vec3{}
	for t := 0; t+2 < len(p.idx); t += 3 {
		a, b, c := p.pos[p.idx[t]], p.pos[p.idx[t+1]], p.pos[p.idx[t+2]]
		n := b.sub(a).cross(c.sub(a))
		for _, v := range []vec3{a, b, c} {
			kv := k(v)
			acc[kv] = acc[kv].add(n)
		}
	}
	out := make([][3]float32, len(p.pos))
	for i, v := range p.pos {
		n := acc[k(v)].norm()
		if n.len() == 0 {
			n = vec3{0, 1, 0}
		}
		out[i] = n.f32()
	}
	return out
}

// skin gives every vertex weights from its distance to the part's
// candidate bones (inverse fourth power, the four nearest kept): a cheap
// stand-in for heat diffusion that blends smoothly across each joint,
// because a vertex near a joint is about as far from both bones.
func (p *part) skin(s *skel) {
	p.jw = make([]weights, len(p.pos))
	for i, v := range p.pos {
		p.jw[i] = s.weigh(v, p.bones)
	}
}

// rigid binds every vertex to one joint (eyes, glasses), which moves
// them exactly with it.
func (p *part) rigid(j int) {
	p.jw = make([]weights, len(p.pos))
	for i := range p.jw {
		p.jw[i] = weights{j: [4]uint16{uint16(j)}, w: [4]float32{1}}
	}
}

// skel is the rig in world space, for building geometry around it.
type skel struct {
	Rig
	h     float64 // height
	world []mat4
	idx   map[string]int
}

func newSkel(r Rig, h float64) *skel {
	s := &skel{Rig: r, h: h, idx: map[string]int{}}
	for _, m := range r.World() {
		var w mat4
		for k := range 16 {
			w[k] = float64(m[k])
		}
		s.world = append(s.world, w)
	}
	for i, n := range r.Names {
		s.idx[n] = i
	}
	return s
}

func (s *skel) j(name string) int {
	i, ok := s.idx[name]
	if !ok {
		panic("avatar: no joint " + name)
	}
	return i
}

// p is a joint's rest position.
func (s *skel) p(name string) vec3 {
	w := s.world[s.j(name)]
	return vec3{w[12], w[13], w[14]}
}

// axes is a joint's rest frame.
func (s *skel) axes(name string) mat3 { return s.world[s.j(name)].rot() }

func (s *skel) bones(names ...string) []int {
	out := make([]int, len(names))
	for i, n := range names {
		out[i] = s.j(n)
	}
	return out
}

func (s *skel) weigh(v vec3, bones []int) weights {
	type cand struct {
		j int
		w float64
	}
	cs := make([]cand, 0, len(bones))
	eps := 0.002 * s.h
	for _, j := range bones {
		a := vec3{s.world[j][12], s.world[j][13], s.world[j][14]}
		b := a
		if c := mainChild(s.Names, s.Parent, j); c >= 0 {
			b = vec3{s.world[c][12], s.world[c][13], s.world[c][14]}
		}
		d := segDist(v, a, b) + eps
		cs = append(cs, cand{j, 1 / (d * d * d * d)})
	}
	sort.SliceStable(cs, func(a, b int) bool { return cs[a].w > cs[b].w })
	if len(cs) > 4 {
		cs = cs[:4]
	}
	// Drop weights under 2% of the total: they only add to the joints a
	// vertex depends on without visibly moving it.
	var sum float64
	for _, c := range cs {
		sum += c.w
	}
	var out weights
	var kept float64
	for i, c := range cs {
		if c.w < 0.02*sum {
			break
		}
		out.j[i] = uint16(c.j)
		kept += c.w
	}
	var total float32
	for i, c := range cs {
		if i > 0 && c.w < 0.02*sum {
			break
		}
		out.w[i] = float32(c.w / kept)
		total += out.w[i]
	}
	// Put the float32 rounding on the largest weight so that the sum is
	// 1 to within the validator's tolerance.
	out.w[0] += 1 - total
	return out
}

// segDist is the distance from v to the segment ab.
func segDist(v, a, b vec3) float64 {
	ab := b.sub(a)
	l := ab.dot(ab)
	t := 0.0
	if l > 0 {
		t = math.Max(0, math.Min(1, v.sub(a).dot(ab)/l))
	}
	return v.sub(a.add(ab.scale(t))).len()
}

// lerp interpolates a to b.
func lerp(a, b, t float64) float64 { return a + (b-a)*t }

// smooth is smoothstep from e0 to e1.
func smooth(e0, e1, x float64) float64 {
	t := math.Max(0, math.Min(1, (x-e0)/(e1-e0)))
	return t * t * (3 - 2*t)
}

// table interpolates piecewise linearly in a sorted table of (x, y).
func table(xs, ys []float64, x float64) float64 {
	if x <= xs[0] {
		return ys[0]
	}
	for i := 1; i < len(xs); i++ {
		if x <= xs[i] {
			return lerp(ys[i-1], ys[i], (x-xs[i-1])/(xs[i]-xs[i-1]))
		}
	}
	return ys[len(ys)-1]
}
