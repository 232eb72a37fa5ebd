package avatar

import "math"

// shape holds what every body part is sized from: the rig, the height,
// the gender and the build.
type shape struct {
	s     *skel
	h     float64
	fem   bool
	build float64
}

// torsoRow is a cross-section of the trunk at a height (fractions of the
// height): half-width, front and back half-depths.
type torsoRow struct{ y, wx, zf, zb float64 }

// Trunk sections after anthropometric tables, masculine and feminine:
// the feminine trunk has narrower shoulders and waist, wider hips and a
// bust.
var (
	torsoMasc = []torsoRow{
		{0.462, 0.050, 0.040, 0.040},
		{0.475, 0.082, 0.056, 0.060},
		{0.50, 0.093, 0.062, 0.068},
		{0.53, 0.097, 0.064, 0.070},
		{0.57, 0.093, 0.062, 0.062},
		{0.62, 0.089, 0.062, 0.056},
		{0.67, 0.093, 0.066, 0.056},
		{0.72, 0.099, 0.072, 0.060},
		{0.76, 0.101, 0.071, 0.060},
		{0.79, 0.101, 0.063, 0.058},
		{0.81, 0.092, 0.054, 0.054},
		{0.828, 0.072, 0.045, 0.048},
		{0.845, 0.046, 0.037, 0.041},
	}
	torsoFem = []torsoRow{
		{0.462, 0.055, 0.040, 0.042},
		{0.475, 0.088, 0.056, 0.064},
		{0.50, 0.102, 0.062, 0.074},
		{0.53, 0.106, 0.064, 0.076},
		{0.57, 0.095, 0.060, 0.066},
		{0.62, 0.080, 0.055, 0.054},
		{0.665, 0.083, 0.058, 0.054},
		{0.70, 0.089, 0.074, 0.056},
		{0.725, 0.092, 0.084, 0.057},
		{0.755, 0.090, 0.072, 0.057},
		{0.79, 0.088, 0.060, 0.055},
		{0.81, 0.082, 0.050, 0.051},
		{0.828, 0.064, 0.042, 0.045},
		{0.845, 0.041, 0.033, 0.037},
	}
)

// row interpolates the trunk section at height y (fraction), smoothly
// (Catmull-Rom through the table) so that the sides show no kinks,
// widened by the build around the waist and belly.
func (sh shape) row(y float64) torsoRow {
	t := torsoMasc
	if sh.fem {
		t = torsoFem
	}
	if y <= t[0].y {
		return t[0]
	}
	if y >= t[len(t)-1].y {
		return t[len(t)-1]
	}
	i := 0
	for y > t[i+1].y {
		i++
	}
	a, b, c, d := t[max(i-1, 0)], t[i], t[i+1], t[min(i+2, len(t)-1)]
	u := (y - b.y) / (c.y - b.y)
	cr := func(p0, p1, p2, p3 float64) float64 {
		return 0.5 * (2*p1 + (-p0+p2)*u + (2*p0-5*p1+4*p2-p3)*u*u + (-p0+3*p1-3*p2+p3)*u*u*u)
	}
	r := torsoRow{y, cr(a.wx, b.wx, c.wx, d.wx), cr(a.zf, b.zf, c.zf, d.zf), cr(a.zb, b.zb, c.zb, d.zb)}
	// Build: slim to heavy widens everything a little and the waist and
	// belly most.
	belly := math.Exp(-math.Pow((y-0.6)/0.08, 2))
	g := sh.build - 0.4
	r.wx *= 1 + g*(0.22+0.25*belly)
	r.zf *= 1 + g*(0.25+0.5*belly)
	r.zb *= 1 + g*0.2
	return r
}

// torso sweeps the trunk from y0 to y1 (fractions of the height), grown
// by off (metres) for a garment.
func (sh shape) torso(p *part, y0, y1, off float64, capBottom bool) {
	sh.torsoFlared(p, y0, y1, off, 0, capBottom)
}

