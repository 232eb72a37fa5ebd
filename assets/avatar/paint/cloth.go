package paint

import "math"

// Cloth kinds: the construction of a garment's fabric.
const (
	Knit    = "knit"    // jersey stitches: T-shirts, tanks, hoodies
	Weave   = "weave"   // plain weave: shirts, blouses, trousers, skirts
	Twill   = "twill"   // fine diagonal twill, heathered by a white weft: denim
	Leather = "leather" // grain and creases: shoes and boots
	Canvas  = "canvas"  // coarse plain weave: sneakers
	Felt    = "felt"    // pressed wool, no threads: hats
	// Cap is a baseball cap's cotton: a plain weave over UVs laid out as
	// headwear lays a cap out (the crown's six panels side by side in u
	// below v 0.6, the visor from 0.65 up), with the panels' seams and
	// the visor's rows of stitching drawn on it.
	Cap = "cap"
	// Rib is a beanie's rib knit: wales 9 mm apart running round it in u
	// (up the hat), proud enough to read at a hat's texture size (the
	// jersey of a T-shirt, at 5 mm, blurred to a flat grey on a beanie).
	Rib = "rib"
)

// threadPeriod is the size in metres of one repeat of each kind's
// pattern: large enough to show at a texture's resolution on a whole
// garment, small enough to read as fabric.
var threadPeriod = map[string]float64{Knit: 0.005, Weave: 0.004, Twill: 0.005, Leather: 0.01, Canvas: 0.005, Felt: 0.01, Cap: 0.004, Rib: 0.009}

// Cloth paints fabric of a kind and colour over s. The pattern runs along
// the garment's UVs (threads follow the pattern pieces, as they do in the
// flat), its repeat sized in metres from how much surface the UVs cover.
// Footwear gets a sole (when soleHeight > 0): the texels within
// soleHeight of the lowest point take soleColor, ribbed, with a dark
// stripe along its top and a dark outsole; sneakers (Canvas) get laces
// over a tongue on the instep (see shoe). Where the surface's mask is set
// the cloth is trimmed: knit turns to ribbing sewn on at a seam where
// the mask crosses 0.5 (a T-shirt's neckband, see bandSeam), felt to a
// dark grosgrain ribbon (a fedora's band).
func Cloth(s Surface, kind string, color RGB, soleColor RGB, soleHeight float64, seed uint64, n int) Maps {
	return cloth(s, kind, color, soleColor, soleHeight, nil, seed, n)
}

// PrintedCloth is Cloth with a print on it (a top's stripes, graphic or
// logo).
func PrintedCloth(s Surface, kind string, color RGB, pr Print, seed uint64, n int) Maps {
	return cloth(s, kind, color, RGB{}, 0, &pr, seed, n)
}

