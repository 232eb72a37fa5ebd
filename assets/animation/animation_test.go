package animation

import (
	"errors"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/avatar"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/internal/gltfcheck"
	"github.com/qmuntal/gltf"
)

func TestNames(t *testing.T) {
	names := Names()
	if !slices.IsSorted(names) {
		t.Errorf("Names() not sorted: %v", names)
	}
	for _, want := range []string{"locomotion_idle", "locomotion_walk", "locomotion_run", "gesture_wave", "gesture_nod", "gesture_clap", "gesture_point"} {
		if !slices.Contains(names, want) {
			t.Errorf("Names() lacks %s", want)
		}
	}
	if g := Genders(); !slices.Equal(g, []string{"masculine", "feminine"}) {
		t.Errorf("Genders() = %v", g)
	}
	for _, tc := range []struct {
		gender, name string
		ok           bool
	}{
		{"masculine", "locomotion_walk", true},
		{"feminine", "gesture_wave", true},
		{"male", "locomotion_walk", false},
		{"feminine", "walk", false},
		{"", "", false},
	} {
		if got := Valid(tc.gender, tc.name); got != tc.ok {
			t.Errorf("Valid(%q, %q) = %v", tc.gender, tc.name, got)
		}
		if _, err := GLB(tc.gender, tc.name); (err == nil) != tc.ok || (err != nil && kiln.KindOf(err) != kiln.KindInvalid) {
			t.Errorf("GLB(%q, %q): %v", tc.gender, tc.name, err)
		}
	}
}

