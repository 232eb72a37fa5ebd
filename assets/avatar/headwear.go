package avatar

import (
	"math"
	"slices"

	"github.com/kilnhq/kiln/assets/avatar/human"
)

// Headwear is a hat: a style ("none", the default, for no hat) and a
// colour (a palette name or "#rrggbb"; empty takes the style's own).
type Headwear struct {
	Style string `json:"style,omitempty"`
	Color string `json:"color,omitempty"`
}

// headwearStyles are the hats, in the order messages and the schema give
// them.
var headwearStyles = []string{"none", "cap", "beanie", "fedora"}

// headwearColors are each style's colour when the configuration gives
// none.
var headwearColors = map[string]string{"cap": "navy", "beanie": "charcoal", "fedora": "brown"}

// StyleColor is the colour a style of a category is built in when the
// configuration gives none (a hat's own), or "" where the style has no
// colour of its own: the creator's catalogue serves it, so the page shows
// that colour as the one picked without a copy of this table.
func StyleColor(category, style string) string {
	if category == "headwear" {
		return headwearColors[style]
	}
	return ""
}

// HeadwearStyles lists the hat styles ("none" first).
func HeadwearStyles() []string { return append([]string(nil), headwearStyles...) }

// on reports whether the configuration wears a hat.
func (h Headwear) on() bool { return h.Style != "" && h.Style != "none" }

// color is the hat's colour name or hex.
func (h Headwear) color() string {
	if h.Color != "" {
		return h.Color
	}
	return headwearColors[h.Style]
}

// Hats are made here (MakeHuman's one hat, fedora01, would need the data
// converter and fits only its own head): each is a surface around the
// head's centre, fitted to the skull as the body's shape gives it, rigid
// on the Head joint, with the hair under it pressed inside.

// Directions from the head's centre: azimuth θ about +Y (0 facing
// forward, +Z; positive toward +X) and elevation φ above the horizontal,
// sampled in bins.
const (
	skullAz   = 64
	skullEl   = 27
	skullEl0  = -40.0 // degrees, the lowest bin's elevation
	skullStep = 5.0   // degrees per elevation bin
)

// skull is the head's radius from its centre by direction.
type skull struct {
	c    vec3
	eyeY float64
	r    [skullAz][skullEl]float64
}

// headCentre is where a hat is fitted from: the middle of the head
// between the eyes' joints, 8.2 cm behind them and 2 cm above. The
// joints are the eyeballs' centres, which sank 3 mm into the head when
// the eyes grew about their fronts (growEyes, e7925df): fitted from
// 8.5 cm behind them, as before, every hat sat 3 mm farther back, and
// the beanie's rim no longer hid where a long lock ends at the temple
// (TestHatHairEnds: a level end 4.4 cm long in sight, 0.7 cm with the
// hat where it was).
func headCentre(leftEye, rightEye vec3) vec3 {
	m := leftEye.add(rightEye).scale(0.5)
	return vec3{0, m[1] + 0.02, m[2] - 0.082}
}

// newSkull samples the head's skin (every body vertex above the mouth)
// by direction from the head's centre: the farthest in each bin, empty
// bins filled from their neighbours, then eased so that no bump of the
// ears pushes a hat out (a hat passes over the ears, it does not wrap
// them).
func newSkull(b *builder, body *human.Body) *skull {
	le, re := b.at("LeftEye"), b.at("RightEye")
	k := &skull{c: headCentre(le, re), eyeY: (le[1] + re[1]) / 2}
	have := [skullAz][skullEl]bool{}
	for _, v := range human.BodyMesh().Base {
		p := body.Pos[v]
		q := vec3{float64(p[0]), float64(p[1]), float64(p[2])}
		if q[1] < k.eyeY-0.06 {
			continue
		}
		d := q.sub(k.c)
		r := d.len()
		if r > 0.2 || r < 1e-6 {
			continue
		}
		i, j := k.bin(d)
		if j < 0 {
			continue
		}
		if r > k.r[i][j] {
			k.r[i][j] = r
		}
		have[i][j] = true
	}
	// Fill the empty bins from their neighbours, nearest first.
	for range 64 {
		missing := false
		next := k.r
		for i := range skullAz {
			for j := range skullEl {
				if have[i][j] {
					continue
				}
				sum, n := 0.0, 0
				for di := -1; di <= 1; di++ {
					for dj := -1; dj <= 1; dj++ {
						a, e := (i+di+skullAz)%skullAz, j+dj
						if e >= 0 && e < skullEl && have[a][e] {
							sum += k.r[a][e]
							n++
						}
					}
				}
				if n > 0 {
					next[i][j] = sum / float64(n)
				} else {
					missing = true
				}
			}
		}
		for i := range skullAz {
			for j := range skullEl {
				if !have[i][j] && next[i][j] > 0 {
					have[i][j] = true
				}
			}
		}
		k.r = next
		if !missing {
			break
		}
	}
	// The ears: at the sides, below 25°, no farther out than a wall
	// standing straight down from the skull at 25°.
	je := int((25 - skullEl0) / skullStep)
	for i := range skullAz {
		th := (float64(i) + 0.5) / skullAz * 2 * math.Pi
		if math.Abs(math.Sin(th)) < 0.6 {
			continue
		}
		wall := k.r[i][je] * math.Cos(25*math.Pi/180)
		for j := 0; j < je; j++ {
			ph := (skullEl0 + (float64(j)+0.5)*skullStep) * math.Pi / 180
			k.r[i][j] = math.Min(k.r[i][j], wall/math.Cos(ph)+0.004)
		}
	}
	// Ease: the mean of each bin and its neighbours, never below the bin.
	eased := k.r
	for i := range skullAz {
		for j := range skullEl {
			sum, n := 0.0, 0
			for di := -1; di <= 1; di++ {
				for dj := -1; dj <= 1; dj++ {
					a, e := (i+di+skullAz)%skullAz, j+dj
					if e >= 0 && e < skullEl {
						sum += k.r[a][e]
						n++
					}
				}
			}
			eased[i][j] = math.Max(k.r[i][j], sum/float64(n))
		}
	}
	k.r = eased
	return k
}

