package avatar

import (
	"math"
	"testing"

	"github.com/kilnhq/kiln/assets/scene"
)

// What a hat view's pixel shows first (hatView).
const (
	seenNothing  = iota // the background
	seenHair            // the hair's outer side
	seenHairBack        // the hair's inner side
	seenHat             // the hat's outer side
	seenHatBack         // the hat's inner side (its lining)
	seenSkin            // the head's or the body's skin
	seenOther           // the eyes, brows, teeth, clothes
)

// hatView is an orthographic view of the head, drawn in Go from the
// built scene: per pixel, what is seen first (seenNothing..seenOther).
type hatView struct {
	w, h int
	seen []uint8
}

// hatViewPx is a hat view's pixel (metres).
const hatViewPx = 0.0005

// viewHat draws s seen from the front turned yaw radians about the
// vertical through c (the hat's shell's middle), in a window 30 cm wide
// from 12 cm over c to 18 cm under it, at hatViewPx a pixel.
func viewHat(s *scene.Scene, c vec3, yaw float64) hatView {
	const w, h = 600, 600
	v := hatView{w: w, h: h, seen: make([]uint8, w*h)}
	depth := make([]float64, w*h)
	for i := range depth {
		depth[i] = math.Inf(-1)
	}
	cy, sy := math.Cos(yaw), math.Sin(yaw)
	view := func(p vec3) vec3 {
		d := p.sub(c)
		x, z := cy*d[0]+sy*d[2], -sy*d[0]+cy*d[2]
		return vec3{(x + 0.15) / hatViewPx, (0.12 - d[1]) / hatViewPx, z}
	}
	for _, m := range s.Meshes {
		front, back := uint8(seenOther), uint8(seenOther)
		switch m.Name {
		case "Wolf3D_Hair":
			front, back = seenHair, seenHairBack
		case "Wolf3D_Headwear":
			front, back = seenHat, seenHatBack
		case "Wolf3D_Head", "Wolf3D_Body":
			front, back = seenSkin, seenSkin
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
				what := front
				if area > 0 {
					what = back
				}
				fillTri(q, w, h, func(at int, z float64) {
					if z > depth[at] {
						depth[at], v.seen[at] = z, what
					}
				})
			}
		}
	}
	return v
}

// hatSeams counts, in a hat view, the pixels in the band under the hat
// (those with the hat seen within hatBand above them in their column)
// where the hair shows its inner side (inner), and where the skin, the
// hat's lining or the background shows through a slit in the hair:
// hair seen within hatSlit pixels both left and right in the row (slit).
func (v hatView) hatSeams() (inner, slit int) {
	const hatBand, hatSlit = 40, 6
	for x := range v.w {
		last := -1 << 30 // the last row the hat was seen in
		for y := range v.h {
			s := v.seen[y*v.w+x]
			if s == seenHat || s == seenHatBack {
				last = y
			}
			if y-last > hatBand {
				continue
			}
			switch s {
			case seenHairBack:
				inner++
			case seenSkin, seenNothing, seenHatBack:
				left, right := false, false
				for d := 1; d <= hatSlit; d++ {
					left = left || x-d >= 0 && v.seen[y*v.w+x-d] == seenHair
					right = right || x+d < v.w && v.seen[y*v.w+x+d] == seenHair
				}
				if left && right {
					slit++
				}
			}
		}
	}
	return inner, slit
}

// hatSideInnerMax is how many pixels of the hair's inner side (0.25 mm²
// each) a side view may show in the band under a cap's or a fedora's
// shell (hatSeams).
const hatSideInnerMax = 120

// beanieSlitsMax is how many pixels of skin, lining or background a
// beanie's five views (hatSeams) may show through slits in long hair
// under its cuff, summed. The rims left standing there cover the skin
// between the locks at the ears' tops: drawn in as under a cap
// (withEdges), the masculine body's rose from 371 to 431, and a judge
// counted 497 skin pixels against 415 (A/B hatseam24).
const beanieSlitsMax = 380

// TestHatHairSeams looks at long hair under each hat from the sides,
// turned 70° either way, and from the quarters and the front. Under a
// cap or a fedora, the hair must not show its inner side in the band
// under the hat: a rim (thickenHair) pressed on its own stood out past
// its card's edge, inside out, and three.js lit its back as a light
// grey line through the dark hair behind the cap's visor (issue 22, A/B
// capgrey23, random-01's quarter view). Before withEdges: random-01 875
// and 106 pixels, long hair under a feminine cap 750 and 111. Under a
// beanie, whose rims are left standing, the slits through the hair
// under the cuff must not grow (beanieSlitsMax).
func TestHatHairSeams(t *testing.T) {
	cases := []namedConfig{}
	for _, c := range hairUnderCaps() {
		if c.cfg.Hair.Style == "long" {
			cases = append(cases, c)
		}
	}
	for _, body := range []string{Feminine, Masculine} {
		c := Default(body)
		c.Hair.Style, c.Headwear.Style = "long", "fedora"
		cases = append(cases, namedConfig{"long-fedora-" + body, c})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := Generate(c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			style := c.cfg.Headwear.Style
			shell := hatShellOf(s, style)
			lo, hi := vec3{math.Inf(1), math.Inf(1), math.Inf(1)}, vec3{math.Inf(-1), math.Inf(-1), math.Inf(-1)}
			for _, q := range shell {
				for k := range 3 {
					lo[k], hi[k] = math.Min(lo[k], q[k]), math.Max(hi[k], q[k])
				}
			}
			mid := lo.add(hi).scale(0.5)
			slits := 0
			for _, yaw := range []float64{-70, -40, 0, 40, 70} {
				inner, slit := viewHat(s, mid, yaw*math.Pi/180).hatSeams()
				slits += slit
				t.Logf("turned %+.0f°: %d pixels of the hair's inner side, %d of slits", yaw, inner, slit)
				if style != "beanie" && math.Abs(yaw) == 70 && inner > hatSideInnerMax {
					t.Errorf("turned %+.0f°: the hair shows its inner side in %d pixels under the %s, want at most %d (no rim inside out)", yaw, inner, style, hatSideInnerMax)
				}
			}
			if style == "beanie" && slits > beanieSlitsMax {
				t.Errorf("%d pixels of slits through the hair under the beanie's cuff, want at most %d", slits, beanieSlitsMax)
			}
		})
	}
}
