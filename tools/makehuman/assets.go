package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/kilnhq/kiln/assets/avatar/human/hmdata"
	"github.com/kilnhq/kiln/assets/disjoint"
)

// part says which polygons of a MakeHuman asset Kiln's asset keeps.
// MakeHuman's clothes are whole outfits (a top and a bottom in one
// mesh); Kiln dresses tops and bottoms apart, so an outfit is split by
// connected pieces, each piece going to the top or the bottom by where
// its base vertices are weighted (see splitOutfit).
type part int

const (
	whole part = iota
	upper
	lower
	// low keeps the part of footwear below lowCut: MakeHuman's shoes
	// are all ankle boots, and sneakers and shoes are cut from them.
	low
	// aboveKnee keeps the lower part of an outfit above shortsCut:
	// MakeHuman's only shorts (female_casualsuit02) are hot pants that
	// read as briefs (issue 22), so shorts are cut from trousers.
	aboveKnee
)

// lowCut is the height above the soles (decimetres, on the base mesh)
// where low footwear is cut: just under the ankle bones.
const lowCut = 0.85

// shortsCut is the height above the soles (decimetres, on the base
// mesh) where shorts are cut from trousers: 0.7 dm over the middle of
// the base mesh's knees (the lowerleg01 joints, 4.47 dm), the length of
// chinos or board shorts. Fitted, the hem ends 4.4 to 11.4 cm over the
// knee on the random outfits' bodies, lowest on women's (MakeHuman's
// shapes move the thigh's skin against the knee; see
// human.TestShortsLength).
const shortsCut = 5.17

// source is one Kiln asset taken from MakeHuman.
type source struct {
	id   string // Kiln's "kind/style"
	path string // MakeHuman asset directory under assets/, or a helper group
	part part
}

// sources is the selection. Where MakeHuman has no exact match the
// nearest was taken:
//   - top/hoodie is the pocketed jacket of male_casualsuit05 (no hoods);
//   - top/tank is the cropped sleeveless-ish top of female_sportsuit01;
//   - hair/bun is braid01 (hair gathered at the back; no bun);
//   - hair/buzz is short04, the closest crop;
//   - hair/curly is afro01;
//   - MakeHuman's shoes are all ankle boots: footwear/boots is shoes03,
//     and footwear/sneakers (shoes01, thin sole) and footwear/shoes
//     (shoes02) are cut below the ankle (see low).
//
// Eyes have no MakeHuman asset here: eyes/left and eyes/right are the
// base mesh's eye helper spheres, bound one-to-one to their vertices.
//
// Polygon budget: an avatar's lod 0 has at most 32,000 triangles and the
// visible body takes 15,000 to 21,000, so the light meshes were chosen
// where MakeHuman has several of a style (male_casualsuit01's detailed
// shirt and jeans are 8,000 triangles each; the shirt here is 3,100, the
// jeans 1,900). teeth/default is MakeHuman's modelled teeth (7,120
// triangles, to simplify); teeth/low is the base mesh's teeth helpers
// (upper and lower arches, 192 triangles, as low as the leader's teeth).
var sources = []source{
	{"top/tshirt", "clothes/male_casualsuit04", upper},
	{"top/shirt", "clothes/male_casualsuit03", upper},
	{"top/hoodie", "clothes/male_casualsuit05", upper},
	{"top/blouse", "clothes/female_elegantsuit01", upper},
	{"top/tank", "clothes/female_sportsuit01", upper},
	{"top/longsleeve", "clothes/male_casualsuit02", upper},
	{"top/fitted_tshirt", "clothes/female_casualsuit01", upper},
	{"bottom/jeans", "clothes/male_casualsuit05", lower},
	{"bottom/trousers", "clothes/male_casualsuit06", lower},
	{"bottom/shorts", "clothes/male_casualsuit06", aboveKnee},
	{"bottom/skirt", "clothes/female_elegantsuit01", lower},
	{"bottom/leggings", "clothes/female_casualsuit01", lower},
	{"footwear/sneakers", "clothes/shoes01", low},
	{"footwear/boots", "clothes/shoes03", whole},
	{"footwear/shoes", "clothes/shoes02", low},
	{"hair/short", "hair/short02", whole},
	{"hair/buzz", "hair/short04", whole},
	{"hair/long", "hair/long01", whole},
	{"hair/bun", "hair/braid01", whole},
	{"hair/ponytail", "hair/ponytail01", whole},
	{"hair/curly", "hair/afro01", whole},
	{"hair/bob", "hair/bob02", whole},
	{"eyebrows/default", "eyebrows/eyebrow001", whole},
	{"eyelashes/default", "eyelashes/eyelashes01", whole},
	{"teeth/default", "teeth/teeth_base", whole},
	{"teeth/low", "helper-teeth", whole},
	{"tongue/default", "tongue/tongue01", whole},
	{"eyes/left", "helper-l-eye", whole},
	{"eyes/right", "helper-r-eye", whole},
}