// bin is the bin of direction d (j < 0 below the lowest).
func (k *skull) bin(d vec3) (int, int) {
	th := math.Atan2(d[0], d[2])
	if th < 0 {
		th += 2 * math.Pi
	}
	ph := math.Asin(math.Max(-1, math.Min(1, d[1]/d.len()))) * 180 / math.Pi
	i := int(th/(2*math.Pi)*skullAz) % skullAz
	j := int((ph - skullEl0) / skullStep)
	if j >= skullEl {
		j = skullEl - 1
	}
	return i, j
}

// radius is the skull's radius toward azimuth th and elevation ph
// (radians), interpolated between the bins' centres.
func (k *skull) radius(th, ph float64) float64 {
	x := th/(2*math.Pi)*skullAz - 0.5
	y := (ph*180/math.Pi-skullEl0)/skullStep - 0.5
	y = math.Max(0, math.Min(skullEl-1, y))
	x0 := math.Floor(x)
	y0 := math.Min(math.Floor(y), skullEl-2)
	fx, fy := x-x0, y-y0
	i0 := ((int(x0) % skullAz) + skullAz) % skullAz
	i1 := (i0 + 1) % skullAz
	j0 := int(y0)
	r := func(i, j int) float64 { return k.r[i][j] }
	return (r(i0, j0)*(1-fx)+r(i1, j0)*fx)*(1-fy) + (r(i0, j0+1)*(1-fx)+r(i1, j0+1)*fx)*fy
}

// dir is the unit direction of azimuth th and elevation ph.
func dir(th, ph float64) vec3 {
	return vec3{math.Sin(th) * math.Cos(ph), math.Sin(ph), math.Cos(th) * math.Cos(ph)}
}

// rim is the height of a hat's lower edge at azimuth th: front above the
// eyes by front, back by back (metres, from the eyes' height), between
// them along a cosine.
func (k *skull) rim(th, front, back float64) float64 {
	f := (1 + math.Cos(th)) / 2
	return k.eyeY + back + (front-back)*f
}

// rimElevation is the elevation at which the surface gap above the skull
// reaches height y at azimuth th.
func (k *skull) rimElevation(th, y, gap float64) float64 {
	ph := 0.0
	for range 8 {
		r := k.radius(th, ph) + gap
		ph = math.Asin(math.Max(-1, math.Min(1, (y-k.c[1])/r)))
	}
	return ph
}

// hatGrid adds rows of points (each row a closed loop of n+1 points, the
// last repeating the first for the UV seam) as a band of quads, with UVs
// from u0..u1 along a row and v0..v1 across rows and the painter's mask.
func (p *part) hatGrid(rows [][]vec3, u0, u1, v0, v1 float64, mask float32) {
	first := uint32(len(p.pos))
	n := len(rows[0]) - 1
	for k, row := range rows {
		for i, q := range row {
			p.pos = append(p.pos, q.f32())
			p.uv = append(p.uv, [2]float32{float32(u0 + (u1-u0)*float64(i)/float64(n)), float32(v0 + (v1-v0)*float64(k)/float64(len(rows)-1))})
			p.mask = append(p.mask, mask)
		}
	}
	w := uint32(n + 1)
	for k := 0; k+1 < len(rows); k++ {
		for i := 0; i < n; i++ {
			a := first + uint32(k)*w + uint32(i)
			b, c, d := a+1, a+w+1, a+w
			p.tris = append(p.tris, [3]uint32{a, b, c}, [3]uint32{a, c, d})
		}
	}
}

// hatNormals gives every vertex the mean normal of its triangles, welded
// by position (so the UV seam shows no crease), turned to face away from
// the head's centre where out is true and upward elsewhere: a
// double-sided material lights the other side with the normal flipped.
func (p *part) hatNormals(c vec3) {
	weld, n := weldByPosition(p.pos)
	acc := make([]vec3, n)
	for _, t := range p.tris {
		a, b, d := v3(p.pos[t[0]]), v3(p.pos[t[1]]), v3(p.pos[t[2]])
		f := b.sub(a).cross(d.sub(a))
		for _, v := range t {
			acc[weld[v]] = acc[weld[v]].add(f)
		}
	}
	p.nrm = make([][3]float32, len(p.pos))
	for i := range p.pos {
		nv := acc[weld[i]].norm()
		out := v3(p.pos[i]).sub(c)
		if nv.dot(out) < 0 {
			nv = nv.scale(-1)
		}
		p.nrm[i] = nv.f32()
	}
}

func v3(a [3]float32) vec3 { return vec3{float64(a[0]), float64(a[1]), float64(a[2])} }

// hatSegments is how many quads go round a hat.
const hatSegments = 64

