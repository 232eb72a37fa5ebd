package avatar

import (
	"math"

	"github.com/kilnhq/kiln/assets/avatar/human"
)

// glasses builds a pair of frames (MakeHuman has none to fit): a rim in
// front of each eye, round or square, a bridge over the nose, and temples
// back to above the ears, placed from the eye joints and the head's
// width at eye level, all rigid on the Head joint.
func glasses(b *builder, body *human.Body, style string) *part {
	l := b.at("LeftEye")
	head := b.at("Head")
	// The head's half width at eye level, at the temples.
	half := 0.0
	m := human.BodyMesh()
	for _, v := range m.Base {
		p := body.Pos[v]
		// The temples run along the side of the skull in front of the
		// ears, which stand out further.
		if math.Abs(float64(p[1])-l[1]) < 0.01 && float64(p[2]) < l[2]-0.02 && float64(p[2]) > l[2]-0.06 {
			half = math.Max(half, math.Abs(float64(p[0])))
		}
	}
	const (
		tube  = 0.0016 // frame radius
		sides = 8
	)
	cx := math.Abs(l[0]) * 1.04
	z := l[2] + 0.03 // in front of the brow and lids
	rw, rh := 0.024, 0.021
	if style == "square" {
		rw, rh = 0.026, 0.019
	}
	p := &part{}
	for _, sx := range []float64{1, -1} {
		c := vec3{sx * cx, l[1] - 0.002, z}
		var rim []vec3
		for i := 0; i < 40; i++ {
			a := 2 * math.Pi * float64(i) / 40
			ca, sa := math.Cos(a), math.Sin(a)
			if style == "square" {
				// A superellipse: straight sides, rounded corners.
				ca = math.Copysign(math.Pow(math.Abs(ca), 0.5), ca)
				sa = math.Copysign(math.Pow(math.Abs(sa), 0.5), sa)
			}
			rim = append(rim, c.add(vec3{rw * ca, rh * sa, -0.004 * ca * ca}))
		}
		p.sweep(rim, tube, sides, true)
		// Temple: from the outer top of the rim back to above the ear.
		outer := c.add(vec3{sx * rw, 0.006, -0.004})
		ear := vec3{sx * (half + 0.004), l[1] + 0.004, head[2] - 0.015}
		bend := vec3{sx * (half + 0.004), l[1] + 0.006, outer[2] - 0.02}
		p.sweep([]vec3{outer, bend, ear}, tube, sides, false)
	}
	// Bridge between the inner edges of the rims, arched over the nose.
	in := cx - rw
	var bridge []vec3
	for i := 0; i <= 8; i++ {
		t := float64(i) / 8
		x := in - 2*in*t
		bridge = append(bridge, vec3{x, l[1] + 0.004 + 0.004*math.Sin(math.Pi*t), z + 0.002})
	}
	p.sweep(bridge, tube, sides, false)
	p.rigid(b.joint("Head"))
	return p
}

// sweep adds a tube of radius r along path (closed into a loop or with
// open ends), its rings kept perpendicular to the path by carrying one
// normal along it.
func (p *part) sweep(path []vec3, r float64, sides int, closed bool) {
	n := len(path)
	tangent := func(i int) vec3 {
		a, c := i-1, i+1
		if closed {
			a, c = (i-1+n)%n, (i+1)%n
		} else {
			a, c = max(a, 0), min(c, n-1)
		}
		return path[c].sub(path[a]).norm()
	}
	t0 := tangent(0)
	ref := vec3{0, 0, 1}
	if math.Abs(t0.dot(ref)) > 0.9 {
		ref = vec3{0, 1, 0}
	}
	nrm := ref.sub(t0.scale(ref.dot(t0))).norm()
	first := uint32(len(p.pos))
	for i := 0; i < n; i++ {
		t := tangent(i)
		nrm = nrm.sub(t.scale(nrm.dot(t))).norm()
		bin := t.cross(nrm)
		for k := 0; k < sides; k++ {
			a := 2 * math.Pi * float64(k) / float64(sides)
			d := nrm.scale(math.Cos(a)).add(bin.scale(math.Sin(a)))
			p.pos = append(p.pos, path[i].add(d.scale(r)).f32())
			p.nrm = append(p.nrm, d.f32())
			p.uv = append(p.uv, [2]float32{float32(k) / float32(sides), float32(i) / float32(n)})
		}
	}
	rings := n - 1
	if closed {
		rings = n
	}
	for i := 0; i < rings; i++ {
		a, c := first+uint32(i*sides), first+uint32(((i+1)%n)*sides)
		for k := 0; k < sides; k++ {
			k1 := uint32((k + 1) % sides)
			p.tris = append(p.tris, [3]uint32{a + uint32(k), a + k1, c + uint32(k)}, [3]uint32{a + k1, c + k1, c + uint32(k)})
		}
	}
}
