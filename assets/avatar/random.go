package avatar

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
)

// The random avatar (POST /avatar with {}, the creator's shuffle) is the
// first avatar many people see: it is drawn from what looks good rather
// than from every valid value. Bodies and faces stay within ranges that
// read as ordinary and attractive (no extreme builds, no puffy or heavy
// faces by chance), outfits are pairings people wear (nothing revealing
// by chance, at most one bright colour), and hair colours fit the face's
// age and skin. Every choice a person makes on purpose stays possible:
// these are only the odds of the draw.

// Ranges of the random draw (see Random).
var (
	randomBuild       = [2]float64{0.1, 0.7}
	randomHeight      = map[string][2]float64{Masculine: {1.70, 1.90}, Feminine: {1.57, 1.75}}
	randomAge         = [2]float64{20, 65}
	randomProportions = [2]float64{0.5, 0.9}
	// randomFace bounds, by body type, the face dials that make a face
	// read as puffy, wide or heavy-jawed: the draw sets them explicitly,
	// within these ranges, and the face seed draws the rest. Feminine
	// faces keep softer, narrower jaws and chins and some cheek: a gaunt,
	// narrow head with a strong chin read masculine (random-16 of the
	// panel, on a feminine body).
	randomFace = map[string]map[string][2]float64{
		Masculine: {
			"head.fat": {-0.6, 0}, "head.round": {0, 0.1}, "head.square": {0, 0.15}, "head.scale-horiz": {-0.3, 0.05},
			"cheeks.volume": {-0.5, 0}, "cheeks.bones": {-0.1, 0.4}, "chin.width": {-0.3, 0.1}, "chin.prominent": {-0.2, 0.3},
			"chin.jaw-drop": {-0.3, 0.1},
		},
		Feminine: {
			"head.fat": {-0.4, 0}, "head.round": {0, 0.15}, "head.square": {0, 0.03}, "head.scale-horiz": {-0.12, 0.05},
			"cheeks.volume": {-0.2, 0.05}, "cheeks.bones": {0, 0.4}, "chin.width": {-0.4, -0.05}, "chin.prominent": {-0.3, 0},
			"chin.jaw-drop": {-0.3, 0},
		},
	}
)

// neutralColors are the garment colours that go with anything; the rest
// of the garment palette are accents, of which a random outfit wears at
// most one.
var neutralColors = []string{"white", "black", "grey", "charcoal", "navy", "denim", "beige", "khaki", "brown", "tan", "olive"}

// isAccent reports whether a garment colour is an accent.
func isAccent(color string) bool { return !slices.Contains(neutralColors, color) }

// randomOutfits are the styles a random avatar of each body type wears:
// top, bottom and the footwear each top and bottom goes with.
var randomTops = map[string][]string{
	Masculine: {"tshirt", "tshirt", "shirt", "shirt", "hoodie", "tank"},
	Feminine:  {"blouse", "blouse", "tshirt", "tshirt", "shirt", "hoodie", "tank"},
}

var randomBottoms = map[string][]string{
	Masculine: {"jeans", "jeans", "trousers", "trousers", "shorts"},
	Feminine:  {"jeans", "jeans", "trousers", "skirt", "skirt", "shorts"},
}

// OutfitClash says why a top, bottom and footwear do not go together in
// a random outfit (an empty string when they do), for a body of the
// given type, height and age: the rules Random follows.
func OutfitClash(bodyType string, height, age float64, top, bottom, footwear string) string {
	switch {
	case top == "tank" && (bottom == "shorts" || bottom == "skirt"):
		return "a cropped top with shorts or a skirt shows too much for a random avatar"
	case bodyType == Feminine && top == "tank" && age > randomCropAge:
		return "a cropped top on an older body is a choice, not a random draw"
	case bodyType == Masculine && (top == "blouse" || bottom == "skirt"):
		return "a blouse or a skirt on a masculine body is a choice, not a random draw"
	case top == "hoodie" && height < randomHoodieHeight[bodyType]:
		return "the pocketed hoodie jacket swamps a short body"
	case bottom == "shorts" && footwear != "sneakers":
		return "shorts go with sneakers"
	case (top == "tank" || top == "hoodie") && footwear == "shoes":
		return "dress shoes do not go with a tank or a hoodie"
	case (top == "shirt" || top == "blouse") && bottom == "trousers" && footwear == "sneakers":
		return "a shirt and trousers go with shoes or boots"
	}
	return ""
}

// randomCropAge is the oldest a random feminine avatar wears the tank,
// which is cropped above the waist: the p13 and p14 panels' lowest-scored
// avatar was a woman of 59 in it.
const randomCropAge = 35