func cloth(s Surface, kind string, color RGB, soleColor RGB, soleHeight float64, pr *Print, seed uint64, n int) Maps {
	// Stripes run along the knitted courses, carried per texel in flow.
	var courses [][2]float64
	if pr != nil && pr.ID == PrintStripes {
		courses = pr.courses(s)
	}
	m := surfaceMap(s, n, courses)
	defer release(m)
	l := newLayer(n)
	want := threadPeriod[kind] / metresPerUV(s) * float64(n)
	per := math.Max(3, want)
	// Where the texture is too coarse for the real threads (a repeat
	// under three texels), the pattern is drawn larger than the cloth's
	// and its full relief reads as quilting: relief and contrast fade
	// with the square of how much larger (a blouse's weave, drawn at
	// twice its size, keeps a quarter).
	fine := math.Min(1, math.Max(0.15, want*want/9))
	low := math.Inf(1)
	for _, p := range s.Pos {
		low = math.Min(low, float64(p[1]))
	}
	base := rgb(color)
	var sh *shoe
	if soleHeight > 0 {
		sh = newShoe(s, low, soleHeight, rgb(soleColor), kind == Canvas)
	}
	parallel(n, func(y0, y1 int) {
		wear := newFbmMemo(2, seed+1) // fbm3(…, 2, seed+1), one per band
		for y := y0; y < y1; y++ {
			for x := 0; x < n; x++ {
				i := y*n + x
				t := m[i]
				if !t.ok {
					// Outside the garment's pieces (and the border
					// grown around them): flat, which costs the PNG
					// nothing.
					l.base[i], l.height[i], l.rough[i] = base, 0.5, 0.8
					continue
				}
				u, v := float64(x)/per, float64(y)/per
				fu, fv := u-math.Floor(u), v-math.Floor(v)
				iu, iv := int(math.Floor(u)), int(math.Floor(v))
				var h, tint, rough float64
				c := base
				switch kind {
				case Knit:
					// Columns of V-shaped loops.
					a := math.Abs(fu - 0.5)
					h = 0.5 + 0.5*math.Cos(2*math.Pi*(v+a*0.8))
					h *= 1 - math.Pow(2*a, 6)
					tint, rough = 0.95+0.06*h, 0.85
				case Rib:
					// Wales (knit) between troughs (purl), and faint
					// courses across them.
					rib := 0.5 + 0.5*math.Cos(2*math.Pi*u)
					h = (0.2 + 0.8*rib) * (0.9 + 0.1*math.Cos(2*math.Pi*v*4))
					tint, rough = 0.86+0.16*rib, 0.9
				case Twill:
					h, c = twill(x, y, t, c, seed)
					tint, rough = 1, 0.8
				case Leather:
					g := noise3([3]float64{u * 3, v * 3, 0}, seed)
					h = g
					tint, rough = 0.9+0.15*g, 0.45
				case Felt:
					g := fbm3(t.pos, 900, 3, seed+2)
					h = 0.5 + 0.3*g
					tint, rough = 0.97+0.06*g, 0.92
				default: // Weave, Canvas, Cap
					over := (iu+iv)%2 == 0
					if over {
						h = math.Sin(math.Pi*fu) * (0.7 + 0.3*math.Sin(math.Pi*fv))
					} else {
						h = math.Sin(math.Pi*fv) * (0.7 + 0.3*math.Sin(math.Pi*fu))
					}
					tint, rough = 0.96+0.05*h, 0.82
					if kind == Canvas {
						rough = 0.9
					}
				}
				if kind == Cap {
					h, tint, rough = capOver(x, y, n, h, tint, rough)
				}
				if kind == Knit || kind == Weave || kind == Canvas || kind == Cap {
					h *= fine
					tint = 1 + (tint-1)*fine
				}
				if t.mask > 0.5 {
					switch kind {
					case Knit:
						// Ribs: two columns of knit, one of purl.
						rib := 0.5 + 0.5*math.Cos(2*math.Pi*u/1.5)
						h, tint = 0.3+0.7*rib, 0.86+0.14*rib
					case Felt:
						// Grosgrain: fine ribs across the ribbon.
						h = 0.5 + 0.5*math.Cos(2*math.Pi*v*1.5)
						c, tint, rough = base.scale(0.12).mix(rgb{0.02, 0.02, 0.02}, 0.5), 1, 0.6
					}
				}
				if kind == Knit && t.mask > 0 {
					h, tint = bandSeam(t.mask, h, tint)
				}
				if kind == Weave && len(s.Edges) > 0 && t.mask > 0.5 {
					tint *= contactShade(s.Edges, t.pos)
				}
				// Slow variation, as a worn garment has.
				tint *= 0.94 + 0.1*wear.at(t.pos, 12)
				if sh != nil {
					c, h, rough = sh.paint(t.pos, c, h, rough)
				}
				// A neckband is sewn on after the print: the print
				// stops at its seam (a stripe ran over it and hid it).
				if pr != nil && !(kind == Knit && t.mask > 0.5) {
					if ink := pr.ink(m, n, i); ink > 0 {
						// Ink lies on the cloth: its colour, smoother, the
						// weave showing through faintly.
						c = c.mix(rgb(pr.Ink), ink)
						h = h * (1 - 0.6*ink)
						rough = rough + (0.6-rough)*ink
					}
				}
				l.base[i] = c.scale(tint)
				l.height[i] = h
				l.ao[i] = 0.8 + 0.2*h
				l.rough[i] = rough
			}
		}
	})
	return l.maps(0.35)
}

// bandSeam shades knit at mask m where a band (a T-shirt's neckband,
// masked over 0.5) is sewn on: a groove in the shade of the seam just
// outside the band, and the band's edge darker where it turns in at the
// opening. Without them the rib alone read as a change of texture, not
// as a band of its own.
func bandSeam(m, h, tint float64) (float64, float64) {
	g := math.Max(0, 1-math.Abs(m-0.45)/0.07)
	h *= 1 - 0.9*g
	tint *= 1 - 0.35*g
	tint *= 1 - 0.15*smooth(0.8, 1, m)
	return h, tint
}

