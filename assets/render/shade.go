package render

import "math"

// lights is the studio: three directional lights placed relative to the
// camera (so every model is lit the same way whatever the framing) and a
// hemispherical environment, sky above and ground below.
type lights struct {
	dir   [3]vec3 // toward the light
	color [3]vec3
	sky   vec3
	grnd  vec3
	eye   vec3
}

func newLights(c camera) *lights {
	rel := func(x, y, z float64) vec3 { return c.right.mul(x).add(c.up.mul(y)).add(c.z.mul(z)).norm() }
	return &lights{
		dir: [3]vec3{
			rel(-0.55, 0.6, 0.75), // key: front left, above
			rel(0.7, 0.15, 0.6),   // fill: front right, low
			rel(0.3, 0.5, -0.8),   // rim: behind, above, outlines the silhouette
		},
		color: [3]vec3{{2.6, 2.5, 2.35}, {0.8, 0.85, 0.95}, {1.6, 1.6, 1.7}},
		sky:   vec3{0.42, 0.45, 0.5},
		grnd:  vec3{0.2, 0.18, 0.16},
		eye:   c.eye,
	}
}

func (l *lights) env(d vec3) vec3 { return lerp3(l.grnd, l.sky, 0.5+0.5*d[1]) }

func interpUV(t *tri, set int, b [3]float64) (float64, float64, bool) {
	if set >= len(t.p.uv) || len(t.p.uv[set]) != len(t.p.pos) {
		return 0, 0, false
	}
	uv := t.p.uv[set]
	a, c, d := uv[t.v[0]], uv[t.v[1]], uv[t.v[2]]
	return b[0]*float64(a[0]) + b[1]*float64(c[0]) + b[2]*float64(d[0]),
		b[0]*float64(a[1]) + b[1]*float64(c[1]) + b[2]*float64(d[1]), true
}

func (r texRef) sample(t *tri, b [3]float64) ([4]float64, bool) {
	if r.tex == nil {
		return [4]float64{}, false
	}
	u, v, ok := interpUV(t, r.coord, b)
	if !ok {
		return [4]float64{}, false
	}
	if r.xf != nil {
		u, v = r.xf.apply(u, v)
	}
	return r.tex.sample(u, v), true
}

// baseColor is the material's base colour times its texture and COLOR_0.
func baseColor(t *tri, b [3]float64) [4]float64 {
	m := t.p.mat
	c := m.base
	if s, ok := m.baseTex.sample(t, b); ok {
		for i := range c {
			c[i] *= s[i]
		}
	}
	if t.p.color != nil {
		for i := range c {
			c[i] *= b[0]*float64(t.p.color[t.v[0]][i]) + b[1]*float64(t.p.color[t.v[1]][i]) + b[2]*float64(t.p.color[t.v[2]][i])
		}
	}
	return c
}

func baseAlpha(t *tri, b [3]float64) float64 { return baseColor(t, b)[3] }

// shade evaluates glTF's metallic-roughness BRDF (appendix B): GGX
// distribution, height-correlated Smith visibility, Schlick Fresnel,
// alpha = roughness²; occlusion darkens only the environment term, as
// the specification says.
func shade(t *tri, b [3]float64, l *lights) [4]float64 {
	m := t.p.mat
	base := baseColor(t, b)
	if m.unlit {
		return base
	}
	pos := t.p.pos[t.v[0]].mul(b[0]).add(t.p.pos[t.v[1]].mul(b[1])).add(t.p.pos[t.v[2]].mul(b[2]))
	v := l.eye.sub(pos).norm()
	e1 := t.p.pos[t.v[1]].sub(t.p.pos[t.v[0]])
	e2 := t.p.pos[t.v[2]].sub(t.p.pos[t.v[0]])
	geo := e1.cross(e2).norm()
	var n vec3
	if t.p.normals != nil {
		n = t.p.normals[t.v[0]].mul(b[0]).add(t.p.normals[t.v[1]].mul(b[1])).add(t.p.normals[t.v[2]].mul(b[2])).norm()
	} else {
		n = geo
	}
	// No back-face culling: a surface seen from behind (open meshes,
	// single-sided cards, mirrored nodes) is lit from the viewer's side.
	flip := geo.dot(v) < 0
	if flip {
		n = n.mul(-1)
	}
	if s, ok := m.normalTex.sample(t, b); ok {
		tn := vec3{(s[0]*2 - 1) * m.normalScale, (s[1]*2 - 1) * m.normalScale, s[2]*2 - 1}
		tg, bt, ok := tangentFrame(t, n)
		if ok {
			n = tg.mul(tn[0]).add(bt.mul(tn[1])).add(n.mul(tn[2])).norm()
		}
	}
	metal, rough := m.metallic, m.rough
	if s, ok := m.mrTex.sample(t, b); ok {
		rough *= s[1]
		metal *= s[2]
	}
	rough = clamp(rough, 0.04, 1)
	metal = clamp(metal, 0, 1)
	alpha := rough * rough
	a2 := alpha * alpha
	albedo := vec3{base[0], base[1], base[2]}
	f0 := lerp3(vec3{0.04, 0.04, 0.04}, albedo, metal)
	diffuse := albedo.mul(1 - metal)
	nv := math.Max(n.dot(v), 1e-4)

	var col vec3
	for i, ld := range l.dir {
		nl := n.dot(ld)
		if nl <= 0 {
			continue
		}
		h := ld.add(v).norm()
		nh := math.Max(n.dot(h), 0)
		vh := math.Max(v.dot(h), 0)
		f := schlick(f0, vh)
		dd := nh*nh*(a2-1) + 1
		dist := a2 / (math.Pi * dd * dd)
		vis := 0.5 / (nl*math.Sqrt(nv*nv*(1-a2)+a2) + nv*math.Sqrt(nl*nl*(1-a2)+a2))
		spec := f.mul(dist * vis)
		kd := vec3{1 - f[0], 1 - f[1], 1 - f[2]}
		diff := kd.hadamard(diffuse).mul(1 / math.Pi)
		col = col.add(diff.add(spec).hadamard(l.color[i]).mul(nl))
	}
	// Environment: irradiance of the hemisphere around n, and a specular
	// reflection of the sky blurred toward the average with roughness,
	// weighted by Karis' analytic fit of the split-sum BRDF.
	ao := 1.0
	if s, ok := m.occTex.sample(t, b); ok {
		ao = 1 + m.occStrength*(s[0]-1)
	}
	irr := l.env(n)
	r := v.mul(-1).sub(n.mul(-2 * n.dot(v))).norm()
	envSpec := lerp3(l.env(r), lerp3(l.grnd, l.sky, 0.5), rough)
	ab := envBRDF(nv, rough)
	specW := f0.mul(ab[0]).add(vec3{ab[1], ab[1], ab[1]})
	col = col.add(diffuse.hadamard(irr).add(envSpec.hadamard(specW)).mul(ao))

	em := m.emissive
	if s, ok := m.emisTex.sample(t, b); ok {
		em = em.hadamard(vec3{s[0], s[1], s[2]})
	}
	col = col.add(em)
	return [4]float64{col[0], col[1], col[2], base[3]}
}

