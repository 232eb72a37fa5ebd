package avatar

import (
	"strings"

	"github.com/kilnhq/kiln/assets/xform"
)

// Rig is a skeleton in its rest pose: joint names, the parent of each
// joint (an index into Names, -1 for the root) and each joint's local
// transform relative to its parent. Parents always come before their
// children, so a single forward pass composes world matrices.
type Rig struct {
	Names  []string
	Parent []int
	Rest   []Transform
}

// Transform is a local rest transform in glTF's terms (translation,
// rotation quaternion x, y, z, w, scale), in float32, the precision a
// GLB stores, so that the rest pose written is exactly the one described.
type Transform struct {
	Translation [3]float32
	Rotation    [4]float32
	Scale       [3]float32
}

// fingers are the finger chains of each hand, in the leader's order.
var fingers = []string{"Thumb", "Index", "Middle", "Ring", "Pinky"}

// JointNames lists the 67 joints in the leader's (Ready Player Me, that is
// Mixamo without the prefix) order and naming, so that clips and client
// code written for those avatars address ours by the same names.
func JointNames() []string {
	names, _ := hierarchy()
	return names
}

// hierarchy gives the joint names and their parents' indices.
func hierarchy() ([]string, []int) {
	var names []string
	var parent []int
	add := func(name string, p int) int {
		names = append(names, name)
		parent = append(parent, p)
		return len(names) - 1
	}
	hips := add("Hips", -1)
	spine := add("Spine", hips)
	spine1 := add("Spine1", spine)
	spine2 := add("Spine2", spine1)
	neck := add("Neck", spine2)
	head := add("Head", neck)
	add("HeadTop_End", head)
	add("LeftEye", head)
	add("RightEye", head)
	for _, side := range []string{"Left", "Right"} {
		j := add(side+"Shoulder", spine2)
		j = add(side+"Arm", j)
		j = add(side+"ForeArm", j)
		hand := add(side+"Hand", j)
		for _, f := range fingers {
			p := hand
			for k := 1; k <= 4; k++ {
				p = add(side+"Hand"+f+string(rune('0'+k)), p)
			}
		}
	}
	for _, side := range []string{"Left", "Right"} {
		j := add(side+"UpLeg", hips)
		j = add(side+"Leg", j)
		j = add(side+"Foot", j)
		j = add(side+"ToeBase", j)
		add(side+"Toe_End", j)
	}
	return names, parent
}

// mainChild is the child a joint's +Y axis points to (the bone it
// carries), or -1 for an end joint. It is the first child, except for the
// hands, whose bone runs to the middle finger as in Mixamo rigs.
func mainChild(names []string, parent []int, j int) int {
	want := ""
	switch names[j] {
	case "LeftHand":
		want = "LeftHandMiddle1"
	case "RightHand":
		want = "RightHandMiddle1"
	}
	for c := j + 1; c < len(names); c++ {
		if parent[c] == j && (want == "" || names[c] == want) {
			return c
		}
	}
	return -1
}

// Skeleton is the rest pose of the avatar of a configuration (the zero
// fields resolved from the gender's default): the 67 joints placed on
// its shaped body (see body), so the rig fits every height, build and
// proportion. Joint orientations follow one rule for every body, so a
// clip authored as rotations relative to the rest pose plays alike on
// all of them.
//
// Conventions (Mixamo's, which the leader's avatars follow): metres, +Y
// up, facing +Z, soles on y=0; each joint's local +Y runs along its bone
// toward its main child; the Hips are unrotated; arms hang in MakeHuman's
// A-pose, about 50° below horizontal. The twist about each bone matches
// Mixamo rigs: spine, neck and head have +X to the avatar's left; arm,
// hand and finger joints have +X pointing backward on the left side
// (forward on the right), so a finger curls about its local X; leg and
// foot joints have +X to the avatar's right.
func Skeleton(gender string, cfg Config) Rig {
	if cfg.Body.Type == "" {
		cfg.Body.Type = gender
	}
	return rigOf(shapeBody(cfg.resolve()).Joints())
}