// torsoFlared is torso with the bottom flared by up to flare (metres),
// which lets a top hang over the waistband and the thighs' tops.
func (sh shape) torsoFlared(p *part, y0, y1, off, flare float64, capBottom bool) {
	var rings []ring
	n := int(math.Ceil((y1 - y0) / 0.011))
	for i := 0; i <= n; i++ {
		y := lerp(y0, y1, float64(i)/float64(n))
		r := sh.row(y)
		o := off + flare*smooth(y0+0.1, y0, y)
		rings = append(rings, ring{
			c: vec3{0, y * sh.h, 0}, u: vec3{1, 0, 0}, v: vec3{0, 0, 1},
			ru: r.wx*sh.h + o, rf: r.zf*sh.h + o, rb: r.zb*sh.h + o,
		})
	}
	capLen := 0.0
	if capBottom {
		capLen = 0.01 * sh.h
	}
	p.tube(rings, 32, 2.4, capLen, 0, 4, 0.25)
}

// profile is a tube's section at a distance t along a limb (fractions of
// the height): half-width along the limb's +X, half-depths along its +Z
// (front) and -Z.
type profile struct{ t, ru, rf, rb float64 }

// limb sweeps a tube along a chain of joints from t0 to t1 (fractions of
// the height, 0 at the first joint, negative before it), with sections
// interpolated from prof, each ring oriented by the joints' +X axes so
// that the tube twists as the bones do.
func (sh shape) limb(p *part, joints []string, prof []profile, scale, t0, t1, off float64, sides int, capStart, capEnd float64) {
	s := sh.s
	pts := make([]vec3, len(joints))
	xs := make([]vec3, len(joints))
	for i, j := range joints {
		pts[i] = s.p(j)
		xs[i] = s.axes(j)[0]
	}
	var cum []float64
	total := 0.0
	for i := range pts {
		if i > 0 {
			total += pts[i].sub(pts[i-1]).len()
		}
		cum = append(cum, total)
	}
	pt := make([]float64, len(prof))
	ru := make([]float64, len(prof))
	rf := make([]float64, len(prof))
	rb := make([]float64, len(prof))
	for i, q := range prof {
		pt[i], ru[i], rf[i], rb[i] = q.t, q.ru, q.rf, q.rb
	}
	n := int(math.Ceil((t1 - t0) / 0.016))
	if n < 2 {
		n = 2
	}
	var rings []ring
	blend := 0.03 * sh.h
	for i := 0; i <= n; i++ {
		t := lerp(t0, t1, float64(i)/float64(n))
		d := t * sh.h
		// Segment k holds d; near an inner joint the direction and the
		// twist blend between the two segments.
		k := 0
		for k < len(pts)-2 && d > cum[k+1] {
			k++
		}
		dir := pts[k+1].sub(pts[k]).norm()
		c := pts[k].add(dir.scale(d - cum[k]))
		x := xs[k]
		if k+2 < len(pts) {
			if w := smooth(cum[k+1]-blend, cum[k+1]+blend, d); w > 0 {
				nd := pts[k+2].sub(pts[k+1]).norm()
				dir = dir.scale(1 - w).add(nd.scale(w)).norm()
				x = x.scale(1 - w).add(xs[k+1].scale(w))
			}
		}
		if k > 0 {
			if w := smooth(cum[k]-blend, cum[k]+blend, d); w < 1 {
				pd := pts[k].sub(pts[k-1]).norm()
				dir = pd.scale(1 - w).add(dir.scale(w)).norm()
				x = xs[k-1].scale(1 - w).add(x.scale(w))
			}
		}
		u := x.sub(dir.scale(x.dot(dir))).norm()
		v := u.cross(dir)
		rings = append(rings, ring{c: c, u: u, v: v,
			ru: table(pt, ru, t)*sh.h*scale + off,
			rf: table(pt, rf, t)*sh.h*scale + off,
			rb: table(pt, rb, t)*sh.h*scale + off,
		})
	}
	p.tube(rings, sides, 2.1, capStart, capEnd, 2, 0.2)
}

