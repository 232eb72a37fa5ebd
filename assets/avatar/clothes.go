package avatar

import "math"

// top builds the outfit top: a shell over the trunk from the hem to the
// neckline, with sleeves of the style's length and its details (a hood
// for the hoodie, a collar for the shirt, straps for the tank).
func (sh shape) top(p *part, style string) {
	h := sh.h
	hem, off, sleeve, flare := 0.49, 0.006, 0.075, 0.003
	switch style {
	case "shirt":
		hem, off, sleeve, flare = 0.48, 0.005, 0.305, 0.002
	case "hoodie":
		hem, off, sleeve, flare = 0.485, 0.010, 0.300, 0.004
	case "blouse":
		hem, off, sleeve, flare = 0.50, 0.006, 0.27, 0.004
	case "tank":
		hem, off, sleeve = 0.50, 0.005, 0
	}
	neck := 0.845
	if style == "tank" {
		neck = 0.795
	}
	sh.torsoFlared(p, hem, neck, off*h, 0.022*h, false)
	for _, side := range []string{"Left", "Right"} {
		if sleeve > 0 {
			sh.arm(p, side, sleeve, (off+flare)*h, 0)
		}
		sx := 1.0
		if side == "Right" {
			sx = -1
		}
		if style == "tank" {
			// A strap over each shoulder.
			x := sx * 0.058 * h
			r0, r1 := sh.row(0.795), sh.row(0.828)
			pts := []vec3{{x, 0.79 * h, (r0.zf*0.7 + off) * h}, {x, 0.828 * h, (r1.zf*0.5 + off) * h}, {x, 0.835 * h, 0}, {x, 0.828 * h, -(r1.zb*0.5 + off) * h}, {x, 0.79 * h, -(r0.zb*0.8 + off) * h}}
			rs := pathRings(pts, 0)
			for i := range rs {
				d := rs[min(i+1, len(rs)-1)].c.sub(rs[max(i-1, 0)].c).norm()
				rs[i].u = vec3{1, 0, 0}
				rs[i].v = rs[i].u.cross(d).norm()
				rs[i].ru, rs[i].rf, rs[i].rb = 0.011*h, 0.003*h, 0.003*h
			}
			p.tube(rs, 8, 3, 0, 0, 1, 0.2)
		}
	}
	switch style {
	case "hoodie":
		// The hood lies folded behind the neck: a thick roll around the
		// back from one side of the neck to the other.
		var rings []ring
		const n = 16
		for i := 0; i <= n; i++ {
			a := lerp(-1.9, 1.9, float64(i)/n) // around the back (π at the back)
			c := vec3{math.Sin(a) * 0.058 * h, 0.846 * h, -math.Cos(a)*0.06*h - 0.012*h}
			d := vec3{math.Cos(a), 0, math.Sin(a)}
			u := vec3{0, 1, 0}
			r := (0.012 + 0.010*math.Cos(a/2)) * h
			rings = append(rings, ring{c: c, u: u, v: d.cross(u).norm(), ru: r * 0.8, rf: r, rb: r})
		}
		p.tube(rings, 12, 2, 0.01*h, 0.01*h, 2, 0.2)
	case "shirt":
		// A collar standing around the neck.
		r := 0.041
		if sh.fem {
			r = 0.037
		}
		r *= h * (1 + 0.25*(sh.build-0.4))
		var rings []ring
		for i := 0; i <= 2; i++ {
			y := lerp(0.836, 0.862, float64(i)/2) * h
			rr := r * (1 - 0.05*float64(i))
			rings = append(rings, ring{c: vec3{0, y, -0.012 * h}, u: vec3{1, 0, 0}, v: vec3{0, 0, 1}, ru: rr, rf: rr, rb: rr})
		}
		p.tube(rings, 28, 2, 0, 0, 2, 0.2)
	}
}

// bottom builds trousers, jeans, shorts (a shell over the pelvis and
// legs down to the style's hem) or a skirt (a flared cone).
func (sh shape) bottom(p *part, style string) {
	h := sh.h
	off := 0.004 * h
	if style == "skirt" {
		var rings []ring
		const n = 18
		hem := 0.34
		for i := 0; i <= n; i++ {
			s := float64(i) / n
			y := lerp(0.60, hem, s)
			r := sh.row(math.Max(y, 0.5))
			flare := smooth(0.5, 1, s) * 0.03 * h
			wx := r.wx*h + off + flare + 0.004*h*s
			if y < 0.5 {
				wx = math.Max(wx, sh.row(0.5).wx*h+off+flare)
			}
			rings = append(rings, ring{c: vec3{0, y * h, 0}, u: vec3{1, 0, 0}, v: vec3{0, 0, 1},
				ru: wx, rf: math.Max(r.zf*h+off, 0.08*h*s) + flare*0.8, rb: math.Max(r.zb*h+off, 0.085*h*s) + flare*0.8})
		}
		p.tube(rings, 40, 2.2, 0, 0, 4, 0.25)
		return
	}
	sh.torso(p, 0.462, 0.60, off, true)
	end, loose := 0.46, 0.0
	switch style {
	case "trousers":
		loose = 0.004 * h
		off = 0.005 * h
	case "shorts":
		end, loose = 0.17, 0.005*h
	}
	for _, side := range []string{"Left", "Right"} {
		sh.limb(p, []string{side + "UpLeg", side + "Leg", side + "Foot"}, legProf, sh.legScale(), -0.01, end, off+loose, 24, 0, 0)
	}
}
