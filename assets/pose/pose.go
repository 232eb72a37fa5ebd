// Package pose changes the rest pose of a skinned avatar: the pose its
// file is in before any animation plays. Clients that retarget clips or
// rig avatars to their own skeletons expect one rest pose (the market
// leader's pose=A|T), and a model in the other breaks them.
//
// It works on any model with the leader's skeleton (the Mixamo names
// without prefix): it turns each upper arm (LeftArm, RightArm, with what
// hangs from it) about its shoulder joint until the arm points at the
// asked elevation, re-skins the vertices of every skinned mesh to that
// pose, and recomputes the inverse bind matrices, so that the new rest
// pose and the bind pose agree and a clip moves every joint exactly as
// it did before.
package pose

import (
	"math"
	"slices"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/xform"
)

// Elevations of the upper arm, in degrees below the horizontal: T holds
// the arms out level; A lowers them as the leader's avatars are built
// (measured on its files: 59.4 degrees, where Kiln's own avatars are
// built at about 50), so that clips and rigs made for those fit.
var Elevations = map[string]float64{"T": 0, "A": 59.4}

// arms are the joints turned and, for each, the child that gives its
// direction.
var arms = [][2]string{{"LeftArm", "LeftForeArm"}, {"RightArm", "RightForeArm"}}

// minTurn is the smallest turn applied (radians, a quarter of a
// degree): below it the model is already in the pose, and is left bit
// for bit.
const minTurn = 0.25 * math.Pi / 180

// Apply puts s in the named pose ("A" or "T"). A model without the arm
// joints is a KindUnprocessable error, since it cannot be posed; one that
// is already in the pose is left unchanged.
func Apply(s *scene.Scene, name string) error {
	elevation, ok := Elevations[name]
	if !ok {
		return kiln.Errorf(kiln.KindInvalid, "invalid_pose", "pose must be A or T, got %q", name)
	}
	parent := s.Parents()
	old := xform.Worlds(s, parent, nil)
	turned := false
	for _, arm := range arms {
		upper, lower := find(s, arm[0]), find(s, arm[1])
		if upper < 0 || lower < 0 || parent[lower] != upper {
			return kiln.Errorf(kiln.KindUnprocessable, "pose_unsupported",
				"pose needs the avatar skeleton's %s joint with its child %s; this model has none", arm[0], arm[1])
		}
		world := xform.Worlds(s, parent, nil)
		if turn(s, parent, world, upper, lower, elevation) {
			turned = true
		}
	}
	if !turned {
		return nil
	}
	return reskin(s, old, xform.Worlds(s, parent, nil))
}

// turn rotates joint upper about itself until the bone to lower points
// at elevation degrees below the horizontal, its heading (outwards,
// slightly forwards) kept. It reports whether it turned at all.
func turn(s *scene.Scene, parent []int, world []xform.Mat4, upper, lower int, elevation float64) bool {
	pivot := world[upper].Translation()
	dir, ok := vec3(world[lower].Translation()).sub(pivot).unit()
	if !ok {
		return false
	}
	flat, ok := vec3{dir[0], 0, dir[2]}.unit()
	if !ok {
		// Straight up or down: no heading to keep. Out to the side, by
		// which side of the body the joint is on, is what a rig means.
		flat = vec3{math.Copysign(1, pivot[0]), 0, 0}
	}
	rad := elevation * math.Pi / 180
	target := flat.scale(math.Cos(rad)).sub(vec3{0, math.Sin(rad), 0})
	angle := math.Acos(math.Max(-1, math.Min(1, dir.dot(target))))
	if angle < minTurn {
		return false
	}
	axis, ok := dir.cross(target).unit()
	if !ok {
		return false
	}
	r := xform.About(xform.AxisAngle(axis, angle), pivot)
	// The joint's new local transform: its parent's world inverted, times
	// the turned world.
	pw := xform.Identity
	if p := parent[upper]; p >= 0 {
		pw = world[p]
	}
	inv, ok := pw.Inverse()
	if !ok {
		return false
	}
	setLocal(s.Nodes[upper], inv.Mul(r).Mul(world[upper]))
	return true
}