// metresPerUV is the side in metres that one UV unit spans on s: the
// square root of the ratio of 3D to UV area.
func metresPerUV(s Surface) float64 {
	var a3, a2 float64
	for _, t := range s.Tris {
		p, q, r := s.Pos[t[0]], s.Pos[t[1]], s.Pos[t[2]]
		e1 := [3]float64{float64(q[0] - p[0]), float64(q[1] - p[1]), float64(q[2] - p[2])}
		e2 := [3]float64{float64(r[0] - p[0]), float64(r[1] - p[1]), float64(r[2] - p[2])}
		cx := e1[1]*e2[2] - e1[2]*e2[1]
		cy := e1[2]*e2[0] - e1[0]*e2[2]
		cz := e1[0]*e2[1] - e1[1]*e2[0]
		a3 += math.Sqrt(cx*cx+cy*cy+cz*cz) / 2
		u, v, w := s.UV[t[0]], s.UV[t[1]], s.UV[t[2]]
		a2 += math.Abs(float64((v[0]-u[0])*(w[1]-u[1])-(w[0]-u[0])*(v[1]-u[1]))) / 2
	}
	if a2 == 0 || a3 == 0 {
		return 1
	}
	return math.Sqrt(a3 / a2)
}

// weft is the undyed colour of denim's weft, which shows between the
// indigo warp threads.
var weft = rgb{0.72, 0.72, 0.74}

// twill is denim at texel x, y: real twill lines are under a millimetre
// apart, finer than a texel on a whole pair of trousers, so the diagonal
// is the finest a texture holds (a period of four texels, in relief more
// than in colour, so that it reads as texture up close and vanishes into
// the mipmaps from across a room). What does show from afar is the
// heather: the white weft peeking through, texel by texel, and slubs,
// thicker stretches of warp that run down the leg as faint streaks.
func twill(x, y int, t texel, c rgb, seed uint64) (float64, rgb) {
	d := float64((x+y)%4) / 4
	h := 0.5 + 0.5*math.Cos(2*math.Pi*d)
	// One texel in five shows more weft, at one strength: sparse specks
	// of two levels keep the image compressible (a heather of random
	// strengths in every texel made the trousers' PNG eight times
	// larger than the striped one; this, five times).
	w := 0.03
	if hash3(x, y, 0, seed+3) > 0.8 {
		w += 0.05
	}
	p := t.pos
	slub := noise3([3]float64{p[0] * 300, p[1] * 25, p[2] * 300}, seed+4)
	w += 0.04 * smooth(0.55, 0.9, slub)
	return h, c.mix(weft, w).scale(0.98 + 0.04*h)
}

// capOver draws a cap's seams and stitching over its cloth at texel
// (x, y) of an n-texel map: a groove down each of the six panels' seams
// with a row of stitches either side, a row round the crown's foot, and
// rows across the visor parallel to its front edge. Without them the
// crown read as a plain dome (a skull cap).
func capOver(x, y, n int, h, tint, rough float64) (float64, float64, float64) {
	u, v := (float64(x)+0.5)/float64(n), (float64(y)+0.5)/float64(n)
	texel := 1 / float64(n)
	stitch := func(along float64) bool { // dashes 3 texels long, 1 apart
		return math.Mod(along/texel, 4) < 3
	}
	switch {
	case v < 0.6:
		seam := math.Abs(u*6-math.Round(u*6)) / 6 // UV units to the nearest seam
		switch {
		case seam < 0.8*texel:
			return 0.05, tint * 0.72, rough
		case math.Abs(seam-2.5*texel) < 0.6*texel && stitch(v):
			return 0.9, tint * 0.86, 0.6
		case math.Abs(v-2.5*texel) < 0.6*texel && stitch(u):
			return 0.9, tint * 0.86, 0.6
		}
	case v > 0.65 && v < 0.95:
		// Rows 5 texels apart from the front edge back.
		d := (0.95 - v) / texel
		if d > 2 && d < 40 && math.Abs(math.Mod(d, 5)-2.5) < 0.6 && stitch(u) {
			return 0.9, tint * 0.86, 0.6
		}
	}
	return h, tint, rough
}
