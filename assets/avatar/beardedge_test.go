package avatar

import (
	"math"
	"slices"
	"testing"

	"github.com/kilnhq/kiln/assets/avatar/paint"
)

// beardCoverage is the beard texture's inner-shell coverage (alpha at
// or over the mask cut-off, 0.5), texel by texel, for a style on the
// default masculine head.
func beardCoverage(t *testing.T, style string) (cover []bool, n int) {
	t.Helper()
	cfg := Default(Masculine)
	cfg.FacialHair.Style = style
	body, head := restingHead(t, cfg)
	bd := newBeard(cfg, head, body.Joints())
	if bd.part == nil {
		t.Fatalf("%s: no beard", style)
	}
	n = 512
	m := paint.Beard(bd.part.surface(), bd.color, 1, n)
	cover = make([]bool, n*n)
	for i := range cover {
		cover[i] = m.Base.Pix[4*i+3] >= 128
	}
	return cover, n
}

// TestBeardEdgeEven: the beard's inner shell, the one lying on the
// skin, is one even patch with a smooth edge, as the leader's beard
// is a short soft shape following the jaw. Issue 22's panel saw "a
// dark shaggy mass with ragged, torn edges": the coverage was cut by
// strand noise toward the region's edge, so the edge broke into
// flecks and notches. Measured in the texture (where the shells'
// coverage is): specks (covered islands under 30 texels, dark flecks
// on the skin), pinholes (uncovered islands under 30 texels inside the
// beard, skin showing through), and how much longer the edge is than
// the edge of the same area made smooth (the outline's length over the
// perimeter of circles of the islands' areas; a torn edge is many times
// longer).
func TestBeardEdgeEven(t *testing.T) {
	for _, tc := range []struct {
		style        string
		maxSpecks    int
		maxPinholes  int
		maxRoughness float64
	}{
		{"full-beard", 3, 3, 1.0},
		{"short-beard", 3, 3, 1.0},
		{"goatee", 3, 3, 1.0},
		{"moustache", 3, 3, 1.0},
	} {
		t.Run(tc.style, func(t *testing.T) {
			cover, n := beardCoverage(t, tc.style)
			specks, big, bigArea := islands(cover, n, true)
			pinholes, _, _ := islands(cover, n, false)
			edge := 0
			for y := 0; y < n; y++ {
				for x := 0; x < n; x++ {
					c := cover[y*n+x]
					if x+1 < n && cover[y*n+x+1] != c {
						edge++
					}
					if y+1 < n && cover[(y+1)*n+x] != c {
						edge++
					}
				}
			}
			smooth := 0.0
			for _, a := range bigArea {
				smooth += 2 * 3.5449 * math.Sqrt(float64(a)) // 2·sqrt(π·a)
			}
			// The 4-neighbour outline of a digital circle is 4/π times its
			// perimeter.
			rough := float64(edge) / (smooth * 4 / 3.14159)
			t.Logf("%s: %d islands of 30+ texels, %d specks, %d pinholes, edge %d texels, roughness %.2f", tc.style, big, specks, pinholes, edge, rough)
			if specks > tc.maxSpecks || pinholes > tc.maxPinholes || rough > tc.maxRoughness {
				t.Errorf("%s: %d specks (max %d), %d pinholes (max %d), roughness %.2f (max %.2f)", tc.style, specks, tc.maxSpecks, pinholes, tc.maxPinholes, rough, tc.maxRoughness)
			}
		})
	}
}

// islands counts the 4-connected islands of texels equal to want: the
// small ones (under 30 texels), the big ones, and the big ones' areas.
// Uncovered islands touching the texture's border are the outside, not
// holes, and are not counted.
func islands(cover []bool, n int, want bool) (small, big int, areas []int) {
	seen := make([]bool, len(cover))
	stack := []int{}
	for s := range cover {
		if seen[s] || cover[s] != want {
			continue
		}
		seen[s] = true
		stack = append(stack[:0], s)
		area, border := 0, false
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			area++
			x, y := i%n, i/n
			if x == 0 || y == 0 || x == n-1 || y == n-1 {
				border = true
			}
			for _, j := range [4]int{i - 1, i + 1, i - n, i + n} {
				if j < 0 || j >= len(cover) || (j == i-1 && x == 0) || (j == i+1 && x == n-1) {
					continue
				}
				if !seen[j] && cover[j] == want {
					seen[j] = true
					stack = append(stack, j)
				}
			}
		}
		if !want && border {
			continue
		}
		if area < 30 {
			small++
		} else {
			big++
			areas = append(areas, area)
		}
	}
	return small, big, areas
}

