package atlas

import (
	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/texture"
)

// seesThrough reports whether a BLEND or MASK material really lets
// something through: its base colour alpha (factor times texture) falls
// below 1 for BLEND, or below the cutoff for MASK, somewhere in the
// texture. A material that only claims transparency (exporters mark
// whole outfits BLEND) joins the opaque group instead, so a merged avatar
// gets Wolf3D_Avatar_Transparent only where something is transparent, as
// the leader's do, and draws in one call otherwise. A texture that cannot
// be decoded counts as transparent: the claim is kept.
func seesThrough(s *scene.Scene, m *source) bool {
	factor := 1.0
	if pbr := m.mat.PBRMetallicRoughness; pbr != nil && pbr.BaseColorFactor != nil {
		factor = pbr.BaseColorFactor[3]
	}
	limit := 254.5 / 255 // BLEND: anything short of opaque
	if m.mat.AlphaMode == gltf.AlphaMask {
		limit = m.mat.AlphaCutoffOrDefault()
	}
	if factor < limit {
		return true
	}
	if m.img[cBase] < 0 {
		return false
	}
	img, err := texture.Decode(s.Images[m.img[cBase]].Data)
	if err != nil {
		return true
	}
	for i := 3; i < len(img.Pix); i += 4 {
		if float64(img.Pix[i])/255*factor < limit {
			return true
		}
	}
	return false
}