// crown is a dome over the skull from the rim (front and back heights
// as rim takes them) to the top, gap above the skin, bulging by puff at
// the top; rows rings of hatSegments quads. It returns the rings.
func (k *skull) crown(front, back, gap, puff float64, rows int) [][]vec3 {
	out := make([][]vec3, rows+1)
	for r := 0; r <= rows; r++ {
		s := float64(r) / float64(rows)
		row := make([]vec3, hatSegments+1)
		for i := 0; i <= hatSegments; i++ {
			th := float64(i%hatSegments) / hatSegments * 2 * math.Pi
			ph0 := k.rimElevation(th, k.rim(th, front, back), gap)
			// Rows close in on the top as the crown's curve does.
			ph := ph0 + (math.Pi/2-ph0)*math.Sin(s*math.Pi/2)
			if r == rows {
				ph = math.Pi / 2
			}
			rad := k.radius(th, ph) + gap + puff*s*s
			row[i] = k.c.add(dir(th, ph).scale(rad))
		}
		out[r] = row
	}
	return out
}

// hat builds the headwear of a style, rigid on the Head joint, and the
// head's centre it was fitted from (for pressHair). The simplifier never
// takes triangles from it: its edges would open.
func hat(b *builder, body *human.Body, style string) (*part, vec3) {
	k := newSkull(b, body)
	p := &part{}
	var visor visorSpans // the cap's (faceVisor)
	var brim vspan       // the fedora's (faceUp)
	switch style {
	case "beanie":
		// A knitted dome pulled down over the tops of the ears, a little
		// slouch at the crown, and a turned-up cuff.
		const front, back, gap = 0.038, -0.028, 0.011
		rings := k.crown(front, back, gap, 0.003, 12)
		p.hatGrid(rings, 0, 1, 0, 0.62, 0)
		// The cuff: 4.5 cm of ribbing turned up over the rim, 6 mm
		// proud of the dome, closed at its fold.
		var cuff [][]vec3
		fold := make([]vec3, hatSegments+1)
		top := make([]vec3, hatSegments+1)
		lip := make([]vec3, hatSegments+1)
		for i := 0; i <= hatSegments; i++ {
			q := rings[0][i]
			out := vec3{q[0] - k.c[0], 0, q[2] - k.c[2]}.norm()
			fold[i] = q.add(out.scale(0.006)).add(vec3{0, -0.002, 0})
			lip[i] = q.add(vec3{0, -0.002, 0})
			// 4.5 cm up the dome, following it.
			th := float64(i%hatSegments) / hatSegments * 2 * math.Pi
			ph := k.rimElevation(th, k.rim(th, front, back)+0.045, gap)
			top[i] = k.c.add(dir(th, ph).scale(k.radius(th, ph) + gap + 0.006))
		}
		cuff = [][]vec3{lip, fold, top}
		p.hatGrid(cuff, 0, 1, 0.66, 1, 1)
		p.shell = len(p.tris)
	case "cap":
		visor = p.cap(k)
	case "fedora":
		// A felt crown over a band at the rim, tapering, with a centre
		// dent and two front pinches, a ribbon round its foot and a
		// brim that curls up at the sides and back and snaps down at
		// the front. The crown stands as little over the head as its
		// crease allows: 2.4 cm over the skull and a straighter wall
		// made it read as a top hat, a flat top as a pork-pie.
		const front, back, gap = 0.045, 0.005, 0.012
		// The band stands as far out as the skull does anywhere above
		// it (the head is widest above the ears), so that the crown's
		// wall clears it.
		band := make([]vec3, hatSegments+1)
		for i := 0; i <= hatSegments; i++ {
			th := float64(i%hatSegments) / hatSegments * 2 * math.Pi
			q := k.rimPoint(th, front, back, gap)
			ph0 := k.rimElevation(th, q[1], gap)
			wide := 0.0
			for ph := ph0; ph < math.Pi/2; ph += 2 * math.Pi / 180 {
				wide = math.Max(wide, (k.radius(th, ph)+gap)*math.Cos(ph))
			}
			out := vec3{math.Sin(th), 0, math.Cos(th)}
			band[i] = vec3{k.c[0], q[1], k.c[2]}.add(out.scale(wide))
		}
		// The top stands 6 cm over the front of the band, and its
		// rounded edge clears the crown of the head by 1.7 cm (the
		// dent, deepest at the front, stays over the forehead's slope).
		topY := k.rim(0, front, back) + 0.06
		for i := range hatSegments {
			th := float64(i) / hatSegments * 2 * math.Pi
			for ph := 50 * math.Pi / 180; ph <= math.Pi/2; ph += 2 * math.Pi / 180 {
				topY = math.Max(topY, k.c[1]+(k.radius(th, ph)+gap)*math.Sin(ph)+0.017)
			}
		}
		centre := vec3{k.c[0], 0, k.c[2]}
		wall := func(h float64) []vec3 { // h from 0 (the band) to 1 (the top edge)
			row := make([]vec3, hatSegments+1)
			for i, q := range band {
				y := q[1] + (topY-q[1])*h
				// A taper, and two pinches either side of the front,
				// deepest at the top, that leave a ridge down the middle
				// of the front: a smooth taper read as a pork-pie.
				th := float64(i%hatSegments) / hatSegments * 2 * math.Pi
				taper := 1 - 0.24*h - fedoraPinch*h*h*pinchAt(th)
				row[i] = vec3{centre[0] + (q[0]-centre[0])*taper, y, centre[2] + (q[2]-centre[2])*taper}
			}
			return row
		}
		var walls [][]vec3
		for r := 0; r <= 6; r++ {
			walls = append(walls, wall(float64(r)/6))
		}
		// The top: rings closing in, dipping along the middle (the
		// crease from front to back).
		var crownTop [][]vec3
		edge := walls[len(walls)-1]
		xmax := 0.0
		for _, q := range edge {
			xmax = math.Max(xmax, math.Abs(q[0]-centre[0]))
		}
		for r := 0; r <= 6; r++ {
			u := float64(r) / 6
			row := make([]vec3, hatSegments+1)
			for i, q := range edge {
				x, z := centre[0]+(q[0]-centre[0])*(1-u), centre[2]+(q[2]-centre[2])*(1-u)
				// The top edge rounds over, and the crease runs front to
				// back along the middle.
				round := 0.008 * (1 - math.Cos(math.Min(1, u*3)*math.Pi/2))
				// The centre dent: a teardrop crease front to back,
				// deeper toward the front, as a hand pinches a fedora.
				fz := 0.75 + 0.25*math.Max(-1, math.Min(1, (z-centre[2])/0.08))
				dip := fedoraDent * fz * (1 - math.Pow((x-centre[0])/xmax, 2)) * math.Sin(math.Min(1, u*2)*math.Pi/2)
				row[i] = vec3{x, q[1] - dip - round, z}
			}
			crownTop = append(crownTop, row)
		}
		p.hatGrid(walls, 0, 1, 0, 0.35, 0)
		p.hatGrid(crownTop, 0, 1, 0.37, 0.6, 0)
		// The ribbon: 2.8 cm up the wall, 1.5 mm proud of it.
		ribbon := [][]vec3{}
		for r := 0; r <= 2; r++ {
			row := wall(0.028 / (topY - k.rim(0, front, back)) * float64(r) / 2)
			for i, q := range row {
				out := vec3{q[0] - centre[0], 0, q[2] - centre[2]}.norm()
				row[i] = q.add(out.scale(0.0015))
			}
			ribbon = append(ribbon, row)
		}
		p.hatGrid(ribbon, 0, 1, 0.62, 0.7, 1)
		p.shell = len(p.tris)
		// The brim: 6.5 cm wide at the front and back, 5.8 at the sides,
		// curling up 1.8 cm at the sides and 0.6 cm at the back, and
		// down 1.2 cm at the front.
		var rows [][]vec3
		for r := 0; r <= 5; r++ {
			s := float64(r) / 5
			row := make([]vec3, hatSegments+1)
			for i, q := range band {
				th := float64(i%hatSegments) / hatSegments * 2 * math.Pi
				out := vec3{q[0] - centre[0], 0, q[2] - centre[2]}.norm()
				w := (0.065 - 0.007*math.Pow(math.Sin(th), 2)) * s
				// Up at the sides and back, snapped down at the front.
				curl := (0.018*math.Pow(math.Sin(th), 2) - 0.012*math.Pow(math.Max(0, math.Cos(th)), 2) + 0.006*math.Pow(math.Max(0, -math.Cos(th)), 2)) * s * s
				row[i] = q.add(out.scale(w)).add(vec3{0, curl, 0})
			}
			rows = append(rows, row)
		}
		brim = vspan{len(p.pos), 0, len(p.tris), 0}
		p.hatGrid(rows, 0, 1, 0.72, 1, 0)
		brim.v1, brim.t1 = len(p.pos), len(p.tris)
	}
	p.hatNormals(k.c)
	p.faceVisor(visor)
	p.faceUp(brim)
	p.rigid(b.joint("Head"))
	p.minKeep = 1
	return p, k.c
}

