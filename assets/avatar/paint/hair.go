package paint

import "math"

// Hair paints hair of a colour over s: strands that run down the hair
// from the crown (the direction is worked out per vertex in UV space, so
// the painting follows whatever layout the hair mesh has), clumps of
// lighter and darker strands, and an alpha that breaks the borders of
// every UV piece into strand tips, for alpha-masked cards and hairlines.
func Hair(s Surface, color RGB, seed uint64, n int) Maps {
	return hair(s, color, seed, n, hairKind{})
}

// ScalpHair is Hair with the sheen of hair on a head painted in: a
// band of lighter strands over the top and front of the head where a
// viewer's light from above and in front catches hair, broken into
// streaks along the strands. Hair's highlight runs along the strands
// (it is anisotropic); glTF's core material cannot draw that, and
// KHR_materials_anisotropy would keep the hair out of the texture atlas
// and the merged mesh, so it is painted, as the leader paints its hair.
func ScalpHair(s Surface, color RGB, seed uint64, n int) Maps {
	return hair(s, color, seed, n, hairKind{sheen: true})
}

// CurlyHair is ScalpHair for curls: the strands are ridges of a noise
// in 3D instead of lines along the flow, so the cards of a curly cut
// (which lie every way) show one texture of curls across them, and the
// hollows of the surface itself (the sculpted shell's curls, raised in
// its geometry) are painted in their shade: the surface's curvature
// (cavity, unsmoothed) rides in the surface's Form.
func CurlyHair(s Surface, color RGB, seed uint64, n int) Maps {
	return hair(s, color, seed, n, hairKind{sheen: true, curly: true})
}

// SweptHair is ScalpHair for a cut swept up and back off the forehead
// (the sculpted short cut): its locks fall from behind the crown, so over
// the top they run from the forehead back, not out from the middle of
// the head like a bowl's.
func SweptHair(s Surface, color RGB, seed uint64, n int) Maps {
	return hair(s, color, seed, n, hairKind{sheen: true, swept: true})
}

// HangingHair is ScalpHair for hair that hangs to the shoulders (the
// long cut, the ponytail): its locks fall straight (hangingGrain).
func HangingHair(s Surface, color RGB, seed uint64, n int) Maps {
	return hair(s, color, seed, n, hairKind{sheen: true, hanging: true})
}

// Brows is Hair for eyebrows of hairs of colour color over skin of
// colour skin: hairs a portrait can see (browHairs), growing up at the
// brow's head, along its arch over the body and down at its tail,
// thinning toward every edge of the brow, so a brow reads as hairs over
// skin and not as a solid dark block (issue 22's panel), and the skin
// between them showing (browGapSkin), more toward the edge
// (browEdgeSkin) and at the head (browHeadSkin).
func Brows(s Surface, color, skin RGB, seed uint64, n int) Maps {
	return hair(s, color, seed, n, hairKind{brow: true, skin: rgb(skin)})
}

// hairKind is what a hair painter adds to the plain strands: sheen (the
// scalp's painted highlight), curls, or a brow's sparse strands over
// skin of colour skin.
type hairKind struct {
	sheen, curly, brow, swept, hanging bool
	skin                               rgb
}

// mixPerceived mixes c toward d by t as the eye sees the step, in sRGB's
// gamma (2.2) and not in linear light: a share of light skin mixed into
// black brows in linear light lifted them to a pale grey (random-15:
// black hair, porcelain skin), no longer the dark of the hair.
func mixPerceived(c, d rgb, t float64) rgb {
	var out rgb
	for k := range 3 {
		a, b := math.Pow(c[k], 1/2.2), math.Pow(d[k], 1/2.2)
		out[k] = math.Pow(a+(b-a)*t, 2.2)
	}
	return out
}

// A brow is hairs over skin: browSkin of its colour in its middle is
// the skin's between the hairs, browEdgeSkin at its edge (mixed as seen,
// mixPerceived). The alpha mask draws a brow's outline as a cut (a
// viewer's mipmaps and alpha test leave no partly covered texels), so a
// brow in the hairs' colour to its edge read as a near-black shape with
// a hard outline (the judges' "hard eyebrows"). In a room close-up
// (bench/avatar-look/browcontrast) default-male's brow was 0.81 darker
// than the forehead with a 1-2 px upper edge, the leader's casual 0.47
// to 0.49 with 7 px, a soft brown lighter than its hair; with the skin
// in it, 0.63 and 5 px.
//
// Drawn as hairs (browHairs), the skin's share is browSkin on a hair
// and browGapSkin between hairs, so the mean over a brow's body (hairs
// over about four fifths of it) stays near the 0.3 all over it had
// been (browcontrast on default-male's eyes close-up: 0.55 darker than
// the forehead before, 0.56 now, the leader's 0.49); toward the edge
// (over its outer half of browFade) both go to browEdgeSkin, and the
// head, the first browHeadReach of the brow, takes browHeadSkin more of
// the skin at its inner end. Toward the edge only texels browEdgeCover
// covered by hairs are opaque. With the gaps between hairs at 0.75 of
// the skin and hairs over two thirds of the brow, a portrait saw dark
// scratches on pale skin, not a brow; at 0.6 to 0.7 and four fifths, a
// brow of hairs.
const (
	browSkin      = 0.15
	browGapSkin   = 0.7
	browEdgeSkin  = 0.9
	browHeadSkin  = 0.2
	browEdgeCover = 0.6
)

