package face

import (
	"maps"
	"slices"
)

// expressions are the leader's render expressions as weights of the
// ARKit shapes, both sides alike: the facial action units each emotion
// is known by (a smile raises the lip corners and the cheeks and narrows
// the eyes; sadness lifts the inner brows and pulls the corners down;
// fear widens the eyes and stretches the lips; anger lowers the brows,
// wrinkles the nose and bares the upper teeth).
//
// Kiln's smile shapes pull the corners up and back but hardly apart, so
// with closed lips (the first recipe: smile, a little stretch, the lips
// shut) the picture read as a pout: the corners went into the cheeks and
// the lips bulged between them. Happy parts the lips over the teeth
// (upper lip up, lower lip down and rolled in, the jaw a little open),
// which is what reads as a smile at a portrait's size.
var expressions = map[string]map[string]float64{
	"happy": both(map[string]float64{
		"mouthSmile": 1, "mouthUpperUp": 1, "mouthLowerDown": 0.8, "mouthRollLower": 0.3, "jawOpen": 0.2,
		"cheekSquint": 0.7, "eyeSquint": 0.4,
	}),
	"lol": both(map[string]float64{
		"jawOpen": 0.5, "mouthSmile": 1, "mouthUpperUp": 0.4, "cheekSquint": 0.8,
		"eyeSquint": 0.6, "eyeBlink": 0.3, "browOuterUp": 0.2,
	}),
	"sad": both(map[string]float64{
		"browInnerUp": 0.9, "mouthFrown": 1, "mouthShrugLower": 0.8,
		"mouthPress": 0.2, "eyeBlink": 0.2, "eyeLookDown": 0.3,
	}),
	"scared": both(map[string]float64{
		"eyeWide": 1, "browInnerUp": 1, "browOuterUp": 0.7, "jawOpen": 0.3, "mouthStretch": 0.7,
	}),
	"rage": both(map[string]float64{
		"browDown": 1, "noseSneer": 0.8, "eyeSquint": 0.6, "jawOpen": 0.25,
		"mouthUpperUp": 0.6, "mouthStretch": 0.4, "mouthFrown": 0.3,
	}),
}

// both spells a recipe's sided shapes (eyeSquint) as their Left and
// Right shapes; the shapes without sides (jawOpen) are kept as named.
func both(recipe map[string]float64) map[string]float64 {
	out := map[string]float64{}
	for name, w := range recipe {
		if slices.Contains(ARKit, name+"Left") {
			out[name+"Left"], out[name+"Right"] = w, w
			continue
		}
		out[name] = w
	}
	return out
}

// Expression gives the shapes and weights that make the render API's
// expression name (happy, lol, sad, scared, rage), or nil for a name it
// does not know.
func Expression(name string) map[string]float64 {
	return maps.Clone(expressions[name])
}