// The baseball cap's measures (metres): its rim's height over the eyes
// at the front and the back, the crown's gap over the skull at the rim,
// how far more it stands off the skull at the top (at the front, where
// the buckram stiffens the front panels, and at the back), the visor's
// reach in front of the crown and how far its sides curve down.
const (
	capFront, capBack, capGap = 0.045, -0.012, 0.008
	capStandFront             = 0.022
	capStandBack              = 0.01
	capVisor                  = 0.068
	capVisorCurve             = 0.026
	capVisorThick             = 0.004
)

// capStandMean is the mean round the crown of the front's share of the
// stand-off, ((1+cos θ)/2)²: 3/8.
const capStandMean = 0.375

// capSegments is how many quads go round a cap's crown: a multiple of
// six, so that each of its six panels' seams runs along a column of
// vertices, sunk into a groove.
const capSegments = 60

// cap builds a baseball cap over the skull k: a six-panel crown that
// stands off the head (higher at the front), grooved along its seams,
// with a button on top, a back band above the neck and a pre-curved
// visor about 7 cm long with a thickness. Fitted close to the skull with
// a flat visor, it read as a skull cap or a do-rag. It returns where
// the visor lies, which hat turns to face up on top and down under
// (faceVisor).
func (p *part) cap(k *skull) (visor visorSpans) {
	const rows = 10
	crown := make([][]vec3, rows+1)
	for r := 0; r <= rows; r++ {
		s := float64(r) / rows
		row := make([]vec3, capSegments+1)
		for i := 0; i <= capSegments; i++ {
			// From the back round: the texture's seam (u 0 and 1) lies
			// along the back's middle seam; at the front, the painted
			// seam split across it drew a dark wedge over the visor.
			th := math.Pi + float64(i%capSegments)/capSegments*2*math.Pi
			ph0 := k.rimElevation(th, k.rim(th, capFront, capBack), capGap)
			ph := ph0 + (math.Pi/2-ph0)*math.Sin(s*math.Pi/2)
			if r == rows {
				ph = math.Pi / 2
			}
			// The stand-off grows from the rim up, fast (the panels
			// rise off the head, the front ones straight up from the
			// visor), and is most at the front; toward the top it evens
			// out round the crown (to its mean, capStandMean), as it
			// must where every azimuth's last ring meets on the one
			// line straight up: most at the front up to the top, the
			// rings' tops stood one over another there and the crown
			// rose to a point (TestCapCrownRound).
			f := (1 + math.Cos(th)) / 2
			w := f*f*math.Cos(ph) + capStandMean*(1-math.Cos(ph))
			stand := (capStandBack + (capStandFront-capStandBack)*w) * math.Sin(math.Min(1, 1.8*s)*math.Pi/2)
			rad := k.radius(th, ph) + capGap + stand
			// The seams sink 1.5 mm between the puffed panels, less
			// toward the visor (a notch there showed its edge).
			if i%(capSegments/6) == 0 && r < rows {
				rad -= 0.0015 * math.Min(1, float64(r)/3)
			}
			row[i] = k.c.add(dir(th, ph).scale(rad))
		}
		crown[r] = row
	}
	p.hatGrid(crown, 0, 1, 0, 0.6, 0)
	// The button: a flattened dome 12 mm across on the top.
	top := crown[rows][0]
	var button [][]vec3
	for r := 0; r <= 2; r++ {
		a := float64(r) / 2 * math.Pi / 2
		row := make([]vec3, 17)
		for i := range row {
			th := float64(i%16) / 16 * 2 * math.Pi
			rad := 0.006 * math.Cos(a)
			row[i] = top.add(vec3{rad * math.Sin(th), -0.001 + 0.003*math.Sin(a), rad * math.Cos(th)})
		}
		button = append(button, row)
	}
	p.hatGrid(button, 0, 0.1, 0.6, 0.63, 0)
	p.shell = len(p.tris)
	// The visor: a D from the rim between ±70°, reaching capVisor in
	// front of the crown at the middle, sloping down 12°, its sides
	// curved down by capVisorCurve at the tip: the top, the underside
	// capVisorThick below it, and the edge between them.
	const span = 70 * math.Pi / 180
	const n = 24
	at := func(i int, s, down float64) vec3 {
		th := -span + 2*span*float64(i)/n
		q := k.rimPoint(th, capFront, capBack, capGap)
		a := th / span
		reach := (capVisor*math.Sqrt(math.Max(0, 1-math.Pow(a, 4))) + 0.003) * s
		// Forward, a little out to the side, down the slope, and the
		// sides curving down across the visor as it reaches out.
		side := math.Sin(th) * 0.012 * s
		drop := reach*math.Tan(12*math.Pi/180) + capVisorCurve*a*a*s*s
		return q.add(vec3{side, -drop - down, reach})
	}
	var topRows, underRows [][]vec3
	for r := 0; r <= 5; r++ {
		s := float64(r) / 5
		tr, ur := make([]vec3, n+1), make([]vec3, n+1)
		for i := 0; i <= n; i++ {
			tr[i] = at(i, s, 0)
			ur[i] = at(i, s, capVisorThick*s)
		}
		topRows, underRows = append(topRows, tr), append(underRows, ur)
	}
	visor.all = vspan{len(p.pos), 0, len(p.tris), 0}
	p.hatGrid(topRows, 0, 1, 0.65, 0.95, 1)
	visor.under = vspan{len(p.pos), 0, len(p.tris), 0}
	p.hatGrid(underRows, 0, 1, 0.65, 0.95, 1)
	visor.under.v1, visor.under.t1 = len(p.pos), len(p.tris)
	p.hatGrid([][]vec3{topRows[5], underRows[5]}, 0, 1, 0.96, 1, 1)
	visor.all.v1, visor.all.t1 = len(p.pos), len(p.tris)
	return visor
}

