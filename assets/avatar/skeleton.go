package avatar

import "math"

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

// resolveBody gives the height and build a skeleton is built for: the
// configuration's, or the gender's defaults where they are zero.
func resolveBody(gender string, cfg Config) (height, build float64) {
	d := Default(gender)
	height, build = cfg.Body.Height, cfg.Body.Build
	if height == 0 {
		height = d.Body.Height
	}
	if cfg.Body.Type == "" && build == 0 {
		build = d.Body.Build
	}
	return height, build
}

// Skeleton is the rest pose for a gender, scaled to the configuration's
// height and widened by its build. Every skeleton of a gender has the
// same joint orientations (only bone lengths change), so a clip authored
// as rotations relative to the rest pose plays alike on all of them.
//
// Conventions (Mixamo's, which the leader's avatars follow): metres, +Y
// up, facing +Z, soles on y=0; each joint's local +Y runs along its bone
// toward its main child; the Hips are unrotated; arms hang in an A-pose
// 50° below horizontal. The twist about each bone matches Mixamo rigs:
// spine, neck and head have +X to the avatar's left; arm, hand and finger
// joints have +X pointing backward on the left side (forward on the
// right), so a finger curls about its local X; leg and foot joints have
// +X to the avatar's right.
func Skeleton(gender string, cfg Config) Rig {
	names, parent := hierarchy()
	h, build := resolveBody(gender, cfg)
	fem := gender == Feminine
	idx := make(map[string]int, len(names))
	for i, n := range names {
		idx[n] = i
	}
	pos := make([]vec3, len(names))
	hint := make([]vec3, len(names)) // a world direction for each joint's +X
	set := func(name string, p vec3, x vec3) {
		pos[idx[name]] = p
		hint[idx[name]] = x
	}
	// Proportions in fractions of the height, after anthropometric tables
	// (hip joint at 0.53, knee 0.285, shoulder 0.815, chin 0.87).
	hipW := 0.050
	shoulderW := 0.100 + 0.012*(build-0.4)
	if fem {
		hipW, shoulderW = 0.057, 0.088+0.008*(build-0.4)
	}
	X, Y, Z := vec3{1, 0, 0}, vec3{0, 1, 0}, vec3{0, 0, 1}
	set("Hips", vec3{0, 0.53, 0}.scale(h), X)
	set("Spine", vec3{0, 0.575, 0}.scale(h), X)
	set("Spine1", vec3{0, 0.645, -0.004}.scale(h), X)
	set("Spine2", vec3{0, 0.715, -0.008}.scale(h), X)
	set("Neck", vec3{0, 0.835, -0.012}.scale(h), X)
	set("Head", vec3{0, 0.872, -0.004}.scale(h), X)
	set("HeadTop_End", vec3{0, 1, 0.0}.scale(h), X)
	set("LeftEye", vec3{0.0175, 0.938, 0.050}.scale(h), X)
	set("RightEye", vec3{-0.0175, 0.938, 0.050}.scale(h), X)

	// The left side; the right side is its mirror image.
	back := Z.scale(-1)
	shoulderY := 0.815
	set("LeftShoulder", vec3{0.012, shoulderY + 0.004, -0.01}.scale(h), back)
	arm := vec3{shoulderW, shoulderY, -0.01}.scale(h)
	set("LeftArm", arm, back)
	down := 50 * math.Pi / 180
	elbow := arm.add(vec3{math.Cos(down), -math.Sin(down), 0}.scale(0.165 * h))
	set("LeftForeArm", elbow, back)
	foreDir := vec3{0.55, -0.82, 0.16}.norm()
	wrist := elbow.add(foreDir.scale(0.145 * h))
	set("LeftHand", wrist, back)
	// The hand's frame: +Y along the forearm, +X backward, +Z toward the
	// palm, which faces the thigh.
	hx := back.sub(foreDir.scale(back.dot(foreDir))).norm()
	hy := foreDir
	hz := hx.cross(hy)
	inHand := func(x, y, z float64) vec3 { return hx.scale(x).add(hy.scale(y)).add(hz.scale(z)) }
	type finger struct {
		name    string
		base    vec3       // knuckle in the hand frame, fractions of height
		spread  float64    // radians toward +X (the pinky side)
		lengths [3]float64 // the three phalanges (metacarpal for the thumb)
	}
	for _, f := range []finger{
		{"Thumb", vec3{-0.010, 0.012, 0.006}, -0.75, [3]float64{0.021, 0.017, 0.015}},
		{"Index", vec3{-0.012, 0.052, 0}, -0.08, [3]float64{0.025, 0.014, 0.012}},
		{"Middle", vec3{-0.0035, 0.054, 0}, -0.02, [3]float64{0.027, 0.016, 0.013}},
		{"Ring", vec3{0.0055, 0.051, 0}, 0.05, [3]float64{0.025, 0.015, 0.012}},
		{"Pinky", vec3{0.0135, 0.046, 0}, 0.13, [3]float64{0.019, 0.011, 0.010}},
	} {
		p := wrist.add(inHand(f.base[0], f.base[1], f.base[2]).scale(h))
		curl := 0.12
		if f.name == "Thumb" {
			curl = 0.35
		}
		for k := 0; k < 4; k++ {
			set("LeftHand"+f.name+string(rune('1'+k)), p, hx)
			if k == 3 {
				break
			}
			a := curl * float64(k+1)
			d := inHand(math.Sin(f.spread)*math.Cos(a), math.Cos(f.spread)*math.Cos(a), math.Sin(a)).norm()
			p = p.add(d.scale(f.lengths[k] * h))
		}
	}
	right := X.scale(-1)
	set("LeftUpLeg", vec3{hipW, 0.522, 0}.scale(h), right)
	set("LeftLeg", vec3{hipW * 0.92, 0.285, 0.004}.scale(h), right)
	set("LeftFoot", vec3{hipW * 0.9, 0.045, -0.008}.scale(h), right)
	set("LeftToeBase", vec3{hipW * 0.95, 0.012, 0.075}.scale(h), right)
	set("LeftToe_End", vec3{hipW, 0.012, 0.12}.scale(h), right)

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
	w := make([]mat4, len(r.Names))
	for i, t := range r.Rest {
		l := trs(t)
		if p := r.Parent[i]; p >= 0 {
			l = w[p].mul(l)
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
