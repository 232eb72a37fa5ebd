package animation

import (
	"math"
	"sort"
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
	"github.com/qmuntal/gltf"
)

// player samples a scene's animation and poses its nodes by forward
// kinematics, independently of the baking code: glTF's rules (LINEAR
// lerp, slerp for rotations, T*R*S down the node tree) applied to what
// the file holds.
type player struct {
	s      *scene.Scene
	parent []int
	byName map[string]int
	restP  [][3]float64
}

func newPlayer(t *testing.T, s *scene.Scene) *player {
	t.Helper()
	pl := &player{s: s, parent: make([]int, len(s.Nodes)), byName: map[string]int{}}
	for i := range pl.parent {
		pl.parent[i] = -1
	}
	for i, n := range s.Nodes {
		for _, c := range n.Children {
			pl.parent[c] = i
		}
	}
	// Prefer skin joints when names repeat.
	for _, sk := range s.Skins {
		for _, j := range sk.Joints {
			if _, ok := pl.byName[s.Nodes[j].Name]; !ok {
				pl.byName[s.Nodes[j].Name] = j
			}
		}
	}
	for i, n := range s.Nodes {
		if _, ok := pl.byName[n.Name]; !ok && n.Name != "" {
			pl.byName[n.Name] = i
		}
	}
	pl.restP = pl.world(nil, 0)
	return pl
}

func (pl *player) node(t *testing.T, name string) int {
	t.Helper()
	i, ok := pl.byName[name]
	if !ok {
		t.Fatalf("no node %q", name)
	}
	return i
}

type mat [16]float64

func (a mat) mul(b mat) mat {
	var m mat
	for c := 0; c < 4; c++ {
		for r := 0; r < 4; r++ {
			var v float64
			for k := 0; k < 4; k++ {
				v += a[k*4+r] * b[c*4+k]
			}
			m[c*4+r] = v
		}
	}
	return m
}

func trsMat(t [3]float64, q [4]float64, s [3]float64) mat {
	x, y, z, w := q[0], q[1], q[2], q[3]
	return mat{
		(1 - 2*(y*y+z*z)) * s[0], 2 * (x*y + z*w) * s[0], 2 * (x*z - y*w) * s[0], 0,
		2 * (x*y - z*w) * s[1], (1 - 2*(x*x+z*z)) * s[1], 2 * (y*z + x*w) * s[1], 0,
		2 * (x*z + y*w) * s[2], 2 * (y*z - x*w) * s[2], (1 - 2*(x*x+y*y)) * s[2], 0,
		t[0], t[1], t[2], 1,
	}
}

// sample is the value of a sampler at time tm, per glTF (clamped at the
// ends).
func sample(sm scene.AnimationSampler, width int, tm float64) []float64 {
	in := sm.Input
	k := sort.Search(len(in), func(i int) bool { return float64(in[i]) > tm })
	at := func(i int) []float64 {
		v := make([]float64, width)
		for c := range v {
			v[c] = float64(sm.Output[i*width+c])
		}
		return v
	}
	if k == 0 {
		return at(0)
	}
	if k == len(in) {
		return at(len(in) - 1)
	}
	a, b := at(k-1), at(k)
	u := (tm - float64(in[k-1])) / float64(in[k]-in[k-1])
	if width == 4 {
		q := slerp(quat(a), quat(b), u)
		return q[:]
	}
	for c := range a {
		a[c] += (b[c] - a[c]) * u
	}
	return a
}

// world poses the scene at time tm of anim (the rest pose when anim is
// nil) and returns every node's world position.
func (pl *player) world(anim *scene.Animation, tm float64) [][3]float64 {
	w := pl.matrices(anim, tm)
	out := make([][3]float64, len(w))
	for i, m := range w {
		out[i] = [3]float64{m[12], m[13], m[14]}
	}
	return out
}

