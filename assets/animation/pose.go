package animation

import (
	"math"
	"strings"

	"github.com/kilnhq/kiln/assets/scene"
	"github.com/qmuntal/gltf"
)

// fps is the key rate of every baked clip. Keys are dense (LINEAR, slerp)
// rather than sparse splines so that any glTF player samples the authored
// curves faithfully, and a loop's first and last keys are one pose.
const fps = 30

// pose is one instant of a clip, in the body frame (X the character's
// left, Y up, Z forward) and in units of the target's hip height, so that
// it means the same on any skeleton of Mixamo names: "swing the thigh 20°
// forward" rather than a quaternion in some joint's local axes.
type pose struct {
	// rot turns a joint about the body's axes as its parent carries them:
	// a knee bend stays a bend of the shank whatever the thigh does.
	// Local = rest * delta with delta = restWorld⁻¹ · rot · restWorld.
	rot map[string]quat
	// aim points a bone (toward its main child) along a body-frame
	// direction, blended in by w; rot then turns the aimed direction.
	// Arms are aimed rather than turned because rest poses disagree on
	// how far the arms hang out (A-pose angles, elbow bends).
	aim map[string]aim
	// curl bends a finger joint toward the palm, in degrees.
	curl map[string]float64
	// reach puts a wrist ("Left" or "Right") at a point relative to the
	// chest (Spine2), by a two-bone solve of the arm: two hands meet
	// wherever the shoulders are.
	reach map[string]reach
	// hips moves the Hips sideways (x) and forward (z); their height is
	// solved so that the lowest foot is lift above the floor.
	hips vec
	lift float64
	// plant, 0 to 1, pulls both feet to where they stand at rest, flat,
	// by a two-bone solve of each leg after the Hips are placed: a clip
	// that stands in place (locomotion_idle) shifts its weight without
	// the feet sliding over the floor, whatever the legs' proportions.
	plant float64
}

type aim struct {
	dir vec // zero keeps the bone's direction (only face applies)
	// face, when not zero, turns a hand about its bone so that the palm
	// faces it: aiming alone leaves the twist to the rest pose.
	face vec
	w    float64
}

type reach struct {
	at   vec // relative to the chest, in hip heights
	pole vec // where the elbow should point
	w    float64
}

func newPose() pose {
	return pose{rot: map[string]quat{}, aim: map[string]aim{}, curl: map[string]float64{}, reach: map[string]reach{}}
}

// turn adds a rotation to a joint's, after what it has.
func (p pose) turn(joint string, q quat) {
	if r, ok := p.rot[joint]; ok {
		q = r.then(q)
	}
	p.rot[joint] = q
}

// solve poses the target: local rotations and translations per joint.
func (k *target) solve(p pose) (local []quat, trans []vec) {
	n := len(k.names)
	local, trans = make([]quat, n), make([]vec, n)
	copy(trans, k.t)
	wr, wp, ws := make([]quat, n), make([]vec, n), make([]float64, n)
	aims := make(map[string]aim, len(p.aim)+2)
	for name, a := range p.aim {
		aims[name] = a
	}
	hips, hasHips := k.index["Hips"]
	if hasHips {
		off := vec{p.hips[0], 0, p.hips[2]}.scale(k.unit)
		trans[hips] = trans[hips].add(k.toParent(hips, off))
	}
	for _, i := range k.order {
		name := k.names[i]
		pr, pp, ps, restParent := k.baseR[i], k.baseP[i], k.baseS[i], k.baseR[i]
		if pa := k.parent[i]; pa >= 0 {
			pr, pp, ps, restParent = wr[pa], wp[pa], ws[pa], k.wr[pa]
		}
		wp[i] = pp.add(pr.rotate(trans[i].scale(ps)))
		ws[i] = ps * k.s[i]
		if side, ok := strings.CutSuffix(name, "Arm"); ok && (side == "Left" || side == "Right") {
			if rc, ok := p.reach[side]; ok {
				k.reach(side, rc, wr, wp, ws, aims)
			}
		}
		carried := pr.mul(restParent.conj())
		var world quat
		if a, ok := aims[name]; ok {
			def := carried.mul(k.wr[i])
			want := a.dir
			if q, ok := p.rot[name]; ok {
				want = q.rotate(want)
			}
			cur := def.rotate(k.dir[i])
			if want == (vec{}) {
				want = cur
			}
			world = between(cur, want).mul(def)
			if a.face != (vec{}) && k.palm[i] != (vec{}) {
				want = want.unit()
				n := world.mul(k.wr[i].conj()).rotate(k.palm[i])
				f := a.face
				twist := math.Atan2(want.dot(n.cross(f)), n.dot(f)-n.dot(want)*f.dot(want))
				world = axisAngle(want, twist*180/math.Pi).mul(world)
			}
			world = slerp(def, world, a.w)
		} else {
			q := identity
			if r, ok := p.rot[name]; ok {
				q = r
			}
			if c := p.curl[name]; c != 0 && k.palm[i] != (vec{}) {
				d := k.wr[i].rotate(k.dir[i])
				q = q.mul(axisAngle(d.cross(k.palm[i]), c))
			}
			world = carried.mul(q).mul(k.wr[i])
		}
		local[i] = pr.conj().mul(world).norm()
		wr[i] = world.norm()
	}
	if hasHips {
		// The soles' floor contacts, carried by their joints, relative to
		// the floor they rest on.
		var heights []float64
		for _, c := range k.soles {
			// Each point's height over the floor: now, less at rest, plus
			// its rest height (zero for the points on the floor).
			rest := c.at(k.wr, k.wp, k.ws)
			heights = append(heights, c.at(wr, wp, ws)[1]-rest[1]+c.rest)
		}
		if len(heights) > 0 {
			low := softMin(heights, k.soft) - k.restLow
			trans[hips] = trans[hips].add(k.toParent(hips, vec{0, p.lift*k.unit - low, 0}))
		}
		if p.plant > 0 {
			k.plant(p.plant, local, trans)
		}
	}
	return local, trans
}

