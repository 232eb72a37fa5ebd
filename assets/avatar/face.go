package avatar

import (
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
)

// Face is the shape of an avatar's face: features set explicitly, and the
// rest drawn from Seed. Each feature (head, nose, mouth, eyes, ears,
// chin, cheeks) maps dial names to values from -1 to 1 (0 leaves the
// feature average; the dials are MakeHuman's modifiers of that region,
// see FaceDials). A Seed other than 0 draws every dial the configuration
// leaves out but the chin's cleft (unseeded), so that avatars with
// different seeds have different faces; the random default gives every
// avatar its own seed.
type Face struct {
	Seed   uint64             `json:"seed,omitempty"`
	Head   map[string]float64 `json:"head,omitempty"`
	Nose   map[string]float64 `json:"nose,omitempty"`
	Mouth  map[string]float64 `json:"mouth,omitempty"`
	Eyes   map[string]float64 `json:"eyes,omitempty"`
	Ears   map[string]float64 `json:"ears,omitempty"`
	Chin   map[string]float64 `json:"chin,omitempty"`
	Cheeks map[string]float64 `json:"cheeks,omitempty"`
}

// MaxFaceSeed bounds Face.Seed: integers up to it are exact in JSON
// readers that hold numbers as doubles.
const MaxFaceSeed = 1<<53 - 1

// faceRegion is one feature: its configuration name, MakeHuman's target
// folder, and the prefix its modifiers carry.
type faceRegion struct{ name, folder, stem string }

var faceRegions = []faceRegion{
	{"head", "head", "head"}, {"nose", "nose", "nose"}, {"mouth", "mouth", "mouth"},
	{"eyes", "eyes", "eye"}, {"ears", "ears", "ear"}, {"chin", "chin", "chin"}, {"cheeks", "cheek", "cheek"},
}

// faceDials are the dials of each feature, sorted: MakeHuman's modifiers
// of the region without the ones that only move the whole feature
// (…-trans), which a face does better without.
var faceDials = map[string][]string{
	"head": {"age", "angle", "back-scale-depth", "diamond", "fat", "invertedtriangular", "oval", "rectangular", "round",
		"scale-depth", "scale-horiz", "scale-vert", "square", "triangular"},
	"nose": {"base", "compression", "curve", "flaring", "greek", "hump", "nostrils-angle", "nostrils-width", "point",
		"point-width", "scale-depth", "scale-horiz", "scale-vert", "septumangle", "volume", "width1", "width2", "width3"},
	"mouth": {"angles", "cupidsbow", "cupidsbow-width", "dimples", "laugh-lines", "lowerlip-ext", "lowerlip-height",
		"lowerlip-middle", "lowerlip-volume", "lowerlip-width", "philtrum-volume", "scale-depth", "scale-horiz",
		"scale-vert", "upperlip-ext", "upperlip-height", "upperlip-middle", "upperlip-volume", "upperlip-width"},
	"eyes": {"bag", "bag-height", "corner1", "corner2", "epicanthus", "eyefold", "eyefold-angle", "height1", "height2",
		"height3", "push1", "push2", "scale"},
	"ears":   {"flap", "lobe", "rot", "scale", "scale-depth", "scale-vert", "shape-pointed", "shape-round", "shape-square", "shape-triangle", "wing"},
	"chin":   {"bones", "cleft", "height", "jaw-drop", "prognathism", "prominent", "triangle", "width"},
	"cheeks": {"bones", "inner", "volume"},
}

// oneSided are the dials that only add a shape (0 to 1): MakeHuman has no
// opposite target for them.
var oneSided = map[string]bool{
	"head.diamond": true, "head.invertedtriangular": true, "head.oval": true, "head.rectangular": true,
	"head.round": true, "head.square": true, "head.triangular": true,
	"ears.shape-pointed": true, "ears.shape-round": true, "ears.shape-square": true, "ears.shape-triangle": true,
	"chin.triangle": true,
}

// FaceDials lists the dials of a feature (head, nose, mouth, eyes, ears,
// chin, cheeks), for the schema and forms; nil for an unknown feature.
func FaceDials(feature string) []string { return slices.Clone(faceDials[feature]) }

