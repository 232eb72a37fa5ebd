package avatar

import "math"

// headShape is the head as a deformed ellipsoid. Its surface is
// parametrised by longitude (0 at the face, ±π at the back) and latitude
// (0 at the crown, π under the chin); the head texture is laid out in
// the same parameters, which is how the painted face lines up with the
// geometry.
type headShape struct {
	h          float64
	c          vec3 // centre
	ax, by, cz float64
	eyeL, eyeR vec3
	eyeR0      float64 // eyeball radius
	mouthY     float64
	fem        bool
}

func newHead(s *skel, fem bool) headShape {
	h := s.h
	hs := headShape{h: h, fem: fem, c: vec3{0, 0.931 * h, 0.006 * h}, ax: 0.045 * h, by: 0.069 * h, cz: 0.058 * h}
	if fem {
		hs.ax, hs.cz = 0.0465*h, 0.059*h
	}
	hs.eyeL, hs.eyeR = s.p("LeftEye"), s.p("RightEye")
	hs.eyeR0 = 0.0068 * h
	hs.mouthY = 0.890 * h
	return hs
}

// jaw narrows the lower face toward the chin.
func jaw(ny float64) float64 { return 1 - 0.3*smooth(-0.05, -0.95, ny) }

// unit is the direction of the parameters on the unit sphere.
func unit(lon, lat float64) vec3 {
	return vec3{math.Sin(lat) * math.Sin(lon), math.Cos(lat), math.Sin(lat) * math.Cos(lon)}
}

// surface is the head's skin at (lon, lat): the ellipsoid narrowed at
// the jaw, tucked in under the back of the skull, a chin pushed forward,
// and sockets pressed in around the eyes so that the eyeballs show.
func (hs headShape) surface(lon, lat float64) vec3 {
	n := unit(lon, lat)
	x := n[0] * hs.ax * jaw(n[1])
	y := n[1] * hs.by
	z := n[2] * hs.cz
	if n[2] < 0 {
		z *= 1 - 0.3*smooth(0, -0.9, n[1])
	} else {
		// A flatter face than an ellipsoid's, and a chin.
		z *= 1 - 0.1*n[2]*n[2]*math.Max(0, 1-math.Abs(n[1]))
		z += 0.004 * hs.h * math.Exp(-math.Pow((n[1]+0.8)/0.13, 2)) * math.Pow(n[2], 4)
		// Lips stand out a little.
		my := (hs.mouthY - hs.c[1])
		z += 0.0018 * hs.h * math.Exp(-math.Pow((y-my)/(0.006*hs.h), 2)-math.Pow(x/(0.014*hs.h), 4)) * n[2]
	}
	p := hs.c.add(vec3{x, y, z})
	if n[2] <= 0 {
		return p
	}
	// Eyelids: the skin covers the eyeball but for an almond-shaped
	// opening, inside which it is pulled back behind the eyeball.
	for _, e := range []vec3{hs.eyeL, hs.eyeR} {
		r := hs.eyeR0
		dx, dy := p[0]-e[0], p[1]-e[1]
		rho := math.Hypot(dx, dy)
		// The opening is wider toward the outer corner and lifted there.
		sx := math.Copysign(1, e[0]) * dx
		w := 1.12 * r
		if sx > 0 {
			w = 1.22 * r
		}
		q := math.Hypot(dx/w, (dy-0.1*r*sx/w)/(0.52*r))
		if q < 1 {
			back := e[2] + 0.3*math.Sqrt(math.Max(0, r*r-rho*rho))
			p[2] = math.Min(p[2], lerp(p[2], back, smooth(1, 0.85, q)))
		} else if rho < 1.35*r {
			lid := e[2] + math.Sqrt(math.Max(0, 1.1*1.1*r*r-rho*rho)) + 0.0004*hs.h
			p[2] = math.Max(p[2], lid)
		}
	}
	return p
}

// uvOf gives the head texture coordinates of the parameters.
func uvOf(lon, lat float64) [2]float32 {
	return [2]float32{float32((lon + math.Pi) / (2 * math.Pi)), float32(lat / math.Pi)}
}