// reskin moves every skinned vertex to where the new rest pose puts it
// and gives each skin the inverse bind matrices of that pose. A skin's
// bind frame K (joint world times inverse bind matrix, the same for every
// joint of a consistent rig) is kept, so joints that did not move keep
// their matrices and vertices bound only to them do not change.
func reskin(s *scene.Scene, old, world []xform.Mat4) error {
	done := make([]bool, len(s.Meshes))
	for _, n := range s.Nodes {
		if n.Mesh == nil || n.Skin == nil || done[*n.Mesh] {
			continue
		}
		done[*n.Mesh] = true
		skin := s.Skins[*n.Skin]
		if len(skin.Joints) == 0 {
			continue
		}
		ibm := make([]xform.Mat4, len(skin.Joints))
		for i := range ibm {
			ibm[i] = xform.Identity
			if skin.InverseBindMatrices != nil {
				ibm[i] = xform.FromFloat32(skin.InverseBindMatrices[i])
			}
		}
		k := old[skin.Joints[0]].Mul(ibm[0])
		kinv, ok := k.Inverse()
		if !ok {
			return kiln.Errorf(kiln.KindUnprocessable, "pose_unsupported", "skin %q has a singular bind matrix", skin.Name)
		}
		// The new pose's skinning matrices, brought back to the bind
		// frame: xform.Identity for joints that did not move.
		joint := make([]xform.Mat4, len(skin.Joints))
		for i, j := range skin.Joints {
			joint[i] = kinv.Mul(world[j]).Mul(ibm[i])
		}
		for _, p := range s.Meshes[*n.Mesh].Primitives {
			reskinPrimitive(p, joint)
		}
	}
	// Inverse bind matrices of the new pose, in each skin's bind frame.
	for _, skin := range s.Skins {
		if len(skin.Joints) == 0 {
			continue
		}
		first := xform.Identity
		if skin.InverseBindMatrices != nil {
			first = xform.FromFloat32(skin.InverseBindMatrices[0])
		}
		k := old[skin.Joints[0]].Mul(first)
		out := make([][16]float32, len(skin.Joints))
		for i, j := range skin.Joints {
			inv, ok := world[j].Inverse()
			if !ok {
				return kiln.Errorf(kiln.KindUnprocessable, "pose_unsupported", "joint %d of skin %q has a singular transform", j, skin.Name)
			}
			out[i] = inv.Mul(k).Float32()
		}
		skin.InverseBindMatrices = out
	}
	return nil
}

// reskinPrimitive applies linear blend skinning with joint (bind frame
// to bind frame) to the vertices, their normals and tangents and their
// morph displacements (morphs apply before skinning, so a displacement
// turns with the blended matrix of its vertex).
func reskinPrimitive(p *scene.Primitive, joint []xform.Mat4) {
	for v := range p.Positions {
		var m xform.Mat4
		var sum float64
		for set := range p.Joints {
			if set >= len(p.Weights) {
				break
			}
			for c := 0; c < 4; c++ {
				w := float64(p.Weights[set][v][c])
				j := int(p.Joints[set][v][c])
				if w == 0 || j >= len(joint) {
					continue
				}
				m = m.AddScaled(joint[j], w)
				sum += w
			}
		}
		if sum < 1e-6 {
			continue
		}
		if math.Abs(sum-1) > 1e-6 {
			for i := range m {
				m[i] /= sum
			}
		}
		if near(m, xform.Identity, 1e-6) {
			continue
		}
		p.Positions[v] = f32(m.Point(f64(p.Positions[v])))
		if p.Normals != nil {
			p.Normals[v] = direction(m, p.Normals[v])
		}
		if p.Tangents != nil {
			t := p.Tangents[v]
			d := direction(m, [3]float32{t[0], t[1], t[2]})
			p.Tangents[v] = [4]float32{d[0], d[1], d[2], t[3]}
		}
		for ti := range p.Targets {
			t := &p.Targets[ti]
			if t.Positions != nil {
				t.Positions[v] = f32(m.Vector(f64(t.Positions[v])))
			}
			if t.Normals != nil {
				t.Normals[v] = f32(m.Vector(f64(t.Normals[v])))
			}
			if t.Tangents != nil {
				t.Tangents[v] = f32(m.Vector(f64(t.Tangents[v])))
			}
		}
	}
}

