package avatar

import (
	"image"
	"image/color"
	"math"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln/assets/avatar/paint"
	"github.com/kilnhq/kiln/assets/srgb"
)

// The lenses: a thin, clear, glossy surface in each rim. Frames without
// them read as empty wire in front of the eyes, where real glasses and
// the leader's catalogue glasses show a faint sheen and tint on the
// glass (issue 22's looking; a blind A/B of the same lenses preferred
// them 40 of 40, "a faint glass sheen").
//
// They are part of the frame's one primitive, not a primitive or a mesh
// of their own: the leader's meshes have one primitive each, and
// three.js loads a mesh of two primitives as a Group, so an app's
// getObjectByName('Wolf3D_Glasses').material (to recolour or hide the
// glasses) broke; a mesh of their own would stay on in an app that
// hides Wolf3D_Glasses by name. So the glasses' one material is BLEND,
// and its texture (glassesTexture) says what is glass: the frame's
// texels opaque in the frame's colour, the lens's clear.
//
// lensAlpha is how much of the lens's own colour (lensColor, a cool
// near white, linear) covers what lies behind it at its edge; towards
// its middle that falls to lensMid of it (lensMid + (1-lensMid)·r^lensSheen
// at a share r of the way from the middle to the rim), so the sheen
// rings the lens, as glass catches the light at its edge, and the eye
// behind its middle stays clear: at 0.12 all over the eyes kept 60 to
// 66 % of their contrast in a renderer that blends in linear light, at
// 0.22 all over 46 to 50 %, with this 86 to 92 % (TestLensesKeepEyes
// wants 80). At 0.35 the sheen read as a grey fog inside the rims on a
// deep skin under the three-point rig. lensRough is a polished glass's.
// lensBulge is how far the lens's middle stands in front of its rim (a
// real lens's front curve, about 1.5 mm over a 5 cm lens), within the
// rim's half depth (rimDepth), so the rim still frames it from the
// side; lensRings is how many rings of vertices the curve is drawn
// with, the outermost on the rim (two: 240 triangles for the pair,
// counted in the avatar's budget).
const (
	lensAlpha = 0.22
	lensMid   = 0.12
	lensSheen = 6
	lensRough = 0.05
	lensBulge = 0.0015
	lensRings = 2
)

// frameRough is the frame's roughness: a satin acetate or metal.
const frameRough = 0.35

// lensColor is the lenses' base colour (linear RGB): a faint cool tint.
var lensColor = rgb{0.9, 0.94, 0.98}

// The glasses' texture is two squares of lensTexels side by side: the
// lens on the left, a disc of radius lensRadius texels round the
// square's middle (its alpha falling from the rim inwards), and the
// frame's one colour on the right, where every frame vertex samples
// the middle. The disc stops short of the squares' shared edge by
// lensTexels/2 - lensRadius texels, so filtering and the first mip
// levels never blend the opaque frame into the lens's rim.
const (
	lensTexels = 64
	lensRadius = 28
)

// frameUV is where every frame vertex samples the glasses' texture:
// the middle of its frame square.
var frameUV = [2]float32{0.75, 0.5}

// lensUV is the texture coordinate of a point a share r of the way from
// a lens's middle to its rim, at angle (radians, counter-clockwise seen
// from the front): in the lens's disc, which lensTexture fills.
func lensUV(r, angle float64) [2]float32 {
	const w, h = 2 * lensTexels, lensTexels
	x := lensTexels/2 + lensRadius*r*math.Cos(angle)
	y := lensTexels/2 - lensRadius*r*math.Sin(angle)
	return [2]float32{float32(x / w), float32(y / h)}
}

