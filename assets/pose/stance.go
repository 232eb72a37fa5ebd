package pose

import (
	"math"
	"strings"

	"github.com/kilnhq/kiln"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/xform"
)

// Strike puts s in the render API's pose name (power-stance, relaxed,
// standing, thumbs-up) for a picture: it turns the joints only, and a
// renderer or viewer skins the vertices to them as it would for a clip.
// The rest pose and the bind matrices stay as they are, unlike Apply.
//
// Each pose is written in the body's own frame (its left, up and
// forward, read from the hips and the spine) as directions the bones
// point in and places the hands reach, so it fits any model with the
// leader's joint names whatever its bones' local axes, its size or its
// units. A model without those joints is a KindUnprocessable error.
func Strike(s *scene.Scene, name string) error {
	b, err := newBody(s)
	if err != nil {
		return err
	}
	switch name {
	case "standing":
		for _, side := range b.sides() {
			b.aim(side.name+"Arm", side.name+"ForeArm", side.dir(0.12, -1, 0.03))
			b.aim(side.name+"ForeArm", side.name+"Hand", side.dir(0.06, -1, 0.12))
			b.curl(side.name, 15, 15)
		}
	case "relaxed":
		for _, side := range b.sides() {
			b.aim(side.name+"Arm", side.name+"ForeArm", side.dir(0.2, -1, 0.1))
			b.aim(side.name+"ForeArm", side.name+"Hand", side.dir(0.12, -0.8, 0.55))
			b.curl(side.name, 30, 25)
		}
		// The weight on one leg: the other knee bends a little and
		// the head tilts toward it.
		b.aim("LeftUpLeg", "LeftLeg", b.dir(0.04, -1, 0.12))
		b.aim("LeftLeg", "LeftFoot", b.dir(0.02, -1, -0.04))
		b.rotate("Neck", b.fwd, 4)
		b.rotate("Head", b.fwd, 5)
	case "power-stance":
		for _, side := range b.sides() {
			// Feet apart, soles kept flat.
			b.rotate(side.name+"UpLeg", b.fwd, 6*side.sign)
			b.rotate(side.name+"Foot", b.fwd, -6*side.sign)
			// Hands on the hips, elbows out and back.
			hip := b.at(side.name + "UpLeg")
			target := hip.add(side.dir(0.75, 0.55, 0.05).scale(b.hipWidth))
			b.reach(side.name+"Arm", side.name+"ForeArm", side.name+"Hand", target, side.dir(1, 0, -0.8))
			b.curl(side.name, 35, 30)
		}
		// Chest out, chin up.
		b.rotate("Spine2", b.left, -4)
		b.rotate("Head", b.left, -4)
	case "thumbs-up":
		left, right := b.sides()[0], b.sides()[1]
		b.aim("LeftArm", "LeftForeArm", left.dir(0.12, -1, 0.03))
		b.aim("LeftForeArm", "LeftHand", left.dir(0.06, -1, 0.12))
		b.curl("Left", 15, 15)
		// The right forearm held out in front, the thumb turned up, the
		// other fingers closed into a fist and the thumb straight up.
		b.aim("RightArm", "RightForeArm", right.dir(0.2, -1, 0.35))
		b.aim("RightForeArm", "RightHand", right.dir(-0.3, 0.85, 0.6))
		b.aim("RightHand", "RightHandMiddle1", right.dir(-0.3, 0.6, 0.75))
		b.twist("RightForeArm", "RightHand", "RightHandThumb2", b.up)
		b.curl("Right", 90, 0, 100, 80)
		b.aim("RightHandThumb1", "RightHandThumb2", right.dir(0.2, 1, 0.35))
		b.aim("RightHandThumb2", "RightHandThumb3", b.up)
		b.aim("RightHandThumb3", "RightHandThumb4", b.up)
	default:
		return kiln.Errorf(kiln.KindInvalid, "invalid_pose", "pose must be one of %s, got %q", strings.Join(kiln.RenderPoses, ", "), name)
	}
	return b.err
}

// side is one side of the body: its joints' prefix and the sign of its
// outward direction along the body's left.
type side struct {
	name string
	sign float64
	b    *body
}

