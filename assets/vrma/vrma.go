// Package vrma turns Kiln's built-in clips into VRM Animation files
// (.vrma, the VRMC_vrm_animation glTF extension), so that VRM apps
// (three-vrm, UniVRM, VRM Posing Desktop...) can play them on any VRM.
//
// A library clip (package animation) is baked onto the Kiln rig, whose
// rest pose is an A-pose with the bone axes of the leader's rig. VRM
// Animation wants something else: its humanoid nodes must be at rest in
// the VRM T-pose (facing +Z, arms level), and an app retargets a clip by
// the bones' rotations relative to that rest. So the conversion plays the
// clip on the rig, frame by frame, and writes for each humanoid bone the
// rotation that takes its T-pose world orientation to the clip's, made
// local to its humanoid parent, on nodes whose rest rotations are all the
// identity (VRM's normalised bones), plus the hips' position.
package vrma

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"sync"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/animation"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/vrm"
	"github.com/kilnhq/kiln/assets/xform"
)

// Extension is the glTF extension a VRM Animation file carries.
const Extension = "VRMC_vrm_animation"

// Humanoid maps the Kiln (Mixamo) joint names to VRM 1.0 humanoid bone
// names, in the rig's order, parents first. The eyes are left out: VRM
// Animation moves them with lookAt, never as bones; the end joints
// (HeadTop_End, the fourth finger joints, the toe ends) are no VRM bones.
var Humanoid = [][2]string{
	{"Hips", "hips"}, {"Spine", "spine"}, {"Spine1", "chest"}, {"Spine2", "upperChest"},
	{"Neck", "neck"}, {"Head", "head"},
	{"LeftShoulder", "leftShoulder"}, {"LeftArm", "leftUpperArm"}, {"LeftForeArm", "leftLowerArm"}, {"LeftHand", "leftHand"},
	{"RightShoulder", "rightShoulder"}, {"RightArm", "rightUpperArm"}, {"RightForeArm", "rightLowerArm"}, {"RightHand", "rightHand"},
	{"LeftUpLeg", "leftUpperLeg"}, {"LeftLeg", "leftLowerLeg"}, {"LeftFoot", "leftFoot"}, {"LeftToeBase", "leftToes"},
	{"RightUpLeg", "rightUpperLeg"}, {"RightLeg", "rightLowerLeg"}, {"RightFoot", "rightFoot"}, {"RightToeBase", "rightToes"},
}

func init() {
	fingers := [][2]string{{"Thumb", "Thumb"}, {"Index", "Index"}, {"Middle", "Middle"}, {"Ring", "Ring"}, {"Pinky", "Little"}}
	for _, side := range [][2]string{{"Left", "left"}, {"Right", "right"}} {
		for _, f := range fingers {
			parts := []string{"Proximal", "Intermediate", "Distal"}
			if f[0] == "Thumb" {
				parts = []string{"Metacarpal", "Proximal", "Distal"}
			}
			for i, p := range parts {
				Humanoid = append(Humanoid, [2]string{fmt.Sprintf("%sHand%s%d", side[0], f[0], i+1), side[1] + f[1] + p})
			}
		}
	}
}

// required are VRM 1.0's required humanoid bones: a rig without one of
// them cannot make a VRM Animation.
var required = []string{"hips", "spine", "head", "leftUpperArm", "leftLowerArm", "leftHand", "rightUpperArm", "rightLowerArm", "rightHand",
	"leftUpperLeg", "leftLowerLeg", "leftFoot", "rightUpperLeg", "rightLowerLeg", "rightFoot"}

type entry struct {
	once sync.Once
	data []byte
	err  error
}

var (
	mu    sync.Mutex
	cache = map[string]*entry{}
)

// File is the VRM Animation of a built-in clip of a gender, made from the
// animation library's GLB on first use and kept (the library never
// changes while the process runs). Unknown genders and names are the
// library's KindInvalid errors.
func File(gender, name string) ([]byte, error) {
	glb, err := animation.GLB(gender, name)
	if err != nil {
		return nil, err
	}
	mu.Lock()
	e, ok := cache[gender+"/"+name]
	if !ok {
		e = &entry{}
		cache[gender+"/"+name] = e
	}
	mu.Unlock()
	e.once.Do(func() {
		s, err := scene.Read(glb, scene.ReadOptions{})
		if err != nil {
			e.err = kiln.E("vrma.File", err)
			return
		}
		out, err := Convert(s)
		if err != nil {
			e.err = err
			return
		}
		e.data, e.err = scene.Write(out)
	})
	return e.data, e.err
}

