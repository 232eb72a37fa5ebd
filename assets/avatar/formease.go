package avatar

import "math"

// lowerFaceEase is how much of the form shade's facing part (the skin
// turning away from the key light by its normal, formShade) the lower
// face loses from the mouth's height down. In a room light the lower
// face's sides, turning from the key as the face narrows to the jaw,
// took the temples' full shade on top of the renderer's own, and read
// dirty, unshaven (p28: "muddy", random-10): with the form shade off
// they are 0.75 of the upper cheek's luma, with it 0.67 (the leader's
// 0.87). The shade the face's own parts cast (the nose's sides, the
// creases, the eye sockets) stays whole, and under the chin the jaw's
// shade (Surface.Shade) still ends the face.
const lowerFaceEase = 0.6

// lowerFaceReach is how far above the mouth's centre (metres) the ease
// starts; it is whole at the mouth's height: the cheekbones above keep
// their shade.
const lowerFaceReach = 0.03

// easeLowerFace takes lowerFaceEase of the facing part out of the form
// shade (formShade's values for head p) below the cheekbones, mouthY the
// height of the mouth's centre. The facing part is what the vertex's
// normal alone would keep from the key light; the rest of its shade,
// the light its neighbours' form keeps off, is kept as it was.
func easeLowerFace(form []float32, p *part, mouthY float64) {
	rays := formRays()
	l := formLight.norm()
	var full float64
	for _, d := range rays {
		full += math.Max(0, l.dot(d))
	}
	for v, q := range p.pos {
		w := lowerFaceEase * smoothstep(mouthY+lowerFaceReach, mouthY, float64(q[1]))
		if w <= 0 || form[v] <= 0 {
			continue
		}
		n := v3(p.nrm[v])
		var open float64
		for _, d := range rays {
			open += math.Max(0, n.dot(d))
		}
		facing := math.Max(0, 1-open/full)
		if facing >= 1 {
			continue
		}
		cast := math.Max(0, 1-(1-float64(form[v]))/(1-facing))
		form[v] = min(form[v], float32(1-(1-facing*(1-w))*(1-cast)))
	}
}
