package avatar

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestRandomRules draws 200 random avatars and checks each against the
// rules of the draw: body and face dials within their ranges, an outfit
// whose styles and colours go together, a hair colour plausible for the
// age, and every avatar different from the one before.
func TestRandomRules(t *testing.T) {
	seen := map[string]int64{}
	var prev string
	styles := map[string]bool{}
	ages := map[bool]int{}
	hats, prints := 0, 0
	deep, deepLight, lightLight := 0, 0, 0
	for seed := int64(0); seed < 200; seed++ {
		c := Random(seed)
		if err := c.Validate(); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		in := func(what string, v float64, r [2]float64) {
			if v < r[0] || v > r[1] {
				t.Errorf("seed %d: %s %.2f outside %.2f..%.2f", seed, what, v, r[0], r[1])
			}
		}
		in("build", c.Body.Build, randomBuild)
		in("height", c.Body.Height, randomHeight[c.Body.Type])
		in("age", c.Body.Age, randomAge)
		in("proportions", c.Body.ProportionsValue(), randomProportions)
		for key, r := range randomFace[c.Body.Type] {
			feature, dial, _ := strings.Cut(key, ".")
			v, ok := (*c.Face.feature(feature))[dial]
			if !ok {
				t.Errorf("seed %d: face %s left to the seed", seed, key)
			}
			in("face "+key, v, r)
		}
		o := c.Outfit
		if why := OutfitClash(c.Body.Type, c.Body.Height, c.Body.Age, o.Top.Style, o.Bottom.Style, o.Footwear.Style); why != "" {
			t.Errorf("seed %d: %s, %s and %s: %s", seed, o.Top.Style, o.Bottom.Style, o.Footwear.Style, why)
		}
		if why := ColorClash(o.Top.Color, o.Bottom.Color, o.Footwear.Color); why != "" {
			t.Errorf("seed %d: %s, %s and %s: %s", seed, o.Top.Color, o.Bottom.Color, o.Footwear.Color, why)
		}
		if why := BottomClash(o.Bottom.Style, o.Bottom.Color); why != "" {
			t.Errorf("seed %d: %s %s: %s", seed, o.Bottom.Color, o.Bottom.Style, why)
		}
		if h := c.Headwear; h.on() {
			hats++
			accents := 0
			for _, col := range []string{o.Top.Color, o.Bottom.Color, o.Footwear.Color, h.Color} {
				if isAccent(col) {
					accents++
				}
			}
			if accents > 1 {
				t.Errorf("seed %d: a %s hat with %d bright colours in the outfit", seed, h.Color, accents)
			}
		}
		if deepSkin(c.Skin.Tone) {
			deep++
			if c.Eyes.Color != "brown" && c.Eyes.Color != "dark-brown" {
				deepLight++
			}
		} else if c.Eyes.Color == "blue" || c.Eyes.Color == "grey" || c.Eyes.Color == "green" {
			lightLight++
		}
		if why := HairClash(c.Body.Age, c.Hair.Color); why != "" {
			t.Errorf("seed %d: %s hair at %.0f: %s", seed, c.Hair.Color, c.Body.Age, why)
		}
		b, _ := json.Marshal(c)
		if s, ok := seen[string(b)]; ok {
			t.Errorf("seeds %d and %d draw the same avatar", s, seed)
		}
		if string(b) == prev {
			t.Errorf("seed %d draws the avatar before it again", seed)
		}
		seen[string(b)], prev = seed, string(b)
		styles[c.Outfit.Top.Style+"/"+c.Outfit.Bottom.Style] = true
		ages[c.Body.Age >= 45]++
		if c.Outfit.Top.Print.on() {
			prints++
		}
	}
	// Eyes are brown on tan and deeper skin but for a few (drawn
	// evenly, 5 in 7 were not), and light eyes are common on lighter skin.
	if deep == 0 || float64(deepLight)/float64(deep) > 0.2 || float64(lightLight)/float64(200-deep) < 0.25 {
		t.Errorf("%d of %d deep-skinned avatars have eyes other than brown; %d of %d lighter-skinned have blue, grey or green eyes", deepLight, deep, lightLight, 200-deep)
	}
	// The rules leave variety: many outfits, young and older faces.
	if len(styles) < 12 || ages[true] < 20 || ages[false] < 100 || hats < 15 || hats > 60 || prints < 5 {
		t.Errorf("%d top/bottom pairs, %d avatars 45 or older and %d younger, %d hats, %d prints in 200 draws", len(styles), ages[true], ages[false], hats, prints)
	}
}

// TestRandomRulesCatch shows the rules reject what the issue saw.
func TestRandomRulesCatch(t *testing.T) {
	for _, tc := range []struct {
		name string
		why  string
	}{
		{"cropped top and shorts", OutfitClash(Feminine, 1.68, 25, "tank", "shorts", "sneakers")},
		{"cropped top at 59", OutfitClash(Feminine, 1.68, 59, "tank", "jeans", "sneakers")},
		{"work jacket on a short body", OutfitClash(Feminine, 1.55, 30, "hoodie", "jeans", "sneakers")},
		{"hoodie and dress shoes", OutfitClash(Masculine, 1.80, 30, "hoodie", "jeans", "shoes")},
		{"two bright colours", ColorClash("red", "denim", "red")},
		{"one colour head to toe", ColorClash("navy", "navy", "white")},
		{"beige shorts", BottomClash("shorts", "beige")},
		{"white hair at 25", HairClash(25, "white")},
	} {
		if tc.why == "" {
			t.Errorf("%s: allowed", tc.name)
		}
	}
	for _, ok := range []string{
		OutfitClash(Feminine, 1.68, 59, "blouse", "skirt", "shoes"),
		OutfitClash(Masculine, 1.80, 59, "tshirt", "jeans", "sneakers"),
		ColorClash("red", "denim", "white"),
		BottomClash("shorts", "navy"),
		BottomClash("trousers", "beige"),
		OutfitClash(Feminine, 1.68, 25, "tank", "jeans", "sneakers"),
		HairClash(62, "grey"),
	} {
		if ok != "" {
			t.Errorf("refused: %s", ok)
		}
	}
}
