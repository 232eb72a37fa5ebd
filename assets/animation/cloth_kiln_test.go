package animation

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/kilnhq/kiln/assets/avatar"
)

// clothBar is the share of a garment's edges the leader's avatars stretch
// past the limit under a clip, the larger of the two avatars; when
// ../shared is absent, the largest share measured on them under any clip
// (figures of TestClothLeader: tops 4.31%, bottoms 3.54%, footwear 0).
func clothBar(leader []map[string]map[string]clothFigure, clip, garment string) float64 {
	if leader == nil {
		return map[string]float64{"Wolf3D_Outfit_Top": 0.0431, "Wolf3D_Outfit_Bottom": 0.0354}[garment]
	}
	bar := 0.0
	for _, l := range leader {
		bar = math.Max(bar, l[clip][garment].Stretched)
	}
	return bar
}

// clothConfigs are avatars that together wear every garment style on
// both body types and across builds and heights, and between them every
// style of the catalogue's other categories (hair, headwear, glasses…).
func clothConfigs() []avatar.Config {
	var out []avatar.Config
	builds := []float64{0.15, 0.4, 0.6, 0.9, 0.3}
	n := 0
	for _, gender := range Genders() {
		for i, top := range avatar.TopStyles() {
			c := avatar.Default(gender)
			c.Outfit.Top.Style = top
			c.Outfit.Bottom.Style = avatar.BottomStyles()[i%len(avatar.BottomStyles())]
			c.Outfit.Footwear.Style = avatar.FootwearStyles()[i%len(avatar.FootwearStyles())]
			c.Body.Build = builds[i]
			c.Body.Height += 0.04 * float64(i-2)
			for _, cat := range avatar.StyleCategories {
				switch cat {
				case "top", "bottom", "footwear":
					continue
				}
				if st := avatar.Styles(cat); len(st) > 0 {
					c = c.WithStyle(cat, st[n%len(st)])
				}
			}
			n++
			out = append(out, c)
		}
	}
	return out
}

// floorDepth is how far a sole may go below the floor under any clip,
// and idleSlide how far a foot may move in locomotion_idle (issue 22).
const (
	floorDepth = 0.01
	idleSlide  = 0.01
)

// checkFloor holds a Kiln avatar's floor figures to the bar.
func checkFloor(t *testing.T, figs map[string]floorFigure) {
	t.Helper()
	for _, clip := range Names() {
		f, ok := figs[clip]
		if !ok {
			t.Errorf("%s: no floor measured", clip)
			continue
		}
		if f.Depth > floorDepth {
			t.Errorf("%s: a sole goes %.1f cm below the floor, at most %.0f cm", clip, 100*f.Depth, 100*floorDepth)
		}
		if clip == "locomotion_idle" && (f.Slide[0] >= idleSlide || f.Slide[1] >= idleSlide) {
			t.Errorf("%s: the feet move %.1f and %.1f cm, under %.0f cm each", clip, 100*f.Slide[0], 100*f.Slide[1], 100*idleSlide)
		}
	}
}

// primitiveBar is the stretch the issue measured on Kiln's primitive
// avatars before the parametric human (about 7% of a top's edges and 6%
// of the trousers'): the new garments must never fall back to it.
var primitiveBar = map[string]float64{"Wolf3D_Outfit_Top": 0.07, "Wolf3D_Outfit_Bottom": 0.06, "Wolf3D_Outfit_Footwear": 0.06}

// clothException is a garment style under a clip that does not meet the
// issue's bar yet, with the worst figures measured on it (either body
// type): the test holds it to them, so it cannot get worse, and says so
// when it passes the bar and the entry can go.
type clothException struct {
	stretched float64 // % of the edges past stretchLimit, rounded up to a hundredth; under it the leader's bar holds
	poked     int     // covered body vertices out through the garment
}

// clothExceptions are the failures left, with their measured figures
// (TestClothKiln -v, the worst of both body types): none now. The
// leader's avatars have their own (TestClothLeader): up to 7 body
// vertices out through the office avatar's top under locomotion_run and
// 4 through the casual avatar's shoes. The last three went by their
// causes: the tank's locomotion_idle and locomotion_walk when the
// measure stopped counting skin under a fold of the armhole
// (cloth.overlaid: vertex 1355 of that body was out 11.9 mm of a tucked
// triangle, still 12.8 mm under the cloth over it); the blouse's
// locomotion_run when skin at a skirt's waistband under the blouse
// followed the blouse instead of the waistband (followGarments: the
// lower back had been 2.3 mm out at frame 4). A style and clip that
// does not meet the bar goes here with its figures and cause.
var clothExceptions = map[[3]string]clothException{}