// glbScene is the library file of a clip, validated and read back.
func glbScene(t *testing.T, gender, name string) *scene.Scene {
	t.Helper()
	glb, err := GLB(gender, name)
	if err != nil {
		t.Fatal(err)
	}
	s, err := scene.Read(glb, scene.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestGLB(t *testing.T) {
	for _, gender := range Genders() {
		for _, name := range Names() {
			t.Run(gender+"/"+name, func(t *testing.T) {
				glb, err := GLB(gender, name)
				if err != nil {
					t.Fatal(err)
				}
				if again, _ := GLB(gender, name); &again[0] != &glb[0] {
					t.Error("GLB is baked again instead of cached")
				}
				gltfcheck.RequireValid(t, glb)
				s := glbScene(t, gender, name)
				root := s.Nodes[s.Scenes[0].Nodes[0]]
				if root.Name != "Armature" {
					t.Errorf("root node %q, want Armature", root.Name)
				}
				var joints []string
				for _, n := range s.Nodes[1:] {
					joints = append(joints, n.Name)
				}
				if !slices.Equal(joints, avatar.JointNames()) || len(joints) != 67 {
					t.Errorf("joints %v", joints)
				}
				if len(s.Animations) != 1 || s.Animations[0].Name != name {
					t.Fatalf("animations %d, want one named %s", len(s.Animations), name)
				}
				a := s.Animations[0]
				for _, sm := range a.Samplers {
					for _, v := range sm.Output {
						if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
							t.Fatal("non-finite key")
						}
					}
				}
				checkPlays(t, s, a)
			})
		}
	}
}

// checkPlays poses the skeleton through the clip: every joint stays
// finite and within a plausible box around the body.
func checkPlays(t *testing.T, s *scene.Scene, a *scene.Animation) {
	t.Helper()
	pl := newPlayer(t, s)
	hips := pl.node(t, "Hips")
	height := pl.restP[hips][1]
	for tm := 0.0; tm <= duration(a); tm += 1.0 / 60 {
		f := pl.at(a, tm)
		for i, p := range f.pos {
			for c, v := range p {
				if math.IsNaN(v) || math.Abs(v-pl.restP[hips][c]) > 2*height {
					t.Fatalf("t=%.2f: node %s at %v", tm, s.Nodes[i].Name, p)
				}
			}
		}
	}
}

func TestLoops(t *testing.T) {
	for _, gender := range Genders() {
		for _, name := range Names() {
			if !strings.HasPrefix(name, "locomotion_") {
				continue
			}
			t.Run(gender+"/"+name, func(t *testing.T) {
				s := glbScene(t, gender, name)
				checkLoop(t, s.Animations[0])
			})
		}
	}
}

// checkLoop: the last key is the first, and the motion runs through the
// seam as smoothly as through any other key: the change of velocity
// there is no larger than the largest within the cycle.
func checkLoop(t *testing.T, a *scene.Animation) {
	t.Helper()
	for _, c := range a.Channels {
		sm := a.Samplers[c.Sampler]
		w := 3
		if c.Path == gltf.TRSRotation {
			w = 4
		}
		n := len(sm.Input)
		key := func(i int) []float64 {
			v := make([]float64, w)
			for k := range v {
				v[k] = float64(sm.Output[i*w+k])
			}
			if w == 4 && v[0]*float64(sm.Output[0])+v[1]*float64(sm.Output[1])+v[2]*float64(sm.Output[2])+v[3]*float64(sm.Output[3]) < 0 {
				for k := range v {
					v[k] = -v[k]
				}
			}
			return v
		}
		first, last := key(0), key(n-1)
		tol := 0.001 // metres
		if w == 4 {
			tol = 1e-4
		}
		for k := range first {
			if math.Abs(first[k]-last[k]) > tol {
				t.Fatalf("node %d %s: first key %v, last %v", *c.Node, c.Path, first, last)
			}
		}
		accel := func(prev, at, next int) float64 {
			a, b, c := key(prev), key(at), key(next)
			var m float64
			for k := range a {
				m = math.Max(m, math.Abs(c[k]-2*b[k]+a[k]))
			}
			return m
		}
		var inner float64
		for i := 1; i < n-1; i++ {
			inner = math.Max(inner, accel(i-1, i, i+1))
		}
		if seam := accel(n-2, 0, 1); seam > inner*1.05+1e-5 {
			t.Errorf("node %d %s: velocity changes by %.4f per frame at the seam, at most %.4f elsewhere", *c.Node, c.Path, seam, inner)
		}
	}
}

// gait measures a locomotion clip by forward kinematics.
type gaitFigures struct {
	stride           float64 // the largest distance the feet are apart along Z
	leftFront        bool    // the left foot leads at some instant while the right trails
	rightFront       bool
	contactMin       float64 // of the lower foot, over the cycle
	contactMax       float64
	hipsMin, hipsMax float64
}

func measureGait(t *testing.T, s *scene.Scene, a *scene.Animation) gaitFigures {
	t.Helper()
	pl := newPlayer(t, s)
	g := gaitFigures{contactMin: math.Inf(1), contactMax: math.Inf(-1), hipsMin: math.Inf(1), hipsMax: math.Inf(-1)}
	d := duration(a)
	for tm := 0.0; tm <= d+1e-9; tm += d / 120 {
		f := pl.at(a, tm)
		l, r := f.p(t, "LeftFoot"), f.p(t, "RightFoot")
		hip := f.p(t, "Hips")
		// Relative to the hips: in place, the body does not travel.
		dz := (l[2] - hip[2]) - (r[2] - hip[2])
		g.stride = math.Max(g.stride, math.Abs(dz))
		if dz > 0.1 {
			g.leftFront = true
		}
		if dz < -0.1 {
			g.rightFront = true
		}
		c, _ := f.contact(t)
		g.contactMin, g.contactMax = math.Min(g.contactMin, c), math.Max(g.contactMax, c)
		g.hipsMin, g.hipsMax = math.Min(g.hipsMin, hip[1]), math.Max(g.hipsMax, hip[1])
		if math.IsNaN(c) || math.IsNaN(hip[1]) {
			t.Fatalf("t=%.2f: NaN", tm)
		}
	}
	return g
}

func checkWalk(t *testing.T, s *scene.Scene, a *scene.Animation) gaitFigures {
	t.Helper()
	g := measureGait(t, s, a)
	t.Logf("walk: stride %.3f m, lower foot %.3f..%.3f m, hips %.3f..%.3f m", g.stride, g.contactMin, g.contactMax, g.hipsMin, g.hipsMax)
	if !g.leftFront || !g.rightFront {
		t.Errorf("feet do not alternate: left leads %v, right leads %v", g.leftFront, g.rightFront)
	}
	if g.stride < 0.35 || g.stride > 1 {
		t.Errorf("feet %.3f m apart at most, want a step", g.stride)
	}
	if g.contactMin < -0.02 || g.contactMax > 0.03 {
		t.Errorf("lower foot %.3f..%.3f m from the floor, want on it", g.contactMin, g.contactMax)
	}
	if bob := g.hipsMax - g.hipsMin; bob < 0.015 || bob > 0.08 {
		t.Errorf("hips bob %.3f m", bob)
	}
	return g
}

func checkWave(t *testing.T, s *scene.Scene, a *scene.Animation) {
	t.Helper()
	pl := newPlayer(t, s)
	above := 0.0
	for tm := 0.0; tm <= duration(a); tm += 0.05 {
		f := pl.at(a, tm)
		above = math.Max(above, f.p(t, "RightHand")[1]-f.p(t, "HeadTop_End")[1])
	}
	t.Logf("wave: right wrist up to %.3f m above the head top", above)
	if above <= 0 {
		t.Errorf("the right hand never rises above the head")
	}
}

func TestWalkAndRun(t *testing.T) {
	for _, gender := range Genders() {
		t.Run(gender, func(t *testing.T) {
			s := glbScene(t, gender, "locomotion_walk")
			w := checkWalk(t, s, s.Animations[0])
			s = glbScene(t, gender, "locomotion_run")
			r := measureGait(t, s, s.Animations[0])
			t.Logf("run: stride %.3f m, lower foot %.3f..%.3f m, hips %.3f..%.3f m", r.stride, r.contactMin, r.contactMax, r.hipsMin, r.hipsMax)
			if r.stride <= w.stride {
				t.Errorf("run stride %.3f m, walk %.3f m", r.stride, w.stride)
			}
			if !r.leftFront || !r.rightFront {
				t.Error("run: feet do not alternate")
			}
			if r.contactMax < 0.02 {
				t.Errorf("run: no flight phase, the lower foot rises %.3f m at most", r.contactMax)
			}
			if r.contactMin < -0.02 || r.contactMin > 0.02 {
				t.Errorf("run: lower foot at least %.3f m from the floor, want touching it", r.contactMin)
			}
		})
	}
}

func TestGestures(t *testing.T) {
	for _, gender := range Genders() {
		t.Run(gender, func(t *testing.T) {
			s := glbScene(t, gender, "gesture_wave")
			checkWave(t, s, s.Animations[0])

			s = glbScene(t, gender, "gesture_clap")
			pl := newPlayer(t, s)
			a := s.Animations[0]
			start := pl.at(a, 0)
			apart := start.p(t, "LeftHand").sub(start.p(t, "RightHand")).length()
			closest := math.Inf(1)
			for tm := 0.0; tm <= duration(a); tm += 1.0 / 60 {
				f := pl.at(a, tm)
				closest = math.Min(closest, f.p(t, "LeftHand").sub(f.p(t, "RightHand")).length())
			}
			t.Logf("clap: wrists %.3f m apart at rest, %.3f m at the closest", apart, closest)
			if closest > 0.05 || apart < 0.3 {
				t.Errorf("clap: hands %.3f m apart at the closest (%.3f at rest)", closest, apart)
			}

			s = glbScene(t, gender, "gesture_point")
			pl = newPlayer(t, s)
			a = s.Animations[0]
			bend := func(f frame) float64 {
				var sum float64
				for j := 1; j <= 2; j++ {
					b := func(k int) vec { return f.p(t, "RightHandIndex"+string(rune('0'+k))) }
					u, v := b(j+1).sub(b(j)), b(j+2).sub(b(j+1))
					sum += math.Acos(math.Min(1, u.unit().dot(v.unit()))) * 180 / math.Pi
				}
				return sum
			}
			rest, held := pl.at(a, 0), pl.at(a, duration(a)/2)
			forward := held.p(t, "RightHand")[2] - rest.p(t, "RightHand")[2]
			t.Logf("point: index bends %.1f° at rest, %.1f° pointing; the hand %.3f m forward", bend(rest), bend(held), forward)
			if bend(held) > 5 || bend(held) > bend(rest) {
				t.Errorf("point: the index finger bends %.1f° (%.1f° at rest)", bend(held), bend(rest))
			}
			if forward < 0.25 {
				t.Errorf("point: the hand moves %.3f m forward", forward)
			}

			s = glbScene(t, gender, "gesture_nod")
			pl = newPlayer(t, s)
			a = s.Animations[0]
			pitch := func(f frame) float64 {
				d := f.p(t, "HeadTop_End").sub(f.p(t, "Neck"))
				return math.Atan2(d[2], d[1]) * 180 / math.Pi
			}
			p0 := pitch(pl.at(a, 0))
			down, up := 0.0, 0.0
			for tm := 0.0; tm <= duration(a); tm += 1.0 / 60 {
				p := pitch(pl.at(a, tm)) - p0
				down, up = math.Max(down, p), math.Min(up, p)
			}
			end := pitch(pl.at(a, duration(a))) - p0
			t.Logf("nod: the head pitches %.1f° down, %.1f° back, ends %.2f° off", down, -up, end)
			if down < 10 || up > -2 || math.Abs(end) > 0.5 {
				t.Errorf("nod: down %.1f°, back %.1f°, end %.1f°", down, -up, end)
			}
		})
	}
}

func TestAttachErrors(t *testing.T) {
	s := glbScene(t, "masculine", "locomotion_idle")
	for _, tc := range []struct {
		gender string
		names  []string
		code   string
		naming string
	}{
		{"robot", []string{"locomotion_walk"}, "invalid_gender", "robot"},
		{"masculine", []string{"locomotion_walk", "moonwalk", "gesture_dab"}, "invalid_animation", `"moonwalk", "gesture_dab"`},
	} {
		err := Attach(s, tc.gender, tc.names)
		var e *kiln.Error
		if !errors.As(err, &e) || e.Kind != kiln.KindInvalid || e.Code != tc.code || !strings.Contains(e.Message, tc.naming) {
			t.Errorf("Attach(%s, %v) = %v", tc.gender, tc.names, err)
		}
	}
	if len(s.Animations) != 1 {
		t.Errorf("a failed Attach added animations")
	}
	if err := Attach(&scene.Scene{}, "masculine", []string{"gesture_nod"}); kiln.KindOf(err) != kiln.KindUnprocessable {
		t.Errorf("Attach to a scene without joints: %v", err)
	}
}

// TestAttachRPM plays every clip on the leader's avatar: the clips are
// baked against its own rest pose, whose A-pose, elbow bend and bone
// lengths differ from Kiln's.
func TestAttachRPM(t *testing.T) {
	for _, file := range []string{"rpm-avatar-casual.glb", "rpm-avatar-office.glb"} {
		t.Run(file, func(t *testing.T) {
			b, err := os.ReadFile("/work/shared/testdata/" + file)
			if err != nil {
				t.Skip("no Ready Player Me avatar:", err)
			}
			s, err := scene.Read(b, scene.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			before := len(s.Animations)
			if err := Attach(s, "masculine", Names()); err != nil {
				t.Fatal(err)
			}
			if err := Attach(s, "masculine", []string{"locomotion_walk"}); err != nil {
				t.Fatal(err)
			}
			if len(s.Animations) != before+len(Names()) {
				t.Fatalf("%d animations, want %d", len(s.Animations), before+len(Names()))
			}
			joints := map[int]bool{}
			for _, sk := range s.Skins {
				for _, j := range sk.Joints {
					joints[j] = true
				}
			}
			for _, a := range s.Animations {
				for _, c := range a.Channels {
					if !joints[*c.Node] {
						t.Errorf("%s drives node %d (%s), not a joint", a.Name, *c.Node, s.Nodes[*c.Node].Name)
					}
				}
			}
			glb, err := scene.Write(s)
			if err != nil {
				t.Fatal(err)
			}
			gltfcheck.RequireValid(t, glb)
			s, err = scene.Read(glb, scene.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range s.Animations {
				checkPlays(t, s, a)
				checkSkinned(t, s, a)
			}
			checkWalk(t, s, animationNamed(t, s, "locomotion_walk"))
			checkWave(t, s, animationNamed(t, s, "gesture_wave"))
		})
	}
}