func schlick(f0 vec3, vh float64) vec3 {
	k := math.Pow(1-vh, 5)
	return vec3{f0[0] + (1-f0[0])*k, f0[1] + (1-f0[1])*k, f0[2] + (1-f0[2])*k}
}

// envBRDF is Karis' approximation of the pre-integrated specular BRDF
// (scale and bias applied to F0).
func envBRDF(nv, rough float64) [2]float64 {
	c0 := [4]float64{-1, -0.0275, -0.572, 0.022}
	c1 := [4]float64{1, 0.0425, 1.04, -0.04}
	r := [4]float64{rough*c0[0] + c1[0], rough*c0[1] + c1[1], rough*c0[2] + c1[2], rough*c0[3] + c1[3]}
	a004 := math.Min(r[0]*r[0], math.Exp2(-9.28*nv))*r[0] + r[1]
	return [2]float64{a004*-1.04 + r[2], a004*1.04 + r[3]}
}

// tangentFrame gives the tangent and bitangent for normal mapping: from
// the TANGENT attribute when present, else from the triangle's position
// and UV derivatives (what a shader computes with dFdx/dFdy).
func tangentFrame(t *tri, n vec3) (vec3, vec3, bool) {
	if t.p.tangent != nil {
		var tg vec3
		var w float64
		for k := 0; k < 3; k++ {
			tt := t.p.tangent[t.v[k]]
			tg = tg.add(vec3{tt[0], tt[1], tt[2]})
			w = tt[3]
		}
		tg = tg.sub(n.mul(n.dot(tg))).norm()
		if w == 0 {
			w = 1
		}
		bt := n.cross(tg).mul(w)
		return tg, bt, true
	}
	set := t.p.mat.normalTex.coord
	if set >= len(t.p.uv) || len(t.p.uv[set]) != len(t.p.pos) {
		return vec3{}, vec3{}, false
	}
	uv := t.p.uv[set]
	p0, p1, p2 := t.p.pos[t.v[0]], t.p.pos[t.v[1]], t.p.pos[t.v[2]]
	u0, u1, u2 := uv[t.v[0]], uv[t.v[1]], uv[t.v[2]]
	e1, e2 := p1.sub(p0), p2.sub(p0)
	du1, dv1 := float64(u1[0]-u0[0]), float64(u1[1]-u0[1])
	du2, dv2 := float64(u2[0]-u0[0]), float64(u2[1]-u0[1])
	det := du1*dv2 - du2*dv1
	if det == 0 {
		return vec3{}, vec3{}, false
	}
	r := 1 / det
	tg := e1.mul(dv2 * r).sub(e2.mul(dv1 * r))
	bt := e2.mul(du1 * r).sub(e1.mul(du2 * r))
	tg = tg.sub(n.mul(n.dot(tg))).norm()
	// glTF's bitangent points up the image, toward decreasing v (UV
	// (0,0) is the top-left), so it opposes dP/dv unless the mapping is
	// mirrored.
	w := 1.0
	if n.cross(tg).dot(bt) > 0 {
		w = -1
	}
	return tg, n.cross(tg).mul(w), true
}
