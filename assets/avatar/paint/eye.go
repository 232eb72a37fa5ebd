package paint

import "math"

// Eye paints an eyeball over s, which must be the eye's own mesh (its
// centre and radius are taken from it) facing +Z as the avatar does: a
// black pupil, an iris of the given colour with radial fibres, a lighter
// ring around the pupil and a soft limbal ring fading into a warm grey
// white, with a blush toward the back. The cornea is glossy, but a sphere's true
// reflection of a light is a point that the lids often hide and an even
// sky gives none; so, as the leader's textures do, catchlights are
// painted in: a window's soft reflection up and to the viewer's left of
// the pupil and a small point across from it, the same on both eyes.
func Eye(s Surface, iris RGB, seed uint64, n int) Maps {
	var c [3]float64
	for _, p := range s.Pos {
		for a := 0; a < 3; a++ {
			c[a] += float64(p[a]) / float64(len(s.Pos))
		}
	}
	m := surfaceMap(s, n, nil)
	defer release(m)
	l := newLayer(n)
	ir := muted(rgb(iris))
	parallel(len(m), func(i0, i1 int) {
		for i := i0; i < i1; i++ {
			l.rough[i] = 0.08
			l.base[i], l.height[i] = eyeTexel(m[i], c, ir, seed)
		}
	})
	return l.maps(0.3)
}

// glint is the angle between the eye's point at (theta, phi) and the one
// at (t0, p0), theta from the front and phi around it: small angles, so
// the flat distance in polar coordinates will do.
func glint(theta, phi, t0, p0 float64) float64 {
	x, y := theta*math.Cos(phi)-t0*math.Cos(p0), theta*math.Sin(phi)-t0*math.Sin(p0)
	return math.Hypot(x, y)
}

// IrisAngle is the iris's edge (the limbus), as the angle from the
// eye's front, radians. The rest lids are set from it (lids.go). At
// 0.54 on the grown eyes (eyeGrowth) the iris was 0.34-0.36 of the
// pupils' distance in room close-ups (bench/avatar-look/eyewhite)
// against the leader's 0.26-0.28: big round discs, a doll's eyes (issue
// 22, p14). At 0.43 it is about 0.29.
const IrisAngle = 0.43

// pupilShare is the pupil's angle as a share of the iris's (0.20 of
// 0.54 before): a smaller iris keeps its pupil in proportion.
const pupilShare = 0.37

// white is the eye's sclera: a warm light grey, not paper white (a white
// as bright as the skin's highlights made the gaze look fixed and hard).
var white = rgb{0.50, 0.46, 0.42}

// The white's shading: scleraLift of white's light next to the iris
// (from scleraFrom past the limbus), falling to scleraShade of it and
// scleraWarmth of the way to a warm shadow (scleraWarm) by scleraTo
// radians from the front, the corners of the lids' opening. An even
// white reads as a flat disc pasted behind the lids; the leader's eyes
// are near white beside the iris and a warm grey in the corners (its
// room close-up: 246 to 163 sRGB across the white, ours 212 to 168),
// which reads as a round, wet eyeball set into the lids. The white at
// the iris stays under the leader's (not paper white: the panel's fixed,
// hard gaze).
const (
	scleraFrom   = 0.03
	scleraTo     = 0.95
	scleraLift   = 1.3
	scleraShade  = 0.75
	scleraWarmth = 0.35
)

var scleraWarm = rgb{0.42, 0.27, 0.23}