// randomHoodieHeight is the least height a random hoodie is worn at.
var randomHoodieHeight = map[string]float64{Masculine: 1.74, Feminine: 1.63}

// ColorClash says why garment colours do not go together in a random
// outfit (empty when they do): at most one accent among the three, and
// top and bottom of different colours.
func ColorClash(top, bottom, footwear string) string {
	accents := 0
	for _, c := range []string{top, bottom, footwear} {
		if isAccent(c) {
			accents++
		}
	}
	switch {
	case accents > 1:
		return "more than one bright colour"
	case top == bottom:
		return "top and bottom of one colour"
	}
	return ""
}

// BottomClash says why a bottom's colour does not go with its style in
// a random outfit (empty when it does): shorts in beige or khaki, close
// to many skin tones, read as bare legs or underwear in a full-body view
// (issue 22's panels p18 and p19, random-06's beige shorts).
func BottomClash(style, color string) string {
	if style == "shorts" && (color == "beige" || color == "khaki") {
		return "shorts in a skin-like colour read as underwear"
	}
	return ""
}

// HairClash says why a hair colour is implausible on a random face of
// the given age (empty when it is not): grey and white hair are for ages
// 45 and over, and only they.
func HairClash(age float64, color string) string {
	if (color == "grey" || color == "white") && age < 45 {
		return "grey or white hair on a young face"
	}
	return ""
}

// weighted picks a key of w with odds proportional to its weight, in the
// order of keys (so that the draw is the same on every run).
func weighted(r *rand.Rand, keys []string, w map[string]float64) string {
	total := 0.0
	for _, k := range keys {
		total += w[k]
	}
	x := r.Float64() * total
	for _, k := range keys {
		if x < w[k] {
			return k
		}
		x -= w[k]
	}
	return keys[len(keys)-1]
}

// deepSkin is whether a skin tone is tan or deeper, where the hair and
// eye colours a random avatar draws are darker (hairOdds, eyeOdds).
func deepSkin(tone string) bool {
	return slices.Contains([]string{"tan", "brown", "dark", "deep"}, tone)
}

// eyeOdds are the odds of each eye colour on a skin tone: on tan and
// deeper skin, brown eyes nearly always, as in life; blue, grey and
// green eyes mostly on lighter skin. Drawn evenly, three of the panel's
// five deep-skinned avatars (random-04, -12, -17) had blue or hazel
// eyes, which its judges called "stark bright blue" and "yellowish".
func eyeOdds(tone string) map[string]float64 {
	if deepSkin(tone) {
		return map[string]float64{"dark-brown": 5, "brown": 4, "hazel": 0.6, "amber": 0.3, "green": 0.15, "grey": 0.1, "blue": 0.1}
	}
	return map[string]float64{"brown": 3, "dark-brown": 1.5, "blue": 2.5, "hazel": 1.2, "green": 1.2, "grey": 1, "amber": 0.3}
}

// hairOdds are the odds of each hair colour on a face of the given age
// and skin tone: dark hair on dark skin, fair colours mostly on light
// skin, grey from 45, white from 60.
func hairOdds(age float64, tone string) map[string]float64 {
	dark := deepSkin(tone)
	w := map[string]float64{"black": 2, "dark-brown": 3, "brown": 3, "light-brown": 2, "auburn": 1, "red": 0.6, "blonde": 2, "platinum": 0.3}
	if dark {
		w = map[string]float64{"black": 5, "dark-brown": 4, "brown": 2, "light-brown": 0.5, "auburn": 0.3, "blonde": 0.2}
	}
	if age >= 45 {
		w["grey"] = (age - 40) / 5
	}
	if age >= 60 {
		w["white"] = (age - 55) / 5
	}
	return w
}

