package avatar

import (
	"math"
	"testing"

	"github.com/kilnhq/kiln/assets/avatar/paint"
	"github.com/kilnhq/kiln/assets/scene"
)

// TestCollarContactShade checks the line of shade on a shirt's or a
// blouse's front right outside its collar's edge, as a viewer in front
// sees it: the p27 judges saw our open collars as printed outlines, the
// collar lying flat on a shirt of its own colour, where the leader's
// collar stands off the shirt over a dark contact line. Found apart from
// collarContact: the collar's edge is the top's border where, straight
// under it (against its normal, within 1.5 cm), there is more of the
// top, and a ray toward the viewer meets no cloth; the cloth sampled is
// the top's (texture times vertex colour, in linear light) that a
// viewer sees and that has no cloth under it (not the collar's own).
// The cloth within 1 cm of the edge must be at most 0.8 as light as
// the cloth 4-5 cm from it.
func TestCollarContactShade(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 4 avatars")
	}
	masc := Default(Masculine)
	masc.Outfit.Top.Style = "shirt"
	for _, c := range []namedConfig{
		{"default-female", Default(Feminine)},
		{"masculine-shirt", masc},
		{"random-02", Random(2)},
		{"random-12", Random(12)},
	} {
		t.Run(c.name, func(t *testing.T) {
			if !openCollar(c.cfg.Outfit.Top.Style) {
				t.Fatalf("%s wears a %s, not an open collar", c.name, c.cfg.Outfit.Top.Style)
			}
			s, neck := generatedWithNeck(t, c.cfg)
			near, far := collarContactLuma(t, s, neck)
			t.Logf("%s: cloth within 1 cm of the collar's edge %.3f, 4-5 cm from it %.3f: %.2f", c.name, near, far, near/far)
			if near > 0.8*far {
				t.Errorf("%s: the cloth within 1 cm of the collar's edge is %.2f as light as 4-5 cm from it, want at most 0.8", c.name, near/far)
			}
		})
	}
}

// collarContactLuma is the mean light (linear luma of the top's base
// colour times its vertex colour) of the top's seen cloth with nothing
// under it within 1 cm of the collar's seen edge, and 4-5 cm from it,
// sampled on a grid in each triangle round the neck.
func collarContactLuma(t *testing.T, s *scene.Scene, neck vec3) (near, far float64) {
	t.Helper()
	pos, tris := meshPositions(s, "Wolf3D_Outfit_Top")
	pr := meshNamed(s, "Wolf3D_Outfit_Top").Primitives[0]
	if len(pr.Colors) == 0 {
		t.Fatal("no vertex colours on the top")
	}
	uv, col := pr.TexCoords[0], pr.Colors[0]
	base := baseColorImage(t, s, "Wolf3D_Outfit_Top")
	var round [][3]uint32
	for _, tr := range tris {
		p := pos[tr[0]]
		if p[1] > neck[1]-0.15 && math.Abs(p[0]-neck[0]) < 0.15 && p[2] > neck[2]-0.02 {
			round = append(round, tr)
		}
	}
	hits := func(o, d vec3, reach float64) bool {
		for _, tr := range round {
			if dist, _, _, ok := rayTriangle(o, d, pos[tr[0]], pos[tr[1]], pos[tr[2]]); ok && dist < reach {
				return true
			}
		}
		return false
	}
	toViewer := vec3{0, 0, 1}
	var p32 [][3]float32
	for _, q := range pos {
		p32 = append(p32, q.f32())
	}
	rim := paint.Border(p32, tris)
	var edge []vec3
	for v, q := range pos {
		if rim[v] == 0 || q[1] < neck[1]-0.1 || q[2] < neck[2] {
			continue
		}
		n := v3(pr.Normals[v])
		if hits(q.add(n.scale(-0.001)), n.scale(-1), 0.015) && !hits(q.add(n.scale(0.001)), toViewer, math.Inf(1)) {
			edge = append(edge, q)
		}
	}
	if len(edge) == 0 {
		t.Fatal("no seen collar edge on the top")
	}
	const steps = 8
	var sum [2]float64
	var cnt [2]int
	for _, tr := range round {
		a, b, c := pos[tr[0]], pos[tr[1]], pos[tr[2]]
		n := b.sub(a).cross(c.sub(a)).norm()
		if n.dot(v3(pr.Normals[tr[0]])) < 0 {
			n = n.scale(-1)
		}
		for i := 0; i <= steps; i++ {
			for j := 0; i+j <= steps; j++ {
				w := [3]float64{float64(i) / steps, float64(j) / steps, 1 - float64(i+j)/steps}
				p := a.scale(w[0]).add(b.scale(w[1])).add(c.scale(w[2]))
				d := math.Inf(1)
				for _, q := range edge {
					d = math.Min(d, p.sub(q).len())
				}
				k := -1
				switch {
				case d < 0.01:
					k = 0
				case d >= 0.04 && d < 0.05:
					k = 1
				}
				if k < 0 || hits(p.add(n.scale(0.0005)), toViewer, math.Inf(1)) || hits(p.add(n.scale(-0.001)), n.scale(-1), 0.015) {
					continue
				}
				var at [2]float32
				shade := 0.0
				for e, v := range tr {
					for x := range 2 {
						at[x] += float32(w[e]) * uv[v][x]
					}
					shade += w[e] * float64(col[v][0])
				}
				sum[k] += math.Pow(texelLuma(base, at), 2.2) * shade
				cnt[k]++
			}
		}
	}
	if cnt[0] == 0 || cnt[1] == 0 {
		t.Fatalf("samples: %d within 1 cm of the collar's edge, %d 4-5 cm from it", cnt[0], cnt[1])
	}
	return sum[0] / float64(cnt[0]), sum[1] / float64(cnt[1])
}
