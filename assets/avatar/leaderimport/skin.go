package leaderimport

import (
	"bytes"
	"fmt"
	"image"
	_ "image/jpeg" // the leader's textures
	_ "image/png"
	"math"
	"slices"

	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/xform"
)

// SkinTone reads the avatar's skin colour as #rrggbb, for its metadata
// (the leader's skinTone): the median of the head's base colour (texture
// times factor) over the forehead, 2 to 4.5 cm above the eyes and within
// 2.5 cm of the middle, where no brow, beard or make-up is painted. It
// reports false when the head has no such texture to read.
func SkinTone(s *scene.Scene) (string, bool) {
	hn, ln, rn := Node(s, "Wolf3D_Head"), Node(s, "EyeLeft"), Node(s, "EyeRight")
	if hn < 0 || ln < 0 || rn < 0 {
		return "", false
	}
	world := xform.Worlds(s, s.Parents(), nil)
	head := bind(s, world, hn)
	eye := mid(eyeCentre(bind(s, world, ln)), eyeCentre(bind(s, world, rn)))
	var r, g, b []float64
	for _, h := range head {
		img, factor, ok := baseColor(s, h.prim)
		if !ok || len(h.prim.TexCoords) == 0 {
			continue
		}
		size := img.Bounds().Size()
		for v, p := range h.pos {
			dy := p[1] - eye[1]
			if dy < 0.02 || dy > 0.045 || math.Abs(p[0]-eye[0]) > 0.025 || p[2] < eye[2] {
				continue
			}
			uv := h.prim.TexCoords[0][v]
			x := int(wrap(float64(uv[0])) * float64(size.X-1))
			y := int(wrap(float64(uv[1])) * float64(size.Y-1))
			cr, cg, cb, _ := img.At(img.Bounds().Min.X+x, img.Bounds().Min.Y+y).RGBA()
			r = append(r, float64(cr)/0xffff*factor[0])
			g = append(g, float64(cg)/0xffff*factor[1])
			b = append(b, float64(cb)/0xffff*factor[2])
		}
	}
	if len(r) == 0 {
		return "", false
	}
	channel := func(c []float64) int { return int(math.Round(255 * min(1, max(0, median(c))))) }
	return fmt.Sprintf("#%02x%02x%02x", channel(r), channel(g), channel(b)), true
}

// baseColor decodes a primitive's base colour texture and its factor.
func baseColor(s *scene.Scene, p *scene.Primitive) (image.Image, [4]float64, bool) {
	factor := [4]float64{1, 1, 1, 1}
	if p.Material == nil || *p.Material >= len(s.Materials) {
		return nil, factor, false
	}
	pbr := s.Materials[*p.Material].PBRMetallicRoughness
	if pbr == nil || pbr.BaseColorTexture == nil || pbr.BaseColorTexture.Index >= len(s.Textures) {
		return nil, factor, false
	}
	if pbr.BaseColorFactor != nil {
		factor = *pbr.BaseColorFactor
	}
	t := s.Textures[pbr.BaseColorTexture.Index]
	if t.Source == nil || *t.Source >= len(s.Images) {
		return nil, factor, false
	}
	img, _, err := image.Decode(bytes.NewReader(s.Images[*t.Source].Data))
	return img, factor, err == nil
}

func wrap(x float64) float64 { return x - math.Floor(x) }

func median(v []float64) float64 {
	v = slices.Clone(v)
	slices.Sort(v)
	return v[len(v)/2]
}