// Curls. Issue 22's panel (p12, p13) called curly hair grainy, then a
// "sponge", then (p15) "lumpy": paint blind to the shell's curls, then
// paint shaded from the shell's curvature, which at its 5 mm vertices
// is a soft blur. The curls are now painted from the curls the shell is
// raised in (CurlAt), at the texels' resolution: each curl's light
// falls to curlCrease of it in the crease where it meets the next, a
// soft valley about curlCreaseWidth of the way to its middle wide
// (light hair's creases curlCreaseLight lighter still: white creases a
// texel or two wide read as grain, TestLightHairGrain), and over the
// rest is shaded as the dome the geometry raises (curlShade), so a
// portrait sees clumps with soft shade between them
// (TestCurlyHairFollowsItsCurls, TestCurlsNoDarkNet); over them the
// ringlets and their strands (ringletShade, ringletHairs), not
// blotches (TestCurlyHairCalm).
const (
	curlCrease      = 0.4
	curlCreaseWidth = 0.2
	curlDomeShade   = 0.25
	curlCreaseLight = 0.15
	curlStreak      = 0.6
)

// curlShade is how much of a curl's light falls at m of the way from
// its crease to its middle (Curl's Middle): curlCrease in the crease,
// rising in a bell's curve, 1 - (1 - curlCrease)·exp(-(m/curlCreaseWidth)²),
// round at its foot and with no edge, and over the whole curl a dome's
// shading, 1 - curlDomeShade·(1 - m)², lightest at the middle. It was
// full light from a third of the way in: a flat tile inside a wide dark
// border, "cracked tiles", "cobblestones with dark seams" (issue 22's
// panel, p21). Then none in the crease, rising to full over the first
// 0.35 of the way (smoothstep), on top of which the painter darkened
// the crease again as a hollow: a band a third of each curl wide with
// no light at its floor and an edge where it ended, which a portrait
// sees as a net of near-black lines over the hair, strongest on light
// hair (p29: "a lumpy, cracked, blotchy shell"; random-08, -14).
// curlDomeShade 0.4 dulled blonde curls in the room's light.
func curlShade(m float64) float64 {
	z := m / curlCreaseWidth
	return (1 - (1-curlCrease)*math.Exp(-z*z)) * (1 - curlDomeShade*(1-m)*(1-m))
}

// Ringlets (RingletAt) in the curls, issue 22's panel (p35: "lumpy
// clay", a few smooth lumps with no hair in them). Each ringlet's light
// falls to ringletCrease of it in the crease where it meets the next,
// over ringletCreaseWidth of the way to its middle (light hair's
// creases shallower by ringletCreaseLight of that), and over the rest
// is shaded as a small dome (ringletDomeShade). Its strands coil round
// its point, ringletPitch apart (never closer than ringletStrandTexels
// texels: at a texel or two they alias into the speckle of
// TestLightHairGrain), broken into lengths round the coil, and the
// gaps between them take ringletStrandDepth of the light: fine hairs,
// as the brows and beards drawn as hairs that the judges preferred
// (39 of 40, 20 of 26), not painted lines. They replace the noise
// ridges (260 per metre, a fifth of a quarter of the light) that were
// the curls' only texture.
const (
	ringletCrease       = 0.4
	ringletCreaseWidth  = 0.3
	ringletCreaseLight  = 0.4
	ringletDomeShade    = 0.15
	ringletPitch        = 0.0016
	ringletStrandTexels = 3.0
	ringletStrandDepth  = 0.3
)

// ringletShade is how much of a ringlet's light falls at m of the way
// from its crease to its middle (Ringlet's Middle), for hair light of
// lightness (0 dark, 1 grey or white): as curlShade, shallower.
func ringletShade(m, light float64) float64 {
	z := m / ringletCreaseWidth
	deep := (1 - ringletCrease) * (1 - ringletCreaseLight*light)
	return (1 - deep*math.Exp(-z*z)) * (1 - ringletDomeShade*(1-m)*(1-m))
}

// ringletHairs is how much of a strand of ringlet r the texel at p is
// on (0..1): the strands coil out from the ringlet's point, one pitch
// farther out each turn, a little wavy (a noise of p), each broken into
// lengths round the coil so they read as hairs, not rings.
func ringletHairs(r Ringlet, p [3]float64, pitch float64, seed uint64) float64 {
	ph := r.Radius/pitch + r.Turn/(2*math.Pi) + 0.8*noise3(scale3(p, 400), seed+3)
	k := math.Floor(ph)
	across := 1 - math.Abs(2*(ph-k)-1)
	// Which strand, counted from the ringlet's point where the turn is
	// 0: the same on both sides of the turn's ±π.
	w := k + 0.5 - r.Turn/(2*math.Pi)
	gap := noise3([3]float64{2.5 * math.Cos(r.Turn), 2.5 * math.Sin(r.Turn), 1.7*w + 13*r.Tone}, seed+4)
	return smooth(0.3, 0.9, across) * smooth(0.3, 0.5, gap)
}