// Convert makes the VRM Animation scene of a skeleton with Kiln's joint
// names and its first animation.
func Convert(src *scene.Scene) (*scene.Scene, error) {
	if len(src.Animations) == 0 {
		return nil, kiln.Errorf(kiln.KindUnprocessable, "no_animation", "the file has no animation to convert")
	}
	byName := map[string]int{}
	for i, n := range src.Nodes {
		if _, dup := byName[n.Name]; !dup {
			byName[n.Name] = i
		}
	}
	var bones [][2]string // present humanoid bones, parents first
	for _, h := range Humanoid {
		if _, ok := byName[h[0]]; ok {
			bones = append(bones, h)
		}
	}
	var missing []string
	for _, r := range required {
		if !slices.ContainsFunc(bones, func(h [2]string) bool { return h[1] == r }) {
			missing = append(missing, r)
		}
	}
	if len(missing) > 0 {
		return nil, kiln.Errorf(kiln.KindUnprocessable, "no_humanoid", "the skeleton lacks the humanoid bones %v", missing)
	}
	parent := src.Parents()
	// The T-pose: the rig straightened as the VRM export straightens an
	// avatar (vrm.TPose: arms, hands and fingers along X), read as world
	// matrices, so a clip retargeted from this rest lands on a Kiln VRM
	// exactly as on the rig.
	tposed := &scene.Scene{Nodes: make([]*gltf.Node, len(src.Nodes))}
	for i, n := range src.Nodes {
		c := *n
		c.Children = slices.Clone(n.Children)
		tposed.Nodes[i] = &c
	}
	if err := vrm.TPose(tposed); err != nil {
		return nil, err
	}
	tWorld := xform.Worlds(tposed, parent, nil)
	// VRM faces +Z with the character's left on +X; a rig facing -Z is
	// turned about Y first.
	face := xform.Identity
	if tWorld[byName["LeftUpLeg"]][12] < tWorld[byName["RightUpLeg"]][12] {
		face = xform.AxisAngle([3]float64{0, 1, 0}, math.Pi)
	}
	// The humanoid parent of each bone: its nearest ancestor that is a
	// humanoid bone.
	index := map[int]int{} // source node -> bone index
	for b, h := range bones {
		index[byName[h[0]]] = b
	}
	hparent := make([]int, len(bones))
	for b, h := range bones {
		hparent[b] = -1
		for p := parent[byName[h[0]]]; p >= 0; p = parent[p] {
			if k, ok := index[p]; ok {
				hparent[b] = k
				break
			}
		}
	}
	// Nodes: every bone at its T-pose position, no rotation, so the
	// rest is VRM's normalised T-pose.
	out := &scene.Scene{Asset: gltf.Asset{Version: "2.0", Generator: "Kiln"}}
	tpos := make([][3]float64, len(bones))
	tinv := make([]xform.Mat4, len(bones))
	for b, h := range bones {
		w := face.Mul(tWorld[byName[h[0]]])
		tpos[b] = w.Translation()
		inv, ok := rotationOf(w).Inverse()
		if !ok {
			return nil, kiln.Errorf(kiln.KindUnprocessable, "no_humanoid", "joint %s has a singular transform", h[0])
		}
		tinv[b] = inv
	}
	var roots []int
	for b, h := range bones {
		t := tpos[b]
		if p := hparent[b]; p >= 0 {
			t = sub(t, tpos[p])
		}
		out.Nodes = append(out.Nodes, &gltf.Node{Name: h[0], Translation: t})
		if p := hparent[b]; p >= 0 {
			out.Nodes[p].Children = append(out.Nodes[p].Children, b)
		} else {
			roots = append(roots, b)
		}
	}
	out.Scenes = []*gltf.Scene{{Name: "Scene", Nodes: roots}}
	out.DefaultScene = gltf.Index(0)

	// Play the clip on the source rig at every key time.
	a := src.Animations[0]
	times := keyTimes(a)
	if len(times) == 0 {
		return nil, kiln.Errorf(kiln.KindUnprocessable, "no_animation", "the animation %q has no keys", a.Name)
	}
	rot := make([][]float32, len(bones))
	hipsPos := make([]float32, 0, 3*len(times))
	prev := make([][4]float64, len(bones))
	for ti, t := range times {
		local := make([]xform.Mat4, len(src.Nodes))
		for i, n := range src.Nodes {
			local[i] = xform.Local(n)
		}
		for _, ch := range a.Channels {
			if ch.Node == nil || *ch.Node < 0 || *ch.Node >= len(src.Nodes) || ch.Sampler < 0 || ch.Sampler >= len(a.Samplers) {
				continue
			}
			n := src.Nodes[*ch.Node]
			tr, q, sc := n.TranslationOrDefault(), n.RotationOrDefault(), n.ScaleOrDefault()
			sm := a.Samplers[ch.Sampler]
			switch ch.Path {
			case gltf.TRSTranslation:
				v := sample(sm, t, 3)
				tr = [3]float64{v[0], v[1], v[2]}
			case gltf.TRSRotation:
				v := sample(sm, t, 4)
				q = normalize([4]float64{v[0], v[1], v[2], v[3]})
			case gltf.TRSScale:
				v := sample(sm, t, 3)
				sc = [3]float64{v[0], v[1], v[2]}
			default:
				continue
			}
			// A matrix node cannot be animated (glTF), so TRS is the
			// whole local transform here.
			local[*ch.Node] = xform.TRS(tr, q, sc)
		}
		world := xform.Worlds(src, parent, local)
		// Each bone's turn away from its T-pose, in world axes.
		delta := make([]xform.Mat4, len(bones))
		for b, h := range bones {
			delta[b] = rotationOf(face.Mul(world[byName[h[0]]])).Mul(tinv[b])
		}
		for b := range bones {
			d := delta[b]
			if p := hparent[b]; p >= 0 {
				pinv, _ := delta[p].Inverse()
				d = pinv.Mul(d)
			}
			q := xform.Quaternion(d)
			if ti > 0 && dot4(q, prev[b]) < 0 {
				q = [4]float64{-q[0], -q[1], -q[2], -q[3]}
			}
			prev[b] = q
			rot[b] = append(rot[b], float32(q[0]), float32(q[1]), float32(q[2]), float32(q[3]))
		}
		hp := face.Mul(world[byName["Hips"]]).Translation()
		hipsPos = append(hipsPos, float32(hp[0]), float32(hp[1]), float32(hp[2]))
	}
	input := make([]float32, len(times))
	for i, t := range times {
		input[i] = float32(t)
	}
	anim := &scene.Animation{Name: a.Name}
	for b := range bones {
		anim.Samplers = append(anim.Samplers, scene.AnimationSampler{Interpolation: gltf.InterpolationLinear, Input: input, Output: rot[b]})
		anim.Channels = append(anim.Channels, scene.Channel{Sampler: b, Node: gltf.Index(b), Path: gltf.TRSRotation})
	}
	anim.Samplers = append(anim.Samplers, scene.AnimationSampler{Interpolation: gltf.InterpolationLinear, Input: input, Output: hipsPos})
	anim.Channels = append(anim.Channels, scene.Channel{Sampler: len(bones), Node: gltf.Index(0), Path: gltf.TRSTranslation})
	out.Animations = []*scene.Animation{anim}

	humanBones := map[string]any{}
	for b, h := range bones {
		humanBones[h[1]] = map[string]any{"node": b}
	}
	out.Extensions = gltf.Extensions{Extension: map[string]any{
		"specVersion": "1.0",
		"humanoid":    map[string]any{"humanBones": humanBones},
	}}
	return out, nil
}