// Random is a random valid configuration, the same for the same seed
// (the API seeds it from the avatar's id, so an id always shows the same
// person), drawn from the ranges and rules above.
func Random(seed int64) Config {
	r := rand.New(rand.NewPCG(uint64(seed), 0x6b696c6e))
	pick := func(list []string) string { return list[r.IntN(len(list))] }
	within := func(lo, hi float64) float64 { return math.Round((lo+r.Float64()*(hi-lo))*100) / 100 }
	g := pick(bodyTypes)
	c := Default(g)
	h := randomHeight[g]
	c.Body.Height = within(h[0], h[1])
	c.Body.Build = within(randomBuild[0], randomBuild[1])
	// Younger ages are likelier: most avatars are of people under 40.
	c.Body.Age = math.Round(randomAge[0] + (randomAge[1]-randomAge[0])*math.Pow(r.Float64(), 1.6))
	prop := within(randomProportions[0], randomProportions[1])
	c.Body.Proportions = &prop
	// A face of its own: 53 bits, exact in any JSON reader; the dials
	// that could make it puffy are set within randomFace.
	c.Face.Seed = r.Uint64()>>11 | 1
	for _, key := range sortedKeys(randomFace[g]) {
		lim := randomFace[g][key]
		v := within(lim[0], lim[1])
		feature, dial, _ := strings.Cut(key, ".")
		f := c.Face.feature(feature)
		if *f == nil {
			*f = map[string]float64{}
		}
		(*f)[dial] = v
	}
	c.Skin.Tone = pick(names(skinTones))
	c.Hair.Color = weighted(r, names(hairColors), hairOdds(c.Body.Age, c.Skin.Tone))
	c.Eyes.Color = weighted(r, names(eyeColors), eyeOdds(c.Skin.Tone))
	if g == Feminine {
		c.Hair.Style = pick([]string{"long", "long", "bun", "ponytail", "curly", "short"})
	} else {
		c.Hair.Style = pick([]string{"short", "short", "buzz", "curly", "long"})
		if c.Body.Age > 35 && r.IntN(4) == 0 {
			c.Hair.Style = "bald"
		}
	}
	// The outfit: styles drawn until they go together (a few draws at
	// most), then colours likewise.
	for {
		c.Outfit.Top.Style = pick(randomTops[g])
		c.Outfit.Bottom.Style = pick(randomBottoms[g])
		c.Outfit.Footwear.Style = pick(footwearStyles)
		if OutfitClash(g, c.Body.Height, c.Body.Age, c.Outfit.Top.Style, c.Outfit.Bottom.Style, c.Outfit.Footwear.Style) == "" {
			break
		}
	}
	tops := []string{"white", "white", "black", "grey", "charcoal", "navy", "navy", "beige", "olive", "blue", "light-blue", "red", "burgundy", "pink", "orange", "yellow", "green", "teal", "purple"}
	bottoms := []string{"denim", "black", "charcoal", "navy", "khaki", "beige", "grey", "olive", "brown"}
	if c.Outfit.Bottom.Style == "jeans" {
		bottoms = []string{"denim", "denim", "denim", "black", "charcoal", "grey"}
	}
	shoes := []string{"white", "white", "black", "black", "brown", "tan", "grey", "navy", "red"}
	if c.Outfit.Footwear.Style != "sneakers" {
		shoes = []string{"black", "black", "brown", "brown", "tan"}
	}
	for {
		c.Outfit.Top.Color = pick(tops)
		c.Outfit.Bottom.Color = pick(bottoms)
		c.Outfit.Footwear.Color = pick(shoes)
		if ColorClash(c.Outfit.Top.Color, c.Outfit.Bottom.Color, c.Outfit.Footwear.Color) == "" &&
			BottomClash(c.Outfit.Bottom.Style, c.Outfit.Bottom.Color) == "" {
			break
		}
	}
	// One T-shirt or tank in four has a print, in the ink that reads on
	// its colour (white on dark, black on light).
	if top := c.Outfit.Top.Style; (top == "tshirt" || top == "tank") && r.IntN(4) == 0 {
		c.Outfit.Top.Print.ID = pick(printStyles[1:])
	}
	// One in six wears a hat, in a colour that keeps the outfit's one
	// accent at most.
	if r.IntN(6) == 0 {
		c.Headwear.Style = pick(headwearStyles[1:])
		hats := []string{"black", "charcoal", "navy", "beige", "brown", "olive", "grey"}
		if c.Headwear.Style == "beanie" && !isAccent(c.Outfit.Top.Color) && !isAccent(c.Outfit.Bottom.Color) && !isAccent(c.Outfit.Footwear.Color) {
			hats = append(hats, "burgundy", "teal", "orange", "red")
		}
		c.Headwear.Color = pick(hats)
	}
	if r.IntN(4) == 0 {
		c.Glasses.Style = pick([]string{"round", "square"})
		c.Glasses.Color = pick([]string{"black", "tortoise", "gold", "silver", "brown"})
	}
	// Two men in five have facial hair, in their hair's colour. Drawn
	// last, so that everything above stays as each seed had it.
	if g == Masculine && r.IntN(5) < 2 {
		c.FacialHair.Style = pick(facialHairStyles[1:])
	}
	return c
}

// sortedKeys lists a map's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