func hair(s Surface, color RGB, seed uint64, n int, kind hairKind) Maps {
	m := surfaceMap(s, n, flow(s))
	defer release(m)
	edge := edgeDistance(m, n, tipLength)
	if kind.brow {
		// A brow thins over twice a tip's length, so its outline fades
		// into the skin instead of ending in a cut (the panel's "harsh",
		// "painted-on" brows).
		edge = edgeDistance(m, n, browFade)
	}
	l := newLayer(n)
	l.alpha = make([]float64, n*n)
	base := rgb(color)
	centre := headCentre(s.Pos)
	// How light the hair is: 0 for brown and darker, 1 for grey and white.
	light := smooth(0.1, 0.3, base.luma())
	// Light from above and in front, as viewers and portraits light.
	sun := [3]float64{0, 0.8, 0.6}
	// Curls' strands (ringletHairs) at least ringletStrandTexels apart:
	// at a texel or two, fine ridges' dark troughs aliased into a
	// salt-and-pepper speckle that dark hair hides and white hair showed
	// (issue 22's panel: "grainy", "cotton wool"; TestLightHairGrain).
	strandPitch := 0.0
	if kind.curly {
		strandPitch = math.Max(ringletPitch, ringletStrandTexels*texelSize(s, n))
	}
	// browKeep is the share of the brow's skin a light brow keeps: 1 for
	// a black brow, less the nearer the brow's luma is to the skin's.
	browKeep := 1.0
	if kind.brow {
		browKeep = 1 - math.Min(1, base.luma()/math.Max(kind.skin.luma(), 1e-6))
	}
	var curls [3]float64
	if kind.curly {
		curls = curlCentreOf(s)
	}
	var bh *browHairs
	if kind.brow {
		bh = newBrowHairs(s, seed, n)
	}
	var lk *locks
	if kind.sheen && !kind.curly {
		lk = newLocks(s, n, kind.swept)
		if kind.hanging {
			lk.grain = hangingGrain
		} else if !kind.swept {
			lk.grain = crownGrain.sizedFor(n)
		}
	}
	parallel(n, func(y0, y1 int) {
		ln := newLockNoise(seed)
		var curlCells, ringletCells cellMemo
		for y := y0; y < y1; y++ {
			for x := 0; x < n; x++ {
				i := y*n + x
				t := m[i]
				if !t.ok {
					// Clear, and flat so the PNG spends nothing on it.
					l.base[i], l.rough[i] = base, 0.7
					continue
				}
				f := t.flow
				if fl := math.Hypot(f[0], f[1]); fl > 1e-9 {
					f = [2]float64{f[0] / fl, f[1] / fl}
				} else {
					f = [2]float64{0, 1}
				}
				across := float64(x)*f[1] - float64(y)*f[0]
				along := float64(x)*f[0] + float64(y)*f[1]
				// Strands and clumps along the flow; curls and locks (lk)
				// paint their own and use none of these, so they skip them.
				var strand, clump float64
				if lk == nil && !kind.curly {
					strand = noise3([3]float64{across * 0.5, along * 0.04, 0}, seed)
					clump = noise3([3]float64{across * 0.12, along * 0.01, 7}, seed+1)
				}
				if kind.curly {
					// Curls: the shell's own (CurlAt), in 3D so they
					// are seamless across UV seams, dark in their
					// creases (see curlCrease), each a little lighter
					// or darker than the next. The ringlets in them (RingletAt), each dark in
					// its own crease and drawn as its coiling strands
					// (ringletHairs).
					cu := curlAt(t.pos, curls, &curlCells)
					ri := ringletAt(t.pos, curls, &ringletCells)
					crease := curlCreaseLight * light
					hairs := ringletHairs(ri, t.pos, strandPitch, seed)
					ringlet := (1 - ringletStrandDepth*(1-hairs)) * ringletShade(ri.Middle, light)
					strand = ringlet * (crease + (1-crease)*curlShade(cu.Middle))
					clump = 0.4 + 0.1*cu.Tone + 0.1*ri.Tone
					// Only the creases and ridges go into the normal
					// map, not each curl's dome: the shell is raised in
					// it already, and over UVs cut from the head's,
					// which do not follow the raised curls, the dome's
					// steep slope turned a different way on every
					// triangle (three.js builds the tangent frame per
					// triangle): flat facets with creases between
					// them, "a faceted polygon mass" (issue 22's panel,
					// p21; TestCurlsShadeSmooth).
				}
				// Light hair (grey, white, platinum) varies by darker
				// strands under a light top, finer than dark hair's clumps:
				// lightened by the same factors it clipped to white and
				// read as blocks (issue 22: "white blocky hair").
				v := 0.35*strand + 0.65*clump
				c := base.scale(0.6 + 0.8*v)
				if light > 0 {
					w := 0.6*strand + 0.4*clump
					c = c.mix(base.scale(0.45+0.6*w), light)
				}
				ridge := 1.0 // how much of a lock's crest the texel is (sheen)
				if kind.curly {
					// The hollows between curls in their shade, and the
					// sheen on the curls' crests only: white curls were
					// painted flat white and read as cotton wool (issue
					// 22's panel), with no depth between the curls.
					// glTF's occlusion would need the hair's third
					// texture; baked into the colour, it holds in every
					// variant.
					// The grooves cover less than the pits did: a little
					// deeper, so the hollows hold their depth
					// (TestCurlyHairHollows).
					hollow := 1 - strand
					c = c.scale(1 - (0.4+0.2*light)*hollow*math.Sqrt(hollow))
					ridge = strand * strand
				}
				if lk != nil {
					// Locks: lit crests, dark grooves between them, and
					// the layers under the top one in their shade.
					shape, tone, fine, depth := lk.at(t.pos, seed, &ln)
					strand = fine
					v = 0.7*shape + 0.3*fine
					shade := 1 - 0.45*smooth(0.002, 0.02, depth)
					// The grooves deep (0.18 of a crest's light) and the
					// fine strands shallower than the locks, so a
					// portrait sees locks, not a comb of thin stripes.
					k := tone * shade * (0.18 + 0.82*shape) * (0.82 + 0.36*fine)
					c = base.scale(0.25 + 1.05*k)
					if light > 0 {
						// Light hair: the same locks, shallower, never
						// lifted past its colour (white clipped to blocks).
						c = c.mix(base.scale(0.4+0.55*k), light)
					}
					ridge = shape * shape
				}
				if kind.sheen {
					d := [3]float64{t.pos[0] - centre[0], t.pos[1] - centre[1], t.pos[2] - centre[2]}
					dl := math.Sqrt(d[0]*d[0] + d[1]*d[1] + d[2]*d[2])
					if dl > 1e-6 {
						cos := (d[0]*sun[0] + d[1]*sun[1] + d[2]*sun[2]) / dl
						z := (cos - 0.82) / 0.13
						band := math.Exp(-(z * z)) // math.Pow(z, 2), to the bit (TestSquareAsPow)
						var streak float64
						switch {
						case kind.curly:
							// Curls: one soft highlight over each
							// curl's top (ridge), no streaks: streaks in
							// the texture's own directions mottled dark
							// curls' tops (TestCurlyHairCalm).
							streak = curlStreak
						case lk != nil:
							// Locks: the sheen in streaks of their own
							// strands, along them wherever the UV pieces
							// turn (a texel-space streak swirled across
							// them).
							streak = smooth(0.35, 0.75, strand)
						default:
							streak = smooth(0.3, 0.8, noise3([3]float64{across * 0.35, along * 0.02, 3}, seed+2))
						}
						// Lighter and a little warmer, so dark hair shows
						// its sheen too.
						hi := rgb{c[0]*2.2 + 0.05, c[1]*2.1 + 0.04, c[2]*1.9 + 0.03}
						// Light hair has little room above it: a faint
						// sheen, never past white.
						hi = hi.mix(rgb{min(1, c[0]*1.25), min(1, c[1]*1.25), min(1, c[2]*1.25)}, light)
						c = c.mix(hi, 0.55*band*(0.35+0.65*streak)*ridge)
					}
				}
				l.base[i] = c
				l.height[i] = 1.5 * strand
				if lk != nil {
					// Rounded locks in the normal map, so a viewer's light
					// finds their crests and leaves their grooves.
					l.height[i] = lk.grain.relief*v + 0.8*strand
				}
				l.rough[i] = 0.78 - 0.1*v
				// How much of a strand tip the texel is: near an open
				// border of the mesh (mask) and within tipLength texels of
				// its piece's edge in the texture, so that a card only a
				// few vertices wide (all of them on its border) is solid
				// in its middle and not a comb.
				tip := t.mask * (1 - float64(edge[i])/tipLength)
				switch {
				case kind.brow:
					// A brow is its hairs (browHairs) over skin: in its
					// body every texel is opaque, the skin's colour
					// mostly (browGapSkin) between the hairs and little
					// (browSkin) on them; toward its edge (out) only
					// the hairs are, and they take more of the skin
					// (browEdgeSkin), so the outline is their tips,
					// fading into the forehead, not a cut. The head is
					// lighter still (browHeadSkin). A light brow
					// (blonde, grey) shows less of the skin (browKeep).
					out := 1 - float64(edge[i])/browFade
					along, cover, tone := bh.at(t.pos)
					if cover >= browEdgeCover*smooth(0.1, 0.8, out) {
						l.alpha[i] = 1
					}
					show := browGapSkin + (browSkin-browGapSkin)*cover
					show += (browEdgeSkin - show) * smooth(0, 0.5, out)
					show += (1 - show) * browHeadSkin * (1 - smooth(0, browHeadReach, along))
					l.base[i] = mixPerceived(base.scale(tone), kind.skin, clamp01(show)*browKeep)
				case tip < 0.05:
					l.alpha[i] = 1
				default:
					// Toward a border only the denser strands remain:
					// thin locks along the flow, not blotches.
					if 0.6*strand+0.4*v > 0.3+0.35*tip {
						l.alpha[i] = 1
					}
				}
			}
		}
	})
	if kind.sheen {
		for i := range l.rough {
			l.rough[i] = scalpRough
		}
	}
	clearSpecks(l.alpha, m, n, max(6, n*n/2700))
	spill(l, m, n, 4)
	return l.maps(0.6)
}

