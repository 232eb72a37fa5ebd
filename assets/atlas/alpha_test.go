package atlas

import (
	"context"
	"image/color"
	"strconv"
	"testing"

	"github.com/qmuntal/gltf"

	"github.com/kilnhq/kiln/assets/scene"
)

// A material that claims transparency without any see-through texel
// goes into the opaque group; one that has them stays transparent.
func TestBuildGroupsByRealTransparency(t *testing.T) {
	for _, tc := range []struct {
		name        string
		mode        gltf.AlphaMode
		alpha       bool    // the texture's alpha varies 0..1 across x
		factor      float64 // base colour factor alpha
		transparent bool
	}{
		{"blend, opaque texture", gltf.AlphaBlend, false, 1, false},
		{"blend, see-through texture", gltf.AlphaBlend, true, 1, true},
		{"blend, half factor", gltf.AlphaBlend, false, 0.5, true},
		{"mask, opaque texture", gltf.AlphaMask, false, 1, false},
		{"mask, cut-out texture", gltf.AlphaMask, true, 1, true},
		{"mask, factor above the cutoff", gltf.AlphaMask, false, 0.8, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &scene.Scene{}
			body := textured(s, "body", pattern(64, 64, color.NRGBA{R: 200, B: 40}, false), nil)
			part := textured(s, "part", pattern(64, 64, color.NRGBA{R: 30, B: 220}, tc.alpha), func(m *gltf.Material) {
				m.AlphaMode = tc.mode
				m.PBRMetallicRoughness.BaseColorFactor = &[4]float64{1, 1, 1, tc.factor}
			})
			fx := fixture(quad(0, 0, 1, body), quad(1, 0, 1, part))
			fx.Images, fx.Textures, fx.Materials = s.Images, s.Textures, s.Materials
			rep, err := Build(context.Background(), fx, 256)
			if err != nil {
				t.Fatal(err)
			}
			write(t, fx)
			if got := rep.Transparent != nil; got != tc.transparent {
				t.Fatalf("transparent atlas material: %v, want %v (alphaMode %q)", got, tc.transparent, rep.AlphaMode)
			}
			if !tc.transparent {
				// one material, and its base colour is opaque everywhere
				if len(fx.Materials) != 1 || fx.Materials[0].AlphaMode != gltf.AlphaOpaque {
					t.Fatalf("%d materials, first %v", len(fx.Materials), fx.Materials[0].AlphaMode)
				}
				base := atlasImage(t, fx, rep, ChannelBaseColor)
				for i := 3; i < len(base.Pix); i += 4 {
					if base.Pix[i] != 255 {
						t.Fatalf("opaque atlas has alpha %d at byte %s", base.Pix[i], strconv.Itoa(i))
					}
				}
			}
		})
	}
}
