package human

import (
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/kilnhq/kiln/assets/avatar/human/hmdata"
)

// Params are the dials of a body. Every value is clamped to its range;
// the zero Params is a young, average, gender-neutral adult.
type Params struct {
	// Gender: 0 female, 1 male, in between a blend.
	Gender float64
	// Age: 0 is 25 years, 1 is 90 years (MakeHuman's young and old
	// adults); children are not offered.
	Age float64
	// Muscle and Weight: 0 minimum, 0.5 average, 1 maximum.
	Muscle, Weight float64
	// Height: 0.5 is the average for the gender and age, 0 the shortest,
	// 1 the tallest (MakeHuman's min/max height targets, whose ends are
	// extreme: about 1.2 m and 2.4 m). Ignored when Stature is set.
	Height float64
	// Stature, when above zero, is the wanted height in metres (soles to
	// the top of the bare head): Shape picks the Height dial that gives
	// it, within the dial's reach, so every build keeps its proportions.
	Stature float64
	// Proportions: 0.5 neutral, 1 idealised, 0 uncommon.
	Proportions float64
	// African, Asian, Caucasian: a mix of MakeHuman's ethnic shapes
	// (mostly face and skull), normalised; all zero means a third each.
	African, Asian, Caucasian float64
	// Face sets local modifiers by name (see Modifiers), each from -1 to
	// 1 (0 leaves the feature as is; one-sided shapes such as
	// "head/head-oval" take 0..1). Unknown names are ignored; use
	// Modifiers to offer only known ones.
	Face map[string]float64
	// Base is a look under Face: modifiers by the same names, applied
	// like Face's but each on its own, so that a Face dial moves the
	// body the same from it at every value (a dial added onto Base and
	// clamped would stop short).
	Base map[string]float64
}

// Average returns the average young adult of a gender (0 female, 1 male).
func Average(gender float64) Params {
	return Params{Gender: gender, Muscle: 0.5, Weight: 0.5, Height: 0.5, Proportions: 0.5}
}

// modifier is a local dial: targets applied with the negative and with
// the positive side of its value.
type modifier struct {
	neg, pos []string
}

// pairs are the suffixes of two-sided targets: negative side first.
var pairs = [][2]string{
	{"decr", "incr"}, {"down", "up"}, {"in", "out"}, {"backward", "forward"},
	{"concave", "convex"}, {"compress", "uncompress"},
}

// modifiers groups the local (non-macro) targets into dials: the two
// sides of a pair form one dial, and the left and right copies of a
// sided target ("l-ear-…", "r-ear-…") form one, so faces stay symmetric.
func modifiers(ts []hmdata.Target) map[string]modifier {
	out := map[string]modifier{}
	for _, t := range ts {
		if strings.HasPrefix(t.Name, "macrodetails/") {
			continue
		}
		folder, file, _ := strings.Cut(t.Name, "/")
		file = strings.TrimPrefix(strings.TrimPrefix(file, "l-"), "r-")
		name, side := folder+"/"+file, 1
		for _, p := range pairs {
			if s, ok := strings.CutSuffix(file, "-"+p[0]); ok {
				name, side = folder+"/"+s, -1
				break
			}
			if s, ok := strings.CutSuffix(file, "-"+p[1]); ok {
				name = folder + "/" + s
				break
			}
		}
		m := out[name]
		if side < 0 {
			m.neg = append(m.neg, t.Name)
		} else {
			m.pos = append(m.pos, t.Name)
		}
		out[name] = m
	}
	return out
}

// Modifiers lists the names Params.Face accepts, sorted, e.g.
// "nose/nose-scale-horiz", "chin/chin-width", "ears/ear-lobe",
// "head/head-oval", "armslegs/upperarm-fat", "torso/torso-vshape".
// The folder says the region: head, nose, mouth, eyes, ears, chin,
// cheek, forehead, eyebrows, neck, torso, armslegs.
func Modifiers() []string {
	return append([]string(nil), load().modNames...)
}

// Body is a shaped human: the position of every base-mesh vertex.
type Body struct {
	// Pos holds every base vertex, metres, in the package's frame.
	Pos [][3]float32
}