// matrices is every node's world matrix at time tm of anim.
func (pl *player) matrices(anim *scene.Animation, tm float64) []mat {
	s := pl.s
	n := len(s.Nodes)
	tr := make([][3]float64, n)
	rot := make([][4]float64, n)
	sc := make([][3]float64, n)
	for i, nd := range s.Nodes {
		tr[i], rot[i], sc[i] = nd.TranslationOrDefault(), nd.RotationOrDefault(), nd.ScaleOrDefault()
	}
	if anim != nil {
		for _, c := range anim.Channels {
			sm := anim.Samplers[c.Sampler]
			switch c.Path {
			case gltf.TRSTranslation:
				tr[*c.Node] = [3]float64(sample(sm, 3, tm))
			case gltf.TRSRotation:
				rot[*c.Node] = [4]float64(sample(sm, 4, tm))
			case gltf.TRSScale:
				sc[*c.Node] = [3]float64(sample(sm, 3, tm))
			}
		}
	}
	w := make([]mat, n)
	done := make([]bool, n)
	var get func(int) mat
	get = func(i int) mat {
		if done[i] {
			return w[i]
		}
		var l mat
		if m := s.Nodes[i].MatrixOrDefault(); m != gltf.DefaultMatrix {
			l = mat(m)
		} else {
			l = trsMat(tr[i], rot[i], sc[i])
		}
		if p := pl.parent[i]; p >= 0 {
			l = get(p).mul(l)
		}
		w[i], done[i] = l, true
		return l
	}
	for i := range s.Nodes {
		get(i)
	}
	return w
}

func (m mat) point(v [3]float32) vec {
	x, y, z := float64(v[0]), float64(v[1]), float64(v[2])
	return vec{m[0]*x + m[4]*y + m[8]*z + m[12], m[1]*x + m[5]*y + m[9]*z + m[13], m[2]*x + m[6]*y + m[10]*z + m[14]}
}

// checkSkinned skins every mesh of the scene (linear blend skinning with
// the inverse bind matrices, as a player does) at times through the
// clip: every vertex stays finite and within a box around the body.
func checkSkinned(t *testing.T, s *scene.Scene, a *scene.Animation) {
	t.Helper()
	pl := newPlayer(t, s)
	hips := pl.restP[pl.node(t, "Hips")]
	reach := 2 * hips[1]
	for _, tm := range []float64{0, duration(a) * 0.3, duration(a) * 0.55, duration(a) * 0.8} {
		w := pl.matrices(a, tm)
		for ni, n := range s.Nodes {
			if n.Mesh == nil || n.Skin == nil {
				continue
			}
			sk := s.Skins[*n.Skin]
			joint := make([]mat, len(sk.Joints))
			for j, node := range sk.Joints {
				ibm := mat{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}
				if sk.InverseBindMatrices != nil {
					for k := range ibm {
						ibm[k] = float64(sk.InverseBindMatrices[j][k])
					}
				}
				joint[j] = w[node].mul(ibm)
			}
			for _, p := range s.Meshes[*n.Mesh].Primitives {
				if len(p.Joints) == 0 {
					continue
				}
				for v, pos := range p.Positions {
					var out vec
					for k := 0; k < 4; k++ {
						if wt := float64(p.Weights[0][v][k]); wt != 0 {
							out = out.add(joint[p.Joints[0][v][k]].point(pos).scale(wt))
						}
					}
					for c := range out {
						if math.IsNaN(out[c]) || math.Abs(out[c]-hips[c]) > reach {
							t.Fatalf("%s t=%.2f: node %d (%s) vertex %d at %v", a.Name, tm, ni, n.Name, v, out)
						}
					}
				}
			}
		}
	}
}

// frame is a posed instant, addressed by joint name.
type frame struct {
	pl  *player
	pos [][3]float64
}

func (pl *player) at(anim *scene.Animation, tm float64) frame {
	return frame{pl, pl.world(anim, tm)}
}

func (f frame) p(t *testing.T, name string) vec { return vec(f.pos[f.pl.node(t, name)]) }

// contact is how far the lower foot is above the floor: for each foot
// the lowest of heel (ankle), ball and toe tip relative to its rest
// height, since the feet rest on the floor.
func (f frame) contact(t *testing.T) (low float64, perFoot [2]float64) {
	for k, foot := range feet {
		perFoot[k] = math.Inf(1)
		for _, j := range foot {
			i := f.pl.node(t, j)
			perFoot[k] = math.Min(perFoot[k], f.pos[i][1]-f.pl.restP[i][1])
		}
	}
	return math.Min(perFoot[0], perFoot[1]), perFoot
}

func animationNamed(t *testing.T, s *scene.Scene, name string) *scene.Animation {
	t.Helper()
	for _, a := range s.Animations {
		if a.Name == name {
			return a
		}
	}
	t.Fatalf("no animation %q", name)
	return nil
}

func duration(a *scene.Animation) float64 {
	var d float32
	for _, sm := range a.Samplers {
		d = max(d, sm.Input[len(sm.Input)-1])
	}
	return float64(d)
}
