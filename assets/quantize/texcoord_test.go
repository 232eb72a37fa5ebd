package quantize_test

import (
	"image/color"
	"testing"

	"github.com/qmuntal/gltf"
	"github.com/qmuntal/gltf/ext/texturetransform"

	"github.com/kilnhq/kiln/assets/quantize"
	"github.com/kilnhq/kiln/assets/scene"
	"github.com/kilnhq/kiln/assets/scene/scenetest"
)

// TestUnusedTexcoordsDropped: the sets past the last one the material
// samples are gone after Apply (all of them without textures); the ones a
// texture reads, by its texCoord or KHR_texture_transform's, and every
// set of a material whose extension may hold textures, stay.
func TestUnusedTexcoordsDropped(t *testing.T) {
	uv := [][2]float32{{-0.5, 0}, {1.5, 1}, {0.25, 2}}
	tex := func(set int) *gltf.TextureInfo { return &gltf.TextureInfo{Index: 0, TexCoord: set} }
	cases := []struct {
		name     string
		material *gltf.Material // nil: no material
		sets     int            // sets the primitive carries
		want     int            // sets left
	}{
		{"no material", nil, 2, 0},
		{"material without textures", &gltf.Material{PBRMetallicRoughness: &gltf.PBRMetallicRoughness{BaseColorFactor: &[4]float64{1, 0, 0, 1}}}, 2, 0},
		{"unlit without textures", &gltf.Material{Extensions: gltf.Extensions{"KHR_materials_unlit": struct{}{}}}, 1, 0},
		{"base colour on set 0", &gltf.Material{PBRMetallicRoughness: &gltf.PBRMetallicRoughness{BaseColorTexture: tex(0)}}, 3, 1},
		{"occlusion on set 1", &gltf.Material{OcclusionTexture: &gltf.OcclusionTexture{Index: gltf.Index(0), TexCoord: 1}}, 3, 2},
		{"transform moves to set 1", &gltf.Material{PBRMetallicRoughness: &gltf.PBRMetallicRoughness{BaseColorTexture: &gltf.TextureInfo{
			Index: 0, Extensions: gltf.Extensions{texturetransform.ExtensionName: &texturetransform.TextureTranform{Scale: [2]float64{1, 1}, TexCoord: gltf.Index(1)}}}}}, 2, 2},
		{"unknown extension", &gltf.Material{Extensions: gltf.Extensions{"KHR_materials_clearcoat": map[string]any{}}}, 2, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := read(t, scenetest.FacetedRock())
			p := s.Meshes[0].Primitives[0]
			p.TexCoords = nil
			for range c.sets {
				set := make([][2]float32, p.VertexCount())
				for i := range set {
					set[i] = uv[i%len(uv)]
				}
				p.TexCoords = append(p.TexCoords, set)
			}
			s.Materials = nil
			p.Material = nil
			s.Images = []*scene.Image{{MimeType: "image/png", Data: scenetest.PNG(2, 2, color.NRGBA{255, 0, 0, 255}, color.NRGBA{0, 0, 255, 255})}}
			s.Textures = []*gltf.Texture{{Source: gltf.Index(0)}}
			if c.material != nil {
				s.Materials = []*gltf.Material{c.material}
				p.Material = gltf.Index(0)
			}
			quantize.Apply(s, quantize.Options{})
			if got := len(p.TexCoords); got != c.want {
				t.Errorf("%d coordinate sets left, want %d", got, c.want)
			}
			glb, err := scene.WriteWith(s, scene.WriteOptions{Meshopt: true})
			if err != nil {
				t.Fatal(err)
			}
			if back := read(t, glb).Meshes[0].Primitives[0]; len(back.TexCoords) != c.want {
				t.Errorf("written and read back: %d sets, want %d", len(back.TexCoords), c.want)
			}
		})
	}
}