// legs are the joints of each leg a plant solves, hip to ankle.
var legs = [2][3]string{{"LeftUpLeg", "LeftLeg", "LeftFoot"}, {"RightUpLeg", "RightLeg", "RightFoot"}}

// plant moves each foot toward its rest place and orientation by the
// fraction w: the Hips come down first where a leg cannot reach (they
// never rise), then each thigh and shank turn in the plane of hip, knee
// and ankle so that the knee keeps pointing where the pose had it.
func (k *target) plant(w float64, local []quat, trans []vec) {
	hips := k.index["Hips"]
	type leg struct {
		up, knee, ankle int
		goal            vec
	}
	var ls []leg
	for _, names := range legs {
		up, ok1 := k.index[names[0]]
		knee, ok2 := k.index[names[1]]
		ankle, ok3 := k.index[names[2]]
		if !ok1 || !ok2 || !ok3 || k.parent[knee] != up || k.parent[ankle] != knee {
			continue
		}
		ls = append(ls, leg{up: up, knee: knee, ankle: ankle})
	}
	if len(ls) == 0 {
		return
	}
	wr, wp, _ := k.fk(local, trans)
	drop := 0.0
	for i := range ls {
		l := &ls[i]
		l.goal = wp[l.ankle].add(k.wp[l.ankle].sub(wp[l.ankle]).scale(w))
		reach := (k.wp[l.knee].sub(k.wp[l.up]).length() + k.wp[l.ankle].sub(k.wp[l.knee]).length()) * 0.999
		h := wp[l.up].sub(l.goal)
		if flat := reach*reach - h[0]*h[0] - h[2]*h[2]; flat > 0 {
			drop = math.Max(drop, h[1]-math.Sqrt(flat))
		}
	}
	if drop > 0 {
		trans[hips] = trans[hips].add(k.toParent(hips, vec{0, -drop, 0}))
		wr, wp, _ = k.fk(local, trans)
	}
	for _, l := range ls {
		hip, knee, ankle := wp[l.up], wp[l.knee], wp[l.ankle]
		a := k.wp[l.knee].sub(k.wp[l.up]).length()
		b := k.wp[l.ankle].sub(k.wp[l.knee]).length()
		to := l.goal.sub(hip)
		d := math.Max(math.Min(to.length(), (a+b)*0.9999), math.Abs(a-b)*1.0001)
		u := to.unit()
		pole := knee.sub(hip)
		v := pole.sub(u.scale(pole.dot(u)))
		if v.length() < 1e-9 {
			v = wr[hips].mul(k.wr[hips].conj()).rotate(vec{0, 0, 1})
			v = v.sub(u.scale(v.dot(u)))
		}
		v = v.unit()
		cosA := (a*a + d*d - b*b) / (2 * a * d)
		sinA := math.Sqrt(math.Max(0, 1-cosA*cosA))
		newKnee := hip.add(u.scale(a * cosA)).add(v.scale(a * sinA))
		newAnkle := hip.add(u.scale(d))
		thigh := between(knee.sub(hip), newKnee.sub(hip))
		upR := thigh.mul(wr[l.up]).norm()
		shinDir := thigh.rotate(ankle.sub(knee))
		kneeR := between(shinDir, newAnkle.sub(newKnee)).mul(thigh).mul(wr[l.knee]).norm()
		footR := slerp(wr[l.ankle], k.wr[l.ankle], w)
		parentR := k.baseR[l.up]
		if pa := k.parent[l.up]; pa >= 0 {
			parentR = wr[pa]
		}
		local[l.up] = parentR.conj().mul(upR).norm()
		local[l.knee] = upR.conj().mul(kneeR).norm()
		local[l.ankle] = kneeR.conj().mul(footR).norm()
	}
}

// toParent turns a body-frame offset of a root joint into its parent's
// frame.
func (k *target) toParent(i int, off vec) vec {
	return k.baseR[i].conj().rotate(off).scale(1 / k.baseS[i])
}