// scalpRough is the roughness of the hair on the head, every style
// painted here (short, bun, long, ponytail, curly), the leader's office
// avatar's hair's (its casual one's 0.84). Its material has no roughness
// map, only the map's mean, which was 0.71: the room's ceiling light lay
// on the front of the hair as a grey, milky band (the short cut's, the
// bun's fringe, "a rigid glossy helmet", and the long and ponytail cuts'
// crowns; issue 22, session 23). At 0.80 the band goes and black hair
// keeps a faint light on its locks; at 0.85 it went flat black
// (TestHairNoGreySheen). Brows and
// lashes keep their 0.71 (a98e0d8), the buzz cut its own (BuzzHair).
const scalpRough = 0.8

// spill carries the colour, height and roughness of the texels on the
// hair out over the clear texels round each UV piece, passes texels
// deep (each clear texel takes the mean of its neighbours set in the
// pass before). The normal map is the slope of the height: with the
// height dropping to 0 off a piece, every piece's border got a steep
// false slope, and the hair's rims (which take their edge's UV) and the
// cards' edges caught the light on it as light lines (issue 22's panel:
// "seams"; the light seam at default-female's temple). Filtering and
// mipmaps read these texels too.
func spill(l *layer, m []texel, n, passes int) {
	set := make([]bool, n*n)
	for i := range set {
		set[i] = m[i].ok
	}
	next := make([]bool, n*n)
	for range passes {
		copy(next, set)
		for y := 0; y < n; y++ {
			for x := 0; x < n; x++ {
				i := y*n + x
				if set[i] {
					continue
				}
				var c rgb
				h, r, k := 0.0, 0.0, 0.0
				for _, o := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
					xn, yn := x+o[0], y+o[1]
					if xn < 0 || yn < 0 || xn >= n || yn >= n || !set[yn*n+xn] {
						continue
					}
					j := yn*n + xn
					c = rgb{c[0] + l.base[j][0], c[1] + l.base[j][1], c[2] + l.base[j][2]}
					h += l.height[j]
					r += l.rough[j]
					k++
				}
				if k == 0 {
					continue
				}
				l.base[i] = c.scale(1 / k)
				l.height[i], l.rough[i] = h/k, r/k
				next[i] = true
			}
		}
		set, next = next, set
	}
}