// The fedora's crown: how deep its centre dent is at the front of the
// top (metres), and how far in (a share of the radius) its front
// pinches reach at the top.
const (
	fedoraDent  = 0.02
	fedoraPinch = 0.2
)

// pinchAt is how much of a fedora's front pinch reaches azimuth th
// (0 facing forward): 1 about 40° either side of the front, nothing at
// the front's middle or past the sides.
func pinchAt(th float64) float64 {
	a := math.Abs(math.Remainder(th, 2*math.Pi))
	return math.Exp(-math.Pow((a-0.7)/0.32, 2))
}

// rimPoint is the point of a hat's rim at azimuth th.
func (k *skull) rimPoint(th, front, back, gap float64) vec3 {
	ph := k.rimElevation(th, k.rim(th, front, back), gap)
	return k.c.add(dir(th, ph).scale(k.radius(th, ph) + gap))
}

// hairClearance is how far inside a hat the hair under it stays.
const hairClearance = 0.004

// pressHair fits the hair under a hat, seen from the head's centre c.
// Only the hat's shell (the crown and what wraps the head: hatPart.shell
// triangles, all when 0) presses: the hair below a brim is outside the
// hat and stays. Hair the shell covers is drawn inside it; a triangle
// wholly under the shell is hidden, so gone, but one that reaches from
// under the shell to below its rim stays, its covered corners inside the
// hat, so that a lock runs on from under the rim as it hangs instead of
// ending in a flat cut along the rim (the panel saw square locks at the
// temples). The uncovered hair next to it is drawn in toward the head,
// no farther out than the hat above it, so that it tucks in under the
// rim. Hair farther from the hat stays as it is. What the cut leaves of
// a lock as a small piece apart from the rest goes (dropHatScraps).
func pressHair(hair, hatPart, skin *part, c vec3) {
	shell := hatPart
	if hatPart.shell > 0 && hatPart.shell < len(hatPart.tris) {
		shell = &part{pos: hatPart.pos, tris: hatPart.tris[:hatPart.shell]}
	}
	rays := newRayBins(shell, c)
	whole := rays
	if shell != hatPart {
		whole = newRayBins(hatPart, c)
	}
	orig, all := slices.Clone(hair.pos), slices.Clone(hair.tris)
	n := len(hair.pos)
	covered := make([]bool, n)
	hits := make([]float64, n)
	move := make([]vec3, n)
	for i, q := range hair.pos {
		v := v3(q)
		d := v.sub(c)
		r := d.len()
		if r < 1e-6 {
			continue
		}
		u := d.scale(1 / r)
		hit, ok := rays.first(u)
		if !ok {
			// Hair that reaches past a brim is pressed under it.
			if hit, ok = whole.first(u); !ok || hit > r+hairClearance {
				continue
			}
		}
		covered[i], hits[i] = true, hit
		if r > hit-hairClearance {
			move[i] = u.scale(math.Max(0.5*hit, hit-hairClearance) - r)
		}
	}
	var idx []uint32
	nb := newNeighbours(n, hair.tris)
	// lim is how far from the centre a corner of a triangle that reaches
	// under the rim may lie: inside the hat where its rays meet it and
	// where the triangle's edges pass under the rim, less the clearance.
	// (The distance from c along a straight edge is largest at its ends,
	// so an edge whose ends are within lim stays within it.)
	lim := make([]float64, n)
	for i := range lim {
		lim[i] = math.Inf(1)
	}
	for _, t := range hair.tris {
		if covered[t[0]] && covered[t[1]] && covered[t[2]] {
			// Under the hat: hidden, so gone.
			continue
		}
		idx = append(idx, t[0], t[1], t[2])
		if !covered[t[0]] && !covered[t[1]] && !covered[t[2]] {
			continue
		}
		r := math.Inf(1)
		for k := 0; k < 3; k++ {
			a, b := int(t[k]), int(t[(k+1)%3])
			if covered[a] {
				r = math.Min(r, hits[a])
			}
			if covered[a] != covered[b] {
				r = math.Min(r, rays.rimAlong(v3(hair.pos[a]).sub(c), v3(hair.pos[b]).sub(c)))
			}
		}
		for _, v := range t {
			lim[v] = math.Min(lim[v], r-hairClearance)
		}
	}
	for i := range n {
		if math.IsInf(lim[i], 1) {
			continue
		}
		d := v3(hair.pos[i]).sub(c).add(move[i])
		if l := d.len(); l > lim[i] {
			move[i] = move[i].add(d.scale(lim[i]/l - 1))
		}
	}
	// The hair beyond takes a share of its neighbours' moves: three
	// rings, each half the last.
	for range 3 {
		next := make([]vec3, n)
		copy(next, move)
		for i := range n {
			around := nb.of(i)
			if covered[i] || len(around) == 0 || !math.IsInf(lim[i], 1) {
				continue
			}
			var sum vec3
			for _, j := range around {
				sum = sum.add(move[j])
			}
			next[i] = sum.scale(0.5 / float64(len(around)))
		}
		move = next
	}
	if skin != nil {
		offSkin(hair, skin, c, covered, nb, move)
	}
	if shell != hatPart {
		// Only under a brim or a visor: see withEdges.
		withEdges(hair, c, move)
	}
	for i := range n {
		if move[i] != (vec3{}) {
			hair.pos[i] = v3(hair.pos[i]).add(move[i]).f32()
		}
	}
	// A moved triangle that still passes through the hat (where its rim
	// turns in or out more than the bounds above allow) is dropped.
	kept := idx[:0]
	hatCells := newTriGrid(hatPart, 0.01)
	for t := 0; t < len(idx); t += 3 {
		tri := idx[t : t+3]
		if move[tri[0]] != (vec3{}) || move[tri[1]] != (vec3{}) || move[tri[2]] != (vec3{}) {
			if crossesHat(hatCells, v3(hair.pos[tri[0]]), v3(hair.pos[tri[1]]), v3(hair.pos[tri[2]])) {
				continue
			}
		}
		kept = append(kept, tri...)
	}
	hair.keep(dropHatScraps(orig, all, kept))
}