// Limb sections in fractions of the height, masculine; the feminine ones
// are scaled down (limbScale).
var (
	armProf = []profile{
		{-0.036, 0.010, 0.010, 0.010}, {-0.03, 0.022, 0.022, 0.022}, {-0.018, 0.028, 0.028, 0.028}, {0, 0.031, 0.031, 0.031}, {0.04, 0.030, 0.030, 0.030},
		{0.09, 0.028, 0.029, 0.029}, {0.15, 0.024, 0.023, 0.023}, {0.165, 0.022, 0.022, 0.022},
		{0.19, 0.025, 0.023, 0.023}, {0.23, 0.022, 0.020, 0.020}, {0.28, 0.017, 0.014, 0.014},
		{0.31, 0.0155, 0.0115, 0.0115},
	}
	legProf = []profile{
		{-0.04, 0.050, 0.056, 0.058}, {0, 0.052, 0.057, 0.059}, {0.06, 0.051, 0.054, 0.055},
		{0.15, 0.043, 0.045, 0.045}, {0.22, 0.036, 0.037, 0.036}, {0.237, 0.034, 0.036, 0.034},
		{0.27, 0.034, 0.034, 0.036}, {0.33, 0.035, 0.033, 0.042}, {0.40, 0.028, 0.027, 0.030},
		{0.46, 0.021, 0.021, 0.022}, {0.48, 0.020, 0.021, 0.021},
	}
	palmProf = []profile{
		{-0.006, 0.0145, 0.0105, 0.0105}, {0.015, 0.020, 0.0115, 0.0115}, {0.035, 0.0225, 0.011, 0.011},
		{0.05, 0.0235, 0.0095, 0.0095}, {0.057, 0.021, 0.008, 0.008},
	}
)

func (sh shape) limbScale() float64 {
	f := 1 + 0.3*(sh.build-0.4)
	if sh.fem {
		f *= 0.88
	}
	return f
}

// arm sweeps one arm from the shoulder to t1 along the arm.
func (sh shape) arm(p *part, side string, t1, off float64, capEnd float64) {
	sh.limb(p, []string{side + "Arm", side + "ForeArm", side + "Hand"}, armProf, sh.limbScale(), -0.036, t1, off, 20, 0.002*sh.h, capEnd)
}

// leg sweeps one leg from the hip to t1.
func (sh shape) leg(p *part, side string, t1, off float64, capEnd float64) {
	sh.limb(p, []string{side + "UpLeg", side + "Leg", side + "Foot"}, legProf, sh.legScale(), -0.04, t1, off, 24, 0, capEnd)
}

// legScale is limbScale with the feminine thighs fuller relative to the
// arms.
func (sh shape) legScale() float64 {
	f := sh.limbScale()
	if sh.fem {
		f *= 1.04
	}
	return f
}

// hand builds the palm and five fingers of three segments each.
func (sh shape) hand(p *part, side string) {
	s := sh.s
	f := sh.limbScale()
	if !sh.fem {
		f *= 1.02
	}
	hx := s.axes(side + "Hand")
	wrist := s.p(side + "Hand")
	var rings []ring
	for i := 0; i <= 8; i++ {
		t := lerp(-0.006, 0.057, float64(i)/8)
		var q profile
		pt := []float64{}
		for _, r := range palmProf {
			pt = append(pt, r.t)
		}
		ru, rf := []float64{}, []float64{}
		for _, r := range palmProf {
			ru, rf = append(ru, r.ru), append(rf, r.rf)
		}
		q.ru, q.rf = table(pt, ru, t), table(pt, rf, t)
		rings = append(rings, ring{c: wrist.add(hx[1].scale(t * sh.h)).add(hx[0].scale(0.001 * sh.h)), u: hx[0], v: hx[2],
			ru: q.ru * sh.h * f, rf: q.rf * sh.h * f, rb: q.rf * sh.h * f})
	}
	p.tube(rings, 16, 2.6, 0, 0.006*sh.h, 1, 0.1)
	for _, fg := range fingers {
		r0, r1 := 0.0052, 0.0042
		switch fg {
		case "Thumb":
			r0, r1 = 0.0070, 0.0056
		case "Middle":
			r0, r1 = 0.0054, 0.0044
		case "Ring":
			r0, r1 = 0.0050, 0.0041
		case "Pinky":
			r0, r1 = 0.0044, 0.0036
		}
		names := []string{side + "Hand" + fg + "1", side + "Hand" + fg + "2", side + "Hand" + fg + "3", side + "Hand" + fg + "4"}
		length := 0.0
		for i := 1; i < 4; i++ {
			length += s.p(names[i]).sub(s.p(names[i-1])).len()
		}
		start := -0.008
		if fg == "Thumb" {
			start = -0.004
		}
		tip := length/sh.h - r1*0.9
		prof := []profile{{start, r0, r0 * 0.85, r0 * 0.85}, {tip, r1, r1 * 0.8, r1 * 0.8}}
		sh.limb(p, names, prof, f, start, tip, 0, 8, 0, r1*sh.h*f*0.9)
	}
}