// feature is the map of a feature by its configuration name.
func (f *Face) feature(name string) *map[string]float64 {
	switch name {
	case "head":
		return &f.Head
	case "nose":
		return &f.Nose
	case "mouth":
		return &f.Mouth
	case "eyes":
		return &f.Eyes
	case "ears":
		return &f.Ears
	case "chin":
		return &f.Chin
	case "cheeks":
		return &f.Cheeks
	}
	return nil
}

// houseFace is the look every face is built on, by body type. The
// leader's faces are stylised toward what people find appealing: large,
// open eyes, a small narrow nose, a wide mouth with a defined upper lip
// and the lower lip drawn in (fuller, narrower lips read as a pout), and
// softer, narrower jaws and chins on feminine faces. Beside them
// MakeHuman's average face read plain, its eyes small and narrow. The
// mouth is MakeHuman's widest (scale-horiz at its end) and no wider: a
// further 14% stretch (widenMouth, since removed) made it 1.08-1.10
// eye-distances wide against the leader's 0.92-0.97 (facemeasure), flat
// wide lips the panel read as odd; now 0.95-0.97. It is shallow
// (scale-depth), its
// lower lip thin and short: with a fuller lower lip and corners a
// centimetre behind the lips' front, the lips bulged as a small muzzle
// (TestMouthWideAtRest). The shallow mouth's front then ran flat to the
// corners, a beak in the quarter view: wrapMouth bends it round the
// face. Its corners turn up a little (mouth-angles), as
// the leader's soft corners do: level with the lips' middle, the wider
// lower lip drooped at its ends into a sulk. The lips are thin and a
// little wider than the mouth's slit (lip volume down, mouth scale-vert
// down, each lip's width up): with the lower lip at -0.7 of its volume
// and the upper at -0.1, feminine faces still showed a rounded, bunched
// pair of lips (the panel's "pout"; default-female's lips were 0.28 of
// their width high, then 0.24; the leader's about 0.27). Drawn in that
// far (lower lip volume -1, height -0.4) the mouth read small and flat,
// a thin line: the lower lip is a little fuller again (volume -0.7,
// height -0.1), lipShape's height over width 0.195 -> 0.215 on
// default-female and 0.172 -> 0.191 on default-male, the panel's
// randoms at most 0.274 (random-07) and every face's lips still behind
// the E-line (TestLipsNaturalSizeAtRest). The cupid's bow
// is drawn (mouth-cupidsbow 0.8; at 0.4 the upper lip's edge was nearly
// straight, the panel's "flat bar"; the skin painter shapes the lips'
// colour to it, paint.Mouth). The
// face's dials (set or drawn from the seed) are applied on top of it,
// each moving the face as far from it as it would from MakeHuman's
// average (human.Params.Base).
//
// Under both, the face is fuller and smoother than MakeHuman's average:
// the panel saw our faces as gaunt, flat and blotchy beside the leader's
// full-cheeked ones. The cheeks are fuller (cheek-volume 0.4: the face's
// width at the cheeks went from 2.14 to 2.17 eye-distances on
// default-male, the leader's 2.26), and the bags under the eyes and the
// folds beside the nose are shallower (eye-bag -0.5, laugh-lines -0.4;
// smoothFace evens what is left). The face below the eyes is not
// shortened: the eyes stand 0.90 (default-male) and 0.78
// (default-female) eye-distances over the teeth, the leader's two 0.87
// and 0.80; a shorter masculine head (head-scale-vert -0.15) moved the
// caps' and beards' fit for no gain that showed.
//
// Read down the face's middle (TestFaceThirds, in eye-distances), the
// panel's "long, narrow lower face, the mouth low" was a long upper lip
// over a short chin that tapered early into a narrow jaw: nose to lips
// 0.43 (masculine) and 0.39 (feminine), lips to chin 0.65 and 0.61, the
// face 1.85 and 1.60 wide under the lower lip; the leader's 0.31-0.34,
// 0.90 and 2.07-2.19, a wide, rounded jaw and a full chin. The jaw is
// wider (chin-bones 0.4, head-square 0.3: 2.03 and 1.93), the chin a
// little taller (chin-height 0.25: 0.73 and 0.70; at 0.5 random-17's
// face read long), and the nose a little longer (nose-scale-vert 0.3,
// was -0.2), which lifts the philtrum's top (0.38 and 0.33) without
// moving the mouth or its inside.
//
// Beside the leader's (bench/avatar-look/faceprops, facemeasure) the
// chin was still short: lips to chin 0.74 and 0.70 eye-distances
// against 0.90, a long face over a short chin. The chin is taller again
// (chin-height 0.5: 0.83 and 0.79).
//
// The head was narrow at the top over a face widest low down (the
// lead's "coffin"; the panel's "flat, plain, wide, heavy"): temples
// 2.19 and 2.24 eye-distances against the leader's 2.39, cheekbones
// 2.29 and 2.23 against 2.44-2.49, the jaw (1.4 under the eyes) 0.89
// and 0.87 of the cheekbones' width against 0.85-0.88. The head tapers
// from the temples to the chin (head-invertedtriangular 0.4: wide at
// the temples, narrow at the jaw): temples 2.24 and 2.30, cheekbones
// 2.31 and 2.26, the jaw 0.86 and 0.85 of them. An oval skull
// (head-oval 0.1 to 0.2) widened the temples and cheekbones further
// (2.29 and 2.35, 2.37 and 2.32) but flattened the masculine short
// cut's outline to one lobe, a smooth cap (TestShortCutOutlineBroken);
// from 0.22 it brought a body vertex through a heavy masculine body's
// blouse in a shrug (TestClothKiln), bared a scalp vertex under
// random-2's bun (TestBudgetKeepsTheScalpCovered) and grew random-7's
// brows past 4 cm² (TestBrowsFilled). head-round 0.3 (face13's trial)
// widened the cheeks but not the temples (2.25) and raised the crown
// 10.4 mm over the body's height (TestSkeletonConvention allows 10).
//
// Under the chin the skin is drawn up (neck-double -0.75, MakeHuman's
// double-chin dial toward its tight end): MakeHuman's average neck
// slopes from the chin down into the throat, which in a room light read
// as a heavy, soft jaw merged with the neck and, on older and heavier
// bodies, creases hanging under it (the panel's "wattle"). Now the chin
// ends in a shelf with the throat straight under it, as the leader's
// does (TestJawShelf: the midline profile's step back under the chin
// 0.765 -> 0.976 eye-distances on default-male, 0.825 -> 0.991
// default-female, 0.653 -> 0.861 old and heavy; the leader's
// 0.87-0.88). At -1 the throat's skin at the base of the neck came 2.8
// mm out through a heavy body's blouse collar under locomotion_run.
//
// At every panel the judges still called our faces "broad", "plain",
// "puffy": the leader's narrow from the cheekbones to a defined chin (a V
// from the front), ours stay wide down to a broad, round chin
// (TestChinTaper: the face's width a tenth of the way up from the chin
// over its width at the cheekbones, default-male 0.62, default-female
// 0.63, the leader's 0.50 and 0.51). A pointed house chin closes most of
// that gap (chin-triangle 0.5 masculine: 0.53; 0.8 feminine: 0.54) but
// is not taken: masculine, it left the beards' shells short of the lower
// lip (0.32-0.35 of the skin under it under hair, TestBeardMeetsLowerLip
// asks 0.40; at 0.3 still 0.35), and feminine, even at 0.55, it drew a
// ridge down the chin's middle on random-02, -09 and -13 (TestChinShading,
// 1.03-1.48 degrees against 1.0: the judges' "seam down the chin").
var houseFace = map[string]map[string]float64{
	Masculine: houseEvery,
	Feminine: merged(houseEvery, map[string]float64{
		"chin/chin-width": -0.5, "chin/chin-prominent": -0.3, "chin/chin-triangle": 0.3,
		"cheek/cheek-bones": 0.3,
	}),
}