// withEdges moves each rim of thickened hair (hair.rimFrom) in as far
// as its card's edge: a rim vertex takes its edge vertex's move where
// that leaves it nearer c than its own. A rim hangs in toward the head
// from its card's edge; pressed on its own, where the edge under a
// cap's side or a beanie's cuff was drawn in farther than the rim
// below it, the rim stood out past its edge, turned inside out, and
// showed its back as a light grey line through the dark hair behind the
// cap's visor (issue 22, random-01's quarter view), and beside it a
// slit through which the skin, the hat's lining or the background
// showed (TestHatHairSeams). pressHair asks it only of a hat with a brim
// or a visor (a cap, a fedora). Under a beanie's cuff, which comes down
// over the ears' tops with nothing beyond it, the rims standing out
// there cover the skin between the locks at the ears' tops: drawn in,
// they widened that gap (A/B hatseam24, long hair under a masculine
// beanie: 6 of 6 for the old, "the patch of skin between the hat band
// and the hair is larger"; TestHatHairSeams's slits 84 -> 110).
func withEdges(hair *part, c vec3, move []vec3) {
	if len(hair.rimFrom) != len(hair.pos) {
		return
	}
	for i, e := range hair.rimFrom {
		if e < 0 || move[e] == move[i] {
			continue
		}
		own := v3(hair.pos[i]).add(move[i]).sub(c).len()
		if own <= v3(hair.pos[e]).add(move[e]).sub(c).len() {
			continue // in under its edge, as it hangs
		}
		if v3(hair.pos[i]).add(move[e]).sub(c).len() < own {
			move[i] = move[e]
		}
	}
}

