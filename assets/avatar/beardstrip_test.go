package avatar

import (
	"image"
	"image/color"
	"math"
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
)

// frontMesh is a mesh of a built scene seen from the front (down -z):
// its positions, triangles, first UVs and, where it has them, the alpha
// of its first vertex colours, and its base colour texture.
type frontMesh struct {
	pos   []vec3
	tris  [][3]uint32
	uv    [][2]float32
	alpha []float32
	img   image.Image
}

// frontMeshOf is the scene's mesh name as a frontMesh, with the base
// colour texture of its material.
func frontMeshOf(t *testing.T, s *scene.Scene, name, material string) frontMesh {
	t.Helper()
	p := meshOf(t, s, name)
	m := frontMesh{uv: p.TexCoords[0], img: baseColorImage(t, s, material)}
	for _, q := range p.Positions {
		m.pos = append(m.pos, v3(q))
	}
	for i := 0; i+2 < len(p.Indices); i += 3 {
		m.tris = append(m.tris, [3]uint32{p.Indices[i], p.Indices[i+1], p.Indices[i+2]})
	}
	if len(p.Colors) > 0 {
		for _, c := range p.Colors[0] {
			m.alpha = append(m.alpha, c[3])
		}
	}
	return m
}

// hits calls f for every triangle of m the viewer's line through (x, y)
// crosses, with the crossing's depth (z), UV and vertex alpha (1 for a
// mesh without vertex colours).
func (m frontMesh) hits(x, y float64, f func(z float64, uv [2]float64, alpha float64)) {
	for _, t := range m.tris {
		a, b, c := m.pos[t[0]], m.pos[t[1]], m.pos[t[2]]
		if x < min(a[0], b[0], c[0]) || x > max(a[0], b[0], c[0]) || y < min(a[1], b[1], c[1]) || y > max(a[1], b[1], c[1]) {
			continue
		}
		u, v, ok := shadowBary(a, b, c, 0, 1, x, y)
		if !ok {
			continue
		}
		w := [3]float64{1 - u - v, u, v}
		var uv [2]float64
		alpha := 0.0
		for k, i := range t {
			uv[0] += w[k] * float64(m.uv[i][0])
			uv[1] += w[k] * float64(m.uv[i][1])
			if m.alpha != nil {
				alpha += w[k] * float64(m.alpha[i])
			} else {
				alpha += w[k]
			}
		}
		f(a[2]+u*(b[2]-a[2])+v*(c[2]-a[2]), uv, alpha)
	}
}

// texel is the base colour texture's texel at uv, linear RGB and alpha.
func (m frontMesh) texel(uv [2]float64) (rgb, float64) {
	b := m.img.Bounds()
	x := b.Min.X + min(b.Dx()-1, max(0, int(uv[0]*float64(b.Dx()))))
	y := b.Min.Y + min(b.Dy()-1, max(0, int(uv[1]*float64(b.Dy()))))
	c := color.NRGBAModel.Convert(m.img.At(x, y)).(color.NRGBA)
	return rgb{srgbLinear(float64(c.R) / 255), srgbLinear(float64(c.G) / 255), srgbLinear(float64(c.B) / 255)}, float64(c.A) / 255
}

// frontSeen is what the viewer sees at (x, y) of a bearded face: hair
// (a beard shell in front of the skin whose strand texture, times its
// vertex alpha, passes the material's 0.5 cut-off; hairLuma the luma of
// the frontmost such shell's texel), and the skin's texel there, linear.
func frontSeen(head, beard frontMesh, x, y float64) (hair bool, hairLuma float64, skin rgb, ok bool) {
	hz := math.Inf(-1)
	var huv [2]float64
	head.hits(x, y, func(z float64, uv [2]float64, _ float64) {
		if z > hz {
			hz, huv = z, uv
		}
	})
	if math.IsInf(hz, -1) {
		return false, 0, rgb{}, false
	}
	bz := math.Inf(-1)
	beard.hits(x, y, func(z float64, uv [2]float64, alpha float64) {
		if z < hz-0.0005 || z < bz {
			return
		}
		if c, a := beard.texel(uv); a*alpha >= 0.5 {
			bz, hair, hairLuma = z, true, c.luma()
		}
	})
	skin, _ = head.texel(huv)
	return hair, hairLuma, skin, true
}