// TestClothKiln measures Kiln's avatars (every garment style on both body
// types, across builds) under every clip beside the leader's, logging the
// figures (-v), and holds them to the bar: no garment stretched
// past the limit on a larger share of its edges than the leader's avatar
// under the same clip, no body vertex out through a garment, no sole more
// than a centimetre below the floor and no foot sliding a centimetre in
// locomotion_idle. The
// styles and clips listed in clothExceptions are held to their measured
// figures instead, and every garment to the primitive generator's.
func TestClothKiln(t *testing.T) {
	if testing.Short() {
		t.Skip("skins ten avatars through every clip")
	}
	leader := leaderCloth(t)
	passing := map[[3]string]bool{}
	for k := range clothExceptions {
		passing[k] = true
	}
	for _, cfg := range clothConfigs() {
		name := fmt.Sprintf("%s/%s-%s-%s-%s/build%.2f", cfg.Body.Type, cfg.Outfit.Top.Style, cfg.Outfit.Bottom.Style, cfg.Outfit.Footwear.Style, cfg.Hair.Style, cfg.Body.Build)
		style := map[string]string{"Wolf3D_Outfit_Top": cfg.Outfit.Top.Style, "Wolf3D_Outfit_Bottom": cfg.Outfit.Bottom.Style, "Wolf3D_Outfit_Footwear": cfg.Outfit.Footwear.Style}
		t.Run(name, func(t *testing.T) {
			s, err := avatar.Generate(cfg)
			if err != nil {
				t.Fatal(err)
			}
			figs := measureCloth(t, s, cfg.Body.Type)
			floor := measureFloor(t, s, cfg.Body.Type)
			var worn []string
			for _, cat := range avatar.StyleCategories {
				worn = append(worn, cat+"="+cfg.Style(cat))
			}
			t.Logf("%s, height %.2f m\n%s%s", strings.Join(worn, " "), cfg.Body.Height, clothTable(figs), floorTable(floor))
			checkFloor(t, floor)
			for _, clip := range Names() {
				for _, g := range garments {
					f, ok := figs[clip][g]
					if !ok {
						t.Errorf("%s: no %s measured", clip, g)
						continue
					}
					if f.Stretched > primitiveBar[g] {
						t.Errorf("%s %s: %.2f%% of the edges stretched past %.1fx, more than the primitive avatars' %.0f%%", clip, g, 100*f.Stretched, stretchLimit, 100*primitiveBar[g])
					}
					bar := clothBar(leader, clip, g)
					key := [3]string{style[g], clip, g}
					if ex, ok := clothExceptions[key]; ok {
						if f.Stretched > bar || f.Poked > 0 {
							passing[key] = false
						}
						if f.Stretched > bar && 100*f.Stretched > ex.stretched {
							t.Errorf("%s %s (a listed exception): %.3f%% of the edges stretched past %.1fx, worse than the %.2f%% measured", clip, g, 100*f.Stretched, stretchLimit, ex.stretched)
						}
						if f.Poked > ex.poked {
							t.Errorf("%s %s (a listed exception): %d of %d covered body vertices come out through it, worse than the %d measured", clip, g, f.Poked, f.Covered, ex.poked)
						}
						continue
					}
					if f.Stretched > bar {
						t.Errorf("%s %s: %.3f%% of the edges stretched past %.1fx, the leader %.2f%%", clip, g, 100*f.Stretched, stretchLimit, 100*bar)
					}
					if f.Poked > 0 {
						t.Errorf("%s %s: %d of %d covered body vertices come out through it", clip, g, f.Poked, f.Covered)
					}
				}
			}
		})
	}
	for k, ok := range passing {
		if ok && !t.Failed() {
			t.Logf("%s %s on %s now meets the bar: its entry in clothExceptions can go", k[1], k[2], k[0])
		}
	}
}