// hairSkinClearance is how far outside the skin (an ear) hair drawn in
// under a hat's rim stays.
const hairSkinClearance = 0.003

// offSkin keeps the hair below a hat's rim that pressHair draws in (move,
// per hair vertex; covered: under the hat) outside the skin seen from c
// (skin: the head, whose ears stand farthest out): each moved vertex no
// nearer c than the skin's farthest crossing plus hairSkinClearance,
// along its own direction and those halfway to its neighbours (nb) on
// the hair's triangles, whose middles an ear's thin rim can reach
// through between the corners, and never out past where it was. Drawn
// in to the rim's width over the ears, the hair left the ears' tops
// outside it, and their tips showed through the hair under a beanie's
// cuff and a cap's sides.
func offSkin(hair, skin *part, c vec3, covered []bool, nb neighbours, move []vec3) {
	rays := newRayBins(skin, c)
	at := func(i int) vec3 { return v3(hair.pos[i]).add(move[i]).sub(c) }
	want := make([]float64, len(move))
	for i, m := range move {
		if m == (vec3{}) || covered[i] {
			continue
		}
		d := at(i)
		out, _ := rays.last(d.norm())
		for _, j := range nb.of(i) {
			if e, ok := rays.last(d.add(at(int(j))).norm()); ok {
				out = math.Max(out, e)
			}
		}
		if out > 0 {
			want[i] = math.Min(out+hairSkinClearance, v3(hair.pos[i]).sub(c).len())
		}
	}
	for i, w := range want {
		if d := at(i); d.len() < w {
			move[i] = d.scale(w / d.len()).sub(v3(hair.pos[i]).sub(c))
		}
	}
}

// crossesHat reports whether an edge of the triangle abd passes through
// one of the hat's triangles (hat: the hat's triangles, binned).
func crossesHat(hat *triGrid, a, b, d vec3) bool {
	corners := [3]vec3{a, b, d}
	for k := range 3 {
		p, q := corners[k], corners[(k+1)%3]
		e := q.sub(p)
		l := e.len()
		if l < 1e-9 {
			continue
		}
		if hat.crosses(p, e.scale(1/l), l) {
			return true
		}
	}
	return false
}

// rimAlong is the distance from the centre to the mesh where the rays
// between directions a and b (one meeting it, one not) stop meeting it:
// the edge of the mesh between them, found by halving the angle.
func (rb *rayBins) rimAlong(a, b vec3) float64 {
	in, out := a.norm(), b.norm()
	if _, ok := rb.first(in); !ok {
		in, out = out, in
	}
	best, _ := rb.first(in)
	for range 10 {
		m := in.add(out).norm()
		if d, ok := rb.first(m); ok {
			in, best = m, d
		} else {
			out = m
		}
	}
	return best
}

// rayBins finds where rays from a point first meet a mesh: its triangles
// binned by the directions of their corners from that point.
type rayBins struct {
	c    vec3
	pos  []vec3
	tris [][3]uint32
	// binStart and binItems are the triangles of each bin, azimuth bin
	// a and elevation bin e at k = binAt(a, e), in the mesh's order:
	// binItems[binStart[k]:binStart[k+1]] (bin). Two flat arrays, not a
	// slice per bin (a third of a build's allocations), and each
	// corner's angles found once (the hair's bins are built for every
	// hat and hair part).
	binStart []int32
	binItems []int32
	// cones bound each triangle as seen from c (rayCone): a bin of 6
	// degrees round a bun or a brim holds thousands of triangles, and
	// rimEdges asked each of the bun's 3,000 open edges about all of
	// them (58 % of a headwear part). The bound answers for most in a
	// dot product, and says no only where the ray cannot meet them, so
	// the answers are the same.
	cones []rayCone
}

const rayBin = 6.0 // degrees

