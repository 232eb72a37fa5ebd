package animation

import (
	"math"

	"github.com/kilnhq/kiln/assets/avatar"
)

// clip is an authored motion: a pose for every instant. Baking samples it
// at fps against a target.
type clip struct {
	name     string
	duration float64 // seconds, a whole number of frames
	loop     bool
	at       func(t float64) pose
}

// style holds the few numbers in which the genders' clips differ: the
// feminine walk has narrower steps, a quicker cadence, less arm swing and
// more hip roll; the rest of each cycle is shared.
type style struct {
	walkFrames, runFrames int     // cycle length (two steps) in frames
	hipFlex, hipOffset    float64 // walk thigh swing: amplitude, centre (degrees)
	kneeSwing             float64 // walk knee flexion in swing (degrees)
	armSwing, elbow       float64 // walk arm swing and elbow bend (degrees)
	armOut                float64 // how far hanging arms stand off the body (degrees)
	pelvisYaw, pelvisRoll float64 // degrees
	sway                  float64 // sideways hip shift (hip heights)
	crossing              float64 // thigh adduction that narrows the steps (degrees)
	runHipFlex, runArm    float64
}

var styles = map[string]style{
	avatar.Masculine: {
		walkFrames: 33, runFrames: 21,
		hipFlex: 20, hipOffset: 2, kneeSwing: 60,
		armSwing: 18, elbow: 14, armOut: 9,
		pelvisYaw: 5, pelvisRoll: 4, sway: 0.022, crossing: 0,
		runHipFlex: 31, runArm: 34,
	},
	avatar.Feminine: {
		walkFrames: 30, runFrames: 20,
		hipFlex: 17, hipOffset: 1.5, kneeSwing: 58,
		armSwing: 12, elbow: 12, armOut: 6,
		pelvisYaw: 6, pelvisRoll: 6, sway: 0.028, crossing: 2.5,
		runHipFlex: 28, runArm: 26,
	},
}

// Curves. Every cycle is built from cosines, so that a loop's velocities
// match at the seam as well as its poses.

// frac wraps a phase into [0, 1).
func frac(x float64) float64 { return x - math.Floor(x) }

// bump is a raised cosine of the cyclic phase s: 1 at c, falling smoothly
// (zero slope at both ends) to 0 at c±w.
func bump(s, c, w float64) float64 {
	d := frac(s-c+0.5) - 0.5
	return pulse(d, w)
}

// pulse is bump on a time line rather than a cycle.
func pulse(d, w float64) float64 {
	if math.Abs(d) >= w {
		return 0
	}
	return 0.5 + 0.5*math.Cos(math.Pi*d/w)
}

// gait is +1 at heel strike (s = 0) and -1 at toe-off (s = stance),
// following a half cosine through each phase: the thigh sweeps back
// through the stance, and forward through the first 80% of the swing
// (the foot must clear the floor), then waits for the heel strike.
func gait(s, stance float64) float64 {
	s = frac(s)
	if s < stance {
		return math.Cos(math.Pi * s / stance)
	}
	return -math.Cos(math.Pi * math.Min(1, (s-stance)/(0.8*(1-stance))))
}

// envelope eases a gesture in over in seconds and out over the last out
// seconds of d: gestures start and end in the standing pose.
func envelope(t, d, in, out float64) float64 {
	ease := func(x float64) float64 {
		x = math.Max(0, math.Min(1, x))
		return x * x * (3 - 2*x)
	}
	return ease(t/in) * ease((d-t)/out)
}

// toward turns direction a toward b by the fraction e of the angle
// between them.
func toward(a, b vec, e float64) vec {
	return slerp(identity, between(a, b), e).rotate(a.unit())
}

func deg(rad float64) float64 { return rad * 180 / math.Pi }

// sides are the two halves of the body: sign is +1 on the left (+X) and
// -1 on the right, offset the phase of that leg in a cycle.
var sides = []struct {
	name   string
	sign   float64
	offset float64
}{{"Left", 1, 0}, {"Right", -1, 0.5}}

var fingerNames = []string{"Index", "Middle", "Ring", "Pinky"}

// hang is a hanging arm's direction: down, standing off the body by out
// degrees.
func hang(sign, out float64) vec {
	r := out * math.Pi / 180
	return vec{sign * math.Sin(r), -math.Cos(r), 0}
}

