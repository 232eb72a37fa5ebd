package avatar

import "math"

// Long hair under a hat. MakeHuman's long cuts stand 2-3 cm off the head
// down the sides, and pressHair draws in only the hair the hat covers
// and the hair right next to it, so below a cap's or a fedora's rim the
// hair stood out 14-21 mm beyond the rim (issue 22's panel, p25:
// random-01's cap "pasted onto stringy long hair"). Clamped in to the
// rim all the way down, the hair would run through the ears and the
// shoulders. longUnderHat draws it in toward the head's vertical axis
// below the rim, fading out from longHatHold to longHatFade below it,
// never closer to the skin than longHatFloor: the hair leaves the rim tucked against
// the head and falls to its own width.

const (
	// longHatHold and longHatFade are how far below the hat shell's rim
	// (metres) the pull holds and where it has faded out: fully drawn
	// in down to 3 cm under the rim (past the ears' tops: held only 2
	// cm, the hair beside the face still stood as wide as before from
	// the front), free from 8 cm, so it fades over 5 cm.
	longHatHold = 0.03
	longHatFade = 0.08
	// longHatFloor is how close to the skin (metres, out from the
	// skin's farthest in the cells around) the hat may draw the hair:
	// the skin clearance the bob keeps under a hat (bobSkinGap less
	// bobHatSkinGive), so the ears stay under the hair.
	longHatFloor = 0.004
	// longHatKeep is the least share of the hair's depth over the floor
	// the pull keeps, so that where an ear stands almost as wide as the
	// hat the layers of a lock still lie apart.
	longHatKeep = 0.15
	// The cells (azimuth about the head's axis, height) the hat's
	// width, the skin and the hair's outside are read in: 5° by 5 mm,
	// each read with its neighbours within longHatReach cells.
	longHatBins  = 72
	longHatBand  = 0.005
	longHatReach = 1
)

// azimuth is where q lies round the vertical axis through c, in turns
// from the back (0 to 1).
func azimuth(q, c vec3) float64 {
	return (math.Atan2(q[0]-c[0], q[2]-c[2]) + math.Pi) / (2 * math.Pi)
}

// longGrid is a table over (azimuth, height) cells round the vertical
// axis through c, from y0 down in longHatBand bands.
type longGrid struct {
	c     vec3
	y0    float64
	bands int
	v     []float64
}

func newLongGrid(c vec3, y0, y1 float64) *longGrid {
	n := max(1, int(math.Ceil((y0-y1)/longHatBand))+1)
	return &longGrid{c: c, y0: y0, bands: n, v: make([]float64, longHatBins*n)}
}

// cell is the cell of q, ok false above or below the table.
func (g *longGrid) cell(q vec3) (b, h int, ok bool) {
	b = min(longHatBins-1, int(azimuth(q, g.c)*longHatBins))
	h = int(math.Floor((g.y0 - q[1]) / longHatBand))
	return b, h, h >= 0 && h < g.bands
}

// raise sets a cell to v where v is more.
func (g *longGrid) raise(q vec3, v float64) {
	if b, h, ok := g.cell(q); ok {
		g.v[h*longHatBins+b] = math.Max(g.v[h*longHatBins+b], v)
	}
}

// spread is the table whose cells hold the most of the cells within
// longHatReach of them.
func (g *longGrid) spread() *longGrid {
	out := &longGrid{c: g.c, y0: g.y0, bands: g.bands, v: make([]float64, len(g.v))}
	for h := range g.bands {
		for b := range longHatBins {
			m := 0.0
			for dh := -longHatReach; dh <= longHatReach; dh++ {
				if h+dh < 0 || h+dh >= g.bands {
					continue
				}
				for db := -longHatReach; db <= longHatReach; db++ {
					m = math.Max(m, g.v[(h+dh)*longHatBins+(b+db+longHatBins)%longHatBins])
				}
			}
			out.v[h*longHatBins+b] = m
		}
	}
	return out
}