func newRayBins(p *part, c vec3) *rayBins {
	rb := &rayBins{c: c, tris: p.tris, binStart: make([]int32, 60*rayElevations+1)}
	th0, ph0 := make([]float64, len(p.pos)), make([]float64, len(p.pos))
	rb.pos = make([]vec3, len(p.pos))
	for i, q := range p.pos {
		rb.pos[i] = v3(q)
		th0[i], ph0[i] = angles(v3(q).sub(c))
	}
	rb.cones = make([]rayCone, len(p.tris))
	// Each triangle's range of bins, then two passes over them: count,
	// then place.
	span := make([][4]int, len(p.tris))
	for t, tri := range p.tris {
		rb.cones[t] = newRayCone(c, rb.pos[tri[0]], rb.pos[tri[1]], rb.pos[tri[2]])
		var th, ph [3]float64
		for k, v := range tri {
			th[k], ph[k] = th0[v], ph0[v]
		}
		// Unwrap the azimuths around the first corner.
		for k := 1; k < 3; k++ {
			for th[k]-th[0] > 180 {
				th[k] -= 360
			}
			for th[k]-th[0] < -180 {
				th[k] += 360
			}
		}
		lo0, hi0 := math.Min(th[0], math.Min(th[1], th[2])), math.Max(th[0], math.Max(th[1], th[2]))
		lo1, hi1 := math.Min(ph[0], math.Min(ph[1], ph[2])), math.Max(ph[0], math.Max(ph[1], ph[2]))
		if hi1 > 80 || lo1 < -80 {
			// Near a pole every azimuth is close: every bin of the cap.
			lo0, hi0 = 0, 359.9
		}
		span[t] = [4]int{int(math.Floor(lo0/rayBin)) - 1, int(math.Floor(hi0/rayBin)) + 1, int(math.Floor(lo1/rayBin)) - 1, int(math.Floor(hi1/rayBin)) + 1}
		for a := span[t][0]; a <= span[t][1]; a++ {
			for e := span[t][2]; e <= span[t][3]; e++ {
				rb.binStart[binAt(((a%60)+60)%60, e)+1]++
			}
		}
	}
	for k := range 60 * rayElevations {
		rb.binStart[k+1] += rb.binStart[k]
	}
	rb.binItems = make([]int32, rb.binStart[60*rayElevations])
	fill := make([]int32, 60*rayElevations)
	copy(fill, rb.binStart)
	for t := range p.tris {
		for a := span[t][0]; a <= span[t][1]; a++ {
			for e := span[t][2]; e <= span[t][3]; e++ {
				key := binAt(((a%60)+60)%60, e)
				rb.binItems[fill[key]] = int32(t)
				fill[key]++
			}
		}
	}
	return rb
}

// bin is the triangles of the bin at key (binAt), in the mesh's order.
func (rb *rayBins) bin(key int) []int32 { return rb.binItems[rb.binStart[key]:rb.binStart[key+1]] }

// angles are the azimuth (0..360) and elevation of d, in degrees.
func angles(d vec3) (float64, float64) {
	th := math.Atan2(d[0], d[2]) * 180 / math.Pi
	if th < 0 {
		th += 360
	}
	return th, math.Asin(math.Max(-1, math.Min(1, d[1]/d.len()))) * 180 / math.Pi
}

// first is the distance along the unit direction u from c to the mesh
// (Möller-Trumbore), and whether the ray meets it.
func (rb *rayBins) first(u vec3) (float64, bool) {
	th, ph := angles(u)
	key := binAt(int(math.Floor(th/rayBin))%60, int(math.Floor(ph/rayBin)))
	best, ok := math.Inf(1), false
	for _, t := range rb.bin(key) {
		if rb.cones[t].misses(u, -1) {
			continue
		}
		tri := rb.tris[t]
		if d, _, _, hit := rayTriangle(rb.c, u, rb.pos[tri[0]], rb.pos[tri[1]], rb.pos[tri[2]]); hit && d < best {
			best, ok = d, true
		}
	}
	return best, ok
}

// last is the distance along the unit direction u from c to the mesh's
// farthest crossing, and whether the ray meets it.
func (rb *rayBins) last(u vec3) (float64, bool) {
	th, ph := angles(u)
	key := binAt(int(math.Floor(th/rayBin))%60, int(math.Floor(ph/rayBin)))
	best, ok := 0.0, false
	for _, t := range rb.bin(key) {
		if rb.cones[t].misses(u, best) {
			continue
		}
		tri := rb.tris[t]
		if d, _, _, hit := rayTriangle(rb.c, u, rb.pos[tri[0]], rb.pos[tri[1]], rb.pos[tri[2]]); hit && d > best {
			best, ok = d, true
		}
	}
	return best, ok
}

// rayTriangle is the distance along the unit direction u from c to the
// triangle abd (Möller-Trumbore), the crossing's barycentric weights of b
// and d, and whether the ray meets it ahead of c.
func rayTriangle(c, u, a, b, d vec3) (dist, wb, wd float64, ok bool) {
	return rayEdges(c, u, a, b.sub(a), d.sub(a))
}

// rayEdges is rayTriangle for the triangle given by its corner a and its
// edges from a: the garments take their edges as float32 differences
// (sub3), and the same rounding keeps their avatars' bytes.
func rayEdges(c, u, a, e1, e2 vec3) (dist, wb, wd float64, ok bool) {
	pv := u.cross(e2)
	det := e1.dot(pv)
	if math.Abs(det) < 1e-12 {
		return 0, 0, 0, false
	}
	tv := c.sub(a)
	wb = tv.dot(pv) / det
	if wb < 0 || wb > 1 {
		return 0, 0, 0, false
	}
	qv := tv.cross(e1)
	wd = u.dot(qv) / det
	if wd < 0 || wb+wd > 1 {
		return 0, 0, 0, false
	}
	dist = e2.dot(qv) / det
	return dist, wb, wd, dist > 0
}