// neck joins the trunk to the head.
func (sh shape) neck(p *part) {
	r := 0.033
	if sh.fem {
		r = 0.027
	}
	r *= 1 + 0.25*(sh.build-0.4)
	a := vec3{0, 0.80 * sh.h, -0.014 * sh.h}
	b := vec3{0, 0.905 * sh.h, -0.006 * sh.h}
	var rings []ring
	for i := 0; i <= 6; i++ {
		t := float64(i) / 6
		c := a.add(b.sub(a).scale(t))
		rr := r * sh.h * (1 - 0.08*t)
		rings = append(rings, ring{c: c, u: vec3{1, 0, 0}, v: vec3{0, 0, 1}, ru: rr, rf: rr * 0.95, rb: rr * 1.02})
	}
	p.tube(rings, 24, 2, 0, 0, 2, 0.2)
}

// shoe builds one shoe (or boot) around a foot, with its sole as a
// separate slab whose texture coordinates point at the sole colour.
func (sh shape) shoe(p *part, side, style string) {
	s := sh.s
	ankle := s.p(side + "Foot")
	toe := s.p(side + "Toe_End")
	heelZ := ankle[2] - 0.036*sh.h
	toeZ := toe[2] + 0.012*sh.h
	ts := []float64{0, 0.08, 0.25, 0.45, 0.65, 0.82, 0.93, 1}
	ws := []float64{0.021, 0.026, 0.028, 0.031, 0.034, 0.033, 0.029, 0.017}
	tops := []float64{0.060, 0.066, 0.066, 0.050, 0.036, 0.030, 0.027, 0.021}
	switch style {
	case "shoes":
		ws = []float64{0.019, 0.024, 0.026, 0.028, 0.030, 0.028, 0.022, 0.010}
		tops = []float64{0.050, 0.056, 0.054, 0.044, 0.030, 0.025, 0.022, 0.017}
	case "boots":
		tops = []float64{0.070, 0.076, 0.076, 0.056, 0.038, 0.032, 0.029, 0.023}
	}
	f := 1.0
	if sh.fem {
		f = 0.9
	}
	// The toes turn out a little, as feet do.
	outX := 0.006 * sh.h
	if ankle[0] < 0 {
		outX = -outX
	}
	sole := 0.011 * sh.h
	var upper, slab []ring
	for i := 0; i <= 16; i++ {
		t := float64(i) / 16
		z := lerp(heelZ, toeZ, t)
		w := table(ts, ws, t) * sh.h * f
		top := table(ts, tops, t) * sh.h
		x := ankle[0] + outX*t
		upper = append(upper, ring{c: vec3{x, (sole + top) / 2, z}, u: vec3{1, 0, 0}, v: vec3{0, 1, 0}, ru: w, rf: (top - sole) / 2, rb: (top - sole) / 2})
		slab = append(slab, ring{c: vec3{x, sole / 2, z}, u: vec3{1, 0, 0}, v: vec3{0, 1, 0}, ru: w + 0.0015*sh.h, rf: sole / 2, rb: sole / 2})
	}
	p.tube(upper, 24, 3, 0.006*sh.h, 0.008*sh.h, 0.72, 0.1)
	n := len(p.pos)
	p.tube(slab, 24, 5, 0.006*sh.h, 0.008*sh.h, 1, 1)
	for i := n; i < len(p.pos); i++ {
		p.uv[i] = [2]float32{0.88, 0.5} // the sole column of the texture
	}
	if style == "boots" {
		// The shaft around the ankle and lower calf.
		leg := s.p(side + "Leg")
		dir := ankle.sub(leg).norm()
		var shaft []ring
		for i := 0; i <= 5; i++ {
			y := lerp(0.04, 0.15, float64(i)/5) * sh.h
			c := ankle.add(dir.scale((y - ankle[1]) / dir[1]))
			r := lerp(0.031, 0.036, float64(i)/5) * sh.h * sh.limbScale()
			shaft = append(shaft, ring{c: c, u: vec3{1, 0, 0}, v: vec3{0, 0, 1}, ru: r, rf: r, rb: r * 1.05})
		}
		p.tube(shaft, 20, 2, 0, 0, 0.72, 0.1)
	}
}