// stand is the neutral standing pose every clip starts from: arms hanging
// at the sides with a slight elbow bend, hands relaxed, legs straight.
func stand(st style) pose {
	p := newPose()
	for _, sd := range sides {
		down := hang(sd.sign, st.armOut)
		p.aim[sd.name+"Arm"] = aim{dir: down, w: 1}
		p.aim[sd.name+"ForeArm"] = aim{dir: rx(-st.elbow).rotate(down), w: 1}
		curlHand(p, sd.name, 8, 4)
	}
	return p
}

// curlHand curls the four fingers of a hand by fingers degrees at every
// joint and the thumb by thumb degrees.
func curlHand(p pose, side string, fingers, thumb float64) {
	for _, f := range fingerNames {
		for j := 1; j <= 3; j++ {
			p.curl[side+"Hand"+f+string(rune('0'+j))] = fingers
		}
	}
	for j := 2; j <= 3; j++ {
		p.curl[side+"HandThumb"+string(rune('0'+j))] = thumb
	}
}

// legs poses both legs of a gait cycle at phase ph. Angles are in
// degrees: flexion of the hip (thigh forward), the knee and the ankle
// (toes up), and of the toes at push-off; swayComp keeps the feet under
// a pelvis moved sideways by sway hip heights and rolled by roll.
type legAngles struct{ hip, knee, ankle, toe float64 }

func poseLegs(p pose, sd string, sign float64, a legAngles, sway, roll, crossing float64) {
	lateral := -deg(math.Asin(sway)) - roll - sign*crossing
	p.turn(sd+"UpLeg", rx(-a.hip).then(rz(lateral)))
	p.turn(sd+"Leg", rx(a.knee))
	p.turn(sd+"Foot", rx(-a.ankle).then(rz(deg(math.Asin(sway))+roll+sign*crossing)))
	p.turn(sd+"ToeBase", rx(-a.toe))
}

// cycle is the shared skeleton of walk and run: pelvis yaw and roll,
// sideways sway, spine counter-rotation, head stabilised, arms swinging
// against the legs.
type cycle struct {
	yaw, roll, sway, lean float64
	armSwing, armFwd      float64
	elbow, elbowSwing     float64
	armOut                float64
}

func (c cycle) upper(p pose, ph float64) {
	w := 2 * math.Pi * ph
	yaw := -c.yaw * math.Cos(w)                  // the hip of the leg in front leads
	roll := c.roll * math.Sin(w-0.3)             // the swing side drops
	p.hips = vec{c.sway * math.Sin(w-0.3), 0, 0} // over the stance foot
	p.turn("Hips", ry(yaw).then(rz(roll)))
	// The chest turns against the pelvis (half as far, the other way) and
	// levels the roll; the neck keeps the gaze forward.
	for _, j := range []string{"Spine", "Spine1", "Spine2"} {
		p.turn(j, ry(-yaw*0.5).then(rz(-roll*0.3)))
	}
	p.turn("Spine", rx(c.lean))
	p.turn("Neck", ry(yaw*0.5).then(rx(-c.lean*0.6)))
	for _, sd := range sides {
		// The left arm is forward when the right leg is (phase 0.5),
		// trailing the leg a little.
		f := sd.sign * -math.Cos(w-0.25)
		down := hang(sd.sign, c.armOut)
		upper := c.armFwd + c.armSwing*f
		p.aim[sd.name+"Arm"] = aim{dir: rx(-upper).rotate(down), w: 1}
		p.aim[sd.name+"ForeArm"] = aim{dir: rx(-upper - c.elbow - c.elbowSwing*(0.5+0.5*f)).rotate(down), w: 1}
	}
}