// Shape builds the body for p: MakeHuman's base mesh plus its targets,
// weighted as MakeHuman weights them (each grid target by the product
// of how near the dials are to its grid point), then set on the ground
// and converted to metres.
func Shape(p Params) *Body {
	m := load()
	n := len(m.d.Positions) / 3
	acc := make([]float64, 3*n)
	for i, x := range m.d.Positions {
		acc[i] = float64(x)
	}
	add := func(name string, w float64) {
		t := m.targets[name]
		if t == nil || w == 0 {
			return
		}
		w *= hmdata.DeltaUnit
		for k, v := range t.Index {
			acc[3*v] += w * float64(t.D[3*k])
			acc[3*v+1] += w * float64(t.D[3*k+1])
			acc[3*v+2] += w * float64(t.D[3*k+2])
		}
	}
	if p.Stature > 0 {
		p.Height = m.heightFor(p)
	}
	// Sums run in name order so a body is the same to the last bit on
	// every run (map order is random).
	weights := m.targetWeights(p)
	for _, name := range sortedKeys(weights) {
		add(name, weights[name])
	}
	return m.place(acc)
}

// targetWeights gives every target its weight for p: the macro grid's
// and the face modifiers'.
func (m *model) targetWeights(p Params) map[string]float64 {
	w := macroWeights(p)
	// A target gets at most one weight from each of Base and Face: two
	// additions onto zero, the same sum in either order.
	for _, set := range []map[string]float64{p.Base, p.Face} {
		for name, v := range set {
			mod, ok := m.mods[name]
			if !ok {
				continue
			}
			v = clamp(v, -1, 1)
			side := mod.pos
			if v < 0 {
				side, v = mod.neg, -v
			}
			for _, t := range side {
				w[t] += v
			}
		}
	}
	return w
}

// macroWeights gives each macrodetails target its weight for p.
func macroWeights(p Params) map[string]float64 {
	g := clamp(p.Gender, 0, 1)
	a := clamp(p.Age, 0, 1)
	genders := map[string]float64{"female": 1 - g, "male": g}
	ages := map[string]float64{"young": 1 - a, "old": a}
	muscles := grid3(p.Muscle, "minmuscle", "averagemuscle", "maxmuscle")
	weights := grid3(p.Weight, "minweight", "averageweight", "maxweight")
	heights := grid3(p.Height, "minheight", "", "maxheight")
	props := grid3(p.Proportions, "uncommonproportions", "", "idealproportions")
	race := [3]float64{clamp(p.African, 0, 1), clamp(p.Asian, 0, 1), clamp(p.Caucasian, 0, 1)}
	if sum := race[0] + race[1] + race[2]; sum > 0 {
		for i := range race {
			race[i] /= sum
		}
	} else {
		race = [3]float64{1.0 / 3, 1.0 / 3, 1.0 / 3}
	}
	races := map[string]float64{"african": race[0], "asian": race[1], "caucasian": race[2]}

	out := map[string]float64{}
	for gn, gw := range genders {
		for an, aw := range ages {
			ga := gw * aw
			if ga == 0 {
				continue
			}
			for mn, mw := range muscles {
				for wn, ww := range weights {
					out["macrodetails/universal-"+gn+"-"+an+"-"+mn+"-"+wn] = ga * mw * ww
				}
			}
			for rn, rw := range races {
				out["macrodetails/"+rn+"-"+gn+"-"+an] = ga * rw
			}
			// Only the average build's height and proportion targets
			// are kept (see tools/makehuman), so they take the whole
			// gender and age weight.
			for hn, hw := range heights {
				if hn != "" {
					out["macrodetails/height/"+gn+"-"+an+"-averagemuscle-averageweight-"+hn] = ga * hw
				}
			}
			for pn, pw := range props {
				if pn != "" {
					out["macrodetails/proportions/"+gn+"-"+an+"-averagemuscle-averageweight-"+pn] = ga * pw
				}
			}
		}
	}
	return out
}

// grid3 spreads a 0..1 dial over three grid points at 0, 0.5 and 1.
func grid3(v float64, lo, mid, hi string) map[string]float64 {
	v = clamp(v, 0, 1)
	l := math.Max(0, 1-2*v)
	h := math.Max(0, 2*v-1)
	return map[string]float64{lo: l, mid: 1 - l - h, hi: h}
}

func sortedKeys(m map[string]float64) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func clamp(v, lo, hi float64) float64 {
	if math.IsNaN(v) {
		return (lo + hi) / 2
	}
	return math.Max(lo, math.Min(hi, v))
}

// place converts shaped decimetre positions into the package's frame:
// metres, the lowest body vertex on y = 0, the Hips joint over the origin.
func (m *model) place(acc []float64) *Body {
	minY := math.Inf(1)
	for v, in := range m.bodyVert {
		if in {
			minY = math.Min(minY, acc[3*v+1])
		}
	}
	hips := m.jointAt(acc, m.joint["Hips"])
	b := &Body{Pos: make([][3]float32, len(acc)/3)}
	for v := range b.Pos {
		b.Pos[v] = [3]float32{
			float32((acc[3*v] - hips[0]) / 10),
			float32((acc[3*v+1] - minY) / 10),
			float32((acc[3*v+2] - hips[2]) / 10),
		}
	}
	return b
}