// houseEvery is the part of the house face both body types share.
var houseEvery = map[string]float64{
	"eyes/eye-scale": 0.8, "eyes/eye-height2": 0.7, "eyes/eye-height1": 0.4, "eyes/eye-corner2": 0.2,
	"nose/nose-scale-horiz": -0.5, "nose/nose-volume": -0.5, "nose/nose-nostrils-width": -0.4,
	"nose/nose-point-width":       -0.5,
	"mouth/mouth-upperlip-volume": -0.35, "mouth/mouth-lowerlip-volume": -0.7, "mouth/mouth-lowerlip-height": -0.1,
	"mouth/mouth-scale-vert": -0.3, "mouth/mouth-upperlip-width": 0.3, "mouth/mouth-lowerlip-width": 0.3,
	"mouth/mouth-scale-horiz": 1, "mouth/mouth-lowerlip-ext": -1, "mouth/mouth-scale-depth": -0.8,
	"mouth/mouth-upperlip-height": 0.3, "mouth/mouth-cupidsbow": 0.8, "mouth/mouth-angles": 0.3,
	"cheek/cheek-volume": 0.4, "eyes/eye-bag": -0.5, "mouth/mouth-laugh-lines": -0.4,
	"neck/neck-double": -0.75, "chin/chin-height": 0.5, "chin/chin-bones": 0.4, "head/head-square": 0.3, "nose/nose-scale-vert": 0.3,
	"head/head-invertedtriangular": 0.4,
}