// eyeTexel is the colour and relief of the eye at texel t, around the
// eyeball's centre c.
func eyeTexel(t texel, c [3]float64, ir rgb, seed uint64) (rgb, float64) {
	const pupil, limbus = pupilShare * IrisAngle, IrisAngle // angles from the front, radians
	if !t.ok {
		return white, 0
	}
	d := [3]float64{t.pos[0] - c[0], t.pos[1] - c[1], t.pos[2] - c[2]}
	r := math.Sqrt(d[0]*d[0] + d[1]*d[1] + d[2]*d[2])
	if r == 0 {
		return white, 0
	}
	theta := math.Acos(math.Max(-1, math.Min(1, d[2]/r)))
	phi := math.Atan2(d[1], d[0])
	var col rgb
	var h float64
	switch {
	case theta < pupil-pupilSoft:
		col = pupilBlack
	case theta < limbus:
		q := math.Max(0, (theta-pupil)/(limbus-pupil))
		fib := noise3([3]float64{math.Cos(phi) * 24, math.Sin(phi) * 24, q * 3}, seed)
		col = ir.scale(0.55 + 0.7*fib)
		col = col.mix(ir.mix(rgb{0.75, 0.6, 0.3}, 0.4), 0.5*(1-smooth(0, 0.3, q)))
		// The limbal ring: the iris darkens toward its edge and fades
		// into the white past it (below). A ring of the iris's colour at
		// half its light (0.45, 0.6 of the way) did not show in a
		// portrait, and the iris then read as a flat disc beside the
		// leader's dark-edged ones (issue 22); near black over its outer
		// quarter (0.9 of the way from 0.7 to 0.95 of the iris) it read
		// as a heavy dark rim (p14). It darkens over its outer half now,
		// limbalRing of the way at the edge.
		col = col.mix(ir.scale(limbalDark), limbalRing*smooth(0.5, 1, q))
		h = -0.5 * fib
		// The pupil's edge, soft over about a texel (0.03 rad) each side.
		open := smooth(pupil-pupilSoft, pupil+pupilSoft, theta)
		col, h = pupilBlack.mix(col, open), h*open
	default:
		v := fbm3(t.pos, 400, 2, seed+5)
		k := smooth(limbus+scleraFrom, scleraTo, theta)
		col = white.scale((0.95+0.08*v)*(scleraLift*(1-k)+scleraShade*k)).mix(scleraWarm, scleraWarmth*k)
		col = col.mix(rgb{0.55, 0.36, 0.32}, 0.35*smooth(0.9, 1.8, theta))
		col = col.mix(ir.scale(limbalDark), limbalFade*(1-smooth(limbus, limbus+0.08, theta)))
	}
	// The catchlights: angular distances on the eye from their centres.
	// Placed and sized for an iris 0.54 rad across, they shrink with it
	// (k), so a smaller iris keeps its catchlights inside it and in
	// proportion.
	if theta < limbus {
		const k = IrisAngle / 0.54
		q := glint(theta, phi, 0.24*k, 3*math.Pi/4)
		g := glint(theta, phi, 0.27*k, -math.Pi/4)
		a := math.Max(1-smooth(0.06*k, 0.09*k, q), 0.9*(1-smooth(0.025*k, 0.04*k, g)))
		col = col.mix(rgb{0.92, 0.92, 0.95}, a)
	}
	return col, h
}

// pupilSoft is half the width of the pupil's edge, radians: the iris's
// 256 texels give the pupil about 14 texels across, and cut hard it
// showed as a jagged polygon in close-ups (look.mjs --camera eyes, the
// creator's face view); the leader's pupil edges are soft.
const pupilSoft = 0.03

var pupilBlack = rgb{0.01, 0.01, 0.012}

// limbalDark is the limbal ring's light as a share of the iris colour's;
// limbalRing how far the iris's edge is taken to it, limbalFade how far
// the white just past the edge (0.9 and 0.7 before p14: a heavy rim).
const (
	limbalDark = 0.08
	limbalRing = 0.85
	limbalFade = 0.5
)

// irisMute is how far an iris's colour is taken toward the grey of its
// own luminance: the palette's colours painted as they are drew bright
// green and blue irises (issue 22: "very saturated iris colours"); the
// leader's irises are soft, greyed colours.
const irisMute = 0.35

// muted is c taken irisMute of the way to the grey of its luminance.
func muted(c rgb) rgb {
	l := c.luma()
	return c.mix(rgb{l, l, l}, irisMute)
}