// sides are the body's left and right.
func (b *body) sides() [2]side {
	return [2]side{{name: "Left", sign: 1, b: b}, {name: "Right", sign: -1, b: b}}
}

// body is a skeleton being posed, with its frame.
type body struct {
	s             *scene.Scene
	parent        []int
	world         []xform.Mat4
	left, up, fwd vec3
	hipWidth      float64
	err           error
}

// required are the joints every pose turns.
var required = []string{"Hips", "Spine2", "Neck", "Head", "LeftUpLeg", "RightUpLeg", "LeftLeg", "RightLeg",
	"LeftFoot", "RightFoot", "LeftArm", "RightArm", "LeftForeArm", "RightForeArm", "LeftHand", "RightHand"}

func newBody(s *scene.Scene) (*body, error) {
	for _, name := range required {
		if find(s, name) < 0 {
			return nil, kiln.Errorf(kiln.KindUnprocessable, "pose_unsupported",
				"a render pose needs the avatar skeleton's %s joint; this model has none", name)
		}
	}
	b := &body{s: s, parent: s.Parents()}
	b.world = xform.Worlds(s, b.parent, nil)
	l, r := b.at("LeftUpLeg"), b.at("RightUpLeg")
	b.hipWidth = l.sub(r).length()
	left, ok1 := l.sub(r).unit()
	up, ok2 := b.at("Neck").sub(b.at("Hips")).unit()
	if !ok1 || !ok2 {
		return nil, kiln.Errorf(kiln.KindUnprocessable, "pose_unsupported", "the skeleton's hips or spine have no length")
	}
	// Up square to left, forward square to both: left × up is +Z for
	// a model facing +Z with its left at +X.
	up, _ = up.sub(left.scale(up.dot(left))).unit()
	b.left, b.up, b.fwd = left, up, left.cross(up)
	return b, nil
}

// dir is a direction in the body's frame: x to its left, y up, z forward.
func (b *body) dir(x, y, z float64) vec3 {
	return b.left.scale(x).add(b.up.scale(y)).add(b.fwd.scale(z))
}

// dir is a direction in the side's frame: x outward, y up, z forward.
func (sd side) dir(x, y, z float64) vec3 { return sd.b.dir(x*sd.sign, y, z) }

// at is where the joint called name is, in the model's space.
func (b *body) at(name string) vec3 {
	i := find(b.s, name)
	if i < 0 {
		return vec3{}
	}
	return b.world[i].Translation()
}

// rotate turns the joint about its own position and a direction of the
// model's space, by degrees (right-handed); a joint the model lacks
// (fingers of a rig without them) is left alone.
func (b *body) rotate(name string, axis vec3, degrees float64) {
	b.turn(find(b.s, name), axis, degrees*math.Pi/180)
}

func (b *body) turn(j int, axis vec3, angle float64) {
	axis, ok := axis.unit()
	if j < 0 || !ok || math.Abs(angle) < 1e-9 {
		return
	}
	pw := xform.Identity
	if p := b.parent[j]; p >= 0 {
		pw = b.world[p]
	}
	inv, ok := pw.Inverse()
	if !ok {
		return
	}
	r := xform.About(xform.AxisAngle(axis, angle), b.world[j].Translation())
	setLocal(b.s.Nodes[j], inv.Mul(r).Mul(b.world[j]))
	b.world = xform.Worlds(b.s, b.parent, nil)
}

// aim turns the joint so that its bone, toward child, points along dir,
// by the smallest turn.
func (b *body) aim(joint, child string, dir vec3) {
	j, c := find(b.s, joint), find(b.s, child)
	if j < 0 || c < 0 {
		return
	}
	from, ok1 := vec3(b.world[c].Translation()).sub(b.world[j].Translation()).unit()
	to, ok2 := dir.unit()
	if !ok1 || !ok2 {
		return
	}
	axis, ok := from.cross(to).unit()
	if !ok {
		return
	}
	b.turn(j, axis, math.Acos(math.Max(-1, math.Min(1, from.dot(to)))))
}