// readAssets converts every source.
func readAssets(src string, base *obj, weights weightsFunc) ([]hmdata.Asset, error) {
	var out []hmdata.Asset
	for _, s := range sources {
		var a hmdata.Asset
		var err error
		switch {
		case s.path == "helper-teeth":
			a, err = helperAsset(base, "helper-upper-teeth", "helper-lower-teeth")
		case strings.HasPrefix(s.path, "helper-"):
			a, err = helperAsset(base, s.path)
		default:
			a, err = fittedAsset(base, filepath.Join(src, "assets", s.path), s.part, weights)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.id, err)
		}
		a.ID, a.Source = s.id, s.path
		out = append(out, a)
	}
	return out, nil
}

// weightsFunc says how much of a base vertex's skin follows the lower
// body (Hips and legs), 0..1.
type weightsFunc func(base int32) float32

// helperAsset makes an asset of base-mesh helper groups: their own
// polygons and UVs, each vertex following one base vertex.
func helperAsset(base *obj, groups ...string) (hmdata.Asset, error) {
	m := base.mesh(func(_ int, p poly) bool { return slices.Contains(groups, p.group) })
	if len(m.Tri) == 0 {
		return hmdata.Asset{}, fmt.Errorf("no polygons in groups %v", groups)
	}
	// Renumber: asset vertices are the group's base vertices in order.
	local := map[int32]int32{}
	a := hmdata.Asset{ZDepth: 0}
	for i, v := range m.Src {
		l, ok := local[v]
		if !ok {
			l = int32(len(local))
			local[v] = l
			a.Ref = append(a.Ref, v, v, v)
			a.W = append(a.W, 65535, 0, 0)
			a.Off = append(a.Off, 0, 0, 0)
		}
		m.Src[i] = l
	}
	// Any axis reference will do: the offsets are zero.
	for k := range a.Scale {
		a.Scale[k] = hmdata.ScaleRef{A: a.Ref[0], B: a.Ref[0], Ref: 1}
	}
	a.Mesh = m
	return a, nil
}