// clearSpecks removes the opaque islands of fewer than minSize texels
// (4-connected) from a cut-out alpha, and fills the clear holes of that
// size inside the hair: a strand-tip pattern breaks up into specks
// where a mask is thresholded, and a speck of hair floating on the skin
// (the hairline) reads as dirt, not hair.
//
// The flood fill reads one byte per texel (off the surface, clear or
// opaque) instead of the 56-byte texel and the alpha: it walks every
// texel of the texture on one core, and at 1024 texels (hairTexels)
// reading the texels themselves took about a tenth of a second.
func clearSpecks(alpha []float64, m []texel, n, minSize int) {
	const (
		off    = 0
		clear  = 1
		opaque = 2
		seen   = 4
	)
	state := make([]uint8, len(alpha))
	for i := range state {
		switch {
		case !m[i].ok:
			state[i] = off
		case alpha[i] >= 0.5:
			state[i] = opaque
		default:
			state[i] = clear
		}
	}
	var stack, comp []int32
	for start, st := range state {
		if st == off || st&seen != 0 {
			continue
		}
		kind := st
		comp = comp[:0]
		stack = append(stack[:0], int32(start))
		state[start] |= seen
		open := false // a clear component touching the background is not a hole
		for len(stack) > 0 {
			i := int(stack[len(stack)-1])
			stack = stack[:len(stack)-1]
			comp = append(comp, int32(i))
			x := i % n
			for _, j := range [4]int{i + 1, i - 1, i + n, i - n} {
				if j < 0 || j >= len(state) || (j == i+1 && x == n-1) || (j == i-1 && x == 0) || state[j] == off {
					open = true
					continue
				}
				if state[j] != kind {
					continue
				}
				state[j] |= seen
				stack = append(stack, int32(j))
			}
		}
		if len(comp) >= minSize || (kind == clear && open) {
			continue
		}
		for _, i := range comp {
			if kind == opaque {
				alpha[i] = 0
			} else {
				alpha[i] = 1
			}
		}
	}
}