// near compares two matrices element by element.
func near(a, b xform.Mat4, eps float64) bool {
	for i := range a {
		if math.Abs(a[i]-b[i]) > eps {
			return false
		}
	}
	return true
}

// direction turns a unit vector with m's linear part and keeps it unit.
func direction(m xform.Mat4, d [3]float32) [3]float32 {
	u, ok := vec3(m.Vector(f64(d))).unit()
	if !ok {
		return d
	}
	return f32(u)
}

// setLocal writes m into a node as it keeps its transform: a matrix
// stays a matrix; TRS keeps translation and scale and takes the rotation
// (m differs from the old transform by a rotation only).
func setLocal(n *gltf.Node, m xform.Mat4) {
	if n.MatrixOrDefault() != gltf.DefaultMatrix {
		n.Matrix = m
		return
	}
	s := n.ScaleOrDefault()
	r := m
	for c := 0; c < 3; c++ {
		for k := 0; k < 3; k++ {
			if s[c] != 0 {
				r[c*4+k] /= s[c]
			}
		}
	}
	n.Rotation = xform.Quaternion(r)
}

// find is the index of the node named name, or -1.
func find(s *scene.Scene, name string) int {
	return slices.IndexFunc(s.Nodes, func(n *gltf.Node) bool { return n != nil && n.Name == name })
}

// Aim turns a joint so that the bone to its child points along a
// direction in model space.
type Aim struct {
	Joint, Child string
	Dir          [3]float64
}

// AimAll turns each joint in order (parents before children, as a rig is
// straightened from the shoulder out) by the smallest rotation that points
// its bone along Dir, keeping its roll, then re-skins the meshes once to
// the new rest pose. A joint or child that is missing, or a child that
// does not hang from the joint, is skipped: the hands and fingers are
// optional in a humanoid. VRM needs this for its T-pose, where not only
// the upper arms but the forearms, hands and fingers lie along X.
func AimAll(s *scene.Scene, aims []Aim) error {
	parent := s.Parents()
	old := xform.Worlds(s, parent, nil)
	turned := false
	for _, a := range aims {
		joint, child := find(s, a.Joint), find(s, a.Child)
		if joint < 0 || child < 0 || parent[child] != joint {
			continue
		}
		target, ok := vec3(a.Dir).unit()
		if !ok {
			continue
		}
		world := xform.Worlds(s, parent, nil)
		if aim(s, parent, world, joint, child, target) {
			turned = true
		}
	}
	if !turned {
		return nil
	}
	return reskin(s, old, xform.Worlds(s, parent, nil))
}

// aim rotates joint about itself so that the bone to child points along
// target; it reports whether it turned.
func aim(s *scene.Scene, parent []int, world []xform.Mat4, joint, child int, target vec3) bool {
	pivot := world[joint].Translation()
	dir, ok := vec3(world[child].Translation()).sub(pivot).unit()
	if !ok {
		return false
	}
	angle := math.Acos(math.Max(-1, math.Min(1, dir.dot(target))))
	if angle < minTurn {
		return false
	}
	axis, ok := dir.cross(target).unit()
	if !ok {
		// Opposite: any axis across the bone turns it round.
		if axis, ok = dir.cross(vec3{0, 1, 0}).unit(); !ok {
			axis, _ = dir.cross(vec3{1, 0, 0}).unit()
		}
	}
	r := xform.About(xform.AxisAngle(axis, angle), pivot)
	pw := xform.Identity
	if p := parent[joint]; p >= 0 {
		pw = world[p]
	}
	inv, ok := pw.Inverse()
	if !ok {
		return false
	}
	setLocal(s.Nodes[joint], inv.Mul(r).Mul(world[joint]))
	return true
}