// fittedAsset reads NAME.mhclo and its .obj from a MakeHuman asset
// directory and keeps the polygons of the wanted part.
func fittedAsset(base *obj, dir string, want part, weights weightsFunc) (hmdata.Asset, error) {
	name := filepath.Base(dir)
	c, err := readMhclo(filepath.Join(dir, name+".mhclo"))
	if err != nil {
		if !os.IsNotExist(err) {
			return hmdata.Asset{}, err
		}
		// Some assets name the .mhclo differently: take the only one.
		ms, _ := filepath.Glob(filepath.Join(dir, "*.mhclo"))
		if len(ms) != 1 {
			return hmdata.Asset{}, err
		}
		if c, err = readMhclo(ms[0]); err != nil {
			return hmdata.Asset{}, err
		}
	}
	o, err := readOBJ(filepath.Join(dir, c.objFile))
	if err != nil {
		return hmdata.Asset{}, err
	}
	if len(c.ref) != 3*len(o.pos) {
		return hmdata.Asset{}, fmt.Errorf("%d bindings for %d vertices", len(c.ref)/3, len(o.pos))
	}
	keep := func(int, poly) bool { return true }
	del := c.delete
	if want == low {
		// Keep the polygons that reach below the cut, and bring their
		// corners above it down onto it, so the rim is level instead of
		// a staircase of whole polygons.
		y := fittedY(base, c)
		kept := make([]bool, len(o.polys))
		lowered := make([]bool, len(o.pos))
		scale := yScale(base, c)
		for i, p := range o.polys {
			kept[i] = slices.ContainsFunc(p.v, func(v int32) bool { return y[v] <= lowCut })
		}
		for i, p := range o.polys {
			for _, v := range p.v {
				if kept[i] && y[v] > lowCut && !lowered[v] {
					c.off[3*v+1] -= (y[v] - lowCut) / scale
					lowered[v] = true
				}
			}
		}
		keep = func(i int, _ poly) bool { return kept[i] }
		// Hide only the skin well inside the cut shoe.
		del = nil
		for _, v := range c.delete {
			if base.pos[v][1]-soleY(base) < lowCut-0.2 {
				del = append(del, v)
			}
		}
	}
	if want == upper || want == lower || want == aboveKnee {
		downPoly := splitOutfit(o, c, weights, fittedY(base, c))
		wantDown := want != upper
		down := make([]bool, len(o.pos))
		for i, p := range o.polys {
			for _, v := range p.v {
				down[v] = down[v] || downPoly[i]
			}
		}
		keep = func(i int, _ poly) bool { return downPoly[i] == wantDown }
		del = nearestPart(base, c, down, wantDown)
		if want == aboveKnee {
			o = cutBelow(base, o, c, downPoly, shortsCut)
			keep = func(int, poly) bool { return true }
			del = slices.DeleteFunc(del, func(v int32) bool {
				return base.pos[v][1]-soleY(base) < shortsCut+shortsSkin
			})
		}
	}
	return hmdata.Asset{
		ZDepth: c.zDepth,
		Mesh:   o.mesh(keep),
		Ref:    c.ref,
		W:      quantW(c.w),
		Off:    quantOff(c.off),
		Scale:  c.scale,
		Delete: del,
	}, nil
}

// shortsSkin is how far above the shorts' hem (decimetres) the skin
// under them is still drawn, so the opening of each leg shows thigh and
// not the void where hidden skin was.
const shortsSkin = 0.3

// cutBelow returns o with only the kept polygons, clipped to the part
// above cut (a height above the soles on the base mesh, decimetres): a
// polygon that crosses it loses its corners under it and gains one
// where each of its edges crosses, so the hem is level however coarse
// the mesh is (MakeHuman's trousers have a loop every 7 cm at the
// knee). A new vertex is bound to the skin of both ends of its edge
// (blendBinding), with the offset that puts it on the edge on the base
// mesh. c grows with the new vertices.
func cutBelow(base *obj, o *obj, c *mhclo, keep []bool, cut float32) *obj {
	y := fittedY(base, c)
	var scale [3]float32
	for k := range scale {
		scale[k] = axisScale(base, c, k)
	}
	fitted := func(v int32) [3]float32 {
		var p [3]float32
		for k := int32(0); k < 3; k++ {
			q := base.pos[c.ref[3*v+k]]
			for a := range p {
				p[a] += c.w[3*v+k] * q[a]
			}
		}
		for a := range p {
			p[a] += c.off[3*int(v)+a] * scale[a]
		}
		return p
	}
	out := &obj{pos: slices.Clone(o.pos), uv: slices.Clone(o.uv)}
	type edge struct{ in, out int32 }
	newV := map[edge]int32{}
	newT := map[edge]int32{}
	cross := func(pv, qv, pt, qt int32) (int32, int32) {
		s := (y[pv] - cut) / (y[pv] - y[qv])
		v, ok := newV[edge{pv, qv}]
		if !ok {
			v = int32(len(out.pos))
			newV[edge{pv, qv}] = v
			a, b := fitted(pv), fitted(qv)
			var at [3]float32
			for k := range at {
				at[k] = a[k] + s*(b[k]-a[k])
			}
			out.pos = append(out.pos, lerp3(o.pos[pv], o.pos[qv], s))
			ref, w := blendBinding(c, pv, qv, s)
			c.ref, c.w = append(c.ref, ref[:]...), append(c.w, w[:]...)
			var bound [3]float32
			for k := range ref {
				for ax := range bound {
					bound[ax] += w[k] * base.pos[ref[k]][ax]
				}
			}
			for ax := range at {
				c.off = append(c.off, (at[ax]-bound[ax])/scale[ax])
			}
			y = append(y, cut)
		}
		t := int32(-1)
		if pt >= 0 && qt >= 0 {
			var ok bool
			if t, ok = newT[edge{pt, qt}]; !ok {
				t = int32(len(out.uv))
				newT[edge{pt, qt}] = t
				a, b := o.uv[pt], o.uv[qt]
				out.uv = append(out.uv, [2]float32{a[0] + s*(b[0]-a[0]), a[1] + s*(b[1]-a[1])})
			}
		}
		return v, t
	}
	for i, p := range o.polys {
		if !keep[i] {
			continue
		}
		q := poly{group: p.group}
		for k := range p.v {
			n := (k + 1) % len(p.v)
			a, b := p.v[k], p.v[n]
			if y[a] >= cut {
				q.v, q.t = append(q.v, a), append(q.t, p.t[k])
			}
			if (y[a] >= cut) != (y[b] >= cut) {
				in, inT, outV, outT := a, p.t[k], b, p.t[n]
				if y[b] >= cut {
					in, inT, outV, outT = b, p.t[n], a, p.t[k]
				}
				v, t := cross(in, outV, inT, outT)
				q.v, q.t = append(q.v, v), append(q.t, t)
			}
		}
		if len(q.v) >= 3 {
			out.polys = append(out.polys, q)
		}
	}
	return out
}