// jointAt is a joint's position: the average of the means of its parts.
func (m *model) jointAt(acc []float64, j int) [3]float64 {
	var p [3]float64
	parts := m.d.Joints[j].Parts
	for _, part := range parts {
		for _, v := range part {
			for a := 0; a < 3; a++ {
				p[a] += acc[3*v+int32(a)] / float64(len(part)*len(parts))
			}
		}
	}
	return p
}

// Joints places the 67 joints (JointNames) on the body, each at the mean
// of its MakeHuman joint vertex groups, so the rig follows every shape.
func (b *Body) Joints() map[string][3]float32 {
	m := load()
	acc := make([]float64, 3*len(b.Pos))
	for v, p := range b.Pos {
		acc[3*v], acc[3*v+1], acc[3*v+2] = float64(p[0]), float64(p[1]), float64(p[2])
	}
	out := make(map[string][3]float32, len(m.d.Joints))
	for i, j := range m.d.Joints {
		p := m.jointAt(acc, i)
		out[j.Name] = [3]float32{float32(p[0]), float32(p[1]), float32(p[2])}
	}
	return out
}

// Height is the top of the body (bare head) above the soles, metres.
func (b *Body) Height() float32 {
	m := load()
	var top float32
	for v, in := range m.bodyVert {
		if in && b.Pos[v][1] > top {
			top = b.Pos[v][1]
		}
	}
	return top
}

// heightFor finds the Height dial at which the body of p (with its other
// dials) is p.Stature tall. Height is monotonic in the dial, so a
// bisection over the dial converges; each step measures only the body
// vertices near the top of the head and under the feet, which is where
// the extremes are.
func (m *model) heightFor(p Params) float64 {
	measure := func(h float64) float64 {
		q := p
		q.Stature, q.Height = 0, h
		lo, hi := math.Inf(1), math.Inf(-1)
		ys := m.extremeYs(m.targetWeights(q))
		for _, y := range ys[0] {
			lo = math.Min(lo, y)
		}
		for _, y := range ys[1] {
			hi = math.Max(hi, y)
		}
		return (hi - lo) / 10
	}
	a, b := 0.0, 1.0
	if measure(a) >= p.Stature {
		return a
	}
	if measure(b) <= p.Stature {
		return b
	}
	for i := 0; i < 30; i++ {
		mid := (a + b) / 2
		if measure(mid) < p.Stature {
			a = mid
		} else {
			b = mid
		}
	}
	return (a + b) / 2
}

// extremeYs shapes only the sole and crown candidates (see candidates)
// with the given target weights and returns their heights (decimetres).
func (m *model) extremeYs(weights map[string]float64) [2][]float64 {
	var out [2][]float64
	names := sortedKeys(weights)
	for side, vs := range m.candidates() {
		ys := make([]float64, len(vs))
		for i, v := range vs {
			ys[i] = float64(m.d.Positions[3*v+1])
		}
		for _, name := range names {
			if weights[name] == 0 {
				continue
			}
			moves, ok := m.candidateMoves(name)
			if !ok {
				continue
			}
			w := weights[name] * hmdata.DeltaUnit
			for _, mv := range moves[side] {
				ys[mv.i] += w * mv.dy
			}
		}
		out[side] = ys
	}
	return out
}

// candidateMove is how far a target moves one candidate vertex up
// (hmdata units), i its index in the candidate list.
type candidateMove struct {
	i  int32
	dy float64
}

// candidateMoves lists the candidates a target moves, found once per
// target and kept: the height search measures the body some 30 times per
// build, and searching every candidate in the target's index each time
// was 8 % of a build. ok is false for an unknown target.
func (m *model) candidateMoves(name string) (moves [2][]candidateMove, ok bool) {
	m.movesMu.Lock()
	defer m.movesMu.Unlock()
	if mv, ok := m.moves[name]; ok {
		return mv, true
	}
	t := m.targets[name]
	if t == nil {
		return moves, false
	}
	for side, vs := range m.candidates() {
		for i, v := range vs {
			if k, ok := slices.BinarySearch(t.Index, v); ok {
				moves[side] = append(moves[side], candidateMove{int32(i), float64(t.D[3*k+1])})
			}
		}
	}
	if m.moves == nil {
		m.moves = map[string][2][]candidateMove{}
	}
	m.moves[name] = moves
	return moves, true
}
