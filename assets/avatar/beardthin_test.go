package avatar

import (
	"math"
	"testing"

	"github.com/kilnhq/kiln/assets/avatar/paint"
)

// beardZones is the mean linear luminance of a beard's texture (what
// its inner shell draws: alpha 0.5 and over) at the vertices of the
// inner shell on the cheek, just inside the beard's edge beside the
// face (region weight 0.3-0.7, 0.55-1.05 face units out, over the
// jaw), and on the chin (within 0.25 units of the middle, weight 0.9
// and over).
func beardZones(t *testing.T, cfg Config, bd beard, head *part, f faceFrame, m paint.Maps) (cheek, chin float64) {
	t.Helper()
	p := bd.part
	s := p.surface()
	n := m.Base.Rect.Dx()
	inner := len(p.pos) / bd.cut.shells
	chinY := (f.chin - f.lip[1]) / f.unit
	var nc, nn float64
	for i := 0; i < inner; i++ {
		q := p.pos[i]
		x, y, w := math.Abs(float64(q[0]))/f.unit, (float64(q[1])-f.lip[1])/f.unit, p.mask[i]
		tx := min(n-1, int(float64(s.UV[i][0])*float64(n)))
		ty := min(n-1, int(float64(s.UV[i][1])*float64(n)))
		px := m.Base.Pix[m.Base.PixOffset(tx, ty):][:4]
		if px[3] < 128 {
			continue
		}
		l := rgb{srgbLinear(float64(px[0]) / 255), srgbLinear(float64(px[1]) / 255), srgbLinear(float64(px[2]) / 255)}.luma()
		switch {
		case w >= 0.3 && w <= 0.7 && x > 0.55 && x < 1.05 && y > chinY+0.3:
			cheek, nc = cheek+l, nc+1
		case w >= 0.9 && x < 0.25 && y < -0.3 && y > chinY+0.05:
			chin, nn = chin+l, nn+1
		}
	}
	if nc < 4 || nn < 4 {
		t.Fatalf("%v vertices on the cheek's edge, %v on the chin (want 4 each)", nc, nn)
	}
	return cheek / nc, chin / nn
}

// TestBeardThinsAtCheek: a beard is the hair's colour mixed with the
// skin's toward its edge on the cheeks, and dense on the chin, as the
// leader's casual beard is; ours was one flat colour to its cut-out
// edge, "a fuzzy pasted patch", "a felt block" (issue 22's p23/p24
// panels). Measured in the beard's texture at its inner shell's
// vertices: how far the cheek's edge is from the chin's colour toward
// the skin's (luminance, 0 the chin, 1 the skin; before beardThinning
// 0.00-0.01, now 0.31-0.35), and how much the chin changes against a beard
// painted without thinning (under 5%).
func TestBeardThinsAtCheek(t *testing.T) {
	for _, tc := range []struct {
		name        string
		style, hair string
		skin        string
		seed        int
	}{
		{"full dark-brown medium", "full-beard", "dark-brown", "medium", 0},
		{"short black brown", "short-beard", "black", "brown", 0},
		{"full light-brown fair", "full-beard", "light-brown", "fair", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := Default(Masculine)
			cfg.FacialHair = FacialHair{Style: tc.style, Color: tc.hair}
			cfg.Skin.Tone = tc.skin
			body, head := restingHead(t, cfg)
			bd := newBeard(cfg, head, body.Joints())
			f := frameOf(head, body.Joints())
			const n = 512
			cheek, chin := beardZones(t, cfg, bd, head, f, paint.Beard(bd.part.surface(), bd.color, bd.thin, 1, n))
			flat, dense := beardZones(t, cfg, bd, head, f, paint.Beard(bd.part.surface(), bd.color, paint.Thinning{}, 1, n))
			skin := colorOf(skinTones, tc.skin).luma()
			share := (cheek - chin) / (skin - chin)
			t.Logf("%s: cheek's edge %.4f, chin %.4f, skin %.4f: the cheek %.2f of the way to the skin; unthinned %.4f, %.4f: %.2f", tc.name, cheek, chin, skin, share, flat, dense, (flat-dense)/(skin-dense))
			if share < 0.2 {
				t.Errorf("the cheek's edge is %.2f of the way from the chin's colour to the skin's (min 0.2): one flat colour", share)
			}
			if math.Abs(chin-dense) > 0.05*dense {
				t.Errorf("the chin %.4f, unthinned %.4f: thinned by more than 5%%", chin, dense)
			}
		})
	}
}