// TestBeardNoSkinStripOverLip looks from the front at the upper lip's
// skin between the lips' middle and a bearded face's moustache: per
// column within 0.4 face units (about 2.8 cm) of the midline, to the mouth's corners, walking
// up from the lips' middle to the first hair, the height of the skin
// seen pale, its texel lighter than halfway from the roots' colour
// (the skin under that first hair) to the bare cheek's (under the eye,
// beside the nose). The lips' red is darker than that halfway on every
// tone, so what counts is the skin the painter left bare between the
// moustache's shells and the lip's border: from the front in a room
// light a light line under the moustache, which the leader's beard
// does not have (p27's judges: "pasted on").
func TestBeardNoSkinStripOverLip(t *testing.T) {
	for _, tc := range []struct {
		name, style, tone, hair string
	}{
		{"moustache", "moustache", "", ""},
		{"full-beard", "full-beard", "", ""},
		{"short-beard", "short-beard", "", ""},
		{"goatee", "goatee", "", ""},
		{"short-black-brown", "short-beard", "brown", "black"},
		{"full-blonde", "full-beard", "", "blonde"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := Default(Masculine)
			cfg.FacialHair.Style = tc.style
			if tc.tone != "" {
				cfg.Skin.Tone = tc.tone
			}
			if tc.hair != "" {
				cfg.Hair.Color = tc.hair
			}
			body, rest := restingHead(t, cfg)
			f := frameOf(rest, body.Joints())
			s, err := Generate(cfg)
			if err != nil {
				t.Fatal(err)
			}
			head := frontMeshOf(t, s, "Wolf3D_Head", "Wolf3D_Skin")
			beard := frontMeshOf(t, s, "Wolf3D_Beard", "Wolf3D_Beard")
			// The bare cheek: under the eyes, beside the nose.
			var cheek float64
			var n int
			for _, x := range []float64{-0.55, -0.5, 0.5, 0.55} {
				for _, dy := range []float64{0.3, 0.35} {
					hair, _, c, ok := frontSeen(head, beard, x*f.unit, f.eye-dy*f.unit)
					if ok && !hair {
						cheek += c.luma()
						n++
					}
				}
			}
			if n == 0 {
				t.Fatal("no bare cheek seen")
			}
			cheek /= float64(n)
			const step = 0.00025
			var sum, worst float64
			cols := 0
			for x := -0.4 * f.unit; x <= 0.4*f.unit; x += 0.0005 {
				var seen []float64
				roots := math.NaN()
				for y := f.lip[1]; y < f.lipTop+0.012; y += step {
					hair, _, c, ok := frontSeen(head, beard, x, y)
					if !ok {
						continue
					}
					if hair {
						roots = c.luma()
						break
					}
					seen = append(seen, c.luma())
				}
				if math.IsNaN(roots) {
					continue
				}
				pale := 0
				for _, l := range seen {
					if l > (roots+cheek)/2 {
						pale++
					}
				}
				h := float64(pale) * step
				sum += h
				worst = math.Max(worst, h)
				cols++
			}
			if cols < 20 {
				t.Fatalf("only %d columns reach the moustache", cols)
			}
			mean := sum / float64(cols)
			t.Logf("%s: pale skin under the moustache %.2f mm on average, %.2f mm at most (%d columns)", tc.name, mean*1000, worst*1000, cols)
			if mean > 0.0005 {
				t.Errorf("%s: a strip of pale skin %.2f mm high (mean; %.2f mm at most) shows between the moustache and the upper lip, want 0.5 mm or less", tc.name, mean*1000, worst*1000)
			}
		})
	}
}