// merged is a new map with a's entries and then b's.
func merged(a, b map[string]float64) map[string]float64 {
	m := maps.Clone(a)
	maps.Copy(m, b)
	return m
}

// faceSpread is how far a seeded dial strays: a normal spread, so most
// faces are near average and a few features stand out.
const faceSpread = 0.3

// heavy are the dials whose high side widens, fattens or swells the face
// (a round or square head, full cheeks, a wide chin, thick lips, a wide
// nose): drawn at full spread they made many random faces puffy and
// stocky, and a wide nose made the mouth beside it look small (feminine
// random faces' mouths were 1.05 to 1.15 noses wide, TestMouthWideAtRest's
// measure), so a seed draws their high side at a quarter of the spread.
// The mouth's own width is drawn at a third (calm), either way. The
// lips' height (the mouth's scale-vert, each lip's height) is heavy too:
// drawn high at full spread, feminine faces' lips were up to 0.39 of
// their width, tall bunched lips the panel read as pursed
// (TestLipsNaturalSizeAtRest). A triangular head (wide at the jaw,
// narrow at the temples) is heavy too: of the dials a seed draws, it went
// most with a broad chin but for the chin's point itself (correlation
// 0.51 with TestChinTaper's measure over 300 random faces): drawn at
// full spread it widened the broadest faces' chins. Set explicitly, they
// take any value.
var heavy = map[string]bool{
	"head.fat": true, "head.round": true, "head.square": true, "head.rectangular": true, "head.scale-horiz": true, "head.triangular": true,
	"cheeks.volume": true, "cheeks.bones": true, "chin.width": true, "chin.prominent": true, "chin.bones": true,
	"mouth.lowerlip-volume": true, "mouth.upperlip-volume": true, "nose.volume": true,
	"nose.scale-horiz": true, "nose.nostrils-width": true,
	"mouth.scale-vert": true, "mouth.upperlip-height": true, "mouth.lowerlip-height": true,
}

// long are the dials whose high side lengthens the face: on the house
// face's taller chin (chin-height 0.5), a seed drawing the chin's height
// high at full spread made random-03's and -07's chins about 1.09 and
// 1.08 eye-distances long (lips to chin; the leader's 0.90), so a seed
// draws their high side at a quarter of the spread, as the heavy dials'
// (now 1.02 and 0.96, as under the old chin-height 0.25: 1.02 and
// 1.01). Set explicitly, they take any value.
var long = map[string]bool{"chin.height": true}

// tucked are the ear dials whose high side stands the ears out from the
// skull (flap, wing) or makes them bigger (scale, scale-vert, lobe) or
// drawn up to a point (shape-pointed): at p25 the judges saw ears
// "sticking out" like handles on the short-haired random faces. Drawn at
// full spread, the ears of 300 random faces stood 0.06 to 0.47
// eye-distances out from the skull's side (facemeasure.Ears; a tenth
// beyond 0.33) and up to 1.32 tall, random-06's 0.35 and random-18's
// 0.28 and 1.12, beside the leader's 0.24-0.26 and 0.92-0.94, so a seed
// draws their high side at a quarter of the spread, as the heavy dials'
// (now 0.09 to 0.28, a tenth beyond 0.24, at most 1.16 tall:
// TestEarsLieFlat). Their low side, and the other ear dials, still give
// every face its own ears. Set explicitly, they take any value.
var tucked = map[string]bool{
	"ears.flap": true, "ears.wing": true, "ears.scale": true, "ears.scale-vert": true, "ears.lobe": true,
	"ears.shape-pointed": true,
}

