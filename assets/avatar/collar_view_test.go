package avatar

import (
	"math"
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
)

// collarView is what an orthographic view of the neck and chest shows,
// drawn in Go from the built scene (so it runs everywhere): per pixel,
// the nearest skin, the nearest cloth of the top whose outer side faces
// the viewer, and what is seen first.
type collarView struct {
	// poked counts pixels where skin is seen less than pokedDepth in
	// front of the top's cloth: skin come out through it. grey counts
	// pixels where the top's inner side behind the neck joint (the back
	// band's lining, seen through the opening) is seen with a vertex
	// colour under 0.9; inside those where that lining is seen at all.
	poked, grey, inside int
	// turn sums, down both edges of the opening (the rows where skin runs
	// through the middle of the view between cloth on either side), the
	// change of the edge's step from row to row, in pixels; rows counts
	// the rows summed. A straight or gently curved edge turns little; a
	// saw-tooth turns by its teeth's depth twice per tooth.
	turn float64
	rows int
}

// viewCollar draws the skin (Wolf3D_Body, Wolf3D_Head) and the top of s
// seen from the front turned yaw radians about the vertical through the
// neck joint, in a window 16 cm wide from 20 cm below the neck joint to
// 2 cm above it, at half a millimetre a pixel.
func viewCollar(s *scene.Scene, neck vec3, yaw float64) collarView {
	const px, w, h = 0.0005, 320, 440
	inf := math.Inf(-1)
	skinZ, clothZ, seenZ := make([]float64, w*h), make([]float64, w*h), make([]float64, w*h)
	seen := make([]float32, w*h) // -1 skin, 2 the top's outside, 3 its inside in front of the neck, else the grey of its inside behind it
	for i := range skinZ {
		skinZ[i], clothZ[i], seenZ[i] = inf, inf, inf
	}
	cy, sy := math.Cos(yaw), math.Sin(yaw)
	view := func(p vec3) vec3 {
		d := p.sub(neck)
		x, z := cy*d[0]+sy*d[2], -sy*d[0]+cy*d[2]
		return vec3{(x + 0.08) / px, (0.02 - d[1]) / px, z}
	}
	for _, name := range []string{"Wolf3D_Body", "Wolf3D_Head", "Wolf3D_Outfit_Top"} {
		m := meshNamed(s, name)
		if m == nil {
			continue
		}
		for _, pr := range m.Primitives {
			for i := 0; i+2 < len(pr.Indices); i += 3 {
				var q [3]vec3
				for k := range q {
					q[k] = view(v3(pr.Positions[pr.Indices[i+k]]))
				}
				area := screenArea(q)
				if area == 0 {
					continue
				}
				outer := area < 0
				grey := float32(1)
				if len(pr.Colors) > 0 {
					for k := range 3 {
						grey = min(grey, pr.Colors[0][pr.Indices[i+k]][0])
					}
				}
				fillTri(q, w, h, func(at int, z float64) {
					skin := name != "Wolf3D_Outfit_Top"
					switch {
					case skin:
						skinZ[at] = max(skinZ[at], z)
					default:
						clothZ[at] = max(clothZ[at], z)
					}
					if z > seenZ[at] {
						seenZ[at] = z
						switch {
						case skin:
							seen[at] = -1
						case outer:
							seen[at] = 2
						case z < 0:
							seen[at] = grey // the lining behind the neck
						default:
							seen[at] = 3 // the lining in front of it
						}
					}
				})
			}
		}
	}
	var v collarView
	for at := range seen {
		if seen[at] == -1 && clothZ[at] > inf && skinZ[at]-clothZ[at] < pokedDepth {
			v.poked++
		}
		if seenZ[at] > inf && seen[at] >= 0 && seen[at] <= 1 {
			v.inside++
			if seen[at] < 0.9 {
				v.grey++
			}
		}
	}
	// The opening's edge: row by row down the V, the ends of the run of
	// skin through the middle column, where cloth lies on both sides.
	var left, right []float64
	for y := 0; y < h; y++ {
		row := seen[y*w : (y+1)*w]
		if row[w/2] != -1 {
			if len(left) > 0 {
				break
			}
			continue
		}
		a, b := w/2, w/2
		for a > 0 && row[a-1] == -1 {
			a--
		}
		for b < w-1 && row[b+1] == -1 {
			b++
		}
		if a == 0 || b == w-1 || seenZ[y*w+a-1] == inf || seenZ[y*w+b+1] == inf {
			left, right = left[:0], right[:0]
			continue
		}
		left, right = append(left, float64(a)), append(right, float64(b))
	}
	for _, e := range [][]float64{left, right} {
		for i := 1; i+1 < len(e); i++ {
			v.turn += math.Abs(e[i+1] - 2*e[i] + e[i-1])
		}
		v.rows += max(0, len(e)-2)
	}
	return v
}

// TestCollarLiningNotGrey looks at the neck and chest of avatars in each
// top with a collar or a V (and a T-shirt), from the front and turned
// 35° either way. Seen from the front, the back band's lining, which the
// opening shows, must not be shaded: shadeLayers darkened the band under
// the collar's folded leaf, and its inside, of the same vertices, read
// as a grey lining (1,354 of 1,685 lining pixels on the feminine blouse,
// 1,047 of 1,161 on the masculine shirt, 1,080 of 1,161 on the masculine
// hoodie; now at most 73, 4%: a twentieth may be). From three quarters some shaded band still shows round the
// side of the neck (logged: up to a third of the lining seen). It logs, and bounds, the skin
// seen out over the cloth and how much the opening's edge turns (see
// collarView), the saw-teeth the panel saw.
func TestCollarLiningNotGrey(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 8 avatars")
	}
	for _, c := range []struct{ body, top string }{
		{Feminine, "blouse"}, {Feminine, "shirt"}, {Masculine, "blouse"}, {Masculine, "shirt"},
		{Feminine, "hoodie"}, {Masculine, "hoodie"}, {Feminine, "tshirt"}, {Masculine, "tshirt"},
	} {
		t.Run(c.body+"-"+c.top, func(t *testing.T) {
			cfg := Default(c.body)
			cfg.Outfit.Top.Style = c.top
			// Hair in front of the chest would hide what is measured.
			cfg.Hair.Style = "bald"
			s, neck := generatedWithNeck(t, cfg)
			for _, yaw := range []float64{0, 35, -35} {
				v := viewCollar(s, neck, yaw*math.Pi/180)
				t.Logf("%s %s at %+.0f°: %d pixels of skin out over the cloth; lining seen %d pixels, %d of them grey; edge turns %.0f px over %d rows", c.body, c.top, yaw, v.poked, v.inside, v.grey, v.turn, v.rows)
				if v.poked > pokedPixels {
					t.Errorf("%s %s at %+.0f°: %d pixels of skin out over the top's cloth, at most %d", c.body, c.top, yaw, v.poked, pokedPixels)
				}
				if yaw == 0 && 20*v.grey > v.inside {
					t.Errorf("%s %s at %+.0f°: %d of %d pixels of the lining seen shaded grey, at most a twentieth", c.body, c.top, yaw, v.grey, v.inside)
				}
			}
		})
	}
}

// pokedPixels is the skin a view may show over the cloth: the most
// measured is 101 pixels (a quarter of a square centimetre), the
// feminine blouse from the front, where the neck meets the band.
const pokedPixels = 150

// pokedDepth is how far in front of the top's cloth seen skin counts as
// come out through it (farther, it is the neck in front of the back of
// the collar).
const pokedDepth = 0.015