// TestBeardTapersAtEdge: the full beard's shells close on the skin at
// its edge and stand off it in the middle, so the beard tapers into the
// cheek and neck as grown hair does. With the outer shell standing at
// a third of the beard's length and drooping as in the middle, each
// shell's edge showed as a step beside the next, a patch laid on the
// face (issue 22's panel: "pasted-on patch"). Measured on the default
// masculine head, mean over the vertices at the region's edge (weight
// 0.1 to 0.45) and in its middle (over 0.9); before: 4.5 and 9.3 mm.
func TestBeardTapersAtEdge(t *testing.T) {
	cfg := Default(Masculine)
	cfg.FacialHair.Style = "full-beard"
	body, head := restingHead(t, cfg)
	bd := newBeard(cfg, head, body.Joints())
	p := bd.part
	n := len(p.pos) / bd.cut.shells
	var edge, middle, ne, nm float64
	for i := 0; i < n; i++ {
		a, b := v3(p.pos[i]), v3(p.pos[(bd.cut.shells-1)*n+i])
		h := b.sub(a).len()
		switch m := p.mask[i]; {
		case m > 0.1 && m < 0.45:
			edge, ne = edge+h, ne+1
		case m > 0.9:
			middle, nm = middle+h, nm+1
		}
	}
	edge, middle = edge/ne, middle/nm
	t.Logf("outer shell over the inner: %.1f mm at the edge (%.0f vertices), %.1f mm in the middle (%.0f)", 1000*edge, ne, 1000*middle, nm)
	if edge > 0.003 || middle < 0.006 {
		t.Errorf("outer shell %.1f mm over the inner at the edge (max 3), %.1f mm in the middle (min 6)", 1000*edge, 1000*middle)
	}
}

// TestBeardShadowReaches: the stubble and roots painted on the skin
// under a beard (beard.shadow) reach about a centimetre past the edge of
// the beard's shells, so the skin darkens toward the beard over that
// band and the beard grows out of the skin rather than sitting on it as
// a patch (issue 22's panel: "pasted patch"). Measured on the default
// masculine head: the 90th percentile, over the skin vertices the
// shadow reaches (weight over 0.05) outside the beard (its weight under
// 0.3, the shells' edge), of the distance to the nearest beard vertex.
// Before the shadow had its own reach (it was the beard's own weights):
// 7.9 mm over 65 vertices (full beard); then 13.7 mm over 156; with
// the roots' band at the cheek line (rootsCheekReach) 19.1 mm over 469
// (short beard 17.7 mm over 482).
func TestBeardShadowReaches(t *testing.T) {
	for _, style := range []string{"full-beard", "short-beard"} {
		cfg := Default(Masculine)
		cfg.FacialHair.Style = style
		reach, n := shadowReach(t, cfg)
		t.Logf("%s: shadow past the beard's edge, 90th percentile %.1f mm over %d vertices", style, 1000*reach, n)
		if reach < 0.011 || reach > 0.02 {
			t.Errorf("%s: the shadow reaches %.1f mm past the beard, want 11 to 20", style, 1000*reach)
		}
	}
}

// shadowReach is TestBeardShadowReaches's measure: the 90th percentile
// of the distance past the beard of the skin its shadow reaches, and
// over how many vertices.
func shadowReach(t *testing.T, cfg Config) (float64, int) {
	t.Helper()
	body, head := restingHead(t, cfg)
	bd := newBeard(cfg, head, body.Joints())
	var in []vec3
	for i, w := range bd.weights {
		if w >= 0.3 {
			in = append(in, v3(head.pos[i]))
		}
	}
	var far []float64
	for i, w := range bd.shadow {
		if w < 0.05 || bd.weights[i] >= 0.3 {
			continue
		}
		p, best := v3(head.pos[i]), math.Inf(1)
		for _, q := range in {
			d := p.sub(q)
			best = math.Min(best, d.dot(d))
		}
		far = append(far, math.Sqrt(best))
	}
	slices.Sort(far)
	return far[len(far)*9/10], len(far)
}

// TestLightBeardNoCheekHaze: the roots' wide band at the cheek line
// (rootsCheekReach) is for beards darker than the skin. A blonde short
// beard on a dark face laid a pale haze up the cheek toward the nose,
// light on dark skin (p26's lesson: "ashy, chalky"); it keeps the
// stubble's narrower band: its shadow's reach past the beard (as
// TestBeardShadowReaches measures it) was 17.7 mm with the wide band
// and is 11.7 without; the same beard on light skin keeps its 17.7.
func TestLightBeardNoCheekHaze(t *testing.T) {
	for _, tc := range []struct {
		tone     string
		min, max float64
	}{
		{"dark", 0.011, 0.016},
		{"light", 0.016, 0.02},
	} {
		cfg := Default(Masculine)
		cfg.FacialHair = FacialHair{Style: "short-beard", Color: "blonde"}
		cfg.Skin.Tone = tc.tone
		reach, n := shadowReach(t, cfg)
		t.Logf("blonde short beard on %s skin: shadow past the beard's edge, 90th percentile %.1f mm over %d vertices", tc.tone, 1000*reach, n)
		if reach < tc.min || reach > tc.max {
			t.Errorf("blonde short beard on %s skin: the shadow reaches %.1f mm past the beard, want %.0f to %.0f", tc.tone, 1000*reach, 1000*tc.min, 1000*tc.max)
		}
	}
}