// blendBinding binds a point s of the way from asset vertex a to b to
// the three base vertices that weigh most in the blend of their two
// bindings, renormalised: the point follows the skin under it on every
// body, as its two ends do (either end's own binding alone follows skin
// up to 7 cm away, and the hem came out 2.4 cm out of level on the
// average body).
func blendBinding(c *mhclo, a, b int32, s float32) ([3]int32, [3]float32) {
	weight := map[int32]float32{}
	var order []int32
	for _, e := range []struct {
		v int32
		f float32
	}{{a, 1 - s}, {b, s}} {
		for k := int32(0); k < 3; k++ {
			r := c.ref[3*e.v+k]
			if _, ok := weight[r]; !ok {
				order = append(order, r)
			}
			weight[r] += e.f * c.w[3*e.v+k]
		}
	}
	slices.SortStableFunc(order, func(x, y int32) int {
		switch {
		case weight[x] > weight[y]:
			return -1
		case weight[x] < weight[y]:
			return 1
		}
		return 0
	})
	var ref [3]int32
	var w [3]float32
	var sum float32
	for k := range ref {
		ref[k] = order[min(k, len(order)-1)]
		if k < len(order) {
			w[k] = weight[ref[k]]
			sum += w[k]
		}
	}
	for k := range w {
		w[k] /= sum
	}
	return ref, w
}

// lerp3 is a + s(b - a).
func lerp3(a, b [3]float32, s float32) [3]float32 {
	return [3]float32{a[0] + s*(b[0]-a[0]), a[1] + s*(b[1]-a[1]), a[2] + s*(b[2]-a[2])}
}

// nearestPart keeps the deleted base vertices whose nearest asset
// vertex (fitted on the raw base mesh) is in the wanted part, so a top
// hides the skin under the top and not the legs under the trousers.
func nearestPart(base *obj, c *mhclo, down []bool, wantDown bool) []int32 {
	fit := make([][3]float32, len(down))
	for v := range fit {
		for k := 0; k < 3; k++ {
			p := base.pos[c.ref[3*v+k]]
			for a := 0; a < 3; a++ {
				fit[v][a] += c.w[3*v+k] * p[a]
			}
		}
	}
	var out []int32
	for _, d := range c.delete {
		p := base.pos[d]
		best, bestDown := float32(-1), false
		for v, f := range fit {
			dx, dy, dz := f[0]-p[0], f[1]-p[1], f[2]-p[2]
			if e := dx*dx + dy*dy + dz*dz; best < 0 || e < best {
				best, bestDown = e, down[v]
			}
		}
		if bestDown == wantDown {
			out = append(out, d)
		}
	}
	return out
}

