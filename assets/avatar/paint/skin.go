package paint

import "math"

// RGB is a linear-light colour, each channel 0..1.
type RGB [3]float64

// Skin paints skin of the given tone over s: a mottling of tone and
// redness at a few centimetres, fine pore-scale variation, lips (s.Mask
// is how much of the lips each vertex is) in a deeper, redder and glossier
// tone, pores and fine lines in the normal map, and the shading of the
// mesh's hollows and ridges (cavity) in the colour and occlusion. Where
// s.Blush says blood shows (cheeks, nose, ears) the tone warms toward
// red and the nose's skin is a little glossier: without it the face was
// one even tone, the waxy look the blind panel saw. The mottling and the
// hollows' shade are faint (TestSkinEven): at twice the strength, and
// with the hollows darkened twice (in the colour and in the occlusion,
// which a room light's environment multiplies), the panel saw blotchy,
// muddy skin. In a three-point rig the skin still read dark and muddy
// (default-female's cheek luma 0.573 against the leader's 0.617 in the
// same render): the hollows' occlusion is now 0.2 (their colour stays
// shaded as TestSkinHollows asks), the tone 22 % toward its grey and
// lifted a little (skinLift), and the roughness 0.7 as the leader's skin
// material's, so the skin does not shine like wax.
func Skin(s Surface, tone RGB, seed uint64, n int) Maps {
	cav := cavity(s)
	attr := make([][2]float64, len(cav))
	for i, c := range cav {
		attr[i][0] = c
		if s.Inner != nil {
			attr[i][1] = float64(s.Inner[i])
		}
	}
	m := surfaceMap(s, n, attr)
	defer release(m)
	l := newLayer(n)
	// Lit by a viewer's room light, skin painted in the tone itself read
	// orange beside the leader's (cheek saturation 0.36 to 0.50 against
	// its 0.21 to 0.27 in the same render): the tone is drawn a little
	// toward the grey of its own luminance, which keeps its lightness.
	base := desaturate(rgb(tone), skinGrey).scale(skinLift)
	// Lips are the tone with less green and blue (more blood showing):
	// a multiple of it, so dark skin gets deep lips, not a lipstick red.
	// Natural lips are only a little deeper and redder than the skin
	// around them; more read as lipstick.
	lip := rgb{base[0] * 0.82, base[1] * 0.56, base[2] * 0.58}
	red := rgb{base[0] * 1.1, base[1] * 0.88, base[2] * 0.88}
	// Blood under thin skin: a multiple of the tone like the lips, so
	// deep skin flushes deeper, never pink.
	flush := rgb{base[0] * 1.05, base[1] * 0.7, base[2] * 0.72}
	parallel(len(m), func(i0, i1 int) {
		for i := i0; i < i1; i++ {
			skinTexel(l, m[i], i, base, lip, red, flush, seed)
		}
	})
	return l.maps(0.45)
}

// skinTexel paints texel i of the skin.
func skinTexel(l *layer, t texel, i int, base, lip, red, flush rgb, seed uint64) {
	if !t.ok {
		l.base[i], l.rough[i] = base, 0.7
		return
	}
	p := t.pos
	v := fbm3(p, 30, 3, seed)
	r := fbm3(p, 9, 2, seed+10)
	fine := noise3(scale3(p, 600), seed+20)
	c := base.scale(0.95+0.08*v).mix(red, 0.25*smooth(0.45, 0.8, r))
	c = c.scale(0.97 + 0.05*fine)
	// Hollows in warm shadow, ridges (nose, ears, knuckles) flushed:
	// the shading the leader bakes into its skin, which a renderer's
	// lights alone do not give at this scale.
	hollow, ridge := smooth(15, 90, t.flow[0]), smooth(70, 160, -t.flow[0])
	c = c.mix(red, 0.25*ridge)
	// The flush breaks up with the mottling, as blood shows in life.
	c = c.mix(flush, t.blush*(0.26+0.12*r))
	c = rgb{c[0] * (1 - 0.26*hollow), c[1] * (1 - 0.38*hollow), c[2] * (1 - 0.36*hollow)}
	a := smooth(0.3, 0.75, t.mask)
	c = c.mix(lip, a)
	// Inside the mouth (s.Inner): the lips' wet inner side, then the
	// mouth's walls, which no light reaches in life; a renderer without
	// shadows lights them, so their colour and occlusion are dark.
	in := t.flow[1]
	c = c.mix(lip.scale(0.55), smooth(0, 0.35, in))
	c = c.mix(rgb{base[0] * 0.09, base[1] * 0.025, base[2] * 0.03}, smooth(0.3, 1, in))
	l.base[i] = c
	l.ao[i] = (1 - 0.2*hollow) * (1 - 0.85*smooth(0.2, 1, in))
	pore := noise3(scale3(p, 1400), seed+30)
	l.height[i] = (1-0.7*a)*(0.5*pore+0.3*fbm3(p, 350, 2, seed+40)) + a*0.3*math.Sin(p[0]*2200)
	// Roughness varies at two scales (patches and pores), and the
	// blushed nose and cheeks are a little glossier, as skin's oil is.
	l.rough[i] = 0.7 + 0.08*(fine-0.5) + 0.08*(v-0.5) - 0.06*t.blush - 0.14*a + 0.1*in
}

func scale3(p [3]float64, s float64) [3]float64 { return [3]float64{p[0] * s, p[1] * s, p[2] * s} }

// skinGrey is the share of grey in the painted skin's base (desaturate).
const skinGrey = 0.22

// skinLift brightens the painted base a little: lit by a three-point rig
// our cheeks were 7 % darker than the leader's of the same lightness in
// a room light (luma 0.573 against 0.617; room 0.757 against 0.785).
const skinLift = 1.08

// desaturate mixes a linear colour toward the grey of its luminance by t.
func desaturate(c rgb, t float64) rgb {
	y := 0.2126*c[0] + 0.7152*c[1] + 0.0722*c[2]
	return c.mix(rgb{y, y, y}, t)
}
