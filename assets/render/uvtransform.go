package render

import (
	"math"

	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/ext/texturetransform"
)

// uvTransform is KHR_texture_transform's offset·rotation·scale, which
// tiling materials and quantized texture coordinates (assets/quantize)
// rely on: without it such textures would be sampled at the wrong place.
type uvTransform struct {
	a, b, c, d, tx, ty float64 // u' = a·u + c·v + tx, v' = b·u + d·v + ty
}

func (x *uvTransform) apply(u, v float64) (float64, float64) {
	return x.a*u + x.c*v + x.tx, x.b*u + x.d*v + x.ty
}

// newTexRef binds a texture to its coordinate set, with the texture
// info's transform (whose texCoord, when given, overrides the set).
func newTexRef(tex *texImage, coord int, ext gltf.Extensions) texRef {
	r := texRef{tex: tex, coord: coord}
	t, ok := ext[texturetransform.ExtensionName].(*texturetransform.TextureTranform)
	if !ok || t == nil {
		return r
	}
	if t.TexCoord != nil {
		r.coord = *t.TexCoord
	}
	// The extension's matrix: translation · rotation · scale, with the
	// rotation matrix (cos, sin; -sin, cos) in column-major order.
	cos, sin := math.Cos(t.Rotation), math.Sin(t.Rotation)
	sx, sy := t.Scale[0], t.Scale[1]
	r.xf = &uvTransform{a: cos * sx, b: sin * sx, c: -sin * sy, d: cos * sy, tx: t.Offset[0], ty: t.Offset[1]}
	return r
}