// head builds Wolf3D_Head: skull and face, nose and ears.
func (hs headShape) head(p *part) {
	// The grid is denser at the face (longitude near 0, latitudes from
	// the brows to the chin) than at the back, where the hair covers it:
	// eyelids and lips need vertices a millimetre or two apart.
	const cols, rows = 64, 48
	const lat0 = 1.72
	p.grid(cols, rows, func(i, j int) (vec3, [2]float32) {
		u := 2*float64(i)/cols - 1
		lon := math.Pi * (0.3*u + 0.7*u*u*u)
		w := 2*float64(j)/rows - 1
		span := lat0
		if w > 0 {
			span = math.Pi - lat0
		}
		lat := lat0 + span*(0.4*w+0.6*w*w*w)
		return hs.surface(lon, lat), uvOf(lon, lat)
	}, func(vec3) vec3 { return hs.c })
	h := hs.h
	// A plain-skin spot of the texture for the nose and the ears, which
	// would otherwise pick up painted features.
	skinUV := uvOf(0, 1.2)
	front := func(y float64) vec3 {
		lat := math.Acos(math.Max(-1, math.Min(1, (y-hs.c[1])/hs.by)))
		return hs.surface(0, lat)
	}
	eyeY := hs.eyeL[1]
	bridge := front(eyeY + 0.004*h)
	tip := front(eyeY - 0.021*h).add(vec3{0, 0, 0.012 * h})
	base := front(eyeY - 0.027*h)
	n0 := len(p.pos)
	var rings []ring
	const steps = 10
	for i := 0; i <= steps; i++ {
		t := float64(i) / steps
		var c vec3
		var w, d float64
		if t < 0.75 {
			s := t / 0.75
			c = bridge.add(tip.sub(bridge).scale(s)).add(vec3{0, 0, -0.007 * h * s * (1 - s)})
			w = lerp(0.0036, 0.0068, s*s) * h
			d = lerp(0.0025, 0.0058, s) * h
		} else {
			s := (t - 0.75) / 0.25
			c = tip.add(base.add(vec3{0, 0, -0.004 * h}).sub(tip).scale(s))
			w = lerp(0.0068, 0.0092, s) * h
			d = lerp(0.0058, 0.0035, s) * h
		}
		rings = append(rings, ring{c: c, u: vec3{1, 0, 0}, ru: w, rf: d, rb: d})
	}
	for i := range rings {
		a, b := rings[max(i-1, 0)].c, rings[min(i+1, len(rings)-1)].c
		dir := b.sub(a).norm()
		rings[i].v = dir.cross(vec3{1, 0, 0}).norm()
		if rings[i].v[2] < 0 && rings[i].v[1] < 0.9 {
			rings[i].v = rings[i].v.scale(-1)
		}
	}
	p.tube(rings, 12, 2.2, 0, 0, 1, 1)
	// Ears: flattened ellipsoids at the sides, tilted back.
	for _, sx := range []float64{1, -1} {
		c := vec3{sx * (hs.ax*0.96 + 0.002*h), eyeY - 0.008*h, hs.c[2] - 0.006*h}
		tilt := 0.25
		p.grid(12, 8, func(i, j int) (vec3, [2]float32) {
			lon := 2 * math.Pi * float64(i) / 12
			lat := math.Pi * float64(j) / 8
			n := unit(lon, lat)
			q := vec3{n[0] * 0.0065 * h, n[1] * 0.0175 * h, n[2] * 0.0105 * h}
			// Tilt the top backward, and cup the outer face.
			y := q[1]*math.Cos(tilt) + q[2]*math.Sin(tilt)
			z := -q[1]*math.Sin(tilt) + q[2]*math.Cos(tilt)
			return c.add(vec3{sx * q[0], y, z}), skinUV
		}, func(vec3) vec3 { return c })
	}
	for i := n0; i < len(p.pos); i++ {
		p.uv[i] = skinUV
	}
}

// mouthTargets are the displacements of the head's vertices for the
// mouthOpen and mouthSmile morph targets, the two the leader's avatars
// carry for lip sync: the jaw below the mouth drops, and the mouth
// corners rise and widen.
func (hs headShape) mouthTargets(p *part) (open, smile [][3]float32) {
	open = make([][3]float32, len(p.pos))
	smile = make([][3]float32, len(p.pos))
	h := hs.h
	for i, v := range p.pos {
		if v[2] < hs.c[2] {
			continue
		}
		dy := v[1] - hs.mouthY
		x := v[0]
		if dy < 0.001*h {
			// Below the mouth line the jaw drops, fading out toward the
			// sides and down the neck.
			f := math.Exp(-math.Pow(x/(0.03*h), 2)) * smooth(0.001*h, -0.003*h, dy) * smooth(hs.c[1]-0.075*h, hs.c[1]-0.06*h, v[1])
			open[i] = vec3{0, -0.009 * h * f, -0.002 * h * f}.f32()
		}
		for _, sx := range []float64{1, -1} {
			cx := sx * 0.013 * h
			f := math.Exp(-math.Pow((x-cx)/(0.008*h), 2) - math.Pow(dy/(0.008*h), 2))
			if f > 0.01 {
				smile[i] = vec3{sx * 0.002 * h * f, 0.003 * h * f, -0.001 * h * f}.f32()
			}
		}
	}
	return open, smile
}