// at is the table at q, read bilinearly between the cells' centres, so
// that what it sets changes smoothly round the head and down it.
func (g *longGrid) at(q vec3) float64 {
	fb := azimuth(q, g.c)*longHatBins - 0.5
	fh := math.Max(0, math.Min(float64(g.bands-1), (g.y0-q[1])/longHatBand-0.5))
	b0, h0 := int(math.Floor(fb)), int(math.Floor(fh))
	tb, th := fb-float64(b0), fh-float64(h0)
	h1 := min(g.bands-1, h0+1)
	get := func(b, h int) float64 { return g.v[h*longHatBins+(b%longHatBins+longHatBins)%longHatBins] }
	lo := get(b0, h0)*(1-tb) + get(b0+1, h0)*tb
	hi := get(b0, h1)*(1-tb) + get(b0+1, h1)*tb
	return lo*(1-th) + hi*th
}

// longUnderHat draws the long hair below the hat hatPart in toward the
// vertical axis through c (before pressHair, as bobUnderHat does the
// bob): at azimuth a and height y the hair's outside comes in to the
// hat shell's farthest point at a (hatShell: not its visor or brim)
// less bobHatTuck, plus bobHatFlare per metre below the shell's rim,
// fully down to longHatHold below the rim and less and less to none at
// longHatFade. The hair between the floor (longHatFloor off the head's
// skin, head) and its outside is drawn in in proportion, so a lock's
// layers keep their order and lie apart; hair inside the floor stays.
func longUnderHat(hair, hatPart, head *part, c vec3) {
	if hatPart.shell <= 0 || hatPart.shell >= len(hatPart.tris) || head == nil || len(hair.pos) == 0 {
		// A beanie (no brim or visor): its cuff stands as wide as the
		// hair under it already (+3 to +6 mm), and drawn in under it
		// the hair bared the ears' tips.
		return
	}
	shell := hatShell(hatPart)
	// The shell's width and rim in bobUnderHat's 10° bins (hats are
	// drawn in 64 segments: finer bins would miss some), read between
	// the bins' centres.
	wide, rim := make([]float64, bobHatBins), make([]float64, bobHatBins)
	for b := range rim {
		rim[b] = math.Inf(1)
	}
	top, low := math.Inf(-1), math.Inf(1)
	for _, p := range shell {
		q := v3(p)
		b := min(bobHatBins-1, int(azimuth(q, c)*bobHatBins))
		wide[b] = math.Max(wide[b], math.Hypot(q[0]-c[0], q[2]-c[2]))
		rim[b] = math.Min(rim[b], q[1])
		top, low = math.Max(top, q[1]), math.Min(low, q[1])
	}
	for b := range rim {
		if math.IsInf(rim[b], 1) {
			// No shell in the bin: the hat has a hole there; leave it.
			return
		}
	}
	between := func(v []float64, q vec3) float64 {
		f := azimuth(q, c)*bobHatBins - 0.5
		b0 := int(math.Floor(f))
		t := f - float64(b0)
		return v[(b0+bobHatBins)%bobHatBins]*(1-t) + v[(b0+1)%bobHatBins]*t
	}
	// The table reaches from the hat's top to longHatFade below its
	// lowest rim, and a little more for the cells read round it.
	y0, y1 := top, low-longHatFade-float64(longHatReach+1)*longHatBand
	out, skin := newLongGrid(c, y0, y1), newLongGrid(c, y0, y1)
	radius := func(q vec3) float64 { return math.Hypot(q[0]-c[0], q[2]-c[2]) }
	for _, p := range hair.pos {
		q := v3(p)
		out.raise(q, radius(q))
	}
	for _, p := range head.pos {
		q := v3(p)
		skin.raise(q, radius(q))
	}
	out, skin = out.spread(), skin.spread()
	for i, p := range hair.pos {
		q := v3(p)
		if _, _, ok := out.cell(q); !ok {
			continue
		}
		below := between(rim, q) - q[1]
		w := 1 - smoothstep(longHatHold, longHatFade, below)
		if w <= 0 {
			continue
		}
		r := radius(q)
		floor := skin.at(q) + longHatFloor
		outside := out.at(q)
		if r <= floor || outside <= floor {
			continue
		}
		limit := between(wide, q) - bobHatTuck + bobHatFlare*math.Max(0, below)
		if outside <= limit {
			continue
		}
		k := math.Max(longHatKeep, (limit-floor)/(outside-floor))
		want := floor + (r-floor)*k
		s := (r + w*(want-r)) / r
		hair.pos[i] = [3]float32{float32(c[0] + (q[0]-c[0])*s), p[1], float32(c[2] + (q[2]-c[2])*s)}
	}
}