// reach solves the arm of side for its wrist to land on rc.at: it aims
// the upper arm at the elbow and the forearm at the wrist, computed in
// the plane that holds the pole. It runs when the shoulder (the Arm
// joint's position) is placed and before the arm is turned.
func (k *target) reach(side string, rc reach, wr []quat, wp []vec, ws []float64, aims map[string]aim) {
	arm, ok1 := k.index[side+"Arm"]
	fore, ok2 := k.index[side+"ForeArm"]
	hand, ok3 := k.index[side+"Hand"]
	chest, ok4 := k.index["Spine2"]
	if !ok1 || !ok2 || !ok3 || !ok4 || k.parent[fore] != arm || k.parent[hand] != fore {
		return
	}
	carried := wr[chest].mul(k.wr[chest].conj())
	goal := wp[chest].add(carried.rotate(rc.at.scale(k.unit)))
	pole := carried.rotate(rc.pole)
	s := wp[arm]
	a := k.t[fore].length() * ws[arm]
	b := k.t[hand].length() * ws[arm] * k.s[fore]
	to := goal.sub(s)
	d := math.Max(math.Min(to.length(), (a+b)*0.999), math.Abs(a-b)*1.001)
	u := to.unit()
	v := pole.sub(u.scale(pole.dot(u))).unit()
	cosA := (a*a + d*d - b*b) / (2 * a * d)
	sinA := math.Sqrt(math.Max(0, 1-cosA*cosA))
	elbow := s.add(u.scale(a * cosA)).add(v.scale(a * sinA))
	wrist := s.add(u.scale(d))
	// Blend from the pose's own aims (a hanging arm) where it has them.
	for _, b := range []struct {
		joint int
		dir   vec
	}{{arm, elbow.sub(s)}, {fore, wrist.sub(elbow)}} {
		name := k.names[b.joint]
		if prev, ok := aims[name]; ok && prev.dir != (vec{}) && prev.w == 1 {
			aims[name] = aim{dir: toward(prev.dir, b.dir, rc.w), face: prev.face, w: 1}
		} else {
			aims[name] = aim{dir: b.dir, w: rc.w}
		}
	}
}

// animation bakes a clip into keys for the target's joint nodes: one
// rotation channel per joint the clip moves, and the Hips translation.
func (k *target) animation(c clip, nodes []int) *scene.Animation {
	frames := int(math.Round(c.duration * fps))
	times := make([]float32, frames+1)
	rots := make([][]quat, frames+1)
	trans := make([][]vec, frames+1)
	for f := 0; f <= frames; f++ {
		times[f] = float32(float64(f) / fps)
		t := float64(f) / fps
		if c.loop && f == frames {
			// The last key of a loop is its first: exactly, so that the
			// cycle wraps without a jump however the curves round off.
			t = 0
		}
		rots[f], trans[f] = k.solve(c.at(t))
	}
	anim := &scene.Animation{Name: c.name}
	add := func(node int, path gltf.TRSProperty, out []float32) {
		anim.Samplers = append(anim.Samplers, scene.AnimationSampler{
			Interpolation: gltf.InterpolationLinear, Input: times, Output: out,
		})
		nd := node
		anim.Channels = append(anim.Channels, scene.Channel{Sampler: len(anim.Samplers) - 1, Node: &nd, Path: path})
	}
	for _, i := range k.order {
		moves := false
		for f := range rots {
			q := rots[f][i]
			if math.Abs(q[0]*k.r[i][0]+q[1]*k.r[i][1]+q[2]*k.r[i][2]+q[3]*k.r[i][3]) < 1-1e-9 {
				moves = true
				break
			}
		}
		if moves {
			out := make([]float32, 0, 4*len(rots))
			prev := k.r[i]
			for f := range rots {
				q := rots[f][i]
				// Keep neighbouring keys in one hemisphere, so that no
				// player interpolates the long way round.
				if q[0]*prev[0]+q[1]*prev[1]+q[2]*prev[2]+q[3]*prev[3] < 0 {
					q = quat{-q[0], -q[1], -q[2], -q[3]}
				}
				prev = q
				out = append(out, float32(q[0]), float32(q[1]), float32(q[2]), float32(q[3]))
			}
			add(nodes[i], gltf.TRSRotation, out)
		}
		if k.names[i] == "Hips" {
			out := make([]float32, 0, 3*len(trans))
			for f := range trans {
				v := trans[f][i]
				out = append(out, float32(v[0]), float32(v[1]), float32(v[2]))
			}
			add(nodes[i], gltf.TRSTranslation, out)
		}
	}
	return anim
}

// softMin is a smooth minimum (a log-sum-exp within about soft of the
// least value), shifted so that all values equal give that value. The
// Hips follow the lowest point of the feet; a hard minimum would kink
// their height each time the heel hands over to the toe or one foot to
// the other.
func softMin(v []float64, soft float64) float64 {
	low := math.Inf(1)
	for _, x := range v {
		low = math.Min(low, x)
	}
	var sum float64
	for _, x := range v {
		sum += math.Exp(-(x - low) / soft)
	}
	return low - soft*math.Log(sum/float64(len(v)))
}