// eye builds one eyeball, a sphere with its pole (the pupil) forward;
// its texture runs from the pupil (v=0) to the back (v=1).
func (hs headShape) eye(p *part, c vec3) {
	r := hs.eyeR0
	p.grid(20, 14, func(i, j int) (vec3, [2]float32) {
		az := 2 * math.Pi * float64(i) / 20
		pol := math.Pi * float64(j) / 14
		d := vec3{math.Sin(pol) * math.Cos(az), math.Sin(pol) * math.Sin(az), math.Cos(pol)}
		return c.add(d.scale(r)), [2]float32{float32(i) / 20, float32(pol / math.Pi)}
	}, func(vec3) vec3 { return c })
}

// hairline is the latitude the hair reaches at each longitude: the
// forehead, above the ears, down to the nape.
func hairline(lon float64) float64 {
	a := math.Abs(lon)
	return table([]float64{0, 0.5, 1.0, 1.35, 1.75, 2.3, math.Pi}, []float64{0.72, 0.78, 1.08, 1.28, 1.4, 1.95, 2.15}, a)
}

// hair builds Wolf3D_Hair for a style: a shell over the scalp that
// thins to nothing at the hairline, plus a curtain, bun or tail.
func (hs headShape) hair(p *part, style string, torso func(y float64) torsoRow) {
	h := hs.h
	thick := func(lon, lat float64) float64 {
		n := unit(lon, lat)
		top := math.Max(0, n[1])
		switch style {
		case "buzz":
			return 0.0014 * h
		case "curly":
			return (0.011 + 0.004*top + 0.004*math.Abs(math.Sin(7*lon)*math.Sin(9*lat))) * h
		case "long":
			return (0.0045 + 0.004*top) * h
		case "bun", "ponytail":
			return (0.0028 + 0.002*top) * h
		}
		// short: volume on top and a little at the front.
		return (0.0035 + 0.007*top + 0.003*math.Max(0, n[2])*top) * h
	}
	const cols, rows = 56, 16
	lonAt := func(i int) float64 { return -math.Pi + 2*math.Pi*float64(i)/cols }
	edge := func(lon float64) float64 {
		e := hairline(lon)
		if style == "long" {
			e += 0.08 // long hair covers the ears' tops
		}
		return e
	}
	point := func(lon, s float64) vec3 {
		lat := s * edge(lon)
		base := hs.surface(lon, lat)
		out := base.sub(hs.c).norm()
		return base.add(out.scale(thick(lon, lat) * smooth(1, 0.8, s)))
	}
	p.grid(cols, rows, func(i, j int) (vec3, [2]float32) {
		lon := lonAt(i)
		s := float64(j) / rows
		return point(lon, s), [2]float32{float32(i) / cols * 6, float32(s)}
	}, func(vec3) vec3 { return hs.c })
	switch style {
	case "long":
		// A curtain from the hairline at the sides and back down past
		// the shoulders, draped over the trunk.
		const ccols, crows = 40, 12
		l0 := 0.95
		end := 0.77 * h
		if hs.fem {
			end = 0.74 * h
		}
		p.grid(ccols, crows, func(i, j int) (vec3, [2]float32) {
			lon := l0 + (2*math.Pi-2*l0)*float64(i)/ccols
			if lon > math.Pi {
				lon -= 2 * math.Pi
			}
			top := point(lon, 1)
			t := float64(j) / crows
			y := lerp(top[1], end, t)
			dir := vec3{top[0] - hs.c[0], 0, top[2] - hs.c[2]}
			r0 := dir.len()
			dir = dir.norm()
			// Clear the trunk: its radius in this direction at y.
			tr := torso(y / h)
			zr := tr.zf
			if dir[2] < 0 {
				zr = tr.zb
			}
			rb := 1 / math.Hypot(dir[0]/(tr.wx*h), dir[2]/(zr*h))
			if y > 0.845*h {
				rb = 0.038 * h
			}
			r := math.Max(r0+0.012*h*t, rb+0.01*h)
			r = lerp(r0, r, smooth(0, 0.25, t))
			c := vec3{hs.c[0], y, hs.c[2]}
			return c.add(dir.scale(r)), [2]float32{float32(i) / ccols * 4, float32(1 + t*2)}
		}, func(v vec3) vec3 { return vec3{hs.c[0], v[1], hs.c[2]} })
	case "bun":
		c := hs.c.add(unit(math.Pi, 0.75).mul(vec3{hs.ax, hs.by, hs.cz}).scale(1.12))
		r := 0.024 * h
		p.grid(16, 10, func(i, j int) (vec3, [2]float32) {
			lon := 2 * math.Pi * float64(i) / 16
			lat := math.Pi * float64(j) / 10
			return c.add(unit(lon, lat).scale(r)), [2]float32{float32(i) / 16 * 3, float32(j) / 10}
		}, func(vec3) vec3 { return c })
	case "ponytail":
		start := hs.surface(math.Pi, 1.15)
		pts := []vec3{start.add(vec3{0, 0, 0.004 * h}), start.add(vec3{0, -0.03 * h, -0.025 * h}), start.add(vec3{0, -0.09 * h, -0.03 * h}), start.add(vec3{0, -0.16 * h, -0.018 * h})}
		var rings []ring
		const n = 14
		for i := 0; i <= n; i++ {
			t := float64(i) / n
			c := bezier(pts, t)
			d := bezier(pts, math.Min(1, t+0.01)).sub(bezier(pts, math.Max(0, t-0.01))).norm()
			u := vec3{1, 0, 0}
			r := (0.010 + 0.010*math.Sin(math.Pi*math.Min(1, t*1.3))*(1-t) + 0.003*(1-t)) * h
			rings = append(rings, ring{c: c, u: u, v: u.cross(d).norm(), ru: r, rf: r * 0.8, rb: r * 0.8})
		}
		p.tube(rings, 12, 2, 0.004*h, 0.006*h, 3, 0.1)
	}
}