func walk(st style) clip {
	frames := st.walkFrames
	up := cycle{yaw: st.pelvisYaw, roll: st.pelvisRoll, sway: st.sway, lean: 3,
		armSwing: st.armSwing, armFwd: 2, elbow: st.elbow, elbowSwing: 10, armOut: st.armOut}
	return clip{name: "locomotion_walk", duration: float64(frames) / fps, loop: true, at: func(t float64) pose {
		p := stand(st)
		// The loop starts at the left leg's mid-stance, where nothing
		// changes abruptly, rather than at a heel strike: the seam is
		// then as smooth as any other key.
		ph := t*fps/float64(frames) + 0.25
		up.upper(p, ph)
		roll := st.pelvisRoll * math.Sin(2*math.Pi*ph-0.3)
		for _, sd := range sides {
			// s is 0 at this leg's heel strike; the stance lasts 60% of
			// the cycle.
			s := frac(ph + sd.offset)
			a := legAngles{
				hip:  st.hipOffset + st.hipFlex*gait(s, 0.6),
				knee: 4 + 12*bump(s, 0.12, 0.12) + st.kneeSwing*bump(s, 0.7, 0.32),
				// Foot flat after heel strike, the shank rolling over the
				// ankle, push-off, toes lifted to clear the floor.
				ankle: -3*bump(s, 0.06, 0.06) + 10*bump(s, 0.4, 0.2) - 15*bump(s, 0.6, 0.1) + 12*bump(s, 0.78, 0.18),
				toe:   35 * bump(s, 0.55, 0.15),
			}
			poseLegs(p, sd.name, sd.sign, a, p.hips[0], roll, st.crossing)
		}
		return p
	}}
}

func run(st style) clip {
	frames := st.runFrames
	up := cycle{yaw: st.pelvisYaw * 1.4, roll: st.pelvisRoll, sway: st.sway * 0.6, lean: 9,
		armSwing: st.runArm, armFwd: 8, elbow: 80, elbowSwing: 12, armOut: st.armOut + 4}
	return clip{name: "locomotion_run", duration: float64(frames) / fps, loop: true, at: func(t float64) pose {
		p := stand(st)
		ph := t*fps/float64(frames) + 0.25
		up.upper(p, ph)
		roll := up.roll * math.Sin(2*math.Pi*ph-0.3)
		for _, sd := range sides {
			// A shorter stance (36%) than half a cycle leaves both feet
			// off the floor between the steps.
			s := frac(ph + sd.offset)
			a := legAngles{
				hip:   12 + st.runHipFlex*gait(s, 0.36),
				knee:  12 + 28*bump(s, 0.16, 0.16) + 95*bump(s, 0.62, 0.3),
				ankle: 12*bump(s, 0.18, 0.16) - 25*bump(s, 0.38, 0.1) + 10*bump(s, 0.75, 0.2),
				toe:   30 * bump(s, 0.32, 0.08),
			}
			poseLegs(p, sd.name, sd.sign, a, p.hips[0], roll, st.crossing)
		}
		// The flight: the body rises between the steps.
		p.lift = 0.06 * (bump(ph, 0.43, 0.07) + bump(ph, 0.93, 0.07))
		for _, sd := range sides {
			curlHand(p, sd.name, 35, 25)
		}
		return p
	}}
}

func idle(st style) clip {
	const seconds = 6
	return clip{name: "locomotion_idle", duration: seconds, loop: true, at: func(t float64) pose {
		p := stand(st)
		// The feet stand where they are: the legs follow the weight
		// shift instead of the feet sliding under it.
		p.plant = 1
		shift := 2 * math.Pi * t / seconds // one weight shift a loop
		breath := 0.5 - 0.5*math.Cos(2*math.Pi*t/3)
		// Weight over the left leg when sway is positive; the unloaded
		// knee softens.
		sway := 0.012 * math.Sin(shift)
		p.hips = vec{sway, 0, 0}
		roll := -2 * math.Sin(shift) // the hip over the loaded leg rises
		load := map[string]float64{"Left": 0.5 + 0.5*math.Sin(shift), "Right": 0.5 - 0.5*math.Sin(shift)}
		for _, sd := range sides {
			soft := 1 - load[sd.name]
			poseLegs(p, sd.name, sd.sign, legAngles{hip: 4 * soft, knee: 8 * soft, ankle: -4 * soft}, sway, roll, st.crossing)
			p.turn(sd.name+"Shoulder", rz(sd.sign*1.5*breath))
			p.aim[sd.name+"Arm"] = aim{dir: rx(-1.5 * math.Sin(shift+sd.sign)).rotate(hang(sd.sign, st.armOut)), w: 1}
		}
		p.turn("Hips", rz(roll))
		p.turn("Spine", rz(1.4*math.Sin(shift)))
		p.turn("Spine1", rx(-0.8*breath))
		p.turn("Spine2", rx(-1.2*breath))
		p.turn("Neck", rx(1.2*breath))
		p.turn("Head", ry(6*math.Sin(shift)).then(rx(2*math.Sin(2*shift))))
		return p
	}}
}