// isLensUV reports a texture coordinate in the lens's square: a lens
// vertex, not the frame's (whose all sample frameUV).
func isLensUV(uv [2]float32) bool { return uv[0] < 0.5 }

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
	// lens's texels (glassesTexture) give its alpha by r.
	at := func(q vec3, r, angle float64) {
		p.pos = append(p.pos, q.f32())
		p.uv = append(p.uv, lensUV(r, angle))
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

// frameUVs appends the frame (its positions, normals and triangles) to
// p, after p's lenses, every frame vertex sampling frameUV.
func (p *part) frameUVs(frame *part) {
	first := uint32(len(p.pos))
	p.pos = append(p.pos, frame.pos...)
	p.nrm = append(p.nrm, frame.nrm...)
	for range frame.pos {
		p.uv = append(p.uv, frameUV)
	}
	for _, t := range frame.tris {
		p.tris = append(p.tris, [3]uint32{first + t[0], first + t[1], first + t[2]})
	}
}

// frameMetal reports whether a frame of the named colour is a metal
// (gold, silver): glassesTexture gives its frame metalness 1. The one
// rule for the material and the tests that read its texels.
func frameMetal(color string) bool {
	return color == "gold" || color == "silver"
}

// glassesMaterial is the glasses' one material, Wolf3D_Glasses: alpha
// BLEND, its base colour and its roughness and metalness in textures
// (glassesTexture), the factors 1. The frame's colour is in the texture,
// not the factor, so a black frame's lens keeps its cool white sheen
// (a factor multiplies the lens's texels too: black glass); the
// leader's Wolf3D_Glasses is textured, its factor white, the same.
// BLEND, not KHR_materials_transmission (drawn opaque without the
// extension); the sheen in a texture, not COLOR_0 (MToon and some
// viewers drop vertex colours). Metal frames (gold, silver) are metal,
// their lenses not.
func (b *builder) glassesMaterial(g Glasses) int {
	base, orm := glassesTexture(frameColor(g.Color), frameMetal(g.Color))
	b.sc.Materials = append(b.sc.Materials, &gltf.Material{
		Name:      "Wolf3D_Glasses",
		AlphaMode: gltf.AlphaBlend,
		PBRMetallicRoughness: &gltf.PBRMetallicRoughness{
			BaseColorTexture:         b.image("Wolf3D_Glasses", paint.Encode(base)),
			MetallicRoughnessTexture: b.image("Wolf3D_Glasses_orm", paint.Encode(orm)),
			MetallicFactor:           gltf.Float(1),
			RoughnessFactor:          gltf.Float(1),
		},
	})
	return len(b.sc.Materials) - 1
}

// glassesTexture paints the glasses' base colour (sRGB, alpha) and
// metallic-roughness (G roughness, B metalness) textures: the lens's
// square on the left, its alpha lensAlpha·(lensMid +
// (1-lensMid)·r^lensSheen) at a share r of lensRadius from its middle
// (1 beyond), and the frame's square on the right, opaque in the
// frame's colour c (linear).
func glassesTexture(c rgb, metal bool) (base, orm *image.NRGBA) {
	rect := image.Rect(0, 0, 2*lensTexels, lensTexels)
	base, orm = image.NewNRGBA(rect), image.NewNRGBA(rect)
	lens := color.NRGBA{srgb.Encode(lensColor[0]), srgb.Encode(lensColor[1]), srgb.Encode(lensColor[2]), 0}
	frame := color.NRGBA{srgb.Encode(c[0]), srgb.Encode(c[1]), srgb.Encode(c[2]), 255}
	frameORM := color.NRGBA{255, unit255(frameRough), 0, 255}
	if metal {
		frameORM.B = 255
	}
	for y := range lensTexels {
		for x := range 2 * lensTexels {
			if x >= lensTexels {
				base.SetNRGBA(x, y, frame)
				orm.SetNRGBA(x, y, frameORM)
				continue
			}
			u := float64(x) + 0.5 - lensTexels/2
			v := float64(y) + 0.5 - lensTexels/2
			r := math.Min(1, math.Hypot(u, v)/lensRadius)
			lens.A = unit255(lensAlpha * (lensMid + (1-lensMid)*math.Pow(r, lensSheen)))
			base.SetNRGBA(x, y, lens)
			orm.SetNRGBA(x, y, color.NRGBA{255, unit255(lensRough), 0, 255})
		}
	}
	return base, orm
}

// unit255 is a share 0..1 as a byte.
func unit255(v float64) uint8 { return uint8(math.Round(255 * math.Min(1, math.Max(0, v)))) }

// glassesMesh adds the Wolf3D_Glasses mesh: the lenses and the frame
// (glasses' part) in one primitive of the glasses' one material.
func glassesMesh(b *builder, g Glasses, specs *part) {
	b.mesh("Wolf3D_Glasses", specs.prim(b.glassesMaterial(g)))
}