// bezier evaluates a cubic Bézier curve.
func bezier(p []vec3, t float64) vec3 {
	u := 1 - t
	return p[0].scale(u * u * u).add(p[1].scale(3 * u * u * t)).add(p[2].scale(3 * u * t * t)).add(p[3].scale(t * t * t))
}

// glasses builds round or square frames in front of the eyes, a bridge,
// and temples back to the ears.
func (hs headShape) glasses(p *part, style string) {
	h := hs.h
	r := 0.0012 * h
	z := hs.eyeL[2] + hs.eyeR0 + 0.011*h
	rx, ry, ex := 0.0125*h, 0.0110*h, 2.0
	if style == "square" {
		rx, ry, ex = 0.0138*h, 0.0102*h, 5
	}
	loop := func(c vec3) {
		var rings []ring
		const n = 32
		for i := 0; i <= n; i++ {
			a := 2 * math.Pi * float64(i) / n
			q := c.add(vec3{spow(math.Cos(a), 2/ex) * rx, spow(math.Sin(a), 2/ex) * ry, 0})
			rings = append(rings, ring{c: q, u: q.sub(c).norm(), v: vec3{0, 0, 1}, ru: r, rf: r, rb: r})
		}
		p.tube(rings, 6, 2, 0, 0, 1, 1)
	}
	var outer [2]vec3
	for k, e := range []vec3{hs.eyeL, hs.eyeR} {
		c := vec3{e[0] * 1.08, e[1], z}
		loop(c)
		sx := math.Copysign(1, e[0])
		outer[k] = c.add(vec3{sx * rx, 0.002 * h, -0.001 * h})
		// Temple: from the frame's outer edge back above the ear.
		ear := vec3{sx * (hs.ax + 0.004*h), e[1] + 0.002*h, hs.c[2] - 0.012*h}
		drop := ear.add(vec3{0, -0.012 * h, -0.01 * h})
		p.tube(pathRings([]vec3{outer[k], outer[k].add(vec3{sx * 0.006 * h, 0, -0.008 * h}), ear, drop}, r*0.9), 6, 2, r, r, 1, 1)
	}
	inL := vec3{hs.eyeL[0]*1.08 - rx, hs.eyeL[1] + 0.003*h, z}
	inR := vec3{hs.eyeR[0]*1.08 + rx, hs.eyeR[1] + 0.003*h, z}
	mid := inL.add(inR).scale(0.5).add(vec3{0, 0.003 * h, 0.001 * h})
	p.tube(pathRings([]vec3{inL, mid, inR}, r), 6, 2, 0, 0, 1, 1)
}

// pathRings gives rings of radius r along a polyline, subdivided so that
// bends stay round.
func pathRings(pts []vec3, r float64) []ring {
	var rings []ring
	for i := 0; i < len(pts)-1; i++ {
		for k := 0; k < 4; k++ {
			if k == 0 && i > 0 {
				continue
			}
			t := float64(k) / 3
			c := pts[i].add(pts[i+1].sub(pts[i]).scale(t))
			d := pts[i+1].sub(pts[i]).norm()
			up := vec3{0, 1, 0}
			if math.Abs(d[1]) > 0.9 {
				up = vec3{1, 0, 0}
			}
			u := up.sub(d.scale(up.dot(d))).norm()
			rings = append(rings, ring{c: c, u: u, v: u.cross(d), ru: r, rf: r, rb: r})
		}
	}
	return rings
}