// keyTimes are the key times of every channel, merged and sorted (the
// library's clips share one set of times).
func keyTimes(a *scene.Animation) []float64 {
	seen := map[float32]bool{}
	var out []float64
	for _, s := range a.Samplers {
		for _, t := range s.Input {
			if !seen[t] {
				seen[t] = true
				out = append(out, float64(t))
			}
		}
	}
	sort.Float64s(out)
	return out
}

// sample is a sampler's value at time t: held before the first key and
// after the last, linear between keys (normalised for rotations by the
// caller), STEP holding the earlier key, CUBICSPLINE read at its values.
func sample(s scene.AnimationSampler, t float64, width int) []float64 {
	value := func(k int) []float64 {
		off := k * width
		if s.Interpolation == gltf.InterpolationCubicSpline {
			off = (3*k + 1) * width
		}
		out := make([]float64, width)
		for i := range out {
			if off+i < len(s.Output) {
				out[i] = float64(s.Output[off+i])
			}
		}
		return out
	}
	n := len(s.Input)
	if n == 0 {
		return make([]float64, width)
	}
	if t <= float64(s.Input[0]) {
		return value(0)
	}
	if t >= float64(s.Input[n-1]) {
		return value(n - 1)
	}
	k := sort.Search(n, func(i int) bool { return float64(s.Input[i]) > t }) - 1
	a, b := value(k), value(k+1)
	if s.Interpolation == gltf.InterpolationStep {
		return a
	}
	f := (t - float64(s.Input[k])) / float64(s.Input[k+1]-s.Input[k])
	if width == 4 {
		var d float64
		for i := range 4 {
			d += a[i] * b[i]
		}
		if d < 0 {
			for i := range b {
				b[i] = -b[i]
			}
		}
	}
	for i := range a {
		a[i] += (b[i] - a[i]) * f
	}
	return a
}

// rotationOf is the rotation of a transform: its columns normalised, no
// translation.
func rotationOf(m xform.Mat4) xform.Mat4 {
	r := xform.Identity
	for c := range 3 {
		l := math.Sqrt(m[c*4]*m[c*4] + m[c*4+1]*m[c*4+1] + m[c*4+2]*m[c*4+2])
		if l == 0 {
			l = 1
		}
		for k := range 3 {
			r[c*4+k] = m[c*4+k] / l
		}
	}
	return r
}

func normalize(q [4]float64) [4]float64 {
	l := math.Sqrt(dot4(q, q))
	if l == 0 {
		return [4]float64{0, 0, 0, 1}
	}
	return [4]float64{q[0] / l, q[1] / l, q[2] / l, q[3] / l}
}

func dot4(a, b [4]float64) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] + a[3]*b[3] }

func sub(a, b [3]float64) [3]float64 { return [3]float64{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
