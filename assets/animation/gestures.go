package animation

import "math"

// Gestures start and end in the standing pose (envelope), so that a
// player can cross-fade them with the idle, whose first pose it is.

func wave(st style) clip {
	const d = 3.0
	return clip{name: "gesture_wave", duration: d, at: func(t float64) pose {
		p := stand(st)
		e := envelope(t, d, 0.6, 0.6)
		down := hang(-1, st.armOut)
		// The upper arm out to the side and up 40° above the horizontal,
		// the forearm upright and rocking from the elbow, the palm forward.
		raised := vec{-math.Cos(math.Pi * 40 / 180), math.Sin(math.Pi * 40 / 180), 0.2}
		p.aim["RightArm"] = aim{dir: toward(down, raised, e), w: 1}
		upright := toward(rx(-st.elbow).rotate(down), vec{-0.15, 1, 0.12}, e)
		rock := rz(-22 * math.Sin(2*math.Pi*2.2*(t-0.6)) * e)
		p.aim["RightForeArm"] = aim{dir: rock.rotate(upright), w: 1}
		p.aim["RightHand"] = aim{dir: rock.rotate(upright), face: vec{0, 0, 1}, w: e}
		curlHand(p, "Right", 8-6*e, 4)
		p.turn("Head", rz(-4*e).then(ry(-6*e)))
		return p
	}}
}

func nod(st style) clip {
	const d = 2.4
	return clip{name: "gesture_nod", duration: d, at: func(t float64) pose {
		p := stand(st)
		// Two nods: down (positive pitch, the face toward the floor) and
		// back up a little past level.
		n := envelope(t, d, 0.35, 0.35) * (5 + 13*math.Sin(2*math.Pi*(t-0.15)/0.85))
		p.turn("Neck", rx(0.35*n))
		p.turn("Head", rx(0.65*n))
		return p
	}}
}

func clap(st style) clip {
	const d = 3.0
	return clip{name: "gesture_clap", duration: d, at: func(t float64) pose {
		p := stand(st)
		e := envelope(t, d, 0.55, 0.55)
		// Three claps; between them the hands open to 20 cm.
		closed := pulse(t-1.0, 0.2) + pulse(t-1.5, 0.2) + pulse(t-2.0, 0.2)
		gap := 0.2 - 0.165*closed
		for _, sd := range sides {
			p.reach[sd.name] = reach{at: vec{sd.sign * gap / 2, -0.17, 0.3}, pole: vec{sd.sign, -1, -0.4}, w: e}
			// Palms face each other.
			p.aim[sd.name+"Hand"] = aim{face: vec{-sd.sign, 0, 0}, w: e}
			curlHand(p, sd.name, 8-6*e, 4)
		}
		p.turn("Head", rx(6*e))
		return p
	}}
}

func point(st style) clip {
	const d = 3.0
	return clip{name: "gesture_point", duration: d, at: func(t float64) pose {
		p := stand(st)
		e := envelope(t, d, 0.5, 0.6)
		down := hang(-1, st.armOut)
		// Forward, a little across the body and up to eye line.
		at := vec{-0.2, 0.12, 1}
		p.aim["RightArm"] = aim{dir: toward(down, at, e), w: 1}
		p.aim["RightForeArm"] = aim{dir: toward(rx(-st.elbow).rotate(down), at, e), w: 1}
		p.aim["RightHand"] = aim{dir: at, face: vec{0.3, -1, 0}, w: e}
		for j := 1; j <= 3; j++ {
			p.aim["RightHandIndex"+string(rune('0'+j))] = aim{dir: at, w: e}
		}
		for _, f := range fingerNames[1:] {
			for j := 1; j <= 3; j++ {
				p.curl["RightHand"+f+string(rune('0'+j))] = 8 + 72*e
			}
		}
		for j := 2; j <= 3; j++ {
			p.curl["RightHandThumb"+string(rune('0'+j))] = 4 + 36*e
		}
		p.turn("Spine2", ry(-6*e))
		p.turn("Head", ry(-8*e))
		return p
	}}
}

func shrug(st style) clip {
	const d = 2.2
	return clip{name: "gesture_shrug", duration: d, at: func(t float64) pose {
		p := stand(st)
		e := envelope(t, d, 0.5, 0.7)
		for _, sd := range sides {
			p.turn(sd.name+"Shoulder", rz(sd.sign*14*e))
			down := hang(sd.sign, st.armOut)
			p.aim[sd.name+"Arm"] = aim{dir: toward(down, vec{sd.sign * 0.4, -0.9, 0.2}, e), w: 1}
			fore := vec{sd.sign * 0.65, 0.05, 0.75}
			p.aim[sd.name+"ForeArm"] = aim{dir: toward(rx(-st.elbow).rotate(down), fore, e), w: 1}
			p.aim[sd.name+"Hand"] = aim{dir: fore, face: vec{0, 1, 0}, w: e}
			curlHand(p, sd.name, 8-4*e, 4)
		}
		p.turn("Neck", rx(-4*e))
		p.turn("Head", rz(7*e))
		return p
	}}
}

func thumbsUp(st style) clip {
	const d = 2.6
	return clip{name: "gesture_thumbsup", duration: d, at: func(t float64) pose {
		p := stand(st)
		e := envelope(t, d, 0.5, 0.6)
		down := hang(-1, st.armOut)
		fore := vec{-0.1, 0.45, 0.9}
		p.aim["RightArm"] = aim{dir: toward(down, vec{-0.2, -0.9, 0.35}, e), w: 1}
		p.aim["RightForeArm"] = aim{dir: toward(rx(-st.elbow).rotate(down), fore, e), w: 1}
		// The fist upright, its side toward the body, the thumb up.
		p.aim["RightHand"] = aim{dir: fore, face: vec{1, 0, 0}, w: e}
		for _, f := range fingerNames {
			for j := 1; j <= 3; j++ {
				p.curl["RightHand"+f+string(rune('0'+j))] = 8 + 80*e
			}
		}
		for j := 1; j <= 3; j++ {
			p.aim["RightHandThumb"+string(rune('0'+j))] = aim{dir: vec{0, 1, 0}, w: e}
		}
		return p
	}}
}