// headCentre is about the middle of the head a hair mesh sits on: under
// the crown, at the middle of the hair's top 8 cm.
func headCentre(pos [][3]float32) [3]float64 {
	top := math.Inf(-1)
	for _, p := range pos {
		top = math.Max(top, float64(p[1]))
	}
	var c [3]float64
	k := 0.0
	for _, p := range pos {
		if float64(p[1]) > top-0.08 {
			c[0] += float64(p[0])
			c[2] += float64(p[2])
			k++
		}
	}
	if k == 0 {
		return c
	}
	return [3]float64{c[0] / k, top - 0.1, c[2] / k}
}

// tipLength is how far into a piece of hair, in texels, strand tips
// reach from its edge.
const tipLength = 8

// browFade is how far into a brow, in texels, its strands thin out from
// its edge.
const browFade = 10

// edgeDistance is, per texel, how many steps (4-connected) it is from
// the nearest uncovered texel, up to limit.
func edgeDistance(m []texel, n, limit int) []int {
	d := make([]int, len(m))
	var front []int
	for i, t := range m {
		if t.ok {
			d[i] = limit
		} else {
			front = append(front, i)
		}
	}
	for step := 1; step < limit && len(front) > 0; step++ {
		var next []int
		for _, i := range front {
			x, y := i%n, i/n
			for _, o := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
				xn, yn := x+o[0], y+o[1]
				if xn < 0 || yn < 0 || xn >= n || yn >= n {
					continue
				}
				if j := yn*n + xn; d[j] > step {
					d[j] = step
					next = append(next, j)
				}
			}
		}
		front = next
	}
	return d
}

// Border marks the vertices of a mesh's open edges (edges of one
// triangle, vertices welded by position, so UV seams are not borders):
// the mask Hair breaks into strand tips.
func Border(pos [][3]float32, tris [][3]uint32) []float32 {
	type key [3]float32
	id := map[key]int{}
	weld := make([]int, len(pos))
	for i, p := range pos {
		k := key(p)
		if _, ok := id[k]; !ok {
			id[k] = len(id)
		}
		weld[i] = id[k]
	}
	count := map[[2]int]int{}
	for _, t := range tris {
		for k := 0; k < 3; k++ {
			a, b := weld[t[k]], weld[t[(k+1)%3]]
			if a > b {
				a, b = b, a
			}
			count[[2]int{a, b}]++
		}
	}
	rim := map[int]bool{}
	for e, n := range count {
		if n == 1 {
			rim[e[0]], rim[e[1]] = true, true
		}
	}
	out := make([]float32, len(pos))
	for i := range pos {
		if rim[weld[i]] {
			out[i] = 1
		}
	}
	return out
}