// splitOutfit tells, per polygon, whether it belongs to the lower body.
// Outfits are split by UV islands (polygons joined through corners that
// share both vertex and UV): MakeHuman models a shirt and its trousers
// as one connected mesh at times, but they are separate pieces of cloth
// in the texture. An island goes down when the skin it is bound to
// follows the hips and legs more than the torso, and reaches below the
// top's hem (y is each vertex's height): a piece that hangs no lower
// than the top is the top's, though bound to the hips (the pockets of
// male_casualsuit05's jacket, which would stick out of the jeans' waist).
func splitOutfit(o *obj, c *mhclo, weights weightsFunc, y []float32) []bool {
	sets := disjoint.New[int](len(o.polys))
	type corner struct{ v, t int32 }
	first := map[corner]int{}
	for pi, p := range o.polys {
		for k := range p.v {
			key := corner{p.v[k], p.t[k]}
			if q, ok := first[key]; ok {
				sets.Union(q, pi)
			} else {
				first[key] = pi
			}
		}
	}
	score := map[int]float32{}
	count := map[int]int{}
	for pi, p := range o.polys {
		r := sets.Find(pi)
		for _, v := range p.v {
			for k := 0; k < 3; k++ {
				score[r] += c.w[3*v+int32(k)] * weights(c.ref[3*v+int32(k)])
			}
			count[r]++
		}
	}
	out := make([]bool, len(o.polys))
	for pi := range out {
		r := sets.Find(pi)
		out[pi] = score[r]/float32(count[r]) > 0.5
	}
	hem := float32(math.Inf(1))
	lowest := map[int]float32{}
	for pi, p := range o.polys {
		r := sets.Find(pi)
		for _, v := range p.v {
			if l, ok := lowest[r]; !ok || y[v] < l {
				lowest[r] = y[v]
			}
			if !out[pi] {
				hem = min(hem, y[v])
			}
		}
	}
	for pi := range out {
		if out[pi] && lowest[sets.Find(pi)] > hem {
			out[pi] = false
		}
	}
	return out
}

// quantW stores binding weights out of 65535.
func quantW(w []float32) []int32 {
	out := make([]int32, len(w))
	for i, x := range w {
		out[i] = int32(math.Round(float64(x) * 65535))
	}
	return out
}

// quantOff stores binding offsets in hmdata.DeltaUnit.
func quantOff(off []float32) []int16 {
	out := make([]int16, len(off))
	for i, x := range off {
		out[i] = int16(math.Round(float64(x) / hmdata.DeltaUnit))
	}
	return out
}

// soleY is the lowest body vertex of the base mesh.
func soleY(base *obj) float32 {
	lo := float32(math.Inf(1))
	for _, p := range base.polys {
		if p.group == "body" {
			for _, v := range p.v {
				lo = min(lo, base.pos[v][1])
			}
		}
	}
	return lo
}

// fittedY is each asset vertex's height above the soles when fitted on
// the raw base mesh.
func fittedY(base *obj, c *mhclo) []float32 {
	sole := soleY(base)
	scale := yScale(base, c)
	out := make([]float32, len(c.ref)/3)
	for v := range out {
		for k := 0; k < 3; k++ {
			out[v] += c.w[3*v+k] * base.pos[c.ref[3*v+k]][1]
		}
		out[v] += c.off[3*v+1]*scale - sole
	}
	return out
}

// yScale is the factor of an asset's y offsets on the raw base mesh.
func yScale(base *obj, c *mhclo) float32 {
	return axisScale(base, c, 1)
}

// axisScale is the factor of an asset's offsets along axis k (0 x, 1 y,
// 2 z) on the raw base mesh.
func axisScale(base *obj, c *mhclo, k int) float32 {
	s := c.scale[k]
	return float32(math.Abs(float64(base.pos[s.A][k]-base.pos[s.B][k]))) / s.Ref
}