// twist turns the joint about its own bone (toward child) until probe,
// a joint further down, lies on the side of the bone that want points
// to: the forearm's roll that turns a thumb up.
func (b *body) twist(joint, child, probe string, want vec3) {
	j, c, p := find(b.s, joint), find(b.s, child), find(b.s, probe)
	if j < 0 || c < 0 || p < 0 {
		return
	}
	axis, ok := vec3(b.world[c].Translation()).sub(b.world[j].Translation()).unit()
	if !ok {
		return
	}
	v := vec3(b.world[p].Translation()).sub(b.world[c].Translation())
	v = v.sub(axis.scale(v.dot(axis)))
	w := want.sub(axis.scale(want.dot(axis)))
	b.turn(j, axis, math.Atan2(axis.dot(v.cross(w)), v.dot(w)))
}

// reach bends a two-bone limb (upper, its child mid, and end below) so
// that end lands on target, the middle joint bending toward hint: the
// elbow out and back for hands on the hips. A target out of reach is
// reached for in a straight line.
func (b *body) reach(upper, mid, end string, target, hint vec3) {
	root := b.at(upper)
	l1 := b.at(mid).sub(root).length()
	l2 := b.at(end).sub(b.at(mid)).length()
	d := target.sub(root)
	dist := d.length()
	dir, ok := d.unit()
	if !ok || l1 == 0 || l2 == 0 {
		return
	}
	dist = math.Min(dist, (l1+l2)*0.999)
	// The law of cosines gives the angle at the root between the line
	// to the target and the upper bone.
	cosA := (l1*l1 + dist*dist - l2*l2) / (2 * l1 * dist)
	a := math.Acos(math.Max(-1, math.Min(1, cosA)))
	bend, ok := hint.sub(dir.scale(hint.dot(dir))).unit()
	if !ok {
		return
	}
	elbow := root.add(dir.scale(l1 * math.Cos(a))).add(bend.scale(l1 * math.Sin(a)))
	b.aim(upper, mid, elbow.sub(root))
	b.aim(mid, end, target.sub(b.at(mid)))
}

// curl closes the fingers of the side's hand toward the palm, by
// degrees at each knuckle (fingers; the middle and end joints by more,
// when given) and at the thumb's joints (thumb). The palm is the side
// of the hand the thumb stands out to.
func (b *body) curl(sideName string, fingers, thumb float64, more ...float64) {
	hand := sideName + "Hand"
	for _, j := range []string{"Index1", "Pinky1", "Middle1", "Thumb2"} {
		if find(b.s, hand+j) < 0 {
			return
		}
	}
	// The palm's normal: across the knuckles, times along the hand.
	// (From the wrist to two knuckles would do on a broad hand, but
	// some rigs put the knuckles nearly in line with the wrist.)
	h := b.at(hand)
	palm, ok := b.at(hand + "Index1").sub(b.at(hand + "Pinky1")).cross(b.at(hand + "Middle1").sub(h)).unit()
	if !ok {
		return
	}
	if palm.dot(b.at(hand+"Thumb2").sub(h)) < 0 {
		palm = palm.scale(-1)
	}
	for _, f := range []string{"Index", "Middle", "Ring", "Pinky", "Thumb"} {
		// One hinge for the finger's three joints, square to the
		// finger and the palm: each joint turns the ones after it about
		// that same line, so it stays their hinge as the finger closes.
		var hinge vec3
		for k := 1; k <= 3; k++ {
			deg := fingers
			switch {
			case f == "Thumb":
				deg = thumb
			case k > 1 && k-2 < len(more):
				deg = more[k-2]
			}
			joint := hand + f + string(rune('0'+k))
			child := hand + f + string(rune('1'+k))
			j, c := find(b.s, joint), find(b.s, child)
			if j < 0 || c < 0 {
				continue
			}
			if k == 1 {
				d, ok := vec3(b.world[c].Translation()).sub(b.world[j].Translation()).unit()
				if !ok {
					break
				}
				hinge = d.cross(palm)
			}
			b.turn(j, hinge, deg*math.Pi/180)
		}
	}
}
