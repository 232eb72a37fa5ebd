package avatar

import (
	"image"
	"math"
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
)

// TestBrowsFilled measures how much brow a viewer in front of the face
// sees: the area of each brow's mesh projected on the face's plane (x,
// y) times the share of it its painted alpha leaves opaque, in cm². The
// panel saw "thin lines of hairs" beside the leader's filled brows
// (issue 22): MakeHuman's 4 mm strip with sparse strands showed 1.4 to
// 1.6 cm² a brow; the leader's painted brows, about 3.9 cm long and 0.5
// to 0.75 cm high in a close-up of their eyes, about 2.2 to 2.5 cm².
func TestBrowsFilled(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
		min  float64 // cm² a brow
	}{
		{"default-male", Default(Masculine), 1.8},
		{"default-female", Default(Feminine), 1.8},
		{"random-7", Random(7), 1.8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Generate(tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			alpha := baseColorImage(t, s, "Wolf3D_Eyebrows")
			for _, side := range []float64{1, -1} {
				a := seenBrow(s, alpha, side)
				t.Logf("side %+.0f: %.2f cm² of brow seen from the front", side, a)
				if a < tc.min {
					t.Errorf("side %+.0f: a brow shows %.2f cm² from the front, want at least %.1f (a thin line, not a filled brow)", side, a, tc.min)
				}
				if a > 4 {
					t.Errorf("side %+.0f: a brow shows %.2f cm² from the front, want at most 4 (the leader's about 2.5): a block, not a brow", side, a)
				}
			}
		})
	}
}

// seenBrow is the opaque area, cm², of the brow on one side of the face
// (side +1 or -1 in x) projected on the face's plane: each triangle's
// projected area times the share of alpha-masked texels at 5×5 points
// spread over it.
func seenBrow(s *scene.Scene, alpha image.Image, side float64) float64 {
	b := alpha.Bounds()
	area := 0.0
	for _, m := range s.Meshes {
		if m.Name != "Wolf3D_Eyebrows" {
			continue
		}
		for _, p := range m.Primitives {
			uv := p.TexCoords[0]
			for i := 0; i+2 < len(p.Indices); i += 3 {
				v := [3]uint32{p.Indices[i], p.Indices[i+1], p.Indices[i+2]}
				a, bb, c := p.Positions[v[0]], p.Positions[v[1]], p.Positions[v[2]]
				if float64(a[0]+bb[0]+c[0])*side < 0 {
					continue
				}
				flat := math.Abs(float64((bb[0]-a[0])*(c[1]-a[1])-(c[0]-a[0])*(bb[1]-a[1]))) / 2
				on, n := 0, 0
				for j := 0; j <= 4; j++ {
					for k := 0; k <= 4-j; k++ {
						w1, w2 := (float64(j)+0.33)/5.5, (float64(k)+0.33)/5.5
						w0 := 1 - w1 - w2
						u := w0*float64(uv[v[0]][0]) + w1*float64(uv[v[1]][0]) + w2*float64(uv[v[2]][0])
						vv := w0*float64(uv[v[0]][1]) + w1*float64(uv[v[1]][1]) + w2*float64(uv[v[2]][1])
						x := b.Min.X + min(b.Dx()-1, int(u*float64(b.Dx())))
						y := b.Min.Y + min(b.Dy()-1, int(vv*float64(b.Dy())))
						if _, _, _, al := alpha.At(x, y).RGBA(); al >= 0x8000 {
							on++
						}
						n++
					}
				}
				area += flat * float64(on) / float64(n)
			}
		}
	}
	return area * 1e4
}

// TestBrowColor checks the brows against the hair's colour by
// luminance: dark hair's brows near its colour, light hair's (blonde,
// platinum, grey, white) much darker, so that the brows still frame the
// eyes on light skin, and never as light as sRGB 150.
func TestBrowColor(t *testing.T) {
	lum := rgb.luma
	for _, tc := range []struct {
		hair     string
		min, max float64 // the brows' luminance over the hair's
	}{
		{"black", 0.8, 0.9},
		{"dark-brown", 0.8, 0.9},
		{"brown", 0.7, 0.9},
		{"light-brown", 0.5, 0.7},
		{"blonde", 0.35, 0.5},
		{"platinum", 0.3, 0.5},
		{"white", 0.3, 0.5},
	} {
		h := colorOf(hairColors, tc.hair)
		b := browColor(h)
		r := lum(b) / lum(h)
		if r < tc.min || r > tc.max {
			t.Errorf("%s hair: brows at %.2f of its luminance, want %.2f to %.2f", tc.hair, r, tc.min, tc.max)
		}
		if lum(b) > 0.3 {
			t.Errorf("%s hair: brows of luminance %.2f, as light as sRGB 150 (0.3): no frame for the eyes", tc.hair, lum(b))
		}
	}
}
