package avatar

import (
	"image"
	"image/color"
	"math"
	"sync"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln/assets/avatar/paint"
)

// The lenses: a thin, clear, glossy surface in each rim. Frames without
// them read as empty wire in front of the eyes, where real glasses and
// the leader's catalogue glasses show a faint sheen and tint on the
// glass (issue 22's looking). lensAlpha is how much of the lens's own
// colour (lensColor, a cool near white, linear) covers what lies behind
// it at its edge; towards its middle that falls to lensMid of it
// (lensTexture's alpha, lensMid + (1-lensMid)·r^lensSheen at a share r
// of the way from the middle to the rim), so the sheen rings
// the lens, as glass catches the light at its edge, and the eye behind
// its middle stays clear: at 0.12 all over the eyes kept 60 to 66 % of
// their contrast in a renderer that blends in linear light, at 0.22
// all over 46 to 50 %, with this 86 to 92 % (TestLensesKeepEyes wants
// 80). At 0.35 the sheen read as a grey fog inside the rims on a deep
// skin under the three-point rig. lensRough is a polished
// glass's. lensBulge is how far the lens's middle stands in front of
// its rim (a real lens's front curve, about 1.5 mm over a 5 cm lens),
// within the rim's half depth (rimDepth), so the rim still frames it
// from the side; lensRings is how many rings of vertices the curve is
// drawn with, the outermost on the rim (two: 240 triangles for the
// pair, counted in the avatar's budget).
const (
	lensAlpha = 0.22
	lensMid   = 0.12
	lensSheen = 6
	lensRough = 0.05
	lensBulge = 0.0015
	lensRings = 2
)

// lensColor is the lenses' base colour (linear RGB): a faint cool tint.
var lensColor = rgb{0.9, 0.94, 0.98}

// addLens adds to p a lens filling the rim rim (its centre line, round
// the lens's middle (cx, cy) with half width rw; cx signed as the rim's
// side), bowed forward by lensBulge along the normal of the front's
// tilted plane (faceForm), its edge on the rim's centre line, inside
// the rim's tube. Its triangles face forward (+z, counter-clockwise
// seen from the front): one-sided, a clear lens is drawn once over the
// eye, not twice.
func (p *part) addLens(rim []vec3, cx, cy, rw, z float64) {
	sx := math.Copysign(1, cx)
	// The tilted plane's normal: faceForm lowers z by formDepth across
	// the lens's width (2 rw), outward.
	n := vec3{sx * formDepth / (2 * rw), 0, 1}.norm()
	// The lens's middle, at the depth faceForm gives it.
	centre := vec3{cx, cy, z + formFront - formDepth/2}
	first := uint32(len(p.pos))
	// Each vertex's UV is its place in the rings: a share r of the way
	// from the middle to the rim, at the rim point's angle, so the
	// lens's texture (lensTexture) reads its alpha by r.
	at := func(q vec3, r, angle float64) {
		p.pos = append(p.pos, q.f32())
		p.uv = append(p.uv, [2]float32{float32(0.5 + 0.5*r*math.Cos(angle)), float32(0.5 - 0.5*r*math.Sin(angle))})
	}
	at(centre.add(n.scale(lensBulge)), 0, 0)
	for k := 1; k <= lensRings; k++ {
		r := float64(k) / lensRings
		for _, q := range rim {
			at(centre.add(q.sub(centre).scale(r)).add(n.scale(lensBulge*(1-r*r))), r, math.Atan2(q[1]-cy, q[0]-cx))
		}
	}
	m := uint32(len(rim))
	ring := func(k int, i uint32) uint32 { return first + 1 + uint32(k-1)*m + i%m }
	var tris [][3]uint32
	for i := uint32(0); i < m; i++ {
		tris = append(tris, [3]uint32{first, ring(1, i), ring(1, i+1)})
		for k := 1; k < lensRings; k++ {
			tris = append(tris, [3]uint32{ring(k, i), ring(k+1, i), ring(k+1, i+1)}, [3]uint32{ring(k, i), ring(k+1, i+1), ring(k, i+1)})
		}
	}
	// Wound to face forward, and the normals the faces' mean.
	nrm := make([]vec3, len(p.pos)-int(first))
	for _, t := range tris {
		a, b, c := v3(p.pos[t[0]]), v3(p.pos[t[1]]), v3(p.pos[t[2]])
		f := b.sub(a).cross(c.sub(a))
		if f[2] < 0 {
			t[1], t[2] = t[2], t[1]
			f = f.scale(-1)
		}
		p.tris = append(p.tris, t)
		for _, v := range t {
			nrm[v-first] = nrm[v-first].add(f)
		}
	}
	for _, q := range nrm {
		p.nrm = append(p.nrm, q.norm().f32())
	}
}

// lensMaterial is the lenses' material: clear (alpha BLEND, lensAlpha
// times lensTexture's alpha), smooth and not metal. BLEND, not
// KHR_materials_transmission: a viewer without that extension draws
// the base colour opaque, a white disc over each eye. The sheen is in
// a texture, not in the vertices' colours: VRM's MToon and some glTF
// viewers leave COLOR_0 out, and would draw the edge's alpha all over.
func (b *builder) lensMaterial() int {
	c := lensColor
	name := "Wolf3D_Glasses_Lenses"
	b.sc.Materials = append(b.sc.Materials, &gltf.Material{
		Name:      name,
		AlphaMode: gltf.AlphaBlend,
		PBRMetallicRoughness: &gltf.PBRMetallicRoughness{
			BaseColorFactor:  &[4]float64{c[0], c[1], c[2], lensAlpha},
			BaseColorTexture: b.image(name, lensTexture()),
			MetallicFactor:   gltf.Float(0),
			RoughnessFactor:  gltf.Float(lensRough),
		},
	})
	return len(b.sc.Materials) - 1
}

// lensTexture is the lenses' base colour texture (PNG, lensTexels
// square): white, its alpha lensMid + (1-lensMid)·r^lensSheen at a share
// r of the way from its middle to its edge (1 beyond), encoded once.
var lensTexture = sync.OnceValue(func() []byte {
	img := image.NewNRGBA(image.Rect(0, 0, lensTexels, lensTexels))
	for y := range lensTexels {
		for x := range lensTexels {
			u := (float64(x)+0.5)/lensTexels*2 - 1
			v := (float64(y)+0.5)/lensTexels*2 - 1
			r := math.Min(1, math.Hypot(u, v))
			a := lensMid + (1-lensMid)*math.Pow(r, lensSheen)
			img.SetNRGBA(x, y, color.NRGBA{255, 255, 255, uint8(math.Round(255 * a))})
		}
	}
	return paint.Encode(img)
})

// lensTexels is the side of the lenses' texture: the alpha's curve
// over its 32 texels from middle to edge, smooth once filtered.
const lensTexels = 64

// glassesMesh adds the Wolf3D_Glasses mesh: the frame in the frame's
// colour (metal for gold and silver), then the lenses in their own
// primitive and material, drawn after it.
func glassesMesh(b *builder, g Glasses, frame, lenses *part) {
	metal := g.Color == "gold" || g.Color == "silver"
	b.mesh("Wolf3D_Glasses", frame.prim(b.plain("Wolf3D_Glasses", colorOf(clothColors, g.Color), 0.35, metal)), lenses.prim(b.lensMaterial()))
}