// flow is, per vertex, the UV direction in which the distance from the
// crown (the top centre of the mesh) grows: the way strands fall.
func flow(s Surface) [][2]float64 {
	lo, hi := [3]float64{math.Inf(1), math.Inf(1), math.Inf(1)}, [3]float64{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
	for _, p := range s.Pos {
		for a := 0; a < 3; a++ {
			lo[a], hi[a] = math.Min(lo[a], float64(p[a])), math.Max(hi[a], float64(p[a]))
		}
	}
	crown := [3]float64{(lo[0] + hi[0]) / 2, hi[1], (lo[2] + hi[2]) / 2}
	g := make([]float64, len(s.Pos))
	for i, p := range s.Pos {
		d := [3]float64{float64(p[0]) - crown[0], float64(p[1]) - crown[1], float64(p[2]) - crown[2]}
		g[i] = math.Sqrt(d[0]*d[0] + d[1]*d[1] + d[2]*d[2])
	}
	out := make([][2]float64, len(s.Pos))
	for _, t := range s.Tris {
		a, b, c := s.UV[t[0]], s.UV[t[1]], s.UV[t[2]]
		e1 := [2]float64{float64(b[0] - a[0]), float64(b[1] - a[1])}
		e2 := [2]float64{float64(c[0] - a[0]), float64(c[1] - a[1])}
		det := e1[0]*e2[1] - e1[1]*e2[0]
		if math.Abs(det) < 1e-14 {
			continue
		}
		dg1, dg2 := g[t[1]]-g[t[0]], g[t[2]]-g[t[0]]
		// The UV gradient of g: solve [e1; e2] · grad = [dg1, dg2].
		gx := (dg1*e2[1] - dg2*e1[1]) / det
		gy := (e1[0]*dg2 - e2[0]*dg1) / det
		if l := math.Hypot(gx, gy); l > 0 {
			for _, v := range t {
				out[v][0] += gx / l
				out[v][1] += gy / l
			}
		}
	}
	return out
}

// beardEdge is the region weight where a beard's edge lies: the region's
// soft margin below it is left to the stubble painted on the skin.
const beardEdge = 0.3

// beardRough is the beard's roughness: matte. Its material has no
// roughness map, only the map's mean (averageRoughness), which was the
// 0.7 of the texels the beard leaves empty: at 0.7 a room light's
// reflection lay on the shells that face the camera as a grey sheen, a
// pale blotch on the chin and a smear under the nose of a dark beard
// (issue 22's A/B, 2026-11-29). Hair this fine and dense scatters the
// light; the leader's beards show no sheen.
const beardRough = 0.95

// Beard paints facial hair of a colour over s, whose Mask is how much of
// the style's region each vertex is: short hairs drawn as strokes along
// the beard's growth (beardHairs; s.Mouth, when set, says where the
// moustache grows out from), lit strands over the shade between them,
// denser and longer in the middle of the region and thinning out at its
// edges. Alpha is 0 between strands and 0.5 + 0.5·length on a strand,
// length in 0..1 of the style's length: the shells of the beard mesh,
// whose vertex alpha falls from 1 inside to 0.5 outside, each keep the
// strands long enough to reach them (alpha mask at 0.5), so the outer
// shells are tufts of the drawn hairs and strands thin toward their tips.
func Beard(s Surface, color RGB, seed uint64, n int) Maps {
	hairs := newBeardHairs(s, seed, n)
	// Where the beard faces the room's light its dark hairs catch it
	// (beardSheenLift): texel.sheen carries beardLit.
	s.Sheen = beardLit(s, hairs.front)
	m := surfaceMap(s, n, nil)
	defer release(m)
	l := newLayer(n)
	l.alpha = make([]float64, n*n)
	base := rgb(color)
	step, dark := beardStep(base), beardSheenDark(base)
	strand, gap := perceivedStep(base, beardStrandLift*step).scale(beardBody), perceivedStep(base, -beardGapDepth*step).scale(beardBody)
	parallel(n, func(y0, y1 int) {
		clumps, edges := newFbmMemo(2, seed+51), newFbmMemo(2, seed+53)
		for y := y0; y < y1; y++ {
			for x := 0; x < n; x++ {
				i := y*n + x
				t := m[i]
				if !t.ok {
					l.base[i], l.rough[i] = base, beardRough
					continue
				}
				p := t.pos
				cover, tone := hairs.at(p)
				clump := clumps.at(p, 220)
				// Coverage: every texel inside the beard's edge is hair,
				// so the shell on the skin is one even patch; its edge is
				// an iso-line of the region's weight, wobbling a few
				// millimetres over a few centimetres, not cut by strand
				// noise (that drew a torn edge of flecks and notches, and
				// skin through pinholes: issue 22's panel, "smeared",
				// "ragged"). The strands' length rises from the edge
				// inward, so the outer shells step back from it and the
				// beard thins toward its edge as a lock does; on the
				// outer shells the drawn hairs reach a little further
				// (0.9 to 1 of the length: at 0.72 to 1 a gap between
				// hairs cut the outer shell and showed the darker shell
				// under it, a pit; round 1's judges, "pock marks").
				edge := beardEdge + 0.08*(edges.at(p, 40)-0.5)
				in := 0.0
				if t.mask > edge {
					in = smooth(edge, edge+0.3, t.mask)
					length := in * (0.9 + 0.1*cover) * (0.85 + 0.15*clump)
					l.alpha[i] = 0.5 + 0.5*math.Min(1, length)
				}
				// A hair's strand over the shade between hairs, in
				// locks a little lighter and darker (clump). Toward
				// the edge the strands' light and dark even out to the
				// roots' flat colour on the skin beside them (rootShade
				// under the shells' 0.9 vertex shade), so the shells'
				// outline is not a line of lit strand tips against the
				// skin but goes on into the roots' fade (rootsCover).
				lit := strand.scale(tone)
				// A dark beard's lighter hairs catch the light along
				// their middles (cover again: narrower than the
				// stroke), where the beard faces it, not at its edge.
				if w := dark * t.sheen * smooth(0.3, 1, in) * smooth(beardSheenToneFrom, beardSheenToneFull, tone) * cover; w > 0 {
					lit = lit.mix(beardSheenColor(lit, beardSheenLift), w)
				}
				hair := gap.mix(lit, cover).scale(0.8 + 0.4*clump)
				flat := smooth(0.1, 0.75, in)
				l.base[i] = base.scale(rootShade/0.9).mix(hair, flat)
				// The hairs stand out of the shade a little: at 1.2 a
				// hole among them shaded as a pit in the normal map.
				l.height[i] = 0.8 * cover
				l.rough[i] = beardRough
			}
		}
	})
	return l.maps(0.5)
}

// Stubble darkens a painted skin (m, made over the same UV layout) where
// facial hair grows: s.Mask is how much of the region each vertex is,
// amount how dark it gets (0..1). Fine dots of the hair's colour over a
// shadow of it: stubble alone, or the roots that show between a beard's
// strands.
func Stubble(m Maps, s Surface, color RGB, amount float64, seed uint64) {
	hair := rgb(color)
	overMask(m, s, func(t texel, c rgb) rgb {
		// Toward the region's edge the shadow goes first and the
		// dots thin out, so stubble (and a beard's roots) fade
		// into the skin by density over the mask's soft edge,
		// not as a tint that stops at a line.
		dense := smooth(0.02, 0.5, t.mask)
		dots := smooth(0.62-0.17*dense, 0.8-0.05*dense, noise3(scale3(t.pos, 2200), seed+60))
		return c.mix(hair, amount*(0.45*dense*dense+0.55*math.Sqrt(dense)*dots))
	})
}

// srgbToLinear decodes an sRGB byte.
func srgbToLinear(b uint8) float64 {
	v := float64(b) / 255
	if v <= 0.04045 {
		return v / 12.92
	}
	return math.Pow((v+0.055)/1.055, 2.4)
}

// Scalp paints the hair's colour into a painted skin (m, made over the
// same UV layout) where s.Mask says hair lies over it: the roots and the
// shadow under the hair, in fine streaks that run down the head, so that
// what shows between the cards, at a parting or along a cut hairline
// reads as more hair instead of bare skin. Toward the mask's edge the
// streaks thin out, a soft hairline rather than a line.
func Scalp(m Maps, s Surface, color RGB, seed uint64) {
	hair := rgb(color)
	// A little darker than the hair: the shade under the top layer.
	shade := hair.scale(0.75)
	overMask(m, s, func(t texel, c rgb) rgb {
		p := t.pos
		strand := noise3([3]float64{p[0] * 2400, p[1] * 120, p[2] * 2400}, seed+70)
		// Full cover where the mask is high; along the edge only
		// the strands, so the hairline breaks into hair, not steps.
		edge := smooth(0.05, 0.6, t.mask)
		w := edge * (0.55 + 0.45*smooth(0.3, 0.7, strand+0.5*edge-0.25))
		if t.mask > 0.6 {
			w = math.Max(w, smooth(0.6, 0.85, t.mask))
		}
		return c.mix(shade.scale(0.8+0.4*strand), math.Min(1, w))
	})
}

// Sideburns paints a short cut's sideburns into a painted skin (m, made
// over s's UV layout) where s.Mask (their cover, 0..1) reaches. Painted
// as the scalp under the hair (Scalp: a quarter darker than the hair and
// mixed with the skin wherever the mask is under 0.85), the sideburns,
// which show below the hair's edge mostly in their fading foot, read
// "greyer than the hair", "a see-through reddish smudge" (issue 22's A/B
// of d3f4cd6, blonde and red): in a room render's quarter view the
// painted patch was as light as the hair just above it but less
// saturated (blonde 0.33 against 0.35, red 0.50 against 0.63, brown 0.55
// against 0.65, grey tinted pink). Here they are solid where the mask
// passes sideburnSolid and toward their edge thin out in streaks that
// run down the head, mixed as the eye sees the step (mixPerceived, so
// dark hair does not go grey over light skin), in the hair's colour
// made sideburnChroma richer and sideburnShade as light: the skin lying
// flat under the room's light shows a colour lighter and greyer than the
// hair's cards, which stand off it, of the same paint.
func Sideburns(m Maps, s Surface, color RGB, seed uint64) {
	hair := richer(rgb(color), sideburnChroma).scale(sideburnShade)
	overMask(m, s, func(t texel, c rgb) rgb {
		p := t.pos
		strand := noise3([3]float64{p[0] * 2400, p[1] * 120, p[2] * 2400}, seed+70)
		a := smooth(sideburnSolid-0.4, sideburnSolid, math.Min(1, t.mask)+sideburnBreak*(strand-0.5))
		return mixPerceived(c, hair.scale(0.9+0.2*strand), a)
	})
}

// The painted sideburns (Sideburns): solid from cover sideburnSolid,
// their edge broken by streaks of sideburnBreak of the cover, in the
// hair's colour with sideburnChroma of its chroma and sideburnShade of
// its light. Measured in boxes on the sideburn and on the hair over it
// in room renders' quarter views (mean sRGB), these bring the paint to
// the hair: blonde 143 112 64 against 144 114 70, grey 120 118 114
// against 125 123 119, brown 77 46 20 against 79 46 17, red 114 56 32
// against 122 57 28 (at 1 and 1 the paint was 15-19 % lighter and
// still greyer: 172 138 90 on blonde).
const (
	sideburnSolid  = 0.55
	sideburnBreak  = 0.3
	sideburnShade  = 0.65
	sideburnChroma = 1.1
)

// richer is c with its chroma (its distance from the grey of its luma)
// scaled by k, no channel under 0.
func richer(c rgb, k float64) rgb {
	l := c.luma()
	var out rgb
	for i := range 3 {
		out[i] = math.Max(0, l+(c[i]-l)*k)
	}
	return out
}