// calm are the mouth dials that, drawn far, purse or pout the lips (lips
// pushed out or bunched to the middle, a narrow or deep mouth, lips
// narrower than the mouth, tall lips): the panel saw seeded faces as
// pursed, so a seed draws them at a third of the spread. Set explicitly, they take any value.
var calm = map[string]bool{
	"mouth.lowerlip-ext": true, "mouth.upperlip-ext": true, "mouth.lowerlip-middle": true, "mouth.upperlip-middle": true,
	"mouth.scale-depth": true, "mouth.scale-horiz": true, "mouth.lowerlip-height": true, "mouth.angles": true,
	"mouth.upperlip-width": true, "mouth.lowerlip-width": true, "mouth.scale-vert": true, "mouth.upperlip-height": true,
}

// upOnly are the dials a seed draws on their high side only: corners of
// the mouth drawn down (mouth.angles below zero) read as a sulk on a
// face at rest. Set explicitly, they take any value.
var upOnly = map[string]bool{"mouth.angles": true}

// unseeded are the dials a seed leaves alone, drawing them only so that
// the other dials' draws stay as they were. MakeHuman's chin cleft cuts
// a groove down the chin's middle on either side of the dial (at 1 the
// skin 7 and 14 mm either side of the middle comes 3 mm forward, at -1
// the middle goes 2.4 mm back), a feature no face should get by chance:
// in a room light the groove shaded as "a seam down the chin" (p24:
// random-15 at 0.50, -18 at -0.46, -17 at -0.28; random-03 at 0.91
// showed it too). Set explicitly, it takes any value.
var unseeded = map[string]bool{"chin.cleft": true}

// Modifiers resolves the face into MakeHuman modifier values by name
// ("nose/nose-scale-horiz"): the explicit dials, and when Seed is set
// every other dial drawn from it.
func (f Face) Modifiers() map[string]float64 {
	out := map[string]float64{}
	var r *rand.Rand
	if f.Seed != 0 {
		r = rand.New(rand.NewPCG(f.Seed, 0x66616365))
	}
	for _, reg := range faceRegions {
		set := *f.feature(reg.name)
		for _, d := range faceDials[reg.name] {
			key := reg.folder + "/" + reg.stem + "-" + d
			// Draw for every dial, set or not, so that setting one dial
			// leaves the others of a seeded face as they were.
			drawn := 0.0
			if r != nil {
				drawn = math.Max(-1, math.Min(1, r.NormFloat64()*faceSpread))
				if oneSided[reg.name+"."+d] || upOnly[reg.name+"."+d] {
					drawn = math.Abs(drawn)
				}
				if (heavy[reg.name+"."+d] || long[reg.name+"."+d] || tucked[reg.name+"."+d]) && drawn > 0 {
					drawn *= 0.25
				}
				if calm[reg.name+"."+d] {
					drawn /= 3
				}
				if unseeded[reg.name+"."+d] {
					drawn = 0
				}
			}
			if v, ok := set[d]; ok {
				out[key] = v
			} else if drawn != 0 {
				out[key] = drawn
			}
		}
	}
	return out
}

// validate checks the face's dials.
func (f Face) validate() error {
	if f.Seed > MaxFaceSeed {
		return invalidf("face.seed", "%d is out of range; give an integer from 0 to %d", f.Seed, uint64(MaxFaceSeed))
	}
	for _, reg := range faceRegions {
		set := *f.feature(reg.name)
		keys := make([]string, 0, len(set))
		for k := range set {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			p := "face." + reg.name + "." + k
			if !slices.Contains(faceDials[reg.name], k) {
				return invalidf(p, "unknown dial; face.%s has the dials %s", reg.name, strings.Join(faceDials[reg.name], ", "))
			}
			lo := -1.0
			if oneSided[reg.name+"."+k] {
				lo = 0
			}
			if v := set[k]; v < lo || v > 1 || math.IsNaN(v) {
				return invalidf(p, "%g is out of range; give %g to 1", v, lo)
			}
		}
	}
	return nil
}