// rigOf builds the rest pose from joint positions (metres, by name): the
// left side is taken as placed and the right side made its exact mirror
// image, so that a clip mirrored between the sides stays symmetric.
func rigOf(joints map[string][3]float32) Rig {
	names, parent := hierarchy()
	idx := make(map[string]int, len(names))
	for i, n := range names {
		idx[n] = i
	}
	pos := make([]vec3, len(names))
	hint := make([]vec3, len(names)) // a world direction for each joint's +X
	X, Y, Z := vec3{1, 0, 0}, vec3{0, 1, 0}, vec3{0, 0, 1}
	back, right := Z.scale(-1), X.scale(-1)
	for i, n := range names {
		p := joints[n]
		pos[i] = vec3{float64(p[0]), float64(p[1]), float64(p[2])}
		switch {
		case !strings.HasPrefix(n, "Left") && !strings.HasPrefix(n, "Right"), n == "LeftEye":
			hint[i] = X
			if n != "LeftEye" {
				// The middle chain sits on the plane of symmetry.
				pos[i][0] = 0
			}
		case strings.Contains(n, "Leg") || strings.Contains(n, "Foot") || strings.Contains(n, "Toe"):
			hint[i] = right
		default:
			hint[i] = back
		}
	}
	// The Hips carry the spine straight up (their frame is unrotated and
	// +Y runs along every bone): the root sits under the first spine
	// joint, a few centimetres behind MakeHuman's pelvis centre.
	pos[idx["Hips"]][2] = pos[idx["Spine"]][2]

	// Mirror: positions flip x; the +X hint flips as an axial frame must
	// (x kept, y and z negated), so that the right frames are the mirror
	// images of the left ones, as in Mixamo rigs.
	for i, n := range names {
		if len(n) > 5 && n[:5] == "Right" {
			l := idx["Left"+n[5:]]
			pos[i] = vec3{-pos[l][0], pos[l][1], pos[l][2]}
			hint[i] = vec3{hint[l][0], -hint[l][1], -hint[l][2]}
		}
	}

	// World frames: +Y toward the main child (the parent's frame for an
	// end joint), +X from the hint, +Z completing a right-handed frame.
	world := make([]mat3, len(names))
	for i := range names {
		c := mainChild(names, parent, i)
		switch {
		case names[i] == "Hips":
			world[i] = mat3{X, Y, Z}
		case c < 0:
			world[i] = world[parent[i]]
		default:
			y := pos[c].sub(pos[i]).norm()
			x := hint[i].sub(y.scale(hint[i].dot(y))).norm()
			world[i] = mat3{x, y, x.cross(y)}
		}
	}
	rig := Rig{Names: names, Parent: parent, Rest: make([]Transform, len(names))}
	for i := range names {
		t, r := pos[i], world[i]
		if p := parent[i]; p >= 0 {
			t = world[p].inverseApply(pos[i].sub(pos[p]))
			r = world[p].transposeMul(world[i])
		}
		q := r.quat()
		rig.Rest[i] = Transform{
			Translation: [3]float32{float32(t[0]), float32(t[1]), float32(t[2])},
			Rotation:    [4]float32{float32(q[0]), float32(q[1]), float32(q[2]), float32(q[3])},
			Scale:       [3]float32{1, 1, 1},
		}
	}
	return rig
}

// World composes the rest transforms into each joint's world matrix,
// column-major like glTF; the inverse bind matrices are their inverses.
func (r Rig) World() [][16]float32 {
	out := make([][16]float32, len(r.Names))
	w := make([]xform.Mat4, len(r.Names))
	for i, t := range r.Rest {
		l := trs(t)
		if p := r.Parent[i]; p >= 0 {
			l = w[p].Mul(l)
		}
		w[i] = l
		for k := range 16 {
			out[i][k] = float32(l[k])
		}
	}
	return out
}

// Index gives the position of a joint name in Names, or -1.
func (r Rig) Index(name string) int {
	for i, n := range r.Names {
		if n == name {
			return i
		}
	}
	return -1
}
